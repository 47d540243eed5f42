package main

import (
	"context"
	"encoding/json"
	"net"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/tableserver"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// lineWriter collects what is written to it, line by line, and says when a line matches.
type lineWriter struct {
	mu    sync.Mutex
	buf   strings.Builder
	lines []string
	added chan struct{}
}

func newLineWriter() *lineWriter { return &lineWriter{added: make(chan struct{}, 1)} }

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	for {
		s := w.buf.String()
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			break
		}
		w.lines = append(w.lines, s[:i])
		w.buf.Reset()
		w.buf.WriteString(s[i+1:])
	}
	select {
	case w.added <- struct{}{}:
	default:
	}
	return len(p), nil
}

// wait returns the submatches of the first line matching re, waiting for it until ctx ends.
func (w *lineWriter) wait(ctx context.Context, re *regexp.Regexp) []string {
	for {
		w.mu.Lock()
		for _, l := range w.lines {
			if m := re.FindStringSubmatch(l); m != nil {
				w.mu.Unlock()
				return m
			}
		}
		w.mu.Unlock()
		select {
		case <-w.added:
		case <-ctx.Done():
			return nil
		}
	}
}

// person is the player of the test: he checks or folds, and notes what he saw at which table.
type person struct {
	mu      sync.Mutex
	table   string           // the table he joined last
	asked   map[string]int64 // by table: the last hand he was asked to act in
	played  map[string]int64 // by table: a hand he acted in and saw the result of
	holes   map[string]int   // by table: hole cards dealt to him
	moves   []protocol.Move
	changed chan struct{}
}

func (p *person) Decide(_ context.Context, v *engine.View) (engine.Decision, error) {
	p.mu.Lock()
	p.asked[p.table] = v.HandNumber
	p.mu.Unlock()
	if v.Legal.Check {
		return engine.Decision{Action: engine.Check}, nil
	}
	return engine.Decision{Action: engine.Fold}, nil
}

func (p *person) frame(env protocol.Envelope, _ []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch env.Type {
	case protocol.TypeWelcome:
		var w protocol.Welcome
		_ = json.Unmarshal(env.Data, &w)
		p.table = w.Table
	case protocol.TypeHole:
		var h protocol.Hole
		_ = json.Unmarshal(env.Data, &h)
		p.holes[p.table] += len(h.Cards)
	case protocol.TypeResult:
		var r protocol.Result
		_ = json.Unmarshal(env.Data, &r)
		if r.Hand == p.asked[p.table] {
			p.played[p.table] = r.Hand
		}
	case protocol.TypeMove:
		var m protocol.Move
		_ = json.Unmarshal(env.Data, &m)
		p.moves = append(p.moves, m)
	}
	select {
	case p.changed <- struct{}{}:
	default:
	}
}

// until waits until cond holds of what the person saw, or ctx ends.
func (p *person) until(ctx context.Context, cond func() bool) bool {
	for {
		p.mu.Lock()
		ok := cond()
		p.mu.Unlock()
		if ok {
			return true
		}
		select {
		case <-p.changed:
		case <-ctx.Done():
			return false
		}
	}
}

// TestPlaySeatsAPersonAndFollowsHisMove plays `pokerfloor run --play` as the command wires it: the
// embedded Temporal server, the tournament's workflows, every table served by the table server on
// one local address, bots at every seat but p0001's. A WebSocket client plays p0001 from the link
// the run prints: it is dealt its two cards and plays a hand at its table. Then the director
// disqualifies every bot at that table (P4), so that it breaks (R4) and p0001 is drawn into a seat
// at the other table: the old table tells the client where to go (a move with the new table's
// address and a token for it), the client follows, and plays a hand there.
//
// Fourteen players on two tables of nine: the other table cannot break first (that takes five
// eliminations) and the disqualifications leave p0001's table the smaller one. Deadlines are
// minutes where the steps take seconds.
func TestPlaySeatsAPersonAndFollowsHisMove(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Temporal server and a tournament")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	out := newLineWriter()
	structure, err := loadStructure("deep")
	if err != nil {
		t.Fatal(err)
	}
	structure.Speed = 60 // a hand a second at each table
	s := runSettings{Players: 14, TableSize: 9, Structure: structure, Seed: 7, DataDir: t.TempDir(),
		Play: playSettings{Player: "p0001", ln: ln, out: out}}
	tour, stop, err := startLocalTournament(ctx, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	lt := tour.(*localTournament)

	m := out.wait(ctx, regexp.MustCompile(`^p0001 plays at table (\d+): (http://\S+)\?token=(\S+)$`))
	if m == nil {
		t.Fatal("no link for p0001")
	}
	page, err := url.Parse(m[2])
	if err != nil || !strings.HasSuffix(page.Path, "/table/"+m[1]+"/") {
		t.Fatalf("link %q: expected http://ADDR/table/%s/", m[2], m[1])
	}
	ws := "ws://" + page.Host + page.Path + "ws"
	me := &person{asked: map[string]int64{}, played: map[string]int64{}, holes: map[string]int{}, changed: make(chan struct{}, 1)}
	played := make(chan error, 1)
	go func() {
		b := &tableserver.Bot{URL: ws, Token: m[3], Decider: me, OnFrame: me.frame, Reconnect: true}
		played <- b.Play(ctx)
	}()
	var first string
	if !me.until(ctx, func() bool { first = me.table; return first != "" && me.played[first] > 0 && me.holes[first] >= 2 }) {
		t.Fatalf("p0001 played no hand at his first table (%+v)", me)
	}

	// Disqualify every bot at his table: it breaks, and he is moved.
	tables, err := lt.t.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var bots []string
	for _, tv := range tables {
		if tv.Workflow == first {
			for _, p := range tv.Seats {
				if p != "" && p != "p0001" {
					bots = append(bots, p)
				}
			}
		}
	}
	if len(bots) == 0 {
		t.Fatalf("no bots at table %s: %+v", first, tables)
	}
	var wg sync.WaitGroup
	errs := make(chan error, len(bots))
	for _, p := range bots {
		wg.Go(func() {
			_, err := lt.t.Sanction(ctx, workflows.SanctionRequest{Player: p, Kind: floor.Disqualification, Rule: "P4",
				Reason: "the test breaks p0001's table", By: "test director"})
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}

	var second string
	if !me.until(ctx, func() bool {
		second = me.table
		return second != first && me.played[second] > 0 && me.holes[second] >= 2
	}) {
		t.Fatalf("p0001 was not followed to another table and did not play there (%+v)", me)
	}
	me.mu.Lock()
	moves := append([]protocol.Move(nil), me.moves...)
	me.mu.Unlock()
	if len(moves) == 0 || moves[len(moves)-1].Table != second || moves[len(moves)-1].Token == "" ||
		!strings.HasPrefix(moves[len(moves)-1].URL, "ws://"+page.Host+"/table/") {
		t.Fatalf("the moves p0001 was sent: %+v; expected one to %s with its address and a token", moves, second)
	}
	if out.wait(ctx, regexp.MustCompile(`^p0001 is moved from table \d+ to table \d+`)) == nil {
		t.Error("the run did not say p0001 was moved")
	}
	last := moves[len(moves)-1]
	if last.Reason != "break" || last.Tournament != lt.ID() {
		t.Errorf("the move says reason %q, tournament %q; expected break (R4) in %s", last.Reason, last.Tournament, lt.ID())
	}
	t.Logf("p0001 played hand %d at %s and hand %d at %s after the move to %s, seat %d (%s)", me.played[first], first, me.played[second], second, last.URL, last.Seat, last.Reason)
	cancel()
	if err := <-played; err != nil && ctx.Err() == nil {
		t.Errorf("the client stopped: %v", err)
	}
}
