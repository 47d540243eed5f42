package controllers

import (
	"errors"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/workflows"
	temporal "go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// NewScheme is the scheme the manager and the worker use: Kubernetes' own types and pokerfloor's.
func NewScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		panic(err) // only a programming error: the types are compiled in
	}
	if err := pokerv1.AddToScheme(s); err != nil {
		panic(err)
	}
	return s
}

// SetupReconcilers registers the Tournament and Table reconcilers with mgr, and those of the
// director's records: Sanctions, EntryBatches and FloorActions.
func SetupReconcilers(mgr ctrl.Manager, cfg Config, tc temporal.Client) error {
	cfg = cfg.WithDefaults()
	kube := mgr.GetClient()
	return errors.Join(
		(&TableReconciler{Client: kube, Config: cfg, Recorder: mgr.GetEventRecorder("pokerfloor-table")}).SetupWithManager(mgr),
		(&TournamentReconciler{Client: kube, Temporal: tc, Config: cfg, Recorder: mgr.GetEventRecorder("pokerfloor-tournament")}).SetupWithManager(mgr),
		(&SanctionReconciler{RecordReconciler{Client: kube, Temporal: tc, Config: cfg, Recorder: mgr.GetEventRecorder("pokerfloor-sanction")}}).SetupWithManager(mgr),
		(&EntryBatchReconciler{RecordReconciler: RecordReconciler{Client: kube, Temporal: tc, Config: cfg, Recorder: mgr.GetEventRecorder("pokerfloor-entrybatch")}, Keys: mgr.GetAPIReader()}).SetupWithManager(mgr),
		(&FloorActionReconciler{RecordReconciler{Client: kube, Temporal: tc, Config: cfg, Recorder: mgr.GetEventRecorder("pokerfloor-flooraction")}}).SetupWithManager(mgr),
	)
}

// NewWorkers are the Temporal workers of `pokerfloor worker`: the tournament and section workflows
// with the table activities over the Kubernetes TableHost on taskQueue, and the TableWorkflows on
// workflows.TableTaskQueue(taskQueue). The caller starts and stops both.
func NewWorkers(tc temporal.Client, kube client.Client, taskQueue string) []worker.Worker {
	if taskQueue == "" {
		taskQueue = workflows.TaskQueue
	}
	return workflows.NewWorkers(tc, taskQueue, worker.Options{}, &TableHost{Client: kube})
}

// StartWorkers starts every worker, or none: on an error the ones started are stopped.
func StartWorkers(ws []worker.Worker) error {
	for i, w := range ws {
		if err := w.Start(); err != nil {
			StopWorkers(ws[:i])
			return err
		}
	}
	return nil
}

// StopWorkers stops the workers, the last started first.
func StopWorkers(ws []worker.Worker) {
	for i := len(ws) - 1; i >= 0; i-- {
		ws[i].Stop()
	}
}
