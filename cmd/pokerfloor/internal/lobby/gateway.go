package lobby

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"

	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/workflows"
)

// Seats says where a tournament's players sit (*workflows.Tournament is one).
type Seats interface {
	Seat(ctx context.Context, player string) (workflows.Seat, error)
}

// GatewayConfig is a Gateway's.
type GatewayConfig struct {
	// Tournament names the tournament in messages (NAMESPACE/NAME).
	Tournament string
	// Verify checks a player's entry token (signature, expiry, the tournament it is bound to) and
	// returns the player it names, or the error that says what is wrong with it (bad_token,
	// token_expired; internal when it cannot be checked now).
	Verify func(ctx context.Context, token string) (player string, err *protocol.Error)
	// Seats says where the players sit.
	Seats Seats
	// Table gives the WebSocket address of the table seat is at and a token for the player there,
	// or why it cannot be reached now (no Pod ready: tried again).
	Table func(ctx context.Context, seat workflows.Seat) (url, token string, err error)
	// Patience bounds how long a connection waits for its player's next seat (a move in
	// progress), or for the table he is seated at to take him (its Pod starting, his seat not
	// there yet: a refusal that passes), before it is closed; zero: ten minutes. A refusal that
	// does not pass (a seat the table's own bot plays, a token the table does not take) closes
	// the connection at once.
	Patience time.Duration
	Logger   *slog.Logger
}

// Gateway is a tournament's one address for its players: a player's WebSocket joins there with
// his entry token, and the gateway relays it to his table's, following him to his next table when
// he is moved or his table breaks, on the same connection. It only relays: what the client
// receives is what his table sends his seat, and his frames go to his own seat only (the gateway
// joins the table for him with a token of his own for that table; a second join is refused).
type Gateway struct{ cfg GatewayConfig }

// NewGateway returns a gateway.
func NewGateway(cfg GatewayConfig) *Gateway {
	if cfg.Patience <= 0 {
		cfg.Patience = 10 * time.Minute
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Gateway{cfg: cfg}
}

// gatewayRead is the largest frame relayed either way: a view is a few kilobytes.
const gatewayRead = 1 << 20

// ServeHTTP serves one player's connection. A token in the request (?token=, or Authorization:
// Bearer) is checked before the WebSocket is accepted, so that a bad one is a 401 saying why;
// without one, the first frame must be a join with it, and a bad one is the table's own fatal
// error (bad_token or token_expired).
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	token := r.URL.Query().Get("token")
	if h := r.Header.Get("Authorization"); token == "" && strings.HasPrefix(h, "Bearer ") {
		token = strings.TrimPrefix(h, "Bearer ")
	}
	player := ""
	if token != "" {
		p, perr := g.cfg.Verify(r.Context(), token)
		if perr != nil {
			status := http.StatusUnauthorized
			if perr.Code == protocol.CodeInternal {
				status = http.StatusServiceUnavailable
			}
			http.Error(w, fmt.Sprintf("the token is refused (%s): %s", perr.Code, perr.Message), status)
			return
		}
		player = p
	}
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept has answered
	}
	ws.SetReadLimit(gatewayRead)
	defer ws.CloseNow()
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	s := &session{g: g, client: ws, self: selfURL(r)}
	if err := s.readJoin(ctx, token, player); err != nil {
		return
	}
	s.run(ctx)
}

// selfURL is the address the client connected to, for the Moves passed on to it.
func selfURL(r *http.Request) string {
	scheme := "ws"
	if r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https" {
		scheme = "wss"
	}
	path := r.RequestURI
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	return scheme + "://" + r.Host + path
}

// session is one player's connection through the gateway.
type session struct {
	g      *Gateway
	client *websocket.Conn
	self   string
	player string
	join   protocol.Join // the client's join: its token is his entry token
	// refusal is the last refusal that passes a table gave him (not passed on): not_seated
	refusal *protocol.Error
}

// readJoin reads the client's join and checks its token (against the request's, when it had one).
func (s *session) readJoin(ctx context.Context, token, player string) error {
	_, frame, err := s.client.Read(ctx)
	if err != nil {
		return err
	}
	env, perr := protocol.Decode(frame)
	if perr == nil && env.Type != protocol.TypeJoin {
		perr = &protocol.Error{Code: protocol.CodeNotJoined, Message: fmt.Sprintf("the first frame is a join with the player's token, not %q", env.Type)}
	}
	if perr == nil {
		perr = protocol.DecodeData(env, &s.join)
	}
	if perr == nil && s.join.Token == "" {
		s.join.Token = token
	}
	if perr == nil && token != "" && s.join.Token != token {
		perr = &protocol.Error{Code: protocol.CodeBadToken, Message: "the join's token is not the one the connection was opened with"}
	}
	if perr == nil && player == "" {
		player, perr = s.g.cfg.Verify(ctx, s.join.Token)
	}
	if perr != nil {
		perr.Fatal = true
		s.fail(ctx, perr, websocket.StatusPolicyViolation)
		return perr
	}
	s.player = player
	return nil
}

// fail sends a fatal error and closes the client's connection with status and its reason.
func (s *session) fail(ctx context.Context, e *protocol.Error, status websocket.StatusCode) {
	e.Fatal = true
	_ = s.client.Write(ctx, websocket.MessageText, protocol.MustEncode(protocol.TypeError, e))
	reason := string(e.Code) + ": " + e.Message
	if len(reason) > 120 {
		reason = reason[:120]
	}
	_ = s.client.Close(status, reason)
}

// run relays the player to his table, and to the next one each time he leaves it, until he has
// no seat any more, the client goes, or no seat is found for him within Patience.
func (s *session) run(ctx context.Context) {
	fromClient := make(chan []byte, 16)
	go func() {
		defer close(fromClient)
		for {
			_, frame, err := s.client.Read(ctx)
			if err != nil {
				return
			}
			select {
			case fromClient <- frame:
			case <-ctx.Done():
				return
			}
		}
	}()
	var at workflows.Seat
	delay := 100 * time.Millisecond
	var failingSince time.Time // since when no table has welcomed him
	for {
		seat, perr := s.locate(ctx, fromClient)
		if ctx.Err() != nil {
			return
		}
		if perr != nil {
			s.fail(ctx, perr, websocket.StatusNormalClosure)
			return
		}
		if at.TableID != "" && seat.TableID != at.TableID {
			s.g.cfg.Logger.Info("gateway: player follows to his new table", "tournament", s.g.cfg.Tournament, "player", s.player, "from", at.TableID, "to", seat.TableID)
		}
		at = seat
		start := time.Now()
		joined, deadEnd, clientGone := s.relay(ctx, seat, fromClient)
		if clientGone || ctx.Err() != nil {
			return
		}
		if deadEnd != nil {
			// The table refuses the seat the tournament gives him, and asking again cannot
			// change that: its word is the answer, now.
			s.fail(ctx, &protocol.Error{Code: deadEnd.Code, Rule: deadEnd.Rule, Message: fmt.Sprintf(
				"table %s refuses player %q the seat tournament %s gives him: %s", seat.TableID, s.player, s.g.cfg.Tournament, deadEnd.Message)},
				websocket.StatusPolicyViolation)
			return
		}
		switch {
		case joined:
			failingSince, s.refusal = time.Time{}, nil
		case failingSince.IsZero():
			failingSince = time.Now()
		case time.Since(failingSince) > s.g.cfg.Patience:
			// Seated there by the tournament, not taken by the table all along (no Pod ready, or
			// his seat not there): his move has not come through, and he is to join again later.
			e := &protocol.Error{Code: protocol.CodeNotSeated, Message: fmt.Sprintf(
				"table %s of tournament %s has not taken player %q for %v: join again later", seat.TableID, s.g.cfg.Tournament, s.player, s.g.cfg.Patience)}
			if s.refusal != nil {
				e.Message += " (the table's last word: " + s.refusal.Message + ")"
			}
			s.fail(ctx, e, websocket.StatusNormalClosure)
			return
		}
		// A table that would not take him, or let him go at once: wait a little before asking
		// again (his move may not be recorded yet, or the Pod is starting).
		if !joined || time.Since(start) < time.Second {
			if !sleep(ctx, delay) {
				return
			}
			delay = min(2*delay, 2*time.Second)
		} else {
			delay = 100 * time.Millisecond
		}
	}
}

// locate asks where the player sits until he is seated (a move and a new table take a moment),
// for at most Patience; it returns the error to close the client's connection with when he has no
// seat (out, unknown) or none comes. The client's frames meanwhile go nowhere.
func (s *session) locate(ctx context.Context, fromClient <-chan []byte) (workflows.Seat, *protocol.Error) {
	end := time.Now().Add(s.g.cfg.Patience)
	unknownSince := time.Time{}
	delay := 100 * time.Millisecond
	for {
		seat, err := s.g.cfg.Seats.Seat(ctx, s.player)
		if ctx.Err() != nil {
			return seat, nil
		}
		switch {
		case err != nil:
			s.g.cfg.Logger.Warn("gateway: where the player sits", "tournament", s.g.cfg.Tournament, "player", s.player, "err", err)
		case seat.Status == workflows.SeatSeated && seat.TableID != "":
			return seat, nil
		case seat.Status == workflows.SeatOut:
			return seat, &protocol.Error{Code: protocol.CodeNotSeated,
				Message: fmt.Sprintf("player %q is out of tournament %s: he has no seat any more", s.player, s.g.cfg.Tournament)}
		case seat.Status == workflows.SeatUnknown:
			// A player between two sections is in neither for a moment: a few seconds.
			if unknownSince.IsZero() {
				unknownSince = time.Now()
			} else if time.Since(unknownSince) > 5*time.Second {
				return seat, &protocol.Error{Code: protocol.CodeNotSeated,
					Message: fmt.Sprintf("tournament %s has no entry %q", s.g.cfg.Tournament, s.player)}
			}
		}
		if time.Now().After(end) {
			return seat, &protocol.Error{Code: protocol.CodeNotSeated,
				Message: fmt.Sprintf("no seat for player %q in tournament %s after %v (%s): join again later", s.player, s.g.cfg.Tournament, s.g.cfg.Patience, seat.Status)}
		}
		if !drainWhile(ctx, fromClient, delay) {
			return seat, nil
		}
		delay = min(2*delay, time.Second)
	}
}

// relay joins the player's table and relays both ways until the table lets him go (it closes, or
// says he has no seat there), or the client goes (clientGone). joined says the table welcomed
// him; deadEnd is the table's refusal of his join when it is not one that passes (fatalError). A
// Move the table sends is passed on with this gateway's address and his own entry token, so that
// a client that does reconnect comes back here; a table's closing notice and its refusals are
// the gateway's to act on, and are not passed on.
func (s *session) relay(ctx context.Context, seat workflows.Seat, fromClient <-chan []byte) (joined bool, deadEnd *protocol.Error, clientGone bool) {
	url, token, err := s.g.cfg.Table(ctx, seat)
	if err != nil {
		s.g.cfg.Logger.Info("gateway: table not reachable", "tournament", s.g.cfg.Tournament, "table", seat.TableID, "err", err)
		return false, nil, false
	}
	up, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		s.g.cfg.Logger.Info("gateway: dialling the table", "tournament", s.g.cfg.Tournament, "table", seat.TableID, "err", err)
		return false, nil, false
	}
	defer up.CloseNow()
	up.SetReadLimit(gatewayRead)
	if err := up.Write(ctx, websocket.MessageText, protocol.MustEncode(protocol.TypeJoin, protocol.Join{Token: token, ClientSeed: s.join.ClientSeed})); err != nil {
		return false, nil, false
	}
	upCtx, stop := context.WithCancel(ctx)
	defer stop()
	fromTable := make(chan []byte, 16)
	go func() {
		defer close(fromTable)
		for {
			_, frame, err := up.Read(upCtx)
			if err != nil {
				return
			}
			select {
			case fromTable <- frame:
			case <-upCtx.Done():
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return joined, nil, true
		case frame, ok := <-fromClient:
			if !ok {
				return joined, nil, true
			}
			if env, perr := protocol.Decode(frame); perr == nil && env.Type == protocol.TypeJoin {
				_ = s.client.Write(ctx, websocket.MessageText, protocol.MustEncode(protocol.TypeError, &protocol.Error{Code: protocol.CodeBadAction,
					Message: "this connection has joined already: it plays the seat of the token it joined with"}))
				continue
			}
			if err := up.Write(ctx, websocket.MessageText, frame); err != nil {
				return joined, nil, false
			}
		case frame, ok := <-fromTable:
			if !ok {
				return joined, nil, false
			}
			out, what := s.fromTable(frame)
			if e := fatalError(frame); e != nil && what == passFrame && !joined {
				return false, e, false // a refusal that does not pass
			}
			switch what {
			case dropFrame:
				continue
			case leaveTable:
				return joined, nil, false
			case welcomed:
				joined = true
			}
			if err := s.client.Write(ctx, websocket.MessageText, out); err != nil || what == endSession {
				if what == endSession {
					_ = s.client.Close(websocket.StatusPolicyViolation, "connected again elsewhere")
				}
				return joined, nil, true
			}
		}
	}
}

// fatalError is the fatal error a table's frame carries, nil for any other frame. Before his
// welcome it is the table's refusal of his join. A refusal passes when asking where he sits and
// joining again can end it: not_seated (his seat there not yet or no longer, the table not set up
// yet or closed: a move in transit, a Pod starting; fromTable leaves the table on it), and the
// table's closing or Move without a welcome (he is being moved). Any other does not: his seat
// there played by the table's own bot (bot_seat), the table's key not the one the gateway signs
// with (bad_token, token_expired), a join the table cannot read.
func fatalError(frame []byte) *protocol.Error {
	env, perr := protocol.Decode(frame)
	if perr != nil || env.Type != protocol.TypeError {
		return nil
	}
	var e protocol.Error
	if protocol.DecodeData(env, &e) != nil || !e.Fatal {
		return nil
	}
	return &e
}

// What the gateway does with a table's frame.
type tableFrame int

const (
	passFrame  tableFrame = iota // to the client
	welcomed                     // the table's welcome: to the client
	dropFrame                    // not for the client
	leaveTable                   // the table has let the player go: ask where he sits now
	endSession                   // to the client, and the connection ends (he connected again elsewhere)
)

// fromTable decides what a table's frame is to the client, and returns it as it goes (a Move
// rewritten).
func (s *session) fromTable(frame []byte) ([]byte, tableFrame) {
	env, perr := protocol.Decode(frame)
	if perr != nil {
		return frame, passFrame
	}
	switch env.Type {
	case protocol.TypeWelcome:
		return frame, welcomed
	case protocol.TypeMove:
		var m protocol.Move
		if protocol.DecodeData(env, &m) != nil {
			return nil, dropFrame
		}
		m.URL, m.Token = s.self, s.join.Token
		return protocol.MustEncode(protocol.TypeMove, m), passFrame
	case protocol.TypeClosing:
		return nil, dropFrame // the table stops or lets him go: the gateway follows him
	case protocol.TypeError:
		var e protocol.Error
		if protocol.DecodeData(env, &e) != nil || !e.Fatal {
			break
		}
		switch e.Code {
		case protocol.CodeNotSeated:
			s.refusal = &e
			return nil, leaveTable // no seat for him here (any more)
		case protocol.CodeReplaced, protocol.CodeReplayed:
			return frame, endSession
		}
	}
	return frame, passFrame
}

// drainWhile waits d, dropping what the client sends meanwhile (no table to send it to); false
// when the client has gone or ctx ended.
func drainWhile(ctx context.Context, fromClient <-chan []byte, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return false
		case _, ok := <-fromClient:
			if !ok {
				return false
			}
		case <-t.C:
			return true
		}
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
