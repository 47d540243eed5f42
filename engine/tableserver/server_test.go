package tableserver

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

// drainAfter drains the table once it has played n hands.
func drainAfter(n int64) func(*Server, *report.HandResult) {
	return func(s *Server, r *report.HandResult) {
		if r.HandNumber >= n {
			s.Drain()
		}
	}
}

// A full nine-handed hand over real WebSocket connections: nine bots and a spectator; every
// connection sees the result, chips are conserved, and the drain stops the table after the hand.
func TestNineHandedHandOverWebSocket(t *testing.T) {
	tt := startTable(t, tableOpts{players: 9, onHand: drainAfter(1)})
	spec := tt.dial(tt.token(""))
	var w protocol.Welcome
	spec.next(protocol.TypeWelcome, &w, nil)
	if w.Role != protocol.RoleSpectator || w.Seat != -1 {
		t.Fatalf("spectator welcome %+v", w)
	}
	results := make(chan protocol.Result, 9)
	done := tt.bots(tt.ids, func(player string, env protocol.Envelope, frame []byte) {
		if env.Type == protocol.TypeResult {
			var r protocol.Result
			protocol.DecodeData(env, &r)
			results <- r
		}
	})
	var res protocol.Result
	spec.next(protocol.TypeResult, &res, nil)
	if err := tt.wait(); err != nil {
		t.Fatal(err)
	}
	for range tt.ids {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if r := <-results; r.Hand != 1 || r.Summary != res.Summary {
			t.Fatalf("a player's result %+v, the spectator's %+v", r, res)
		}
	}
	var sum int64
	for _, st := range res.Stacks {
		sum += st.Stack
	}
	if res.Hand != 1 || len(res.Stacks) != 9 || sum != 90000 || len(res.Won) == 0 || res.Deal == nil {
		t.Fatalf("result %+v", res)
	}
	if last, _ := tt.reporter.Hands(); last != 1 {
		t.Fatalf("the reporter acknowledged hand %d, want 1", last)
	}
	tt.checkChips(10000)
}

// seatView waits for p's view in which he is to act.
func (cl *client) myTurn() protocol.TableView {
	cl.t.Helper()
	var v protocol.TableView
	cl.next(protocol.TypeView, &v, func() bool { return v.Legal != nil && v.ToAct == v.Viewer })
	return v
}

// A player who drops in the middle of a hand keeps his seat and his cards; back with a new token
// (mid-hand), he sees his hand and acts.
func TestReconnectMidHand(t *testing.T) {
	tt := startTable(t, tableOpts{players: 3, onHand: drainAfter(1)})
	me := tt.dial(tt.token("p01"))
	var hole protocol.Hole
	me.next(protocol.TypeHole, &hole, nil)
	tt.bots(tt.ids[1:], nil)
	v := me.myTurn()
	me.c.CloseNow() // the network drops

	back := tt.dial(tt.token("p01"))
	var w protocol.Welcome
	back.next(protocol.TypeWelcome, &w, nil)
	if !w.Reconnect || w.Seat != v.Viewer || w.Player != "p01" {
		t.Fatalf("welcome back %+v", w)
	}
	var hole2 protocol.Hole
	back.next(protocol.TypeHole, &hole2, nil)
	v2 := back.myTurn()
	if v2.Hand != v.Hand || strings.Join(hole2.Cards, "") != strings.Join(hole.Cards, "") ||
		strings.Join(v2.Seats[v2.Viewer].Cards, "") != strings.Join(hole.Cards, "") {
		t.Fatalf("after the reconnect: hand %d cards %v, before: hand %d cards %v", v2.Hand, hole2.Cards, v.Hand, hole.Cards)
	}
	act := protocol.ActCall
	if v2.Legal.Check {
		act = protocol.ActCheck
	}
	back.send(protocol.TypeAction, protocol.Action{Hand: v2.Hand, Action: act})
	var after protocol.TableView
	back.next(protocol.TypeView, &after, func() bool { return after.ToAct != after.Viewer || after.Phase != "betting" })
	if s := after.Seats[after.Viewer]; s.Folded || !s.Connected {
		t.Fatalf("the player's seat after his action: %+v", s)
	}
	back.foldUntilResult(v2.Hand, after)
	if err := tt.wait(); err != nil {
		t.Fatal(err)
	}
	if st := tt.srv.Runner().Stats(); st.TimedOut != 0 {
		t.Fatalf("%d turns timed out", st.TimedOut)
	}
	tt.checkChips(10000)
}

// rule A15: the clock folds a player who does not act: the think time, then the countdown, then the
// hand is folded. The time is a fake clock's: the test does not depend on the machine's speed.
func TestRuleA15ClockFoldsIdlePlayer(t *testing.T) {
	tt := startTable(t, tableOpts{players: 3, clock: ActionClock{Think: 30 * time.Second, Countdown: 10 * time.Second}, onHand: drainAfter(1)})
	me := tt.dial(tt.token("p01"))
	tt.bots(tt.ids[1:], nil)
	v := me.myTurn()
	var ck protocol.Clock
	me.next(protocol.TypeClock, &ck, func() bool { return ck.Seat == v.Viewer && ck.Phase != protocol.ClockGrace })
	if ck.Phase != protocol.ClockThink || ck.RemainingMS != 30000 {
		t.Fatalf("clock %+v", ck)
	}
	tt.clock.Advance(30 * time.Second)
	me.next(protocol.TypeClock, &ck, nil)
	if ck.Phase != protocol.ClockCountdown || ck.RemainingMS != 10000 {
		t.Fatalf("after the think time: %+v (no bank: the countdown)", ck)
	}
	tt.clock.Advance(10 * time.Second)
	var after protocol.TableView
	me.next(protocol.TypeView, &after, func() bool { return after.ToAct != v.Viewer || after.Phase != "betting" })
	if !after.Seats[v.Viewer].Folded && v.Legal.Check == false {
		t.Fatalf("the idle player was not folded: %+v", after.Seats[v.Viewer])
	}
	if err := tt.wait(); err != nil {
		t.Fatal(err)
	}
	if st := tt.srv.Runner().Stats(); st.TimedOut != 1 {
		t.Fatalf("%d turns timed out, want 1", st.TimedOut)
	}
	tt.checkChips(10000)
}

// rule A15: after the think time the player draws on his time bank; what he used is gone, and the
// bank grows by the setting every hand (here), up to its cap.
func TestRuleA15TimeBankUsedAndRefilled(t *testing.T) {
	bank := TimeBank{Initial: 20 * time.Second, PerHands: 5 * time.Second, EveryHands: 1, Max: 30 * time.Second}
	tt := startTable(t, tableOpts{players: 2, clock: ActionClock{Think: 30 * time.Second, Countdown: 10 * time.Second, Bank: bank}, onHand: drainAfter(2)})
	me := tt.dial(tt.token("p01"))
	tt.bots(tt.ids[1:], nil)
	// Hand 1: the bank started at 20 s; hand 1 is not a multiple of... every hand adds 5 s: 25 s.
	v := me.myTurn()
	var ck protocol.Clock
	me.next(protocol.TypeClock, &ck, func() bool { return ck.Seat == v.Viewer && ck.Phase == protocol.ClockThink })
	if ck.BankMS != 25000 {
		t.Fatalf("hand %d: bank %d ms, want 25000 (20 s and 5 s for the hand)", v.Hand, ck.BankMS)
	}
	tt.clock.Advance(30 * time.Second)
	me.next(protocol.TypeClock, &ck, nil)
	if ck.Phase != protocol.ClockBank || ck.RemainingMS != 25000 {
		t.Fatalf("after the think time: %+v, want the bank of 25 s", ck)
	}
	tt.clock.Advance(12 * time.Second) // 12 s of the bank used
	me.send(protocol.TypeAction, protocol.Action{Hand: v.Hand, Action: protocol.ActFold})
	// Hand 2: 13 s left, and 5 s more for the hand: 18 s.
	v = me.myTurn()
	for v.Hand != 2 {
		me.send(protocol.TypeAction, protocol.Action{Hand: v.Hand, Action: protocol.ActFold})
		v = me.myTurn()
	}
	me.next(protocol.TypeClock, &ck, func() bool { return ck.Seat == v.Viewer && ck.Hand == 2 })
	if ck.BankMS != 18000 {
		t.Fatalf("hand 2: bank %d ms, want 18000 (25 - 12 + 5)", ck.BankMS)
	}
	me.send(protocol.TypeAction, protocol.Action{Hand: v.Hand, Action: protocol.ActFold})
	if err := tt.wait(); err != nil {
		t.Fatal(err)
	}
	tt.checkChips(10000)
}

func TestTimeBankSettings(t *testing.T) {
	cases := []struct {
		name    string
		b       TimeBank
		bank    time.Duration
		level   bool
		hand    int64
		want    time.Duration
		wantErr bool
	}{
		{"per level", TimeBank{PerLevel: 10 * time.Second}, 5 * time.Second, true, 7, 15 * time.Second, false},
		{"no level change", TimeBank{PerLevel: 10 * time.Second}, 5 * time.Second, false, 7, 5 * time.Second, false},
		{"reset each level", TimeBank{Initial: 30 * time.Second, ResetEachLevel: true}, 2 * time.Second, true, 7, 30 * time.Second, false},
		{"every 10 hands", TimeBank{PerHands: 3 * time.Second, EveryHands: 10}, time.Second, false, 20, 4 * time.Second, false},
		{"not the tenth hand", TimeBank{PerHands: 3 * time.Second, EveryHands: 10}, time.Second, false, 21, time.Second, false},
		{"capped", TimeBank{PerLevel: time.Minute, Max: 90 * time.Second}, time.Minute, true, 1, 90 * time.Second, false},
		{"hands without a count", TimeBank{PerHands: time.Second}, 0, false, 0, 0, true},
		{"initial over the cap", TimeBank{Initial: time.Minute, Max: time.Second}, 0, false, 0, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := ActionClock{Think: time.Second, Bank: c.b}.Check()
			if (err != nil) != c.wantErr {
				t.Fatalf("Check: %v", err)
			}
			if err == nil {
				if got := c.b.refill(c.bank, c.level, c.hand); got != c.want {
					t.Fatalf("refill = %v, want %v", got, c.want)
				}
			}
		})
	}
}

// rule T5: a player who drops keeps his seat; his turn waits the grace time, then his hand is
// folded and he sits out (dealt in, blinds posted, hand folded) until he comes back to his seat.
func TestRuleT5DisconnectGraceThenSitOut(t *testing.T) {
	// Deep stacks: while he is away the bots deal hands at machine speed, and with 10,000 chips a
	// run once blinded him out and ended the table before he came back.
	const stack = 1_000_000
	tt := startTable(t, tableOpts{players: 3, grace: 20 * time.Second, stack: stack, rate: 1e6})
	me := tt.dial(tt.token("p01"))
	spec := tt.dial(tt.token(""))
	tt.bots(tt.ids[1:], nil)
	v := me.myTurn()
	// Connected during his turn: his think time runs (not a grace from before he joined).
	var ck protocol.Clock
	spec.next(protocol.TypeClock, &ck, func() bool { return ck.Seat == v.Viewer && ck.Phase == protocol.ClockThink })
	me.c.CloseNow()
	// The spectator sees the turn wait for him: the grace time starts.
	spec.next(protocol.TypeClock, &ck, func() bool { return ck.Seat == v.Viewer && ck.Phase == protocol.ClockGrace })
	if ck.RemainingMS != 20000 || ck.Hand != v.Hand {
		t.Fatalf("the grace clock %+v", ck)
	}
	// The grace ends before his think time would (20 s against 30 s): his hand is folded.
	tt.clock.Advance(20 * time.Second)
	var sv protocol.TableView
	spec.next(protocol.TypeView, &sv, func() bool { return sv.Hand > v.Hand || sv.Seats[v.Viewer].Folded })
	if !sv.Seats[v.Viewer].Folded || sv.Seats[v.Viewer].Connected {
		t.Fatalf("the absent player after the grace: %+v", sv.Seats[v.Viewer])
	}
	// The next hand: he sits out (T5), dealt in and his hand folded when his turn comes (or at once
	// when nobody live is left against him).
	spec.next(protocol.TypeView, &sv, func() bool {
		return sv.Hand > v.Hand+1 || sv.Hand == v.Hand+1 && sv.Seats[v.Viewer].Folded
	})
	if s := sv.Seats[v.Viewer]; sv.Hand != v.Hand+1 || s.State != "sitting out" || s.Connected || !s.Folded {
		t.Fatalf("hand %d: the absent player is %+v, want sitting out and folded", sv.Hand, s)
	}
	back := tt.dial(tt.token("p01"))
	var w protocol.Welcome
	back.next(protocol.TypeWelcome, &w, nil)
	var bv protocol.TableView
	back.next(protocol.TypeView, &bv, nil)
	joined := bv.Hand // the hand in progress, or the last one, when he came back
	// Back: he plays again from the next hand dealt after the one in progress (at the latest the
	// one after, if the next was set up as he came back).
	back.next(protocol.TypeView, &bv, func() bool { return bv.Hand > joined && bv.Seats[bv.Viewer].State == "active" })
	if bv.Hand > joined+2 || !bv.Seats[bv.Viewer].Connected {
		t.Fatalf("back during hand %d, active only in hand %d: %+v", joined, bv.Hand, bv.Seats[bv.Viewer])
	}
	tt.srv.Drain()
	back.foldUntilClosed(bv)
	if err := tt.wait(); err != nil {
		t.Fatal(err)
	}
	tt.checkChips(stack)
}

// Bad input of every kind gets a clear error or a close with a reason, never a crash, and the hand
// goes on for the others.
func TestBadInput(t *testing.T) {
	tt := startTable(t, tableOpts{players: 3, onHand: drainAfter(3)})
	ctx := context.Background()

	expectErr := func(cl *client, frame string, code protocol.Code) protocol.Error {
		t.Helper()
		if err := cl.c.SendRaw(ctx, []byte(frame)); err != nil {
			t.Fatal(err)
		}
		var e protocol.Error
		cl.next(protocol.TypeError, &e, nil)
		if e.Code != code || e.Message == "" {
			t.Fatalf("%.60s: error %+v, want %s", frame, e, code)
		}
		return e
	}
	expectClose := func(cl *client, code protocol.Code, status websocket.StatusCode) {
		t.Helper()
		errs, err := cl.closed()
		if websocket.CloseStatus(err) != status {
			t.Fatalf("closed with %v, want status %v", err, status)
		}
		if code != "" && (len(errs) == 0 || errs[len(errs)-1].Code != code) {
			t.Fatalf("errors before the close: %+v, want %s", errs, code)
		}
	}

	// Tokens: forged, expired, for another table, for a player not seated, replayed while in use.
	forger, _ := NewTokens([]byte(strings.Repeat("k", 40)), "sunday", "t1", tt.clock.Now)
	forged, _ := forger.Issue("p01", protocol.RolePlayer, time.Hour)
	other, _ := NewTokens(testKey, "sunday", "t2", tt.clock.Now)
	elsewhere, _ := other.Issue("p01", protocol.RolePlayer, time.Hour)
	past, _ := NewTokens(testKey, "sunday", "t1", func() time.Time { return epoch.Add(-2 * time.Hour) })
	expired, _ := past.Issue("p01", protocol.RolePlayer, time.Minute)
	stranger, _ := tt.tokens.Issue("zed", protocol.RolePlayer, time.Hour)
	for _, c := range []struct {
		name, token string
		code        protocol.Code
	}{
		{"forged", forged, protocol.CodeBadToken},
		{"another table", elsewhere, protocol.CodeBadToken},
		{"expired", expired, protocol.CodeTokenExpired},
		{"not seated", stranger, protocol.CodeNotSeated},
		{"garbage", "not.a.token", protocol.CodeBadToken},
	} {
		t.Run(c.name, func(t *testing.T) {
			cl := tt.dial(c.token)
			expectClose(cl, c.code, websocket.StatusPolicyViolation)
		})
	}
	t.Run("not joined", func(t *testing.T) {
		cl := tt.dial("")
		cl.send(protocol.TypeChat, protocol.Chat{Text: "hi"})
		expectClose(cl, protocol.CodeNotJoined, websocket.StatusPolicyViolation)
	})

	tok1 := tt.token("p01")
	me := tt.dial(tok1)
	var w protocol.Welcome
	me.next(protocol.TypeWelcome, &w, nil)
	t.Run("replayed", func(t *testing.T) {
		expectClose(tt.dial(tok1), protocol.CodeReplayed, websocket.StatusPolicyViolation)
	})
	spec := tt.dial(tt.token(""))
	spec.next(protocol.TypeWelcome, &w, nil)
	t.Run("spectator acts", func(t *testing.T) {
		expectErr(spec, `{"v":1,"type":"action","data":{"hand":1,"action":"fold"}}`, protocol.CodeReadOnly)
		expectErr(spec, `{"v":1,"type":"chat","data":{"text":"hi"}}`, protocol.CodeReadOnly)
	})

	// p01 is on the button, first to act before the flop three-handed.
	v := me.myTurn()
	hand := itoa(v.Hand)
	t.Run("frames", func(t *testing.T) {
		expectErr(me, `{"v":1,"type":"action","data":{"hand":1,`, protocol.CodeBadJSON)
		expectErr(me, `{"v":1,"type":"teleport","data":{}}`, protocol.CodeUnknownType)
		expectErr(me, `{"v":7,"type":"action","data":{}}`, protocol.CodeBadVersion)
		expectErr(me, `{"v":1,"type":"action","data":{"hand":`+hand+`,"action":"fold","seat":2}}`, protocol.CodeBadJSON)
		expectErr(me, `{"v":1,"type":"action","data":{"hand":`+hand+`,"action":"shove"}}`, protocol.CodeBadAction)
		expectErr(me, `{"v":1,"type":"chat","data":{"text":"`+strings.Repeat("x", 300)+`"}}`, protocol.CodeBadChat)
	})
	t.Run("amounts", func(t *testing.T) {
		e := expectErr(me, `{"v":1,"type":"action","data":{"hand":`+hand+`,"action":"raise","to":`+itoa(v.Legal.MinTo-1)+`}}`, protocol.CodeIllegal)
		if e.Rule != "A5" || e.Min != v.Legal.MinTo {
			t.Fatalf("below the minimum: %+v", e)
		}
		e = expectErr(me, `{"v":1,"type":"action","data":{"hand":`+hand+`,"action":"raise","to":`+itoa(v.Legal.MaxTo+1)+`}}`, protocol.CodeIllegal)
		if e.Rule != "A3" || e.Max != v.Legal.MaxTo {
			t.Fatalf("above the stack: %+v", e)
		}
		expectErr(me, `{"v":1,"type":"action","data":{"hand":`+itoa(v.Hand+5)+`,"action":"fold"}}`, protocol.CodeWrongHand)
	})
	// Still his turn after the refusals: he calls, and the small blind (not connected yet) is to act.
	me.send(protocol.TypeAction, protocol.Action{Hand: v.Hand, Action: protocol.ActCall})
	me.next(protocol.TypeView, &v, func() bool { return v.ToAct != v.Viewer })
	// His token never acts for another seat.
	t.Run("out of turn", func(t *testing.T) {
		e := expectErr(me, `{"v":1,"type":"action","data":{"hand":`+hand+`,"action":"fold"}}`, protocol.CodeNotYourTurn)
		if e.Rule != "A1" {
			t.Fatalf("out of turn names rule %q", e.Rule)
		}
	})
	t.Run("oversized", func(t *testing.T) {
		cl := tt.dial(tt.token(""))
		cl.c.SendRaw(ctx, []byte(`{"v":1,"type":"chat","data":{"text":"`+strings.Repeat("x", protocol.MaxFrame)+`"}}`))
		_, err := cl.closed()
		if websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
			t.Fatalf("an oversized frame: %v", err)
		}
	})
	t.Run("flood", func(t *testing.T) {
		cl := tt.dial(tt.token(""))
		for i := 0; i < 500; i++ {
			if cl.c.SendRaw(ctx, []byte(`{"v":1,"type":"seed","data":{"clientSeed":"x"}}`)) != nil {
				break
			}
		}
		errs, err := cl.closed()
		if websocket.CloseStatus(err) != websocket.StatusPolicyViolation || len(errs) == 0 || errs[len(errs)-1].Code != protocol.CodeRateLimited {
			t.Fatalf("a flood: %v, errors %+v", err, errs)
		}
	})
	// The hand goes on for everyone: the others connect and the table plays its three hands.
	bots := tt.bots(tt.ids[1:], nil)
	me.foldUntilResult(3)
	if err := tt.wait(); err != nil {
		t.Fatal(err)
	}
	for range tt.ids[1:] {
		if err := <-bots; err != nil {
			t.Fatal(err)
		}
	}
	tt.checkChips(10000)
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// The endpoints: liveness always, readiness until a drain, the in-hand flag for eviction protection.
func TestEndpoints(t *testing.T) {
	tt := startTable(t, tableOpts{players: 2})
	get := func(path string) (int, string) {
		resp, err := http.Get(tt.http.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get("/healthz"); code != 200 {
		t.Fatalf("healthz %d", code)
	}
	if code, _ := get("/readyz"); code != 200 {
		t.Fatalf("readyz %d", code)
	}
	me := tt.dial(tt.token("p01"))
	me.myTurn() // p02 has no connection: the hand waits on... p01 acts first heads-up? either way a hand is on
	if code, body := get("/inhand"); code != 200 || !strings.Contains(body, `"inHand":true`) {
		t.Fatalf("inhand %d %s", code, body)
	}
	tt.srv.Drain()
	if code, _ := get("/readyz"); code != http.StatusServiceUnavailable {
		t.Fatalf("readyz while draining: %d", code)
	}
	var cl protocol.Closing
	me.next(protocol.TypeClosing, &cl, nil)
	if !cl.Drain || cl.Final {
		t.Fatalf("closing %+v, want a drain, not final", cl)
	}
	// The hand finishes (he folds), then the table stops.
	var v protocol.TableView
	_ = v
	tt.bots(tt.ids[1:], nil)
	me.send(protocol.TypeAction, protocol.Action{Hand: 1, Action: protocol.ActFold})
	if err := tt.wait(); err != nil {
		t.Fatal(err)
	}
	if last, _ := tt.reporter.Hands(); last != 1 {
		t.Fatalf("the drain reported hand %d, want 1", last)
	}
	if _, err := me.closed(); websocket.CloseStatus(err) != websocket.StatusGoingAway && !errors.Is(err, io.EOF) {
		t.Fatalf("the player's connection after the drain: %v", err)
	}
}

// A table closed for good (its last player but one out) tells its spectators so with the closing
// (final: nothing to join again), where a drain's closing is not final (its process comes back).
func TestClosingForGoodIsFinal(t *testing.T) {
	tt := startTable(t, tableOpts{players: 2, stack: 100}) // a big blind each: all in within a few hands
	spec := tt.dial(tt.token(""))
	var w protocol.Welcome
	spec.next(protocol.TypeWelcome, &w, nil)
	tt.bots(tt.ids, nil)
	var cl protocol.Closing
	spec.next(protocol.TypeClosing, &cl, nil)
	if !cl.Final || cl.Drain || cl.Reason != "the table is closed" {
		t.Fatalf("the closing of a table closed for good: %+v, want final", cl)
	}
	if err := tt.wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := spec.closed(); websocket.CloseStatus(err) != websocket.StatusGoingAway && !errors.Is(err, io.EOF) {
		t.Fatalf("the spectator's connection after the close: %v", err)
	}
	tt.checkChips(100)
	// Joining it now is refused, for good: the table is closed.
	again := tt.dial(tt.token(""))
	if errs, _ := again.closed(); len(errs) != 1 || !errs[0].Fatal || errs[0].Message != "the table is closed" {
		t.Fatalf("a spectator joining the closed table: %+v", errs)
	}
}

// A player who joins or leaves shows so at once, to himself and to everyone watching, not at the
// next action: a player who joined between two actions found himself shown away at his own turn.
func TestPresenceShownAtOnce(t *testing.T) {
	tt := startTable(t, tableOpts{players: 2}) // nobody acts and the clock stands: the deal waits
	spec := tt.dial(tt.token(""))
	var sv protocol.TableView
	spec.next(protocol.TypeView, &sv, func() bool { return sv.Hand > 0 })
	seat := slices.IndexFunc(sv.Seats, func(s protocol.SeatView) bool { return s.Player == "p01" })
	if seat < 0 || sv.Seats[seat].Connected {
		t.Fatalf("before p01 joins the spectator sees %+v, want p01 seated and away", sv.Seats)
	}
	me := tt.dial(tt.token("p01"))
	var v protocol.TableView
	me.next(protocol.TypeView, &v, nil)
	if !v.Seats[v.Viewer].Connected {
		t.Errorf("p01's first view shows him away: %+v", v.Seats[v.Viewer])
	}
	spec.next(protocol.TypeView, &sv, func() bool { return sv.Seats[seat].Connected })
	if sv.Hand != v.Hand {
		t.Errorf("the spectator saw p01 come in hand %d, p01 joined in hand %d", sv.Hand, v.Hand)
	}
	me.c.CloseNow()
	spec.next(protocol.TypeView, &sv, func() bool { return !sv.Seats[seat].Connected })
	if sv.Hand != v.Hand {
		t.Errorf("the spectator saw p01 leave in hand %d, want %d: nobody acted", sv.Hand, v.Hand)
	}
}

// A table where people play pauses after each hand (Config.HandPause), so that they see the
// showdown and who won before the next deal; a table of its own bots does not.
func TestHandPauseWherePeoplePlay(t *testing.T) {
	play := func(o tableOpts, people bool) []time.Time {
		var mu sync.Mutex
		var ends []time.Time
		o.players, o.stack, o.rate = 3, 1000, 1e6
		o.onHand = func(s *Server, r *report.HandResult) {
			mu.Lock()
			defer mu.Unlock()
			if !r.Voided {
				ends = append(ends, s.clock.Now())
			}
		}
		tt := startTable(t, o)
		if people {
			tt.bots(tt.ids, nil)
		}
		if err := tt.wait(); err != nil {
			t.Fatal(err)
		}
		tt.checkChips(1000)
		mu.Lock()
		defer mu.Unlock()
		if len(ends) < 3 {
			t.Fatalf("%d hands: too few to see the pauses", len(ends))
		}
		return ends
	}
	// On the fake clock only the pauses move time: each hand ends a pause after the last.
	ends := play(tableOpts{pause: 3 * time.Second}, true)
	for i := 1; i < len(ends); i++ {
		if gap := ends[i].Sub(ends[i-1]); gap < 3*time.Second {
			t.Fatalf("hands %d and %d ended %v apart, want the pause, 3s, at least", i, i+1, gap)
		}
	}
	ends = play(tableOpts{pause: 3 * time.Second, bots: bot.Players(3)}, false)
	if gap := ends[len(ends)-1].Sub(ends[0]); gap != 0 {
		t.Errorf("a table of its own bots paused %v in all, want none", gap)
	}
}

// A drain during the pause after a hand stops the table at once, as between hands.
func TestDrainDuringHandPause(t *testing.T) {
	ended := make(chan struct{}, 100)
	tt := startTable(t, tableOpts{players: 2, rate: 1e6, real: true, pause: time.Hour,
		onHand: func(*Server, *report.HandResult) { ended <- struct{}{} }})
	tt.bots(tt.ids, nil)
	select {
	case <-ended:
	case <-time.After(time.Minute):
		t.Fatal("no hand ended within a minute")
	}
	// The hand is reported, then the pause starts: the runner waits, and the drain ends it.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		tt.srv.mu.Lock()
		waiting := tt.srv.waiting
		tt.srv.mu.Unlock()
		if waiting {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no pause began within a minute of the hand's end")
		}
	}
	tt.srv.Drain()
	select {
	case err := <-tt.done:
		if err != nil {
			t.Fatalf("the drained table stopped with %v, want nil", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the drain did not end the hour's pause")
	}
	if n := tt.srv.Runner().Stats().Hands; n != 1 {
		t.Errorf("%d hands dealt, want 1: none after the pause began", n)
	}
}
