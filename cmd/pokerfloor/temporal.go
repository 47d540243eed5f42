package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"github.com/pokerfloor/pokerfloor/cmd/pokerfloor/internal/localtemporal"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
)

func newTemporalCommand(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "temporal [--address IP:PORT] [--namespace NAME] [--db DIR]",
		Short: "Serve the embedded Temporal server (one shard, SQLite) for a small event's cluster",
		Long: "temporal serves the same single-binary Temporal server that `pokerfloor run` embeds: the\n" +
			"frontend on --address, the history, matching and worker services on loopback, one history\n" +
			"shard, and the SQLite database temporal.db in the folder --db (a PersistentVolumeClaim in a\n" +
			"cluster: the Helm chart's temporal.embedded StatefulSet runs it). The namespace is created at\n" +
			"start if the database does not hold it. /healthz, and /readyz (ready once the frontend\n" +
			"describes the namespace), answer on --health-address. It runs until SIGTERM or Ctrl-C, then\n" +
			"stops its services and closes the database. No UI and no authentication: for a small event\n" +
			"whose network you trust; a large one uses a Temporal cluster of its own.",
		Example: "  pokerfloor temporal --address 0.0.0.0:7233 --namespace default --db /var/lib/pokerfloor/temporal",
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return runTemporal(cmd, v) },
	}
	f := cmd.Flags()
	f.String("address", "0.0.0.0:7233", "the frontend's address, IP:PORT")
	f.String("namespace", localtemporal.DefaultNamespace, "the Temporal namespace created at start")
	f.String("db", "/var/lib/pokerfloor/temporal", "the folder of the SQLite database temporal.db (created if missing; kept across restarts)")
	f.String("health-address", ":8081", "address of /healthz and /readyz (0: off)")
	return cmd
}

func runTemporal(cmd *cobra.Command, v *viper.Viper) error {
	address, namespace, db := v.GetString("temporal.address"), v.GetString("temporal.namespace"), v.GetString("temporal.db")
	if _, _, err := localtemporal.SplitFrontendAddress(address); err != nil {
		return usageErrorf("--address: %v", err)
	}
	if namespace == "" {
		return usageErrorf("--namespace is empty: expected a Temporal namespace name, like default")
	}
	if db == "" {
		return usageErrorf("--db is empty: expected the folder of the SQLite database")
	}
	if st, err := os.Stat(db); err == nil && !st.IsDir() {
		return usageErrorf("--db %s is a file; expected a folder (created if missing) for temporal.db", db)
	}
	log := slog.New(slog.NewJSONHandler(cmd.ErrOrStderr(), nil))

	// The health endpoints listen first, so that a probe hears "not ready" rather than nothing
	// while a new database is set up; readiness holds the check's client once the server runs.
	var readiness atomic.Pointer[client.Client]
	if addr := v.GetString("temporal.health-address"); addr != "0" {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			return usageErrorf("--health-address %s: %v", addr, err)
		}
		mux := http.NewServeMux()
		mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
		mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
			c := readiness.Load()
			if c == nil {
				http.Error(w, "not ready: the Temporal server is starting", http.StatusServiceUnavailable)
				return
			}
			ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
			defer cancel()
			_, err := (*c).WorkflowService().DescribeNamespace(ctx, &workflowservice.DescribeNamespaceRequest{Namespace: namespace})
			if err != nil {
				http.Error(w, fmt.Sprintf("not ready: namespace %s: %v", namespace, err), http.StatusServiceUnavailable)
				return
			}
			w.Write([]byte("ready\n"))
		})
		hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
		go hs.Serve(ln)
		defer hs.Close()
		log.Info("health endpoints", "address", ln.Addr().String())
	}

	srv, err := localtemporal.Start(localtemporal.Options{
		DataDir: db, Namespace: namespace, FrontendAddress: address, Log: cmd.ErrOrStderr(),
	})
	if err != nil {
		return fmt.Errorf("temporal: %w", err)
	}
	c, err := client.NewLazyClient(client.Options{HostPort: srv.HostPort(), Namespace: namespace,
		Logger: sdklog.NewStructuredLogger(log.With("component", "readyz"))})
	if err != nil {
		_ = srv.Stop()
		return fmt.Errorf("temporal: client of the readiness check: %w", err)
	}
	readiness.Store(&c)
	log.Info("temporal server started", "address", address, "namespace", namespace, "database", srv.DatabasePath())

	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	<-ctx.Done()
	log.Info("temporal server stopping")
	c.Close()
	if err := srv.Stop(); err != nil {
		return fmt.Errorf("temporal: stop: %w", err)
	}
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		log.Info("temporal server stopped", "cause", cause.Error())
	}
	return nil
}
