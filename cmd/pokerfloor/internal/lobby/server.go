// Package lobby is the tournament's clock and lobby page: the level, the blinds and the time to
// the next level and break, the field, the money, the tables and the latest eliminations, pushed
// live to every open page by server-sent events, with a full-screen mode for a room's TV. It reads
// the tournament only through the workflows' client API (its queries), so that `pokerfloor run
// --web` and the manager serve the same page; it never changes the tournament. Its assets are
// embedded: the page needs nothing from the network but its own server.
package lobby

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

//go:embed web
var webFiles embed.FS

// Source is the tournament as its client API reads it (*workflows.Tournament is one).
type Source interface {
	Progress(ctx context.Context) (workflows.Progress, error)
	Clock(ctx context.Context) (workflows.ClockView, error)
	Tables(ctx context.Context) ([]workflows.TableView, error)
	Standings(ctx context.Context) ([]workflows.Standing, error)
	Payouts(ctx context.Context) (workflows.PayoutsView, error)
}

// Config is a lobby's.
type Config struct {
	Source Source
	// Structure is the published schedule: the page lists the levels to come from it.
	Structure floor.Structure
	// Watch gives a table's spectator page, or "" (nil: no table is watched).
	Watch func(table int) string
	// Every is how often the tournament is read while a page is open (default a second).
	Every  time.Duration
	Logger *slog.Logger
}

// Server reads the tournament while pages are open and pushes each new board to them.
type Server struct {
	cfg Config

	mu     sync.Mutex
	board  []byte // the latest board's JSON, nil before the first reading
	subs   map[chan []byte]struct{}
	wake   chan struct{} // a first page opened: read now
	closed bool
}

// New returns a lobby; Run reads the tournament for it.
func New(cfg Config) *Server {
	if cfg.Every <= 0 {
		cfg.Every = time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Server{cfg: cfg, subs: map[chan []byte]struct{}{}, wake: make(chan struct{}, 1)}
}

// Run reads the tournament every cfg.Every while a page is open (and once at the start), until
// ctx ends. A failed reading keeps the last board, marked stale.
func (s *Server) Run(ctx context.Context) {
	t := time.NewTicker(s.cfg.Every)
	defer t.Stop()
	defer s.closeSubs()
	s.refresh(ctx)
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.mu.Lock()
			idle := len(s.subs) == 0
			s.mu.Unlock()
			if idle {
				continue
			}
		case <-s.wake:
		}
		s.refresh(ctx)
	}
}

// Read reads the tournament once.
func Read(ctx context.Context, src Source) (Reading, error) {
	var r Reading
	var err error
	if r.Progress, err = src.Progress(ctx); err != nil {
		return r, fmt.Errorf("progress: %w", err)
	}
	if r.Clock, err = src.Clock(ctx); err != nil {
		return r, fmt.Errorf("clock: %w", err)
	}
	if r.Tables, err = src.Tables(ctx); err != nil {
		return r, fmt.Errorf("tables: %w", err)
	}
	if r.Standings, err = src.Standings(ctx); err != nil {
		return r, fmt.Errorf("standings: %w", err)
	}
	if r.Payouts, err = src.Payouts(ctx); err != nil {
		return r, fmt.Errorf("payouts: %w", err)
	}
	return r, nil
}

func (s *Server) refresh(ctx context.Context) {
	qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	r, err := Read(qctx, s.cfg.Source)
	if ctx.Err() != nil {
		return
	}
	var data []byte
	if err != nil {
		s.cfg.Logger.Warn("lobby: reading the tournament", "err", err)
		s.mu.Lock()
		last := s.board
		s.mu.Unlock()
		if last == nil {
			return
		}
		var b Board
		if json.Unmarshal(last, &b) != nil {
			return
		}
		b.Stale = err.Error()
		data, _ = json.Marshal(b)
	} else {
		data, err = json.Marshal(BuildBoard(r, s.cfg.Structure, s.cfg.Watch, time.Now()))
		if err != nil {
			s.cfg.Logger.Error("lobby: encoding the board", "err", err)
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.board = data
	for ch := range s.subs {
		select {
		case ch <- data:
		default: // a slow page skips a board; the next one replaces it
		}
	}
}

func (s *Server) closeSubs() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for ch := range s.subs {
		close(ch)
		delete(s.subs, ch)
	}
}

// Handler serves the page at "/", its assets under "static/", the board at "board.json" and the
// push stream at "events" (relative paths: the lobby may be mounted under a prefix).
func (s *Server) Handler() http.Handler {
	static, _ := fs.Sub(webFiles, "web")
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeFileFS(w, r, static, "index.html")
	})
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /board.json", s.serveBoard)
	mux.HandleFunc("GET /events", s.serveEvents)
	return mux
}

func (s *Server) serveBoard(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	data, idle := s.board, len(s.subs) == 0
	s.mu.Unlock()
	if idle {
		s.poke() // nobody is watching, so the poller sleeps: the next request sees a fresh board
	}
	if data == nil {
		http.Error(w, "the tournament has not been read yet", http.StatusServiceUnavailable)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(data)
}

// serveEvents streams each board as a server-sent event "board".
func (s *Server) serveEvents(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ch := make(chan []byte, 1)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "the lobby is closed", http.StatusServiceUnavailable)
		return
	}
	first := len(s.subs) == 0
	s.subs[ch] = struct{}{}
	if s.board != nil {
		ch <- s.board
	}
	s.mu.Unlock()
	if first {
		s.poke()
	}
	defer func() {
		s.mu.Lock()
		delete(s.subs, ch) // closeSubs may have removed it already
		s.mu.Unlock()
	}()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	_, _ = fmt.Fprint(w, "retry: 2000\n\n")
	flusher.Flush()
	keepAlive := time.NewTicker(15 * time.Second)
	defer keepAlive.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case data, ok := <-ch:
			if !ok {
				return
			}
			if _, err := fmt.Fprintf(w, "event: board\ndata: %s\n\n", data); err != nil {
				return
			}
			flusher.Flush()
		case <-keepAlive.C:
			if _, err := fmt.Fprint(w, ": keep-alive\n\n"); err != nil {
				return
			}
			flusher.Flush()
		}
	}
}

// poke makes Run read the tournament now.
func (s *Server) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// Subscribers is how many pages are open.
func (s *Server) Subscribers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.subs)
}
