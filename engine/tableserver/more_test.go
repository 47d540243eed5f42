package tableserver

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine/fairdeal"
	"github.com/pokerfloor/pokerfloor/engine/phh"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

// rule A14: an advance action runs when the turn comes if nothing changed since it was queued, and
// is dropped when a bet came in between, leaving the player every option.
func TestRuleA14AdvanceActions(t *testing.T) {
	tt := startTable(t, tableOpts{players: 3})
	me := tt.dial(tt.token("p01"))
	c3 := tt.dial(tt.token("p03"))
	// p02 checks or calls, never bets; p03 is the test's.
	go (&Bot{URL: tt.url, Token: tt.token("p02"), Decider: caller{}}).Play(context.Background())
	turnOf := func(cl *client, round string) protocol.TableView {
		t.Helper()
		var v protocol.TableView
		cl.next(protocol.TypeView, &v, func() bool { return v.Legal != nil && v.ToAct == v.Viewer && v.Round == round })
		return v
	}
	// Preflop: p01 (the button) calls, p02 plays, p03 (big blind) checks or calls.
	v := turnOf(me, "preflop")
	me.send(protocol.TypeAction, protocol.Action{Hand: v.Hand, Action: protocol.ActCall})
	v3 := c3.myTurn()
	for v3.Round == "preflop" {
		a := protocol.ActCall
		if v3.Legal.Check {
			a = protocol.ActCheck
		}
		c3.send(protocol.TypeAction, protocol.Action{Hand: v3.Hand, Action: a})
		v3 = c3.myTurn()
	}
	if v3.Round != "flop" {
		t.Fatalf("p03's second turn is on the %s", v3.Round)
	}
	// Flop, p03 to act: p01 queues check/fold; p03 checks; p01's turn checks by itself.
	var echo protocol.Advance
	me.send(protocol.TypeAdvance, protocol.Advance{Hand: v3.Hand, Advance: protocol.AdvCheckFold})
	me.next(protocol.TypeAdvance, &echo, nil)
	var e protocol.Error
	c3.send(protocol.TypeAction, protocol.Action{Hand: v3.Hand, Action: protocol.ActCheck})
	var mv protocol.TableView
	me.next(protocol.TypeView, &mv, func() bool { return mv.Round == "turn" || mv.Round == "river" || mv.Phase != "betting" })
	if mv.Phase == "betting" && mv.Seats[0].Folded {
		t.Fatalf("check/fold with nothing owed folded: %+v", mv.Seats[0])
	}
	if mv.Round != "turn" || mv.Seats[0].Folded {
		t.Fatalf("after the queued check the hand is at the %s, p01 %+v", mv.Round, mv.Seats[0])
	}
	// Turn, p03 to act: p01 queues check/fold; p03 bets; the bet changed, so p01 is asked himself.
	v3 = turnOf(c3, "turn")
	me.send(protocol.TypeAdvance, protocol.Advance{Hand: v3.Hand, Advance: protocol.AdvCheckFold})
	me.next(protocol.TypeAdvance, &echo, nil)
	c3.send(protocol.TypeAction, protocol.Action{Hand: v3.Hand, Action: protocol.ActBet, To: v3.Legal.MinTo})
	v = turnOf(me, "turn")
	if v.ToCall == 0 || v.Seats[0].Folded || !v.Legal.Call {
		t.Fatalf("after a bet the queued check/fold must not run: %+v legal %+v", v.Seats[0], v.Legal)
	}
	// An advance action on one's own turn is refused: act instead.
	me.send(protocol.TypeAdvance, protocol.Advance{Hand: v.Hand, Advance: protocol.AdvFold})
	me.next(protocol.TypeError, &e, nil)
	if e.Rule != "A14" {
		t.Fatalf("advance on one's own turn: %+v", e)
	}
}

// A player moved to another table is told where to connect, and the client follows: it joins the
// new table with the token it was given.
func TestMoveFollowedByTheClient(t *testing.T) {
	from := startTable(t, tableOpts{players: 3, id: "t1"})
	to := startTable(t, tableOpts{players: 3, id: "t2"})
	tables := make(chan string, 4)
	b := &Bot{URL: from.url, Token: from.token("p01"), Decider: caller{}, OnFrame: func(env protocol.Envelope, _ []byte) {
		if env.Type == protocol.TypeWelcome {
			var w protocol.Welcome
			protocol.DecodeData(env, &w)
			tables <- w.Table
		}
	}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go b.Play(ctx)
	if got := <-tables; got != "t1" {
		t.Fatalf("joined %s first", got)
	}
	if err := from.srv.Move("p01", protocol.Move{Tournament: "sunday", Table: "t2", URL: to.url, Token: to.token("p01"), Seat: 0, Reason: "balance"}); err != nil {
		t.Fatal(err)
	}
	if got := <-tables; got != "t2" {
		t.Fatalf("after the move the client joined %s, want t2", got)
	}
	if err := from.srv.Move("nobody", protocol.Move{}); err == nil {
		t.Fatal("a move of a player not connected")
	}
}

// The hand histories a table writes carry their deals: every card of every hand re-derives from the
// seeds, and the commitment each connection saw before the deal is the one in the history.
func TestHistoriesVerify(t *testing.T) {
	dir := t.TempDir()
	// The bots may leave one player with every chip before hand 30: the table then ends early, and
	// every hand it played must still have its history.
	var played atomic.Int64
	// The spectator sees the commitment of every hand dealt after his Welcome; the hand under way
	// as he joins may have been dealt before (a busy machine once took his join after hand 1's
	// deal). joined is the last hand that may have been: -1 until he is in.
	var joined atomic.Int64
	joined.Store(-1)
	var mu sync.Mutex
	commits := map[int64]string{}
	seen := make(chan struct{}, 1) // a commitment, or his Welcome, came in
	drain := drainAfter(30)
	tt := startTable(t, tableOpts{players: 4, history: dir, rate: 1e6, onHand: func(s *Server, r *report.HandResult) {
		played.Store(r.HandNumber)
		// The table waits for the spectator to be in, then to have each hand's commitment, so
		// that on a busy machine he is never so far behind that the server drops him as too slow
		// (outQueue).
		deadline := time.After(time.Minute)
		until := func(ok func() bool) bool {
			for !ok() {
				select {
				case <-seen:
				case <-deadline:
					return false
				}
			}
			return true
		}
		switch {
		case !until(func() bool { return joined.Load() >= 0 }):
			t.Errorf("the spectator was not in after hand %d", r.HandNumber)
		case r.HandNumber <= joined.Load(): // dealt before he was in
		case !until(func() bool {
			mu.Lock()
			defer mu.Unlock()
			_, ok := commits[r.HandNumber]
			return ok
		}):
			t.Errorf("the spectator never got hand %d's commitment", r.HandNumber)
		}
		drain(s, r)
	}})
	spec := tt.dial(tt.token(""))
	go func() {
		for {
			env, _, err := spec.c.Read(context.Background())
			if err != nil {
				return
			}
			if env.Type == protocol.TypeWelcome {
				joined.Store(played.Load() + 1)
				select {
				case seen <- struct{}{}:
				default:
				}
			}
			if env.Type == protocol.TypeCommit {
				var c protocol.Commit
				protocol.DecodeData(env, &c)
				mu.Lock()
				commits[c.Hand] = c.Commitment
				mu.Unlock()
				select {
				case seen <- struct{}{}:
				default:
				}
			}
		}
	}()
	done := tt.bots(tt.ids, nil)
	if err := tt.wait(); err != nil {
		t.Fatal(err)
	}
	for range tt.ids {
		<-done
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.phh"))
	if want := played.Load(); int64(len(files)) != want || want < 2 {
		t.Fatalf("%d histories written for %d hands played", len(files), want)
	}
	mu.Lock()
	defer mu.Unlock()
	watched := 0 // the histories of the hands dealt after the spectator was in
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		h, err := phh.Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if _, err := fairdeal.Verify(h); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		c, ok := commits[h.Hand.Number]
		if ok && c != h.Extra[fairdeal.FieldCommitment] {
			t.Fatalf("hand %d: committed %s before the deal, the history says %v", h.Hand.Number, c, h.Extra[fairdeal.FieldCommitment])
		}
		if h.Hand.Number > joined.Load() {
			watched++
			if !ok {
				t.Errorf("hand %d, dealt after the spectator was in: he never saw its commitment", h.Hand.Number)
			}
		}
	}
	if watched == 0 {
		t.Fatalf("no hand dealt after the spectator was in (hand %d), of %d", joined.Load(), len(files))
	}
}

// The client's fast read of the server's envelope agrees with json.Unmarshal, its slow twin, on
// every frame it accepts, accepts every frame protocol.Encode writes, and leaves any other layout
// to the full decode.
func TestServerEnvelopeMatchesUnmarshal(t *testing.T) {
	encoded := [][]byte{
		protocol.MustEncode(protocol.TypeView, protocol.TableView{Table: "t1", Hand: 3, Round: "flop", Pot: 450}),
		protocol.MustEncode(protocol.TypeChat, protocol.Chat{From: "p1", Text: `a "quote", a \ and <b>`}),
		protocol.MustEncode(protocol.TypeCommit, protocol.Commit{Hand: 2, Commitment: "ab12"}),
		protocol.MustEncode(protocol.TypeClosing, protocol.Closing{Reason: "bye"}),
	}
	for _, f := range encoded {
		if _, ok := serverEnvelope(f); !ok {
			t.Errorf("the fast path refused a frame protocol.Encode wrote: %s", f)
		}
	}
	others := []string{
		`{"v":1,"type":"view"}`,                       // no data
		`{"v":1, "type":"view","data":{}}`,            // a space
		`{"type":"view","v":1,"data":{}}`,             // another order
		`{"v":2,"type":"view","data":{}}`,             // another version
		`{"v":1,"type":"vi\"ew","data":{}}`,           // an escape in the type
		`{"v":1,"type":"view","seq":4,"data":{}}`,     // a field a newer server may add
		`{"v":1,"type":"","data":{}}`,                 // no type
		"{\"v\":1,\"type\":\"vi\x01ew\",\"data\":{}}", // a control character
		``,
		`}`,
	}
	for _, f := range others {
		if env, ok := serverEnvelope([]byte(f)); ok {
			t.Errorf("the fast path took %s as %+v: it is not Encode's layout", f, env)
		}
	}
	// A frame cut short passes the envelope's fast read, and its data fails to decode.
	if env, ok := serverEnvelope([]byte(`{"v":1,"type":"view","data":{"hand":3}`)); ok {
		var v protocol.TableView
		if err := json.Unmarshal(env.Data, &v); err == nil {
			t.Errorf("the data of a frame cut short decoded: %+v", v)
		}
	}
	for _, f := range encoded {
		fast, _ := serverEnvelope(f)
		var slow protocol.Envelope
		if err := json.Unmarshal(f, &slow); err != nil {
			t.Fatal(err)
		}
		if fast.V != slow.V || fast.Type != slow.Type || !bytes.Equal(fast.Data, slow.Data) {
			t.Errorf("fast %+v, json.Unmarshal %+v", fast, slow)
		}
	}
}
