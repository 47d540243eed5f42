package tableserver

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/fairdeal"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/replay"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

// Config sets up a Server.
type Config struct {
	Tournament string
	TableID    string
	// Reporter is the tournament's side of the table (a TableWorkflow in production, a
	// host.LocalReporter for a table on its own).
	Reporter report.Reporter
	// Tokens verifies the players' and spectators' tokens.
	Tokens *Tokens
	// Clock times the action clock, the time bank and the grace of a disconnected player: nil for the
	// wall clock, a host.FakeClock in tests.
	Clock host.Clock
	// ActionClock is rule A15's think time, time bank and countdown; the zero value is
	// DefaultActionClock.
	ActionClock ActionClock
	// Grace is how long a disconnected player's turn waits for him before his hand is folded and he
	// sits out (rule T5); zero: 20 seconds.
	Grace time.Duration
	// Deck deals the cards; nil: a provably fair deck seeded from crypto/rand.
	Deck *fairdeal.Source
	// HistoryDir, if set, receives each hand's PHH history with its deal (hand-000017.phh), for
	// `pokerfloor verify-deal`.
	HistoryDir string
	// FramesPerSecond and Burst bound what one connection may send; zero: 20 and 40.
	FramesPerSecond float64
	Burst           int
	// Logger receives what goes wrong; nil discards.
	Logger *slog.Logger
	// OnHand, if set, sees each hand's result (after the server's own bookkeeping), on the table's
	// goroutine; the result is valid during the call only.
	OnHand func(*report.HandResult)
	// Observe, if set, sees the table after the server has pushed each change (a hand dealt, an
	// action), on the table's goroutine, as host.Options.Observe does: it must not change the table
	// or block (telemetry traces the hands with it).
	Observe func(*engine.Table)
	// Bots, if set, plays some seats in this process: a player for whom it gives a Decider (an
	// engine/bot bot) is played by it and never by a connection; nil, or a nil Decider, leaves the
	// seat to its player's connection. A simulation seats bots everywhere; the local run's --play
	// everywhere but at one seat.
	Bots engine.Players
	// Pace, in a simulation at a set speed, is the least time from one hand's start to the next's
	// (host.Options.Pace); zero deals each hand when the last is done.
	Pace time.Duration
	// ReportAfter, in a simulation, is the most time the table deals a batch of hands before it
	// reports them (host.Options.ReportAfter): bots that think make hands slow, and a table hears
	// a pause or an order only when it reports. Zero: after the whole batch. A table process
	// (pokerfloor table) takes DefaultReportAfter.
	ReportAfter time.Duration
	// HandPause is how long the table waits after a hand before it deals the next, when a person
	// (not one of Bots) is seated: the time to see a showdown and who won, as at any online table.
	// Time spent reporting the hand counts. Zero: the next hand at once. A table process (pokerfloor
	// table) takes DefaultHandPause.
	HandPause time.Duration
	// Follow, if set, says where a player who has left this table sits now (moved by the
	// tournament, R3 and R4): a player who joins here without a seat, also once the table has
	// closed, is sent that Move instead of an error, and the client follows it. A Move with no URL
	// says the player is being moved and his new seat is not drawn yet: the connection is closed
	// with "try again later" (1013), and the client joins again in a moment. false: the player has
	// no seat anywhere (he is out, or unknown), and the join is refused as without Follow.
	Follow func(player string) (protocol.Move, bool)
	// SetUpWait is how long a join that comes before the table is set up (its process started,
	// its state not loaded from the tournament yet) waits for it before it is refused as "not set
	// up yet"; 20 s if zero.
	SetUpWait time.Duration
}

// Server is one table served over WebSocket. Run plays the table; Handler serves the connections
// and the endpoints.
type Server struct {
	cfg    Config
	clock  host.Clock
	log    *slog.Logger
	deck   *fairdeal.Source
	runner *host.Runner

	mu         sync.Mutex
	players    map[string]*player // every player seated since the start, by ID
	spectators map[*conn]struct{}
	tokensUsed map[string]*conn // token IDs of open connections
	started    bool             // the reporter answered once: players are known
	setUp      chan struct{}    // closed once started: a join that came before waits for it
	ended      chan struct{}    // closed when Run returns
	inHand     bool
	hand       int64 // the hand in progress, or the last one
	round      engine.Round
	currentBet int64
	toAct      int
	seq        int64 // counts the table's changes (observe calls): which turn an action answers
	level      engine.Level
	levelSet   bool
	spectView  []byte
	spectTV    *protocol.TableView
	commit     []byte
	clockFrame []byte   // the clock of the turn in progress, for a connection that joins during it
	results    [][]byte // the last hands' result frames, oldest first
	draining   bool
	waiting    bool // the runner sleeps on a Wait directive, or in the pause after a hand
	handEnded  time.Time
	stopped    bool
	cancelRun  context.CancelFunc
	handsDone  int64
}

// lastResults is how many results a joining connection is sent (the client's last hands).
const lastResults = 10

// DefaultReportAfter is a table process's Config.ReportAfter: a simulation's table of thinking
// bots stops within about this long of a pause rather than after its batch (twenty hands of
// bots thinking 200 ms took half a minute and more), and still reports a few hands at once.
const DefaultReportAfter = 5 * time.Second

// DefaultHandPause is a table process's Config.HandPause.
const DefaultHandPause = 3 * time.Second

// New returns the server of one table.
func New(cfg Config) (*Server, error) {
	if cfg.Reporter == nil || cfg.Tokens == nil || cfg.TableID == "" || cfg.Tournament == "" {
		return nil, errors.New("tableserver: a table server needs its tournament, table ID, reporter and tokens")
	}
	if cfg.ActionClock == (ActionClock{}) {
		cfg.ActionClock = DefaultActionClock
	}
	if err := cfg.ActionClock.Check(); err != nil {
		return nil, err
	}
	if cfg.Grace <= 0 {
		cfg.Grace = 20 * time.Second
	}
	if cfg.SetUpWait <= 0 {
		cfg.SetUpWait = 20 * time.Second
	}
	if cfg.FramesPerSecond <= 0 {
		cfg.FramesPerSecond = 20
	}
	if cfg.Burst <= 0 {
		cfg.Burst = 40
	}
	s := &Server{cfg: cfg, clock: cfg.Clock, log: cfg.Logger, deck: cfg.Deck, players: map[string]*player{},
		spectators: map[*conn]struct{}{}, tokensUsed: map[string]*conn{}, toAct: -1,
		setUp: make(chan struct{}), ended: make(chan struct{})}
	if s.clock == nil {
		s.clock = host.RealClock{}
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.deck == nil {
		d, err := fairdeal.NewSource(nil)
		if err != nil {
			return nil, err
		}
		s.deck = d
	}
	if cfg.HistoryDir != "" {
		if err := os.MkdirAll(cfg.HistoryDir, 0o755); err != nil {
			return nil, fmt.Errorf("tableserver: history folder: %w", err)
		}
	}
	s.commit = protocol.MustEncode(protocol.TypeCommit, protocol.Commit{Hand: 1, Commitment: s.deck.Commitment()})
	// The runner's own turn limit is only a backstop: the server's action clock (think, bank,
	// countdown, grace) ends every turn well before it.
	s.runner = host.NewRunner(cfg.TableID, (*serverReporter)(s), engine.PlayersFunc(s.decider), host.Options{
		Deck: s.deck, Logger: s.log, TurnTime: 24 * time.Hour, Observe: s.observe, OnHand: s.onHand, Pace: cfg.Pace, ReportAfter: cfg.ReportAfter})
	return s, nil
}

// Runner returns the table's runner (for its Stats).
func (s *Server) Runner() *host.Runner { return s.runner }

// Deck returns the table's deck source.
func (s *Server) Deck() *fairdeal.Source { return s.deck }

// Run plays the table until the reporter closes it, ctx ends, or a drain finishes the hand in
// progress. Every connection is closed when it returns.
func (s *Server) Run(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	s.mu.Lock()
	s.cancelRun = cancel
	s.mu.Unlock()
	err := s.runner.Run(ctx)
	s.mu.Lock()
	draining := s.draining
	s.stopped, s.inHand = true, false
	s.mu.Unlock()
	close(s.ended)
	cancel()
	final := err == nil && !draining // the reporter closed the table: broken, or the tournament over
	if draining && errors.Is(err, context.Canceled) {
		err = nil // a drain that found the table waiting between hands
	}
	reason := "the table is closed"
	if err != nil {
		reason = "the table stopped: " + err.Error()
	}
	s.closeAll(reason, final)
	return err
}

// Drain stops the table after the hand in progress (SIGTERM): the hand is finished and reported,
// then Run returns. Between hands it stops at once.
func (s *Server) Drain() {
	s.mu.Lock()
	if s.draining {
		s.mu.Unlock()
		return
	}
	s.draining = true
	msg := protocol.MustEncode(protocol.TypeClosing, protocol.Closing{Drain: true, Reason: "the table process is stopping: the hand in progress finishes first"})
	s.broadcastLocked(msg)
	if s.waiting && s.cancelRun != nil {
		s.cancelRun()
	}
	s.mu.Unlock()
}

// InHand reports whether a hand is in progress, and its number (for eviction protection).
func (s *Server) InHand() (bool, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inHand, s.hand
}

// Ready reports whether the table takes players: it has its state and is not draining.
func (s *Server) Ready() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.started && !s.draining && !s.stopped
}

// Move tells a player he is moved to another table and closes his connection after it (rules R3,
// R4); the reporter takes him off this table's seats.
func (s *Server) Move(player string, m protocol.Move) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.players[player]
	if p == nil || p.conn == nil {
		return fmt.Errorf("player %q is not connected to this table", player)
	}
	c := p.conn
	c.send(protocol.MustEncode(protocol.TypeMove, m))
	c.closeAfter(websocketStatusNormal, "moved to table "+m.Table)
	return nil
}

// serverReporter sits between the runner and the tournament's reporter: it keeps the server's
// record of who is seated, marks players away (disconnected past the grace, or asking to sit out) as
// sitting out (rule T5) in the State the runner plays, and closes the table once a drain asked it.
type serverReporter Server

func (sc *serverReporter) Report(ctx context.Context, tableID string, results []report.HandResult) (report.State, error) {
	s := (*Server)(sc)
	s.markAbsent(results)
	st, err := s.cfg.Reporter.Report(ctx, tableID, results)
	if err != nil {
		return st, err
	}
	wait := s.take(&st)
	if wait <= 0 {
		return st, nil
	}
	// The pause after a hand (Config.HandPause), once the hand is safe with the reporter: a drain
	// ends it at once, as a wait.
	err = s.clock.Sleep(ctx, wait)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waiting = false
	if s.draining {
		st.Directive = report.Close
		return st, nil
	}
	return st, err
}

// take brings the table's players in line with the reporter's state st, and returns how long the
// table pauses before it deals the next hand (Config.HandPause: people play here).
func (s *Server) take(st *report.State) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.started {
		// The first answer is the table as of the last hand its reporter acknowledged: a hand a
		// crashed process was dealing is void (D4), and its number is dealt again.
		var chips int64
		for _, ss := range st.Seats {
			chips += ss.Stack
		}
		s.log.Info("state loaded", "table", s.cfg.TableID, "hand", st.HandNumber, "players", len(st.Seats),
			"chips", chips, "directive", st.Directive.String())
		close(s.setUp)
	}
	s.started = true
	s.waiting = st.Directive == report.Wait
	seats := make([]report.SeatState, len(st.Seats))
	copy(seats, st.Seats)
	seated := map[string]bool{}
	for i := range seats {
		ss := &seats[i]
		seated[ss.Player] = true
		p := s.playerLocked(ss.Player)
		p.seat = ss.Seat
		if s.cfg.Bots != nil && p.bot == nil {
			p.bot = s.cfg.Bots.Decider(ss.Player)
		}
		if ss.State == engine.Active && (p.away || p.sitOut) {
			ss.State = engine.SittingOut // T5: dealt in, blinds and antes posted, hand folded
		}
	}
	for id, p := range s.players {
		if !seated[id] && p.seat >= 0 {
			p.seat = -1
			s.deck.RemovePlayer(id)
			if c := p.conn; c != nil && s.cfg.Follow == nil {
				// No seat here any more (moved, or out), and no Follow to say where he went: his
				// connection ends, and whoever routes it (the manager's gateway) asks the tournament.
				c.send(protocol.MustEncode(protocol.TypeClosing, protocol.Closing{Reason: "you have no seat at this table any more: moved to another table, or out"}))
				c.closeAfter(websocketStatusNormal, "no seat at this table any more")
			}
		}
	}
	st.Seats = seats
	if s.draining {
		st.Directive = report.Close
	}
	if st.Directive != report.Play || s.cfg.HandPause <= 0 || s.handEnded.IsZero() {
		return 0
	}
	wait := s.handEnded.Add(s.cfg.HandPause).Sub(s.clock.Now())
	if wait <= 0 || !slices.ContainsFunc(seats, func(ss report.SeatState) bool { return s.players[ss.Player].bot == nil }) {
		return 0
	}
	s.waiting = true
	return wait
}

// markAbsent lists in each result the players of its hand who have not come to the table: no bot
// plays the seat, and no connection of theirs has joined since this process started. The
// tournament takes a player listed in every hand since he was seated as a no-show (T4).
func (s *Server) markAbsent(results []report.HandResult) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range results {
		r := &results[i]
		r.Absent = nil
		for _, ss := range r.Start {
			if p := s.players[ss.Player]; p != nil && p.bot == nil && !p.came {
				r.Absent = append(r.Absent, ss.Player)
			}
		}
	}
}

// playerLocked returns the record of player id, made on first sight. The caller holds s.mu.
func (s *Server) playerLocked(id string) *player {
	p := s.players[id]
	if p == nil {
		p = &player{id: id, srv: s, seat: -1, bank: s.cfg.ActionClock.Bank.Initial,
			actions: make(chan actionMsg, 8), wake: make(chan struct{}, 1)}
		s.players[id] = p
	}
	return p
}

// decider gives the runner the Decider of a seated player: his connection, whether or not he is
// connected now, or the bot that plays his seat.
func (s *Server) decider(id string) engine.Decider {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.playerLocked(id)
	if p.bot != nil {
		return p.bot
	}
	return p
}

// observe pushes the table to every connection once a hand is dealt and after every action: each
// player his own seat's view (and his hole cards when dealt), spectators the spectator's view, and at
// the end of the hand its result and the commitment of the next deal. It runs on the runner's
// goroutine.
func (s *Server) observe(t *engine.Table) {
	if s.cfg.Observe != nil {
		defer s.cfg.Observe(t) // deferred first, so it runs after the lock below is released
	}
	hd := t.Header()
	phase := t.Phase()
	n := hd.Config.Seats
	var views [engine.MaxSeats][]byte
	var tvs [engine.MaxSeats]*protocol.TableView
	var holes [engine.MaxSeats][]byte

	s.mu.Lock()
	defer s.mu.Unlock()
	newHand := !s.inHand && phase == engine.Betting || hd.Number != s.hand
	if newHand {
		levelChanged := s.levelSet && hd.Level != s.level
		s.level, s.levelSet = hd.Level, true
		for _, p := range s.players {
			if p.seat >= 0 {
				p.bank = s.cfg.ActionClock.Bank.refill(p.bank, levelChanged, hd.Number)
			}
		}
	}
	s.seq++
	s.hand = hd.Number
	s.inHand = phase == engine.Betting
	s.round = t.Round()
	s.toAct = -1
	s.currentBet = 0
	for seat := 0; seat < n; seat++ {
		if !hd.Seats[seat].Occupied {
			continue
		}
		v := t.View(seat)
		tv := protocol.ViewOf(s.cfg.TableID, &v)
		s.markConnected(&tv)
		views[seat], tvs[seat] = protocol.MustEncode(protocol.TypeView, tv), &tv
		if newHand && t.Dealt(seat) {
			hc := t.HoleCards(seat)
			holes[seat] = protocol.MustEncode(protocol.TypeHole, protocol.Hole{Hand: hd.Number, Seat: seat, Cards: protocol.Cards(hc[:])})
		}
	}
	sv := t.View(engine.Spectator)
	if phase == engine.Betting {
		s.toAct, s.currentBet = sv.ToAct, sv.CurrentBet
	}
	stv := protocol.ViewOf(s.cfg.TableID, &sv)
	s.markConnected(&stv)
	s.spectView, s.spectTV = protocol.MustEncode(protocol.TypeView, stv), &stv

	var result []byte
	if phase != engine.Betting {
		res := protocol.ResultOf(t)
		if d, ok := s.deck.Reveal(); ok && phase == engine.Complete {
			res.Deal = &protocol.DealProof{Commitment: d.Commitment, ServerSeed: fmt.Sprintf("%x", d.ServerSeed),
				SeedPlayers: d.Players, ClientSeeds: d.ClientSeeds}
		}
		result = protocol.MustEncode(protocol.TypeResult, res)
		s.results = append(s.results, result)
		if len(s.results) > lastResults {
			s.results = s.results[len(s.results)-lastResults:]
		}
		s.commit = protocol.MustEncode(protocol.TypeCommit, protocol.Commit{Hand: hd.Number + 1, Commitment: s.deck.Commitment()})
	}
	for _, p := range s.players {
		if p.seat < 0 || p.seat >= n {
			continue
		}
		p.view, p.tv = views[p.seat], tvs[p.seat]
		if holes[p.seat] != nil {
			p.hole = holes[p.seat]
		}
		if phase != engine.Betting {
			p.hole = nil
		}
		if p.conn == nil {
			continue
		}
		if holes[p.seat] != nil {
			p.conn.send(holes[p.seat])
		}
		if views[p.seat] != nil {
			p.conn.send(views[p.seat])
		}
		if result != nil {
			p.conn.send(result)
			p.conn.send(s.commit)
		}
	}
	for c := range s.spectators {
		c.send(s.spectView)
		if result != nil {
			c.send(result)
			c.send(s.commit)
		}
	}
}

// presenceChangedLocked sends the views again with each seat's Connected flag as it is now, to
// every connection but skip: a player who joins or leaves shows so at once rather than at the next
// action (a player who joined between two actions found himself shown away at his own turn). The
// caller holds s.mu.
func (s *Server) presenceChangedLocked(skip *conn) {
	for _, p := range s.players {
		if p.tv == nil || p.seat < 0 {
			continue
		}
		s.markConnected(p.tv)
		p.view = protocol.MustEncode(protocol.TypeView, *p.tv)
		if p.conn != nil && p.conn != skip {
			p.conn.send(p.view)
		}
	}
	if s.spectTV != nil {
		s.markConnected(s.spectTV)
		s.spectView = protocol.MustEncode(protocol.TypeView, *s.spectTV)
		for c := range s.spectators {
			if c != skip {
				c.send(s.spectView)
			}
		}
	}
}

// markConnected sets each seat's Connected flag. The caller holds s.mu.
func (s *Server) markConnected(tv *protocol.TableView) {
	for _, p := range s.players {
		if p.seat >= 0 && p.seat < len(tv.Seats) && tv.Seats[p.seat].Player == p.id {
			tv.Seats[p.seat].Connected = p.bot != nil || p.conn != nil && !p.away
		}
	}
}

// onHand writes the hand's history with its deal, on the runner's goroutine.
func (s *Server) onHand(res *report.HandResult) {
	s.mu.Lock()
	s.handsDone++
	s.inHand = false
	if !res.Voided {
		s.handEnded = s.clock.Now()
	}
	s.mu.Unlock()
	if s.cfg.HistoryDir != "" && !res.Voided {
		if err := s.writeHistory(res.HandNumber); err != nil {
			s.log.Error("hand history not written", "table", s.cfg.TableID, "hand", res.HandNumber, "err", err)
		}
	}
	if s.cfg.OnHand != nil {
		s.cfg.OnHand(res)
	}
}

func (s *Server) writeHistory(hand int64) error {
	h, err := replay.Export(s.runner.Table())
	if err != nil {
		return err
	}
	d, _ := s.deck.Reveal()
	fairdeal.Annotate(h, d)
	b, err := h.Marshal()
	if err != nil {
		return err
	}
	name := filepath.Join(s.cfg.HistoryDir, fmt.Sprintf("%s-hand-%06d.phh", s.cfg.TableID, hand))
	return os.WriteFile(name, b, 0o644)
}

// broadcastLocked sends a frame to every connection. The caller holds s.mu.
func (s *Server) broadcastLocked(frame []byte) {
	for _, p := range s.players {
		if p.conn != nil {
			p.conn.send(frame)
		}
	}
	for c := range s.spectators {
		c.send(frame)
	}
}

// closeAll closes every connection with reason; final when the table has closed for good.
func (s *Server) closeAll(reason string, final bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	msg := protocol.MustEncode(protocol.TypeClosing, protocol.Closing{Final: final, Reason: reason})
	for _, p := range s.players {
		if p.conn != nil {
			p.conn.send(msg)
			p.conn.closeAfter(websocketStatusGoingAway, reason)
		}
	}
	for c := range s.spectators {
		c.send(msg)
		c.closeAfter(websocketStatusGoingAway, reason)
	}
}

// Handler serves the WebSocket at /ws, the web client at /, and the endpoints /healthz (liveness),
// /readyz (readiness) and /inhand (a hand in progress, for eviction protection).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /ws", s.serveWS)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if !s.Ready() {
			http.Error(w, "not ready: the table has no state yet, or it is draining", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ready\n"))
	})
	mux.HandleFunc("GET /inhand", func(w http.ResponseWriter, _ *http.Request) {
		in, hand := s.InHand()
		w.Header().Set("Content-Type", "application/json")
		if in {
			fmt.Fprintf(w, "{\"inHand\":true,\"hand\":%d}\n", hand)
			return
		}
		fmt.Fprintln(w, `{"inHand":false}`)
	})
	mux.Handle("GET /", webHandler())
	return mux
}
