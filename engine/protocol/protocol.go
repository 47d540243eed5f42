// Package protocol is the players' wire protocol of a table: the JSON messages a table server and
// its clients (a person's browser, a bot over the network, a spectator) exchange over a WebSocket,
// and the errors that name the rule an action broke, with the amounts. docs/protocol.md shows an
// example of every message.
//
// Every frame is one Envelope: the protocol version, a message type and its data. The package only
// encodes, decodes and converts (an engine.View to a TableView and back, an engine error to an
// Error); it does no I/O and keeps no state. It must never put into a message what the view it is
// given does not hold: the table server decides who sees which cards (rule D5), and ViewOf copies
// the cards a viewer's engine.View shows, nothing more.
package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// Version is the protocol version this package speaks. A client sends it in every frame; a frame of
// another version is refused with CodeBadVersion.
const Version = 1

// MaxFrame is the largest frame a table server reads: larger frames close the connection (a chat
// line or an action is a few hundred bytes).
const MaxFrame = 8 << 10

// Type names a message.
type Type string

// Client to server.
const (
	TypeJoin    Type = "join"    // Join: the first frame, with the token
	TypeAction  Type = "action"  // Action: the player's action when it is his turn (A11: one message, the full amount)
	TypeAdvance Type = "advance" // Advance: an advance action queued before the turn (A14), or cancelled
	TypeSeed    Type = "seed"    // Seed: the player's client seed for the next deals
	TypeChat    Type = "chat"    // Chat: a line of chat (server to client as well)
	TypeSitIn   Type = "sitin"   // SitIn: back from sitting out (rule T5)
	TypeSitOut  Type = "sitout"  // SitOut: sit out from the next hand (rule T5)
)

// Server to client.
const (
	TypeWelcome Type = "welcome" // Welcome: the join was accepted
	TypeView    Type = "view"    // TableView: the table as this connection may see it (A16)
	TypeHole    Type = "hole"    // Hole: the player's own two hole cards
	TypeClock   Type = "clock"   // Clock: the action clock of the player to act (A15) and his time bank
	TypeCommit  Type = "commit"  // Commit: the hash of the next deal's server seed, before the deal
	TypeResult  Type = "result"  // Result: a hand's end: pots, winners, the hands shown (S6), the revealed seed
	TypeMove    Type = "move"    // Move: the player is moved to another table; where to connect
	TypeError   Type = "error"   // Error: what was wrong, the rule and the amounts
	TypeClosing Type = "closing" // Closing: the table stops after this hand (drain) or now
)

// Envelope is one frame: {"v":1,"type":"action","data":{...}}.
type Envelope struct {
	V    int             `json:"v"`
	Type Type            `json:"type"`
	Data json.RawMessage `json:"data,omitempty"`
}

// Encode returns the frame for a message of type t with data d. It writes the envelope around the
// data itself, the same bytes as marshalling an Envelope, without marshalling the data twice: a
// table encodes a view for every player after every action. The frame is built in a pooled buffer
// and copied out once, so a frame costs one allocation of its own size (the load benchmark showed
// json.Marshal's result copied into the frame as half of a table's garbage).
func Encode(t Type, d any) ([]byte, error) {
	fb := framePool.Get().(*frameBuffer)
	defer framePool.Put(fb)
	fb.buf.Reset()
	fb.buf.WriteString(`{"v":`)
	fb.buf.Write(strconv.AppendInt(fb.num[:0], Version, 10))
	fb.buf.WriteString(`,"type":`)
	if err := fb.enc.Encode(string(t)); err != nil {
		return nil, err
	}
	trimNewline(&fb.buf) // json.Encoder ends each value with a newline; json.Marshal does not
	fb.buf.WriteString(`,"data":`)
	if err := fb.enc.Encode(d); err != nil {
		return nil, fmt.Errorf("protocol: encoding %s: %w", t, err)
	}
	trimNewline(&fb.buf)
	fb.buf.WriteByte('}')
	return bytes.Clone(fb.buf.Bytes()), nil
}

// frameBuffer is Encode's scratch space: a buffer and an encoder writing into it. An encoder
// escapes HTML as json.Marshal does, so the bytes are Marshal's.
type frameBuffer struct {
	buf bytes.Buffer
	enc *json.Encoder
	num [20]byte
}

var framePool = sync.Pool{New: func() any {
	fb := &frameBuffer{}
	fb.enc = json.NewEncoder(&fb.buf)
	return fb
}}

func trimNewline(b *bytes.Buffer) {
	if n := b.Len(); n > 0 && b.Bytes()[n-1] == '\n' {
		b.Truncate(n - 1)
	}
}

// MustEncode is Encode for messages that cannot fail to encode (the package's own types).
func MustEncode(t Type, d any) []byte {
	b, err := Encode(t, d)
	if err != nil {
		panic(err)
	}
	return b
}

// Decode reads a frame's envelope and checks its version. The data is left for DecodeData, so that
// the caller switches on the type first.
func Decode(frame []byte) (Envelope, *Error) {
	var e Envelope
	if len(frame) > MaxFrame {
		return e, &Error{Code: CodeTooLarge, Message: fmt.Sprintf("a frame is at most %d bytes, this one has %d", MaxFrame, len(frame))}
	}
	if err := strictUnmarshal(frame, &e); err != nil {
		return e, &Error{Code: CodeBadJSON, Message: "the frame is not a protocol envelope {\"v\":1,\"type\":...,\"data\":{...}}: " + err.Error()}
	}
	if e.V != Version {
		return e, &Error{Code: CodeBadVersion, Message: fmt.Sprintf("protocol version %d is not spoken here: expected %d", e.V, Version)}
	}
	if e.Type == "" {
		return e, &Error{Code: CodeUnknownType, Message: "the frame has no message type"}
	}
	return e, nil
}

// DecodeData reads e's data into d, refusing unknown fields so that a misspelt field is an error
// rather than a silent zero.
func DecodeData(e Envelope, d any) *Error {
	data := e.Data
	if len(data) == 0 {
		data = []byte("{}")
	}
	if err := strictUnmarshal(data, d); err != nil {
		return &Error{Code: CodeBadJSON, Message: fmt.Sprintf("the data of a %q message is wrong: %v", e.Type, err)}
	}
	return nil
}

func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after the JSON value")
	}
	return nil
}

// Join is the first frame of every connection.
type Join struct {
	Token string `json:"token"` // the signed token of a player or a spectator
	// ClientSeed is the player's contribution to the next deals (provably fair deal); optional.
	ClientSeed string `json:"clientSeed,omitempty"`
}

// Role is what a connection may do.
type Role string

const (
	RolePlayer    Role = "player"
	RoleSpectator Role = "spectator"
)

// Welcome answers an accepted Join.
type Welcome struct {
	Protocol   int    `json:"protocol"`
	Tournament string `json:"tournament"`
	Table      string `json:"table"`
	Player     string `json:"player,omitempty"` // empty for a spectator
	Seat       int    `json:"seat"`             // -1 for a spectator
	Role       Role   `json:"role"`
	Reconnect  bool   `json:"reconnect,omitempty"` // the player was already seated and is back (T5 ends)
}

// Action names on the wire.
const (
	ActFold  = "fold"
	ActCheck = "check"
	ActCall  = "call"
	ActBet   = "bet"
	ActRaise = "raise"
	ActAllIn = "allin"
)

// Action is the player's action. Hand is the hand it is meant for, so that an action sent as a hand
// ends never lands in the next one. To is the total of a bet or raise (rule A5), ignored otherwise.
type Action struct {
	Hand   int64  `json:"hand"`
	Action string `json:"action"`
	To     int64  `json:"to,omitempty"`
}

// Advance action names on the wire (rule A14).
const (
	AdvCheckFold = "checkfold"
	AdvCall      = "call"
	AdvFold      = "fold"
	AdvCancel    = "" // cancels a queued advance action
)

// Advance queues an advance action: it runs when the turn comes only if no bet or raise happened
// since it was queued (A14), and is dropped otherwise, leaving the player every option.
type Advance struct {
	Hand    int64  `json:"hand"`
	Advance string `json:"advance"`
}

// Seed is the player's client seed for the deals from the next one on.
type Seed struct {
	ClientSeed string `json:"clientSeed"`
}

// MaxChat is the longest chat line, in bytes.
const MaxChat = 280

// Chat is a line of chat. From and At are set by the server.
type Chat struct {
	From string    `json:"from,omitempty"`
	Text string    `json:"text"`
	At   time.Time `json:"at,omitzero"`
}

// Empty is the data of messages that carry none (sitin, sitout).
type Empty struct{}

// Hole is the player's own hole cards for a hand: sent to that player only.
type Hole struct {
	Hand  int64    `json:"hand"`
	Seat  int      `json:"seat"`
	Cards []string `json:"cards"`
}

// ClockPhase is where a player's action clock is (rule A15).
type ClockPhase string

const (
	ClockThink     ClockPhase = "think"     // the think time
	ClockBank      ClockPhase = "bank"      // drawing on the time bank
	ClockCountdown ClockPhase = "countdown" // the last seconds before the hand is folded
	// ClockGrace: the player to act is disconnected; when it ends his hand is folded and he sits
	// out (rule T5). His clock goes on meanwhile: whichever ends first ends the turn.
	ClockGrace ClockPhase = "grace"
)

// Clock is the action clock of the player to act, sent to everyone when it starts and when it moves
// to another phase. Remaining is the time left in this phase; Bank is the player's time bank left
// (during ClockBank it runs down).
type Clock struct {
	Hand        int64      `json:"hand"`
	Seat        int        `json:"seat"`
	Phase       ClockPhase `json:"phase"`
	RemainingMS int64      `json:"remainingMs"`
	BankMS      int64      `json:"bankMs"`
	// Deadline is when this phase ends, by the server's clock.
	Deadline time.Time `json:"deadline"`
}

// Commit publishes the commitment to the next deal's server seed before the deal: the hex SHA-256 of
// the seed (engine/fairdeal).
type Commit struct {
	Hand       int64  `json:"hand"` // the hand the seed will deal
	Commitment string `json:"commitment"`
}

// Move tells a player he is moved to another table (rules R3, R4): where to connect, and the token
// for it. The connection is closed after it.
type Move struct {
	Tournament string `json:"tournament"`
	Table      string `json:"table"`
	URL        string `json:"url"`
	Token      string `json:"token,omitempty"`
	Seat       int    `json:"seat"`
	Reason     string `json:"reason"` // "balance" (R3) or "break" (R4)
}

// Closing says the table stops: after the hand in progress (Drain true), or now. Final says it has
// closed for good (broken, or the tournament over) rather than stopping a process that comes back:
// a spectator has nothing to join again; a player still joins it once to learn where he was moved.
type Closing struct {
	Drain  bool   `json:"drain"`
	Final  bool   `json:"final,omitempty"`
	Reason string `json:"reason"`
}
