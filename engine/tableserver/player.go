package tableserver

import (
	"context"
	"errors"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
)

// player is a seated player: the engine.Decider the runner asks at his turns, fed by whichever
// connection of his is open. The fields are guarded by the server's lock, but for the channels.
type player struct {
	id   string
	srv  *Server
	seat int // -1 when not seated (any more)

	bot    engine.Decider // plays the seat in this process (Config.Bots); no connection may
	conn   *conn          // nil while disconnected
	away   bool           // disconnected past the grace: sitting out (T5) until he is back
	sitOut bool           // sitting out at his own request (T5)
	came   bool           // a connection of his has joined since the table's process started
	bank   time.Duration
	onTurn bool // the runner is asking him now
	adv    queuedAdvance
	view   []byte              // his last view, for a reconnect
	tv     *protocol.TableView // the same view, to send again when a seat's presence changes
	hole   []byte              // his hole cards in the hand in progress

	actions chan actionMsg // from his connection, during his turn
	wake    chan struct{}  // his connection came or went
}

// actionMsg is an action from a connection, checked against the protocol but not the table yet.
type actionMsg struct {
	c      *conn
	turn   int64 // the server's seq when it was sent: the turn it answers
	hand   int64
	action engine.Action
	to     int64
}

// queuedAdvance is an advance action (rule A14) and the action it was queued against.
type queuedAdvance struct {
	kind   engine.AdvanceAction
	hand   int64
	round  engine.Round
	facing int64
}

var (
	errExpired = errors.New("the action clock expired (rule A15)")
	errAway    = errors.New("the player is away: disconnected past the grace time (rule T5)")
)

// Decide waits for the player's action under the action clock: think time, then his time bank,
// then the countdown (rule A15). A queued advance action that still holds answers at once (A14). An
// action the rules refuse is answered with an error naming the rule and the amounts, and the player
// is asked again while his clock runs. A disconnected player's turn waits the grace time; then he is
// away, his hand is folded (the runner's TimeExpired) and he sits out (T5) until he reconnects.
func (p *player) Decide(ctx context.Context, v *engine.View) (engine.Decision, error) {
	s := p.srv
	clk := s.clock
	s.mu.Lock()
	turn := s.seq // the table as the last observe showed it: this turn's actions carry it
	if d, ok := p.takeAdvanceLocked(v); ok {
		s.mu.Unlock()
		return d, nil
	}
	p.onTurn = true
	connected := p.conn != nil
	bank := p.bank
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		p.onTurn, s.clockFrame = false, nil
		s.mu.Unlock()
	}()

	ac := s.cfg.ActionClock
	phase := protocol.ClockThink
	phaseStart, phaseLen := clk.Now(), ac.Think
	timer := clk.After(ac.Think)
	s.sendClock(v, phase, ac.Think, bank, phaseStart)
	var grace <-chan time.Time
	startGrace := func() {
		grace = clk.After(s.cfg.Grace)
		s.sendClock(v, protocol.ClockGrace, s.cfg.Grace, bank, clk.Now())
	}
	if !connected {
		startGrace()
	}
	// spend charges the time bank for the bank time used so far.
	spend := func() {
		if phase == protocol.ClockBank {
			used := clk.Now().Sub(phaseStart)
			s.mu.Lock()
			p.bank = max(p.bank-used, 0)
			s.mu.Unlock()
		}
	}
	for {
		select {
		case a := <-p.actions:
			if a.turn != turn {
				continue // sent for an earlier turn, and answered then
			}
			if a.hand != v.HandNumber {
				a.c.sendError(&protocol.Error{Code: protocol.CodeWrongHand, Message: "the action is for another hand than the one in progress"})
				continue
			}
			if perr := protocol.VerifyAction(v, a.action, a.to); perr != nil {
				a.c.sendError(perr)
				continue
			}
			spend()
			return engine.Decision{Action: a.action, To: a.to}, nil
		case now := <-timer:
			switch {
			case phase == protocol.ClockThink && bank > 0:
				phase, phaseStart, phaseLen, timer = protocol.ClockBank, now, bank, clk.After(bank)
				s.sendClock(v, phase, bank, bank, now)
			case phase == protocol.ClockThink || phase == protocol.ClockBank:
				if phase == protocol.ClockBank {
					s.mu.Lock()
					p.bank = 0
					s.mu.Unlock()
					bank = 0
				}
				phase, phaseStart, phaseLen, timer = protocol.ClockCountdown, now, ac.Countdown, clk.After(ac.Countdown)
				s.sendClock(v, phase, ac.Countdown, 0, now)
			default:
				return engine.Decision{}, errExpired
			}
		case <-p.wake:
			s.mu.Lock()
			connected = p.conn != nil
			s.mu.Unlock()
			switch {
			case connected && grace != nil:
				grace = nil
				s.sendClock(v, phase, phaseStart.Add(phaseLen).Sub(clk.Now()), bank, clk.Now())
			case !connected && grace == nil:
				startGrace()
			}
		case <-grace:
			spend()
			s.mu.Lock()
			p.away = true
			s.mu.Unlock()
			return engine.Decision{}, errAway
		case <-ctx.Done():
			spend()
			return engine.Decision{}, ctx.Err()
		}
	}
}

// takeAdvanceLocked runs the player's queued advance action if nothing changed since it was queued:
// the same hand, round and bet to match (A14). Otherwise it is dropped. The caller holds s.mu.
func (p *player) takeAdvanceLocked(v *engine.View) (engine.Decision, bool) {
	q := p.adv
	p.adv = queuedAdvance{}
	if q.kind == 0 || q.hand != v.HandNumber || q.round != v.Round || q.facing != v.CurrentBet {
		return engine.Decision{}, false
	}
	switch {
	case q.kind == engine.AdvanceFold:
		return engine.Decision{Action: engine.Fold}, true
	case v.Legal.Check:
		return engine.Decision{Action: engine.Check}, true
	case q.kind == engine.AdvanceCall:
		return engine.Decision{Action: engine.Call}, true
	}
	return engine.Decision{Action: engine.Fold}, true
}

// sendClock tells everyone the clock of the player to act.
func (s *Server) sendClock(v *engine.View, phase protocol.ClockPhase, left, bank time.Duration, from time.Time) {
	msg := protocol.MustEncode(protocol.TypeClock, protocol.Clock{Hand: v.HandNumber, Seat: v.ToAct, Phase: phase,
		RemainingMS: left.Milliseconds(), BankMS: bank.Milliseconds(), Deadline: from.Add(left).UTC()})
	s.mu.Lock()
	s.clockFrame = msg
	s.broadcastLocked(msg)
	s.mu.Unlock()
}

// signal wakes the player's Decide (a connection came or went) without blocking.
func (p *player) signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}
