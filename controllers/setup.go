package controllers

import (
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

// SetupReconcilers registers the Tournament and Table reconcilers with mgr.
func SetupReconcilers(mgr ctrl.Manager, cfg Config, tc temporal.Client) error {
	cfg = cfg.WithDefaults()
	if err := (&TableReconciler{Client: mgr.GetClient(), Config: cfg, Recorder: mgr.GetEventRecorder("pokerfloor-table")}).SetupWithManager(mgr); err != nil {
		return err
	}
	return (&TournamentReconciler{Client: mgr.GetClient(), Temporal: tc, Config: cfg,
		Recorder: mgr.GetEventRecorder("pokerfloor-tournament")}).SetupWithManager(mgr)
}

// NewWorker is the Temporal worker of `pokerfloor worker`: the tournament workflows, and the table
// activities over the Kubernetes TableHost.
func NewWorker(tc temporal.Client, kube client.Client, taskQueue string) worker.Worker {
	if taskQueue == "" {
		taskQueue = workflows.TaskQueue
	}
	w := worker.New(tc, taskQueue, worker.Options{})
	workflows.Register(w, &TableHost{Client: kube})
	return w
}
