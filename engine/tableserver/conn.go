package tableserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"
	"golang.org/x/time/rate"

	"github.com/pokerfloor/pokerfloor/engine/protocol"
)

const (
	websocketStatusNormal    = websocket.StatusNormalClosure
	websocketStatusGoingAway = websocket.StatusGoingAway
	// outQueue is how many frames may wait for a slow connection before it is dropped: a hand
	// sends a few dozen.
	outQueue = 512
	// writeTimeout bounds one frame's write to a client that stopped reading.
	writeTimeout = 30 * time.Second
	// joinTimeout is how long a connection may wait before it joins.
	joinTimeout = 30 * time.Second
)

// conn is one WebSocket connection: a player's, a spectator's, or one that has not joined yet.
type conn struct {
	srv *Server
	ws  *websocket.Conn
	out chan outFrame

	// Set at the join, under the server's lock.
	player *player // nil for a spectator
	role   protocol.Role
	jti    string

	lastType protocol.Type // the type of the frame being served (read loop only)

	closeOnce sync.Once
	done      chan struct{}
}

// outFrame is a frame to write, or the close that ends the connection.
type outFrame struct {
	data   []byte
	close  bool
	status websocket.StatusCode
	reason string
}

// send queues a frame without blocking; a connection too slow to keep up is closed.
func (c *conn) send(frame []byte) {
	select {
	case <-c.done:
	case c.out <- outFrame{data: frame}:
	default:
		c.srv.log.Warn("connection too slow: closed", "table", c.srv.cfg.TableID)
		c.shut()
	}
}

// sendError sends a protocol error; a fatal one closes the connection after it.
func (c *conn) sendError(e *protocol.Error) {
	c.send(protocol.MustEncode(protocol.TypeError, e))
	if e.Fatal {
		status := websocket.StatusPolicyViolation
		switch e.Code {
		case protocol.CodeTooLarge:
			status = websocket.StatusMessageTooBig
		case protocol.CodeInternal:
			status = websocket.StatusInternalError
		}
		c.closeAfter(status, string(e.Code)+": "+e.Message)
	}
}

// closeAfter closes the connection once the frames queued before are written.
func (c *conn) closeAfter(status websocket.StatusCode, reason string) {
	if len(reason) > 120 { // a close frame's reason is at most 123 bytes
		reason = reason[:120]
	}
	select {
	case <-c.done:
	case c.out <- outFrame{close: true, status: status, reason: reason}:
	default:
		c.shut()
	}
}

// shut closes the connection now. It never blocks (it may be called with the server's lock held):
// the socket is closed on a goroutine of its own, since closing waits for a write in progress.
func (c *conn) shut() {
	c.closeOnce.Do(func() {
		close(c.done)
		go c.ws.CloseNow()
	})
}

// writeLoop writes the queued frames until a close. It is the connection's only writer, so a slow
// client delays only his own frames: the table hands frames over through the bounded queue and never
// waits on a socket. A write that stalls past writeTimeout (a client that stopped reading) closes
// the connection through a watchdog timer armed around each write, rather than a context with a
// deadline a write: that context, its timer and the library's AfterFunc on it were a third of the
// server's garbage per frame in the load benchmark.
func (c *conn) writeLoop() {
	watchdog := time.AfterFunc(writeTimeout, c.shut)
	watchdog.Stop()
	defer watchdog.Stop()
	for {
		select {
		case <-c.done:
			return
		case f := <-c.out:
			if f.close {
				c.ws.Close(f.status, f.reason)
				c.shut()
				return
			}
			watchdog.Reset(writeTimeout)
			err := c.ws.Write(context.Background(), websocket.MessageText, f.data)
			watchdog.Stop()
			if err != nil {
				c.shut()
				return
			}
		}
	}
}

// serveWS accepts a WebSocket and serves it until it closes.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept has answered the request
	}
	ws.SetReadLimit(protocol.MaxFrame)
	c := &conn{srv: s, ws: ws, out: make(chan outFrame, outQueue), done: make(chan struct{})}
	go c.writeLoop()
	defer s.leave(c)
	c.readLoop()
}

// readLoop reads and handles frames until the connection ends.
func (c *conn) readLoop() {
	s := c.srv
	limit := rate.NewLimiter(rate.Limit(s.cfg.FramesPerSecond), s.cfg.Burst)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-c.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	joinBy := time.AfterFunc(joinTimeout, func() {
		s.mu.Lock()
		joined := c.role != ""
		s.mu.Unlock()
		if !joined {
			c.sendError(&protocol.Error{Code: protocol.CodeNotJoined, Fatal: true, Message: fmt.Sprintf("no join within %v", joinTimeout)})
		}
	})
	defer joinBy.Stop()
	dying := false // a fatal error was sent: the close follows it
	for {
		typ, frame, err := c.ws.Read(ctx)
		if err != nil {
			if errors.Is(err, websocket.ErrMessageTooBig) {
				s.log.Info("frame too large: connection closed", "table", s.cfg.TableID)
			}
			c.shut()
			return
		}
		if dying {
			continue // read and drop what comes until the close handshake is done
		}
		// Every frame counts against the rate but an action the table accepted at the player's
		// turn: the table asked for it, and a bot at a table of bots answers many a second.
		var perr *protocol.Error
		accepted := false
		switch {
		case typ != websocket.MessageText:
			perr = &protocol.Error{Code: protocol.CodeBadJSON, Message: "frames are JSON text, not binary"}
		default:
			perr, accepted = c.handle(frame)
		}
		if !accepted && !limit.Allow() {
			perr = &protocol.Error{Code: protocol.CodeRateLimited, Fatal: true,
				Message: fmt.Sprintf("more than %v frames a second (a burst of %d): the connection is closed", s.cfg.FramesPerSecond, s.cfg.Burst)}
		}
		if perr != nil {
			c.sendError(perr)
			dying = perr.Fatal
		}
	}
}

// handle serves one frame; the error it returns is sent to the client. accepted reports an action
// taken for the player's turn.
func (c *conn) handle(frame []byte) (perr *protocol.Error, accepted bool) {
	c.lastType = ""
	perr = c.serve(frame)
	return perr, perr == nil && c.lastType == protocol.TypeAction
}

// serve is handle's body.
func (c *conn) serve(frame []byte) *protocol.Error {
	s := c.srv
	env, perr := protocol.Decode(frame)
	if perr != nil {
		return perr
	}
	c.lastType = env.Type
	s.mu.Lock()
	joined := c.role != ""
	s.mu.Unlock()
	if !joined {
		if env.Type != protocol.TypeJoin {
			return &protocol.Error{Code: protocol.CodeNotJoined, Fatal: true, Message: fmt.Sprintf("the first frame must be a join with a token, not %q", env.Type)}
		}
		var j protocol.Join
		if perr := protocol.DecodeData(env, &j); perr != nil {
			perr.Fatal = true
			return perr
		}
		return s.join(c, j)
	}
	switch env.Type {
	case protocol.TypeJoin:
		return &protocol.Error{Code: protocol.CodeBadAction, Message: "this connection has joined already"}
	case protocol.TypeChat:
		var m protocol.Chat
		if perr := protocol.DecodeData(env, &m); perr != nil {
			return perr
		}
		return s.chat(c, m)
	}
	p := c.player
	if p == nil {
		switch env.Type {
		case protocol.TypeAction, protocol.TypeAdvance, protocol.TypeSeed, protocol.TypeSitIn, protocol.TypeSitOut:
			return &protocol.Error{Code: protocol.CodeReadOnly, Message: fmt.Sprintf("a spectator cannot send %q: spectators only watch", env.Type)}
		}
		return unknownType(env.Type)
	}
	switch env.Type {
	case protocol.TypeAction:
		var a protocol.Action
		if perr := protocol.DecodeData(env, &a); perr != nil {
			return perr
		}
		return s.action(c, p, a)
	case protocol.TypeAdvance:
		var a protocol.Advance
		if perr := protocol.DecodeData(env, &a); perr != nil {
			return perr
		}
		if perr := s.advance(p, a); perr != nil {
			return perr
		}
		c.send(protocol.MustEncode(protocol.TypeAdvance, a)) // the echo says it is queued
		return nil
	case protocol.TypeSeed:
		var m protocol.Seed
		if perr := protocol.DecodeData(env, &m); perr != nil {
			return perr
		}
		if err := s.deck.SetClientSeed(p.id, m.ClientSeed); err != nil {
			return &protocol.Error{Code: protocol.CodeBadAction, Message: err.Error()}
		}
		return nil
	case protocol.TypeSitOut, protocol.TypeSitIn:
		var m protocol.Empty
		if perr := protocol.DecodeData(env, &m); perr != nil {
			return perr
		}
		s.mu.Lock()
		p.sitOut = env.Type == protocol.TypeSitOut
		s.mu.Unlock()
		return nil
	}
	return unknownType(env.Type)
}

func unknownType(t protocol.Type) *protocol.Error {
	return &protocol.Error{Code: protocol.CodeUnknownType,
		Message: fmt.Sprintf("unknown message type %q: expected join, action, advance, seed, chat, sitin or sitout", t)}
}

// awaitSetUp holds a join that came before the table was set up (a process just started, loading
// its state from the tournament) until it is, the table stops, the connection ends, or
// Config.SetUpWait passes: the player is seated once the table knows its seats, rather than
// refused and left to try again.
func (s *Server) awaitSetUp(c *conn) {
	t := time.NewTimer(s.cfg.SetUpWait)
	defer t.Stop()
	select {
	case <-s.setUp:
	case <-s.ended:
	case <-c.done:
	case <-t.C:
	}
}

// join checks the token and seats the connection: a player at his own seat (never another's), or a
// spectator.
func (s *Server) join(c *conn, j protocol.Join) *protocol.Error {
	claims, perr := s.cfg.Tokens.Verify(j.Token)
	if perr != nil {
		return perr
	}
	s.awaitSetUp(c)
	s.mu.Lock()
	defer s.mu.Unlock()
	if claims.Role == protocol.RolePlayer && s.cfg.Follow != nil {
		if p := s.players[claims.Subject]; s.stopped || p == nil || p.seat < 0 {
			switch m, ok := s.cfg.Follow(claims.Subject); {
			case ok && m.URL == "":
				c.role, c.jti = claims.Role, claims.ID
				c.send(protocol.MustEncode(protocol.TypeClosing, protocol.Closing{Reason: "you are being moved: your new seat is being drawn; join again in a moment"}))
				c.closeAfter(websocket.StatusTryAgainLater, "your new seat is being drawn")
				return nil
			case ok && m.Table != s.cfg.TableID:
				c.role, c.jti = claims.Role, claims.ID // joined, to be moved on at once
				c.send(protocol.MustEncode(protocol.TypeMove, m))
				c.closeAfter(websocketStatusNormal, "moved to table "+m.Table)
				return nil
			}
		}
	}
	switch {
	case !s.started:
		return &protocol.Error{Code: protocol.CodeNotSeated, Fatal: true, Message: "the table is not set up yet: try again in a moment"}
	case s.stopped:
		return &protocol.Error{Code: protocol.CodeNotSeated, Fatal: true, Message: "the table is closed"}
	}
	if old := s.tokensUsed[claims.ID]; old != nil {
		return &protocol.Error{Code: protocol.CodeReplayed, Fatal: true,
			Message: "this token is in use by another open connection: a token serves one connection at a time"}
	}
	w := protocol.Welcome{Protocol: protocol.Version, Tournament: claims.Tournament, Table: claims.Table, Seat: -1, Role: claims.Role}
	if claims.Role == protocol.RoleSpectator {
		c.role, c.jti = claims.Role, claims.ID
		s.tokensUsed[claims.ID] = c
		s.spectators[c] = struct{}{}
		c.send(protocol.MustEncode(protocol.TypeWelcome, w))
		if s.spectView != nil {
			c.send(s.spectView)
		}
	} else {
		p := s.players[claims.Subject]
		if p == nil || p.seat < 0 {
			return &protocol.Error{Code: protocol.CodeNotSeated, Fatal: true, Message: fmt.Sprintf("player %q has no seat at table %s", claims.Subject, s.cfg.TableID)}
		}
		if p.bot != nil {
			return &protocol.Error{Code: protocol.CodeBotSeat, Fatal: true, Message: fmt.Sprintf("player %q's seat at table %s is played by the table's own bot", claims.Subject, s.cfg.TableID)}
		}
		if old := p.conn; old != nil {
			old.sendError(&protocol.Error{Code: protocol.CodeReplaced, Fatal: true, Message: "you connected again from elsewhere: this connection is closed"})
			delete(s.tokensUsed, old.jti)
		}
		w.Player, w.Seat, w.Reconnect = p.id, p.seat, p.view != nil
		c.role, c.jti, c.player = claims.Role, claims.ID, p
		s.tokensUsed[claims.ID] = c
		p.conn, p.away, p.came = c, false, true
		p.signal()
		s.presenceChangedLocked(c) // his own view below, after his welcome
		if j.ClientSeed != "" {
			if err := s.deck.SetClientSeed(p.id, j.ClientSeed); err != nil {
				c.sendError(&protocol.Error{Code: protocol.CodeBadAction, Message: err.Error()})
			}
		}
		c.send(protocol.MustEncode(protocol.TypeWelcome, w))
		if p.hole != nil { // as at the deal: the cards, then the view
			c.send(p.hole)
		}
		if p.view != nil {
			c.send(p.view)
		} else if s.spectView != nil {
			c.send(s.spectView)
		}
	}
	if s.clockFrame != nil {
		c.send(s.clockFrame)
	}
	for _, r := range s.results {
		c.send(r)
	}
	c.send(s.commit)
	return nil
}

// leave forgets a connection that closed. A player keeps his seat: his turn waits the grace time.
func (s *Server) leave(c *conn) {
	c.shut()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tokensUsed[c.jti] == c {
		delete(s.tokensUsed, c.jti)
	}
	delete(s.spectators, c)
	if p := c.player; p != nil && p.conn == c {
		p.conn = nil
		p.signal()
		s.presenceChangedLocked(c)
	}
}

// action hands a player's action to his turn.
func (s *Server) action(c *conn, p *player, a protocol.Action) *protocol.Error {
	act, ok := protocol.ParseAction(a.Action)
	if !ok {
		return &protocol.Error{Code: protocol.CodeBadAction, Message: fmt.Sprintf("unknown action %q: expected fold, check, call, bet, raise or allin", a.Action)}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case !s.inHand:
		return &protocol.Error{Code: protocol.CodeNoHand, Message: "no hand is in progress"}
	case a.Hand != s.hand:
		return &protocol.Error{Code: protocol.CodeWrongHand, Message: fmt.Sprintf("the action is for hand %d; hand %d is in progress", a.Hand, s.hand)}
	case s.toAct != p.seat:
		return &protocol.Error{Code: protocol.CodeNotYourTurn, Rule: "A1",
			Message: fmt.Sprintf("seat %d acted out of turn: seat %d is to act (rule A1; queue an advance action instead, rule A14)", p.seat, s.toAct)}
	}
	select {
	case p.actions <- actionMsg{c: c, turn: s.seq, hand: a.Hand, action: act, to: a.To}:
		return nil
	default:
		return &protocol.Error{Code: protocol.CodeBadAction, Message: "too many actions waiting: wait for the table"}
	}
}

// advance queues or cancels an advance action (A14).
func (s *Server) advance(p *player, a protocol.Advance) *protocol.Error {
	kind, ok := protocol.ParseAdvance(a.Advance)
	if !ok {
		return &protocol.Error{Code: protocol.CodeBadAction, Message: fmt.Sprintf("unknown advance action %q: expected checkfold, call, fold or \"\" to cancel", a.Advance)}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case !s.inHand:
		return &protocol.Error{Code: protocol.CodeNoHand, Message: "no hand is in progress"}
	case a.Hand != s.hand:
		return &protocol.Error{Code: protocol.CodeWrongHand, Message: fmt.Sprintf("the advance action is for hand %d; hand %d is in progress", a.Hand, s.hand)}
	case s.toAct == p.seat:
		return &protocol.Error{Code: protocol.CodeBadAction, Rule: "A14", Message: "it is your turn: act now rather than queue an advance action (rule A14)"}
	}
	p.adv = queuedAdvance{kind: kind, hand: s.hand, round: s.round, facing: s.currentBet}
	return nil
}

// chat relays a player's line to everyone.
func (s *Server) chat(c *conn, m protocol.Chat) *protocol.Error {
	if c.player == nil {
		return &protocol.Error{Code: protocol.CodeReadOnly, Message: "spectators cannot chat"}
	}
	switch {
	case m.From != "" || !m.At.IsZero():
		return &protocol.Error{Code: protocol.CodeBadChat, Message: "from and at are set by the server: send only text"}
	case m.Text == "" || len(m.Text) > protocol.MaxChat || !utf8.ValidString(m.Text):
		return &protocol.Error{Code: protocol.CodeBadChat, Message: fmt.Sprintf("a chat line is 1 to %d bytes of UTF-8, this one has %d", protocol.MaxChat, len(m.Text))}
	}
	msg := protocol.MustEncode(protocol.TypeChat, protocol.Chat{From: c.player.id, Text: m.Text, At: s.clock.Now().UTC()})
	s.mu.Lock()
	s.broadcastLocked(msg)
	s.mu.Unlock()
	return nil
}
