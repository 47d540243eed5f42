package lobby

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/engine/report/reporttest"
	"github.com/pokerfloor/pokerfloor/engine/tableserver"
	"github.com/pokerfloor/pokerfloor/workflows"
)

// The gateway's tests run real table servers (engine/tableserver, each table's state from a
// host.LocalReporter), so that every refusal is the table's own; where the tournament seats the
// player is the test's to say (the workflow's Seat query, which TestPlayerFollowsThroughTheGateway
// in controllers asks of a real server). No test waits on the wall clock but the one of Patience,
// and that one only for a lower bound.

const gatewayTournament = "sunday"

var (
	tableKey = []byte("0123456789abcdef0123456789abcdef")
	otherKey = []byte("fedcba9876543210fedcba9876543210")
)

// testTable is one table server on loopback.
type testTable struct {
	id     string
	url    string
	tokens *tableserver.Tokens
	open   func() // lets the table load its state (gated tables)
}

// serveTable serves table id with players, those in bots played by the table's own bots, until the
// test ends. A gated table refuses every join ("not set up yet", after a short wait) until open is
// called.
func serveTable(t *testing.T, id string, players []string, bots map[string]bool, gated bool) *testTable {
	t.Helper()
	local, err := host.NewLocalReporter(host.LocalConfig{TableID: id, Config: engine.Config{Seats: len(players)},
		Levels: []engine.Level{{SmallBlind: 50, BigBlind: 100}}, Players: players, Stack: 10000})
	if err != nil {
		t.Fatal(err)
	}
	tokens, err := tableserver.NewTokens(tableKey, gatewayTournament, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Reporter = local
	open := func() {}
	if gated {
		g := reporttest.NewGated(local)
		rep, open = g, g.Open
	}
	srv, err := tableserver.New(tableserver.Config{Tournament: gatewayTournament, TableID: id, Reporter: rep, Tokens: tokens,
		SetUpWait: 50 * time.Millisecond, // a gated table refuses soon, as one whose state does not come
		Bots: engine.PlayersFunc(func(p string) engine.Decider {
			if bots[p] {
				return bot.CheckFolder{}
			}
			return nil
		})})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = srv.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		hs.Close()
	})
	return &testTable{id: id, url: "ws" + strings.TrimPrefix(hs.URL, "http") + "/ws", tokens: tokens, open: open}
}

// gatewayFixture is a gateway in front of tables, seating its players where seat says.
type gatewayFixture struct {
	url string
	mu  sync.Mutex
	// joins counts the gateway's joins at each table (its calls for a table's address and token).
	joins map[string]int
	// joined is told the table of each join, as it is made.
	joined chan string
}

func (f *gatewayFixture) joinsAt(table string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.joins[table]
}

// startGateway serves a gateway for tables, with patience; seat says where a player sits; key
// signs the tables' tokens (nil: the tables' own key). An entry token is "entry:PLAYER".
func startGateway(t *testing.T, tables []*testTable, seat func(player string) workflows.Seat, patience time.Duration, key []byte) *gatewayFixture {
	t.Helper()
	byID := map[string]*testTable{}
	for _, tb := range tables {
		byID[tb.id] = tb
	}
	f := &gatewayFixture{joins: map[string]int{}, joined: make(chan string, 1000)}
	g := NewGateway(GatewayConfig{
		Tournament: "default/" + gatewayTournament,
		Patience:   patience,
		Verify: func(_ context.Context, token string) (string, *protocol.Error) {
			if p, ok := strings.CutPrefix(token, "entry:"); ok && p != "" {
				return p, nil
			}
			return "", &protocol.Error{Code: protocol.CodeBadToken, Message: "not an entry token"}
		},
		Seats: seatsFunc(seat),
		Table: func(_ context.Context, s workflows.Seat) (string, string, error) {
			tb := byID[s.TableID]
			if tb == nil {
				return "", "", errors.New("no such table")
			}
			tokens := tb.tokens
			if key != nil {
				var err error
				if tokens, err = tableserver.NewTokens(key, gatewayTournament, tb.id, nil); err != nil {
					return "", "", err
				}
			}
			tok, err := tokens.Issue(s.Player, protocol.RolePlayer, time.Hour)
			if err != nil {
				return "", "", err
			}
			f.mu.Lock()
			f.joins[tb.id]++
			f.mu.Unlock()
			select {
			case f.joined <- tb.id:
			default:
			}
			return tb.url, tok, nil
		},
	})
	hs := httptest.NewServer(g)
	t.Cleanup(hs.Close)
	f.url = "ws" + strings.TrimPrefix(hs.URL, "http")
	return f
}

type seatsFunc func(player string) workflows.Seat

func (f seatsFunc) Seat(_ context.Context, player string) (workflows.Seat, error) {
	return f(player), nil
}

func seatedAt(player, table string) workflows.Seat {
	return workflows.Seat{Player: player, Status: workflows.SeatSeated, Table: 1, TableID: table}
}

// playerClient is a player's connection to the gateway.
type playerClient struct {
	t  *testing.T
	ws *websocket.Conn
}

func connect(t *testing.T, ctx context.Context, f *gatewayFixture, player string) *playerClient {
	t.Helper()
	ws, _, err := websocket.Dial(ctx, f.url+"?token=entry:"+player, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.CloseNow() })
	if err := ws.Write(ctx, websocket.MessageText, protocol.MustEncode(protocol.TypeJoin, protocol.Join{})); err != nil {
		t.Fatal(err)
	}
	return &playerClient{t: t, ws: ws}
}

// next reads the next frame; on the connection's close it returns the close instead.
func (c *playerClient) next(ctx context.Context) (protocol.Envelope, *websocket.CloseError) {
	c.t.Helper()
	_, frame, err := c.ws.Read(ctx)
	if err != nil {
		var ce websocket.CloseError
		if errors.As(err, &ce) {
			return protocol.Envelope{}, &ce
		}
		c.t.Fatalf("reading from the gateway: %v (the connection neither welcomed nor closed)", err)
	}
	env, perr := protocol.Decode(frame)
	if perr != nil {
		c.t.Fatalf("a frame the gateway sent: %v", perr)
	}
	return env, nil
}

// closed reads until the connection closes: the fatal error before the close, and the close.
func (c *playerClient) closed(ctx context.Context) (*protocol.Error, websocket.CloseError) {
	c.t.Helper()
	var fatal *protocol.Error
	for {
		env, ce := c.next(ctx)
		if ce != nil {
			return fatal, *ce
		}
		if env.Type == protocol.TypeWelcome {
			c.t.Fatalf("welcomed, want the connection closed")
		}
		var e protocol.Error
		if env.Type == protocol.TypeError && protocol.DecodeData(env, &e) == nil && e.Fatal {
			fatal = &e
		}
	}
}

// welcome reads until the table's welcome.
func (c *playerClient) welcome(ctx context.Context) protocol.Welcome {
	c.t.Helper()
	for {
		env, ce := c.next(ctx)
		if ce != nil {
			c.t.Fatalf("closed (%v), want a welcome", ce)
		}
		if env.Type == protocol.TypeWelcome {
			var w protocol.Welcome
			if perr := protocol.DecodeData(env, &w); perr != nil {
				c.t.Fatal(perr)
			}
			return w
		}
	}
}

// generous bounds what a test waits for: it never holds a test that works, on any machine.
const generous = 2 * time.Minute

// A table's refusal that no move in transit explains closes the player's connection at once with
// the table's word, after the one join: the gateway's patience (an hour here) is for refusals that
// pass.
func TestGatewayClosesOnARefusalThatDoesNotPass(t *testing.T) {
	for _, tc := range []struct {
		name, player string
		key          []byte // signs the tables' tokens; nil: the tables' own
		code         protocol.Code
		says         string
	}{
		{"a seat the table's bot plays", "robot", nil, protocol.CodeBotSeat, `player "robot"'s seat at table t1 is played by the table's own bot`},
		{"a key the table does not take", "hero", otherKey, protocol.CodeBadToken, "the token's signature is not this table's"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), generous)
			defer cancel()
			t1 := serveTable(t, "t1", []string{"hero", "robot"}, map[string]bool{"robot": true}, false)
			f := startGateway(t, []*testTable{t1}, func(p string) workflows.Seat { return seatedAt(p, "t1") }, time.Hour, tc.key)
			fatal, closed := connect(t, ctx, f, tc.player).closed(ctx)
			if fatal == nil || fatal.Code != tc.code || !strings.Contains(fatal.Message, tc.says) ||
				!strings.Contains(fatal.Message, `table t1 refuses player "`+tc.player+`" the seat tournament default/sunday gives him`) {
				t.Errorf("fatal error %+v, want %s saying the table refuses the seat: %s", fatal, tc.code, tc.says)
			}
			if closed.Code != websocket.StatusPolicyViolation || !strings.HasPrefix(closed.Reason, string(tc.code)+": ") {
				t.Errorf("closed %v, want %d with the reason %s: ...", closed, websocket.StatusPolicyViolation, tc.code)
			}
			if n := f.joinsAt("t1"); n != 1 {
				t.Errorf("the gateway joined t1 %d times, want once: the refusal does not pass", n)
			}
		})
	}
}

// A refusal that passes is asked again until it has passed: the table not set up yet (its Pod
// starting), then his seat not at the table the tournament names yet (a move in transit).
func TestGatewayWaitsOnARefusalThatPasses(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), generous)
	defer cancel()
	t1 := serveTable(t, "t1", []string{"hero", "robot"}, map[string]bool{"robot": true}, true)
	t2 := serveTable(t, "t2", []string{"ann", "bob"}, map[string]bool{"ann": true, "bob": true}, false)
	var mu sync.Mutex
	at := "t1"
	f := startGateway(t, []*testTable{t1, t2}, func(p string) workflows.Seat {
		mu.Lock()
		defer mu.Unlock()
		return seatedAt(p, at)
	}, time.Hour, nil)
	c := connect(t, ctx, f, "hero")
	// Refused while t1 has not loaded its state, joined again, and again.
	for range 3 {
		select {
		case <-f.joined:
		case <-ctx.Done():
			t.Fatalf("the gateway did not join t1 three times: %v", ctx.Err())
		}
	}
	t1.open()
	if w := c.welcome(ctx); w.Player != "hero" || w.Table != "t1" || w.Seat < 0 {
		t.Fatalf("welcome %+v, want hero at a seat of t1", w)
	}
	c.ws.CloseNow()

	// t2 has no seat for him yet: the tournament has seated him there and t2 has not been told.
	mu.Lock()
	at = "t2"
	mu.Unlock()
	c = connect(t, ctx, f, "hero")
	for f.joinsAt("t2") < 3 {
		select {
		case <-f.joined:
		case <-ctx.Done():
			t.Fatalf("the gateway did not join t2 three times: %v", ctx.Err())
		}
	}
	mu.Lock()
	at = "t1" // the move came through elsewhere: t1 has him
	mu.Unlock()
	if w := c.welcome(ctx); w.Player != "hero" || w.Table != "t1" {
		t.Fatalf("welcome %+v, want hero at t1", w)
	}
}

// A refusal that passes, and does not pass within Patience, closes the connection: no seat came,
// join again later, with the table's last word.
func TestGatewayGivesUpAfterPatience(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), generous)
	defer cancel()
	t2 := serveTable(t, "t2", []string{"ann", "bob"}, map[string]bool{"ann": true, "bob": true}, false)
	const patience = 300 * time.Millisecond
	f := startGateway(t, []*testTable{t2}, func(p string) workflows.Seat { return seatedAt(p, "t2") }, patience, nil)
	start := time.Now()
	fatal, closed := connect(t, ctx, f, "hero").closed(ctx)
	if took := time.Since(start); took < patience {
		t.Errorf("closed after %v, before its patience of %v", took, patience)
	}
	if fatal == nil || fatal.Code != protocol.CodeNotSeated || !strings.Contains(fatal.Message, `has not taken player "hero" for 300ms: join again later`) ||
		!strings.Contains(fatal.Message, `the table's last word: player "hero" has no seat at table t2`) {
		t.Errorf("fatal error %+v, want not_seated: not taken within patience, with the table's last word", fatal)
	}
	if closed.Code != websocket.StatusNormalClosure {
		t.Errorf("closed %v, want a normal closure", closed)
	}
	if n := f.joinsAt("t2"); n < 2 {
		t.Errorf("the gateway joined t2 %d times, want it to have asked again", n)
	}
}
