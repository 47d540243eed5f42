package tableserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
)

// Client is a connection to a table server: what a bot or a test uses (the browser speaks the same
// protocol in JavaScript).
type Client struct {
	ws   *websocket.Conn
	buf  bytes.Buffer    // the last frame read, reused
	data json.RawMessage // the last frame's data, reused: RawMessage appends into what it is given
}

// Dial connects to a table's WebSocket URL (ws://host:port/ws).
func Dial(ctx context.Context, url string) (*Client, error) {
	ws, _, err := websocket.Dial(ctx, url, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting to %s: %w", url, err)
	}
	ws.SetReadLimit(1 << 20) // views are a few kilobytes; the server's own limit is on what it reads
	return &Client{ws: ws}, nil
}

// Send sends one message.
func (c *Client) Send(ctx context.Context, t protocol.Type, d any) error {
	b, err := protocol.Encode(t, d)
	if err != nil {
		return err
	}
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// SendRaw sends a frame as it is (for tests of bad input).
func (c *Client) SendRaw(ctx context.Context, frame []byte) error {
	return c.ws.Write(ctx, websocket.MessageText, frame)
}

// Read returns the next frame and its envelope. The frame and the envelope's data are valid until the
// next Read (both reuse the client's buffers: a bot reads a view after every action). A client
// reads the server's frames leniently (fields it does not know are ignored, as a newer server may
// add some); the server reads clients strictly.
func (c *Client) Read(ctx context.Context) (protocol.Envelope, []byte, error) {
	_, r, err := c.ws.Reader(ctx)
	if err != nil {
		return protocol.Envelope{}, nil, err
	}
	c.buf.Reset()
	if _, err := c.buf.ReadFrom(r); err != nil {
		return protocol.Envelope{}, nil, err
	}
	b := c.buf.Bytes()
	if env, ok := serverEnvelope(b); ok {
		return env, b, nil
	}
	env := protocol.Envelope{Data: c.data[:0]}
	err = json.Unmarshal(b, &env)
	if cap(env.Data) > cap(c.data) {
		c.data = env.Data[:0]
	}
	if err != nil {
		return env, b, &protocol.Error{Code: protocol.CodeBadJSON, Message: "the server sent a frame that is not an envelope: " + err.Error()}
	}
	if env.V != protocol.Version {
		return env, b, &protocol.Error{Code: protocol.CodeBadVersion, Message: fmt.Sprintf("the server speaks protocol %d, this client %d", env.V, protocol.Version)}
	}
	return env, b, nil
}

// serverEnvelope reads a frame laid out exactly as protocol.Encode writes it,
// {"v":1,"type":"<name>","data":<data>}, without scanning the data: a bot reads a view after every
// action, and the envelope's full decode scanned each view twice and copied it once more before the
// view itself was decoded. Its Data aliases the frame. Any other layout (an escape in the type,
// another field, spaces) returns false and is decoded in full by json.Unmarshal; data that is not
// valid JSON is found when it is decoded.
func serverEnvelope(frame []byte) (protocol.Envelope, bool) {
	const mid = `","data":`
	if !bytes.HasPrefix(frame, envelopeHead) || frame[len(frame)-1] != '}' {
		return protocol.Envelope{}, false
	}
	rest := frame[len(envelopeHead) : len(frame)-1]
	end := bytes.IndexByte(rest, '"')
	if end <= 0 || !bytes.HasPrefix(rest[end:], []byte(mid)) {
		return protocol.Envelope{}, false
	}
	for _, ch := range rest[:end] {
		if ch == '\\' || ch < 0x20 {
			return protocol.Envelope{}, false // an escape or a control character: json decides
		}
	}
	data := rest[end+len(mid):]
	if len(data) == 0 {
		return protocol.Envelope{}, false
	}
	return protocol.Envelope{V: 1, Type: protocol.Type(rest[:end]), Data: data}, true
}

// envelopeHead is how protocol.Encode begins every frame.
var envelopeHead = []byte(`{"v":` + strconv.Itoa(protocol.Version) + `,"type":"`)

// Close closes the connection normally.
func (c *Client) Close() error { return c.ws.Close(websocket.StatusNormalClosure, "bye") }

// CloseNow drops the connection without a close handshake (a lost network).
func (c *Client) CloseNow() error { return c.ws.CloseNow() }

// Bot plays a seat over the network with a Decider (an engine/bot), as a person's browser would.
type Bot struct {
	URL, Token string
	Decider    engine.Decider
	// ClientSeed is given at the join (provably fair deal).
	ClientSeed string
	// OnFrame, if set, sees every frame received, before the bot acts on it.
	OnFrame func(env protocol.Envelope, frame []byte)
	// Reconnect joins again, with backoff, when the connection is lost or the table goes away
	// (a table process restarting, a table closing while its players are moved), as a person's
	// page does; the bot stops when a join is refused (the table has no seat for it any more), or
	// after ReconnectFor without reaching the table.
	Reconnect bool
	// ReconnectFor bounds the time spent failing to reach the table; zero: two minutes.
	ReconnectFor time.Duration
}

// Play joins and plays until the table closes the connection (nil for a normal close or the table
// closing) or ctx ends. A move to another table is followed: the bot connects there with the token
// it was given.
func (b *Bot) Play(ctx context.Context) error {
	url, token := b.URL, b.Token
	delay, joined := 100*time.Millisecond, false
	giveUp := b.ReconnectFor
	if giveUp <= 0 {
		giveUp = 2 * time.Minute
	}
	var failingSince time.Time
	for {
		was := joined
		joined = false
		next, err := b.playAt(ctx, url, token, &joined)
		if next != nil {
			url, token, delay = next.URL, next.Token, 100*time.Millisecond
			continue
		}
		if joined {
			failingSince, delay = time.Time{}, 100*time.Millisecond
		} else if failingSince.IsZero() {
			failingSince = time.Now()
		}
		joined = joined || was
		var perr *protocol.Error
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case !b.Reconnect:
			return err
		case errors.As(err, &perr) && perr.Code == protocol.CodeNotSeated && joined:
			return nil // it played here, and the table has no seat for it any more
		case errors.As(err, &perr):
			return err
		case !failingSince.IsZero() && time.Since(failingSince) > giveUp:
			return fmt.Errorf("the table could not be reached for %v: %w", giveUp, err)
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		delay = min(2*delay, 5*time.Second)
	}
}

// playAt plays at one table; it returns the move that ended it, if any.
func (b *Bot) playAt(ctx context.Context, url, token string, joined *bool) (*protocol.Move, error) {
	c, err := Dial(ctx, url)
	if err != nil {
		return nil, err
	}
	defer c.CloseNow()
	if err := c.Send(ctx, protocol.TypeJoin, protocol.Join{Token: token, ClientSeed: b.ClientSeed}); err != nil {
		return nil, err
	}
	var last protocol.TableView
	var move *protocol.Move
	for {
		env, frame, err := c.Read(ctx)
		if err != nil {
			var perr *protocol.Error
			if errors.As(err, &perr) {
				return nil, fmt.Errorf("a frame the bot cannot read: %w", err)
			}
			switch websocket.CloseStatus(err) {
			case websocket.StatusNormalClosure, websocket.StatusGoingAway:
				return move, nil
			}
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return move, err
		}
		if b.OnFrame != nil {
			b.OnFrame(env, frame)
		}
		switch env.Type {
		case protocol.TypeWelcome:
			*joined = true
		case protocol.TypeView:
			last = protocol.TableView{}
			if err := json.Unmarshal(env.Data, &last); err != nil {
				return nil, fmt.Errorf("a view the bot cannot read: %w", err)
			}
			if last.Legal == nil || last.ToAct != last.Viewer {
				continue
			}
			v, err := last.EngineView()
			if err != nil {
				return nil, err
			}
			d, err := b.Decider.Decide(ctx, &v)
			if err != nil {
				return nil, err
			}
			if err := c.Send(ctx, protocol.TypeAction, protocol.Action{Hand: last.Hand, Action: protocol.ActionName(d.Action), To: d.To}); err != nil {
				return nil, err
			}
		case protocol.TypeError:
			var e protocol.Error
			if perr := protocol.DecodeData(env, &e); perr != nil {
				return nil, perr
			}
			if e.Fatal {
				return nil, &e
			}
			if e.Code == protocol.CodeIllegal && last.Legal != nil {
				v, _ := last.EngineView()
				d := checkOrFold(&v)
				if err := c.Send(ctx, protocol.TypeAction, protocol.Action{Hand: last.Hand, Action: protocol.ActionName(d.Action)}); err != nil {
					return nil, err
				}
			}
		case protocol.TypeMove:
			var m protocol.Move
			if perr := protocol.DecodeData(env, &m); perr != nil {
				return nil, perr
			}
			move = &m
		}
	}
}

func checkOrFold(v *engine.View) engine.Decision {
	if v.Legal.Check {
		return engine.Decision{Action: engine.Check}
	}
	return engine.Decision{Action: engine.Fold}
}
