package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/pokerfloor/pokerfloor/cmd/pokerfloor/internal/lobby"
	"github.com/pokerfloor/pokerfloor/cmd/pokerfloor/internal/telemetry"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// `pokerfloor run --web ADDR`: the tournament's clock and lobby page (package lobby) at
// http://ADDR/, and every table served at http://ADDR/table/N/ for spectators (bots at every
// seat), linked from the lobby. With --play the tables are served on --play-listen instead, and
// the lobby links there.

// webSettings are --web's.
type webSettings struct {
	ln  net.Listener // nil: no web page
	out io.Writer    // receives the lobby's address
}

func addWebFlags(f *pflag.FlagSet) {
	f.String("web", "", "serve the tournament clock and lobby page (and every table, for spectators) on this address, e.g. 127.0.0.1:8090")
}

// parseWebSettings reads --web, and opens its address.
func parseWebSettings(v *viper.Viper) (webSettings, error) {
	ln, err := listenFlag(v, "web")
	return webSettings{ln: ln, out: os.Stderr}, err
}

// listenFlag opens the address run's flag names: nil when the flag is not set, a usage error naming
// the flag when the address cannot be listened on.
func listenFlag(v *viper.Viper, flag string) (net.Listener, error) {
	addr := v.GetString("run." + flag)
	if addr == "" {
		return nil, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, usageErrorf("--%s %s: %v", flag, addr, err)
	}
	return ln, nil
}

// servedTables is the run's RunTable: fallback, or, with --play or --web, every table served by
// the table server (the returned host, nil otherwise).
func servedTables(s runSettings, fallback workflows.RunTable, log *slog.Logger) (workflows.RunTable, *playHost) {
	if s.Play.Player != "" {
		return s.Play.tables(fallback, log)
	}
	if s.Web.ln == nil {
		return fallback, nil
	}
	// Nobody plays: bots at every seat, the tables served on the web address for spectators.
	h := newPlayHost(playSettings{ln: s.Web.ln, out: io.Discard}, log)
	return h.runTable, h
}

// spectate is the link to watch table n, or "" when it is not served (yet, or any more).
func (h *playHost) spectate(n int, onWebAddress bool) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	t := h.tables[n]
	if t == nil || t.closed {
		return ""
	}
	if t.spectator == "" {
		tok, err := t.tokens.Issue("", protocol.RoleSpectator, 24*time.Hour)
		if err != nil {
			h.log.Error("no spectator token", "table", t.id, "err", err)
			return ""
		}
		t.spectator = tok
	}
	if onWebAddress {
		return fmt.Sprintf("/table/%d/?token=%s", n, t.spectator)
	}
	return h.pageURL(n) + "?token=" + t.spectator
}

// serve starts the lobby of t on --web's address (nothing without --web), with the metrics at
// /metrics when tel is set, and returns stop with the lobby's own stop before it.
func (w webSettings) serve(s runSettings, t *workflows.Tournament, served *playHost, tel *telemetry.Telemetry, stop func(), log *slog.Logger) func() {
	if w.ln == nil {
		return stop
	}
	onWeb := s.Play.Player == "" // the tables are on the web address, not --play's
	cfg := lobby.Config{Source: t, Structure: s.Structure, Logger: log}
	if served != nil {
		cfg.Watch = func(n int) string { return served.spectate(n, onWeb) }
	}
	lb := lobby.New(cfg)
	mux := http.NewServeMux()
	mux.Handle("/", lb.Handler())
	if served != nil && onWeb {
		mux.Handle("/table/", served.handler())
	}
	if tel != nil {
		mux.Handle("GET /metrics", tel.Handler())
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{}, 2)
	go func() { lb.Run(ctx); done <- struct{}{} }()
	go func() {
		if err := srv.Serve(w.ln); err != nil && !errors.Is(err, http.ErrServerClosed) && log != nil {
			log.Error("web", "err", err)
		}
		done <- struct{}{}
	}()
	fmt.Fprintf(w.out, "tournament clock and lobby at http://%s/\n", w.ln.Addr())
	return func() {
		cancel() // ends the lobby's event streams, so Shutdown need not wait for them
		sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
		_ = srv.Shutdown(sctx)
		scancel()
		<-done
		<-done
		stop()
	}
}
