package main

import (
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/engine/tableserver"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// `pokerfloor run --play`: a person plays one seat of the local tournament in a browser. Every
// table of the run is then served by the table server (engine/tableserver), as a table pod serves
// its table, on one address: table N at http://ADDR/table/N/ with its socket at .../ws. Bots play
// every other seat. The person's link is printed when he is first seated; when the tournament
// moves him (balancing, R3, or his table breaking, R4) his old table sends his page a move with
// the new table's address and a token for it, and the page follows.

// playSettings are --play's settings.
type playSettings struct {
	// Player is the player the person plays ("" when nobody plays).
	Player string
	// BotThink is how long a bot at the person's table takes to act (bots elsewhere act at once).
	BotThink time.Duration
	// ln serves the tables; out receives the person's link.
	ln  net.Listener
	out io.Writer
}

func addPlayFlags(f *pflag.FlagSet) {
	f.String("play", "", "play this player's seat yourself in a browser (--play alone: p0001); the link is printed when you are seated")
	f.Lookup("play").NoOptDefVal = "p0001"
	f.String("play-listen", "127.0.0.1:8080", "with --play: the address the tables are served on")
	f.Duration("play-bot-think", time.Second, "with --play: how long a bot at your table takes to act")
}

// parsePlaySettings reads --play, and opens its address.
func parsePlaySettings(v *viper.Viper, s runSettings) (playSettings, error) {
	p := playSettings{Player: v.GetString("run.play"), BotThink: v.GetDuration("run.play-bot-think"), out: os.Stderr}
	if p.Player == "" {
		return p, nil
	}
	names := workflows.PlayerNames(s.Players)
	if !slices.Contains(names, p.Player) {
		return p, usageErrorf("--play %s: no such player; the players are %s to %s", p.Player, names[0], names[len(names)-1])
	}
	if s.HandHistories != "" {
		return p, usageErrorf("--play and --hand-histories do not go together yet: the served tables write no histories")
	}
	if p.BotThink < 0 {
		return p, usageErrorf("--play-bot-think %v: expected 0 or more", p.BotThink)
	}
	ln, err := net.Listen("tcp", v.GetString("run.play-listen"))
	if err != nil {
		return p, usageErrorf("--play-listen %s: %v", v.GetString("run.play-listen"), err)
	}
	p.ln = ln
	return p, nil
}

// tables returns the RunTable of the run: every table served, the person at his seat, and their
// host; or fallback when nobody plays.
func (p playSettings) tables(fallback workflows.RunTable, log *slog.Logger) (workflows.RunTable, *playHost) {
	if p.Player == "" {
		return fallback, nil
	}
	h := newPlayHost(p, log)
	go http.Serve(p.ln, h.handler()) // for the life of the process
	return h.runTable, h
}

// playHost serves the run's tables and follows the person from table to table.
type playHost struct {
	settings playSettings
	human    string
	key      []byte // signs every table's tokens (one run, one key)
	base     string // http://ADDR
	log      *slog.Logger

	mu     sync.Mutex
	tables map[int]*servedTable // every table served so far, by number, closed ones too
	at     int                  // the table the person is seated at now (0: none, he is being moved)
	seat   int                  // his seat there
	reason string               // why he was moved there: balance (R3) or break (R4)
	last   int                  // the last table he was seated at
	out    bool                 // eliminated, or the tournament is over

	// observe, if set, gives each table's Observe hook (run_telemetry.go: its hands traced).
	observe func(workflows.HostedTable) func(*engine.Table)
	// countWS, if set, wraps each table's handler to count its WebSocket connections.
	countWS func(http.Handler) http.Handler
}

// servedTable is one served table.
type servedTable struct {
	id         string
	tournament string
	srv        *tableserver.Server
	tokens     *tableserver.Tokens
	closed     bool   // told to close
	spectator  string // a spectator's token, issued once the lobby links the table (run_web.go)
}

func newPlayHost(p playSettings, log *slog.Logger) *playHost {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &playHost{settings: p, human: p.Player, key: key, base: "http://" + p.ln.Addr().String(), log: log,
		tables: map[int]*servedTable{}}
}

// handler routes /table/N/... to table N's server.
func (h *playHost) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/table/{n}/", func(w http.ResponseWriter, r *http.Request) {
		n, err := strconv.Atoi(r.PathValue("n"))
		h.mu.Lock()
		t, count := h.tables[n], h.countWS
		h.mu.Unlock()
		if err != nil || t == nil {
			http.Error(w, fmt.Sprintf("no table %q in this tournament", r.PathValue("n")), http.StatusNotFound)
			return
		}
		next := http.StripPrefix(fmt.Sprintf("/table/%s", r.PathValue("n")), t.srv.Handler())
		if count != nil {
			next = count(next)
		}
		next.ServeHTTP(w, r)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "each table is at /table/N/: open the link pokerfloor run printed", http.StatusNotFound)
	})
	return mux
}

// runTable is the RunTable of --play: the table served, bots at every seat but the person's.
func (h *playHost) runTable(ctx context.Context, t workflows.HostedTable, c report.Reporter) error {
	n := int(t.Number)
	tokens, err := tableserver.NewTokens(h.key, t.Tournament, t.ID, nil)
	if err != nil {
		return err
	}
	seed := t.DeckSeed
	if seed == 0 {
		seed = uint64(n)
	}
	bots := bot.Players(seed)
	srv, err := tableserver.New(tableserver.Config{Tournament: t.Tournament, TableID: t.ID, Tokens: tokens, Logger: h.log,
		Reporter: &playReporter{h: h, table: n, inner: c}, Follow: h.follow, Observe: h.observeTable(t), Pace: t.Pace,
		HandPause: tableserver.DefaultHandPause, // at his table: the others are bots'
		Bots: engine.PlayersFunc(func(player string) engine.Decider {
			if player == h.human {
				return nil // a person, over the network
			}
			return &playBot{bot: bots.Decider(player), h: h, table: n}
		})})
	if err != nil {
		return err
	}
	h.mu.Lock()
	h.tables[n] = &servedTable{id: t.ID, tournament: t.Tournament, srv: srv, tokens: tokens}
	h.mu.Unlock()
	err = srv.Run(ctx)
	if ctx.Err() != nil {
		return nil // the table was stopped: deleted, or the run is ending
	}
	return err
}

// observeTable is table t's Observe hook, or nil.
func (h *playHost) observeTable(t workflows.HostedTable) func(*engine.Table) {
	if h.observe == nil {
		return nil
	}
	return h.observe(t)
}

// moveLocked is the move to table n: its socket and a token for it. The caller holds h.mu.
func (h *playHost) moveLocked(n int, reason string) protocol.Move {
	t := h.tables[n]
	tok, err := t.tokens.Issue(h.human, protocol.RolePlayer, 24*time.Hour)
	if err != nil {
		h.log.Error("no token for the new table", "table", t.id, "err", err)
	}
	return protocol.Move{Tournament: t.tournament, Table: t.id, URL: h.wsURL(n), Token: tok, Seat: h.seat, Reason: reason}
}

func (h *playHost) pageURL(n int) string { return fmt.Sprintf("%s/table/%d/", h.base, n) }
func (h *playHost) wsURL(n int) string {
	return "ws" + h.pageURL(n)[len("http"):] + "ws"
}

// follow is every table's Follow: where the person sits now.
func (h *playHost) follow(player string) (protocol.Move, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case player != h.human || h.out:
		return protocol.Move{}, false
	case h.at == 0:
		return protocol.Move{}, true // being moved: his new seat is not drawn yet
	}
	return h.moveLocked(h.at, h.reason), true
}

// seen takes in a table's new State: whether the person is seated there.
//
// Lock order: a table server calls follow holding its own lock, so h.mu is never held while a
// server's method is called.
func (h *playHost) seen(n int, st *report.State, results []report.HandResult) {
	i := slices.IndexFunc(st.Seats, func(s report.SeatState) bool { return s.Player == h.human })
	seated := i >= 0
	var tell *servedTable // the old table, to tell him of the move
	var move protocol.Move
	defer func() {
		if tell != nil {
			// Connected at his old table: told there. Otherwise his page, joining it again, is
			// told by its Follow.
			_ = tell.srv.Move(h.human, move)
		}
	}()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range results {
		if slices.ContainsFunc(r.Eliminated, func(e engine.Elimination) bool { return e.ID == h.human }) {
			h.out = true
			fmt.Fprintf(h.settings.out, "%s is out of the tournament (hand %d at table %d)\n", h.human, r.HandNumber, n)
		}
	}
	switch {
	case seated && h.at != n:
		from := h.last
		h.at, h.last, h.seat = n, n, st.Seats[i].Seat
		tok, err := h.tables[n].tokens.Issue(h.human, protocol.RolePlayer, 24*time.Hour)
		if err != nil {
			h.log.Error("no token for the player's table", "table", n, "err", err)
			return
		}
		if from == 0 {
			fmt.Fprintf(h.settings.out, "%s plays at table %d: %s?token=%s\n", h.human, n, h.pageURL(n), tok)
			return
		}
		fmt.Fprintf(h.settings.out, "%s is moved from table %d to table %d: the page follows (%s?token=%s)\n", h.human, from, n, h.pageURL(n), tok)
		if old := h.tables[from]; old != nil {
			reason := "balance" // R3; R4 when his old table has closed
			if old.closed {
				reason = "break"
			}
			h.reason = reason
			tell, move = old, h.moveLocked(n, reason)
		}
	case !seated && h.at == n:
		h.at = 0
	}
	if t := h.tables[n]; t != nil && st.Directive == report.Close {
		t.closed = true
	}
}

// playReporter passes a table's reports through and shows each State to the play host.
type playReporter struct {
	h     *playHost
	table int
	inner report.Reporter
}

func (r *playReporter) Report(ctx context.Context, tableID string, results []report.HandResult) (report.State, error) {
	st, err := r.inner.Report(ctx, tableID, results)
	if err == nil {
		r.h.seen(r.table, &st, results)
	}
	return st, err
}

// playBot is a bot of the run: at once, but at the person's table, where it takes its time as a
// person would (it is no engine.Instant, so the table's runner times it like anyone).
type playBot struct {
	bot   engine.Decider
	h     *playHost
	table int
}

func (b *playBot) Decide(ctx context.Context, v *engine.View) (engine.Decision, error) {
	b.h.mu.Lock()
	slow := b.h.at == b.table
	b.h.mu.Unlock()
	if slow && b.h.settings.BotThink > 0 {
		t := time.NewTimer(b.h.settings.BotThink)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return engine.Decision{}, ctx.Err()
		}
	}
	return b.bot.Decide(ctx, v)
}
