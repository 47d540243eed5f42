package tableserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

var testKey = []byte("a test key of thirty-two bytes or more, never used in production")

var epoch = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// testTable is a table server on loopback with its reporter and a fake clock.
type testTable struct {
	t        *testing.T
	srv      *Server
	reporter *host.LocalReporter
	clock    *host.FakeClock
	tokens   *Tokens
	http     *httptest.Server
	url      string
	done     chan error
	cancel   context.CancelFunc
	ids      []string
}

type tableOpts struct {
	players int
	stack   int64
	clock   ActionClock
	grace   time.Duration
	onHand  func(*Server, *report.HandResult)
	history string
	id      string  // the table's ID; t1 when empty
	rate    float64 // frames a second a connection may send (bots playing at machine speed need more)
	pause   time.Duration
	bots    engine.Players // seats the table's own bots play
	real    bool           // the wall clock rather than a fake one
}

func startTable(t *testing.T, o tableOpts) *testTable {
	t.Helper()
	if o.stack == 0 {
		o.stack = 10000
	}
	ids := make([]string, o.players)
	for i := range ids {
		ids[i] = fmt.Sprintf("p%02d", i+1)
	}
	if o.id == "" {
		o.id = "t1"
	}
	reporter, err := host.NewLocalReporter(host.LocalConfig{TableID: o.id, Config: engine.Config{Seats: max(o.players, 2)},
		Levels: []engine.Level{{SmallBlind: 50, BigBlind: 100}, {SmallBlind: 100, BigBlind: 200}}, HandsPerLevel: 10,
		Players: ids, Stack: o.stack})
	if err != nil {
		t.Fatal(err)
	}
	clock := host.NewFakeClock(epoch)
	tokens, err := NewTokens(testKey, "sunday", o.id, clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	tt := &testTable{t: t, reporter: reporter, clock: clock, tokens: tokens, done: make(chan error, 1), ids: ids}
	cfg := Config{Tournament: "sunday", TableID: o.id, Reporter: reporter, Tokens: tokens, Clock: clock,
		ActionClock: o.clock, Grace: o.grace, HistoryDir: o.history, FramesPerSecond: o.rate, Burst: int(o.rate),
		HandPause: o.pause, Bots: o.bots}
	if o.real {
		cfg.Clock = host.RealClock{}
	}
	if o.onHand != nil {
		cfg.OnHand = func(r *report.HandResult) { o.onHand(tt.srv, r) }
	}
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tt.srv = srv
	tt.http = httptest.NewServer(srv.Handler())
	tt.url = "ws" + strings.TrimPrefix(tt.http.URL, "http") + "/ws"
	ctx, cancel := context.WithCancel(context.Background())
	tt.cancel = cancel
	go func() { tt.done <- srv.Run(ctx) }()
ready:
	for !srv.Ready() {
		select {
		case err := <-tt.done:
			if err != nil {
				t.Fatalf("the table stopped before it was ready: %v", err)
			}
			tt.done <- nil // played to its end already (its own bots, on the fake clock): wait() has it
			break ready
		default:
			time.Sleep(time.Millisecond)
		}
	}
	t.Cleanup(func() {
		cancel()
		tt.http.Close()
	})
	return tt
}

func (tt *testTable) token(player string) string {
	tt.t.Helper()
	role := protocol.RolePlayer
	if player == "" {
		role = protocol.RoleSpectator
	}
	tok, err := tt.tokens.Issue(player, role, time.Hour)
	if err != nil {
		tt.t.Fatal(err)
	}
	return tok
}

// wait returns Run's result.
func (tt *testTable) wait() error {
	tt.t.Helper()
	return <-tt.done
}

// checkChips checks that the reporter's seats hold every chip the table started with: chips are
// conserved, hand after hand.
func (tt *testTable) checkChips(stack int64) {
	tt.t.Helper()
	var sum int64
	for _, s := range tt.reporter.State().Seats {
		sum += s.Stack
	}
	if want := int64(len(tt.ids)) * stack; sum != want || tt.reporter.TotalChips() != want {
		tt.t.Fatalf("chips: the seats hold %d, the table %d, it started with %d", sum, tt.reporter.TotalChips(), want)
	}
}

// client is a test's connection with its frames.
type client struct {
	t *testing.T
	c *Client
}

func (tt *testTable) dial(token string) *client {
	tt.t.Helper()
	c, err := Dial(context.Background(), tt.url)
	if err != nil {
		tt.t.Fatal(err)
	}
	cl := &client{t: tt.t, c: c}
	if token != "" {
		cl.send(protocol.TypeJoin, protocol.Join{Token: token})
	}
	return cl
}

func (cl *client) send(ty protocol.Type, d any) {
	cl.t.Helper()
	if err := cl.c.Send(context.Background(), ty, d); err != nil {
		cl.t.Fatal(err)
	}
}

// frameWait bounds a wait for a frame that never comes: a failure, not a hung test (a minute: the
// frames a test waits for come within milliseconds).
const frameWait = time.Minute

// next reads frames until one of type ty satisfying ok (nil: any) arrives, and decodes it into d.
func (cl *client) next(ty protocol.Type, d any, ok func() bool) {
	cl.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), frameWait)
	defer cancel()
	for {
		env, frame, err := cl.c.Read(ctx)
		if err != nil {
			cl.t.Fatalf("waiting for %s: %v", ty, err)
		}
		if debugFrames {
			cl.t.Logf("%p %.200s", cl, frame)
		}
		if env.Type != ty {
			continue
		}
		if err := json.Unmarshal(env.Data, d); err != nil {
			cl.t.Fatalf("%s: %v", frame, err)
		}
		if ok == nil || ok() {
			return
		}
	}
}

// closed reads until the connection closes and returns the close error.
func (cl *client) closed() ([]protocol.Error, error) {
	var errs []protocol.Error
	for {
		env, _, err := cl.c.Read(context.Background())
		if err != nil {
			return errs, err
		}
		if env.Type == protocol.TypeError {
			var e protocol.Error
			json.Unmarshal(env.Data, &e)
			errs = append(errs, e)
		}
	}
}

// bots connects a network bot for each player and returns a channel of their ends.
func (tt *testTable) bots(players []string, onFrame func(player string, env protocol.Envelope, frame []byte)) chan error {
	done := make(chan error, len(players))
	for i, id := range players {
		b := &Bot{URL: tt.url, Token: tt.token(id), Decider: bot.New(bot.Kind(i%2), uint64(i+1)), ClientSeed: "seed " + id}
		if onFrame != nil {
			b.OnFrame = func(env protocol.Envelope, frame []byte) { onFrame(id, env, frame) }
		}
		go func() { done <- b.Play(context.Background()) }()
	}
	return done
}

var cardRE = regexp.MustCompile(`"([2-9TJQKA][cdhs])"`)

// cardsIn returns every card named in a frame.
func cardsIn(frame []byte) []string {
	var out []string
	for _, m := range cardRE.FindAllSubmatch(frame, -1) {
		out = append(out, string(m[1]))
	}
	return out
}

// foldUntilResult checks or folds at each of the player's turns until the result of hand arrives.
// foldUntilClosed checks or folds at each of the player's turns until the table closes the connection.
func (cl *client) foldUntilClosed(pending ...protocol.TableView) {
	cl.t.Helper()
	for _, v := range pending {
		cl.act(&v)
	}
	for {
		env, _, err := cl.c.Read(context.Background())
		if err != nil {
			if s := websocket.CloseStatus(err); s != websocket.StatusGoingAway && s != websocket.StatusNormalClosure {
				cl.t.Fatalf("the connection ended with %v, not a close by the table", err)
			}
			return
		}
		if env.Type == protocol.TypeView {
			var v protocol.TableView
			if err := json.Unmarshal(env.Data, &v); err != nil {
				cl.t.Fatal(err)
			}
			cl.act(&v)
		}
	}
}

// act checks or folds when v is the player's turn.
func (cl *client) act(v *protocol.TableView) {
	if v.Legal != nil && v.ToAct == v.Viewer {
		a := protocol.ActFold
		if v.Legal.Check {
			a = protocol.ActCheck
		}
		if err := cl.c.Send(context.Background(), protocol.TypeAction, protocol.Action{Hand: v.Hand, Action: a}); err != nil {
			cl.t.Fatal(err)
		}
	}
}

// pending is a view read already, acted on first when it is the player's turn.
func (cl *client) foldUntilResult(hand int64, pending ...protocol.TableView) protocol.Result {
	cl.t.Helper()
	act := func(v *protocol.TableView) {
		if v.Legal != nil && v.ToAct == v.Viewer {
			a := protocol.ActFold
			if v.Legal.Check {
				a = protocol.ActCheck
			}
			cl.send(protocol.TypeAction, protocol.Action{Hand: v.Hand, Action: a})
		}
	}
	for i := range pending {
		act(&pending[i])
	}
	for {
		env, frame, err := cl.c.Read(context.Background())
		if err != nil {
			cl.t.Fatalf("waiting for the result of hand %d: %v", hand, err)
		}
		if debugFrames {
			cl.t.Logf("%.300s", frame)
		}
		switch env.Type {
		case protocol.TypeView:
			var v protocol.TableView
			if err := json.Unmarshal(env.Data, &v); err != nil {
				cl.t.Fatal(err)
			}
			act(&v)
		case protocol.TypeResult:
			var r protocol.Result
			if err := json.Unmarshal(env.Data, &r); err != nil {
				cl.t.Fatalf("%s: %v", frame, err)
			}
			if r.Hand == hand {
				return r
			}
		}
	}
}

var debugFrames = false
