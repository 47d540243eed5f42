package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/pokerfloor/pokerfloor/controllers"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
	"go.temporal.io/sdk/worker"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

func newWorkerCommand(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "worker [--kubeconfig FILE] --temporal-address HOST:PORT",
		Short: "Run the Temporal worker of the tournament workflows, hosting tables as Table objects",
		Long: "worker runs the tournament and table workflows and their activities on the task queue.\n" +
			"A table the tournament opens is a Table object in the Tournament's namespace, owned by the\n" +
			"Tournament; the manager gives it a Pod. Several workers may run: Temporal shares the work.\n" +
			"/healthz and /readyz answer on --health-address (ready once the worker polls), the metrics on\n" +
			"--metrics-address. Logs are JSON lines on stderr.",
		Example: "  pokerfloor worker --temporal-address temporal-frontend:7233",
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return runWorker(cmd, v) },
	}
	f := cmd.Flags()
	addClusterFlags(f)
	f.String("health-address", ":8081", "address of /healthz and /readyz (0: off)")
	f.String("metrics-address", ":8080", "address of the Prometheus /metrics: workflow, workflow task and activity latency, the Temporal client's requests (0: off); OTEL_EXPORTER_OTLP_ENDPOINT sends metrics and traces by OTLP")
	f.Int("workflow-cache", 0, fmt.Sprintf("workflow runs the worker keeps in memory (0: enough for one event of 100,000 entries, %d); a run evicted replays its whole history at its next task", defaultWorkflowCache))
	return cmd
}

// defaultWorkflowCache is the worker's sticky cache unless --workflow-cache says otherwise: every
// run of one event of 100,000 entries (its 11,112 tables, its sections and itself) with a quarter
// to spare, as the local run sizes it for its field. The SDK's default, 10,000, evicts live runs
// all the time at that size.
var defaultWorkflowCache = workflows.WorkflowCacheFor(100_000, 9)

func runWorker(cmd *cobra.Command, v *viper.Viper) error {
	runs := v.GetInt("worker.workflow-cache")
	if runs < 0 {
		return usageErrorf("--workflow-cache %d: expected a number of workflow runs, or 0 for %d", runs, defaultWorkflowCache)
	}
	if runs == 0 {
		runs = defaultWorkflowCache
	}
	s, err := readClusterSettings(v, "worker", nil)
	if err != nil {
		return err
	}
	defer s.close()
	kube, err := client.New(s.kube, client.Options{Scheme: controllers.NewScheme()})
	if err != nil {
		return fmt.Errorf("worker: kubernetes client: %w", err)
	}
	var ready atomic.Bool
	if addr := v.GetString("worker.health-address"); addr != "0" {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return usageErrorf("--health-address %s: %v", addr, err)
		}
		mux := http.NewServeMux()
		mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
		mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
			if !ready.Load() {
				http.Error(w, "not ready: the worker is not polling Temporal yet", http.StatusServiceUnavailable)
				return
			}
			w.Write([]byte("ready\n"))
		})
		hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go hs.Serve(ln)
		defer hs.Close()
		s.log.Info("health endpoints", "address", ln.Addr().String())
	}
	if addr := v.GetString("worker.metrics-address"); addr != "0" {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return usageErrorf("--metrics-address %s: %v", addr, err)
		}
		mux := http.NewServeMux()
		mux.Handle("GET /metrics", s.tel.Handler())
		hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go hs.Serve(ln)
		defer hs.Close()
		s.log.Info("metrics endpoint", "address", ln.Addr().String())
	}
	worker.SetStickyWorkflowCacheSize(runs)
	ws := controllers.NewWorkers(s.temporal, kube, v.GetString("worker.task-queue"))
	if err := controllers.StartWorkers(ws); err != nil {
		return fmt.Errorf("worker: %w (is Temporal at %s?)", err, v.GetString("worker.temporal-address"))
	}
	ready.Store(true)
	s.log.Info("worker started", "temporal", v.GetString("worker.temporal-address"), "namespace", v.GetString("worker.namespace"))
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	<-ctx.Done()
	controllers.StopWorkers(ws)
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
		s.log.Info("worker stopped", "cause", err.Error())
	}
	return nil
}
