package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// --pprof serves Go's profiling endpoints (net/http/pprof) for a run that is slow or stuck: a CPU
// profile of the whole process (the embedded server, the workers and the tables),
// `go tool pprof http://ADDR/debug/pprof/profile?seconds=30`, or every goroutine's stack,
// http://ADDR/debug/pprof/goroutine?debug=2, without stopping the run.

func addPprofFlags(f *pflag.FlagSet) {
	f.String("pprof", "", "serve Go's profiling endpoints at http://ADDR/debug/pprof/ (CPU, heap, goroutines) to diagnose a slow run")
}

func parsePprofSettings(v *viper.Viper) (net.Listener, error) {
	return listenFlag(v, "pprof") // run_web.go
}

// servePprof serves the profiling endpoints on ln until the returned stop; a nil ln serves nothing.
func servePprof(ln net.Listener, out io.Writer) (stop func()) {
	if ln == nil {
		return func() {}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	// A CPU profile or a trace takes as long as it is asked to: no write timeout.
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(out, "pprof: %v\n", err)
		}
	}()
	fmt.Fprintf(out, "profiling at http://%s/debug/pprof/\n", ln.Addr())
	return func() {
		_ = srv.Close()
		<-done
	}
}
