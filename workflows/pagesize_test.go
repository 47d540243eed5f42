package workflows

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
	"go.temporal.io/server/common/dynamicconfig"
	"go.temporal.io/server/temporal"
	"go.temporal.io/server/temporaltest"
	"google.golang.org/grpc"
)

// newTestServer is temporaltest.NewServer as the workflows need their server set up: every
// history in the first page of a workflow task (HistoryPageSize), the history's task queues
// without the split of every new range, and temporaltest's own search attribute refresh kept.
// Its client logs as quietSDKLogger says.
func newTestServer(t testing.TB, opts ...temporaltest.TestServerOption) *temporaltest.TestServer {
	dc := dynamicconfig.StaticClient{
		dynamicconfig.ForceSearchAttributesCacheRefreshOnRead.Key(): []dynamicconfig.ConstrainedValue{{Value: true}},
		dynamicconfig.HistoryMaxPageSize.Key():                      []dynamicconfig.ConstrainedValue{{Value: HistoryPageSize}},
		// As the local run's server (localtemporal): a new range of the history's tasks merges
		// into the queue's last slice rather than splitting it task by task (docs/design.md).
		dynamicconfig.QueueShrinkPredicateMaxPendingKeys.Key(): []dynamicconfig.ConstrainedValue{{Value: 0}},
	}
	base := []temporaltest.TestServerOption{
		temporaltest.WithBaseClientOptions(client.Options{Logger: quietSDKLogger()}),
		temporaltest.WithBaseServerOptions(temporal.WithDynamicConfigClient(dc)),
	}
	if tt, ok := t.(*testing.T); ok {
		base = append(base, temporaltest.WithT(tt))
	}
	return temporaltest.NewServer(append(base, opts...)...)
}

// A run that a new worker takes from the task queue (the one before it killed, its task timed out)
// comes with its whole history in the task's one page (HistoryPageSize), never fetching more: its
// task may be an Update's, speculative, whose events a paged history lost on Temporal's default of
// 256 events a page (temporalio/temporal#7741, "premature end of stream"). The tournament takes its sections' reports as Updates: at 100,000
// entries its worker failed every task of the tournament's so (559 in two and a half minutes), and
// the first local run of 100,000 entries stalled at 47 minutes.
func TestReplayInOnePage(t *testing.T) {
	srv := newTestServer(t)
	var pages atomic.Int64 // the worker's requests for more of a history
	count := func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoke grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if strings.HasSuffix(method, "/GetWorkflowExecutionHistory") {
			pages.Add(1)
		}
		return invoke(ctx, method, req, reply, cc, opts...)
	}
	c, err := client.Dial(client.Options{HostPort: srv.GetFrontendHostPort(), Namespace: srv.GetDefaultNamespace(), Logger: quietSDKLogger(),
		ConnectionOptions: client.ConnectionOptions{DialOptions: []grpc.DialOption{grpc.WithChainUnaryInterceptor(count)}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const signals = 600
	updatable := func(ctx workflow.Context) error {
		total := 0
		if err := workflow.SetUpdateHandler(ctx, "add", func(ctx workflow.Context, n int) (int, error) {
			total += n
			return total, nil
		}); err != nil {
			return err
		}
		ch := workflow.GetSignalChannel(ctx, "grow")
		for range signals {
			var n int
			ch.Receive(ctx, &n)
			total += n
		}
		return workflow.Await(ctx, func() bool { return false })
	}
	startWorker := func() worker.Worker {
		w := worker.New(c, "pagesize", worker.Options{})
		w.RegisterWorkflowWithOptions(updatable, workflow.RegisterOptions{Name: "Updatable"})
		if err := w.Start(); err != nil {
			t.Fatal(err)
		}
		return w
	}
	w := startWorker()

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "updatable", TaskQueue: "pagesize"}, "Updatable")
	if err != nil {
		t.Fatal(err)
	}
	for i := range signals {
		if err := c.SignalWorkflow(ctx, run.GetID(), "", "grow", 1); err != nil {
			t.Fatal(err)
		}
		if i%20 == 19 { // a task now and then: a longer history
			add(ctx, t, c, run.GetID(), 0)
		}
	}
	d, err := c.DescribeWorkflowExecution(ctx, run.GetID(), "")
	if err != nil {
		t.Fatal(err)
	}
	events := d.GetWorkflowExecutionInfo().GetHistoryLength()
	if events <= 256 {
		t.Fatalf("a history of %d events: no longer than Temporal's default page", events)
	}
	// The worker goes, as a process that was killed; another takes the run from the task queue
	// (once the first one's sticky queue has timed out), with the whole history.
	w.Stop()
	worker.PurgeStickyWorkflowCache()
	defer startWorker().Stop()
	pages.Store(0)
	if got := add(ctx, t, c, run.GetID(), 1); got != signals+1 {
		t.Fatalf("the update answered %d, want %d", got, signals+1)
	}
	if n := pages.Load(); n != 0 {
		t.Errorf("the worker asked %d times for more of a history of %d events: the task did not bring it whole (limit.historyMaxPageSize)", n, events)
	}
}

// add sends the Update "add" of n and returns its answer, within 30 s.
func add(ctx context.Context, t *testing.T, c client.Client, id string, n int) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: id, UpdateName: "add", Args: []any{n},
		UpdateID: fmt.Sprintf("add-%d", updates.Add(1)), WaitForStage: client.WorkflowUpdateStageCompleted})
	if err != nil {
		t.Fatal(err)
	}
	var total int
	if err := h.Get(ctx, &total); err != nil {
		t.Fatal(err)
	}
	return total
}

var updates atomic.Int64
