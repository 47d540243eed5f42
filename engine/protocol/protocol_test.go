package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/pokerfloor/pokerfloor/engine"
)

func newTable(t *testing.T, stacks ...int64) *engine.Table {
	t.Helper()
	tb, err := engine.NewTable(engine.Config{Seats: len(stacks)}, engine.Level{SmallBlind: 50, BigBlind: 100}, engine.NewSeededDeck(7))
	if err != nil {
		t.Fatal(err)
	}
	for s, st := range stacks {
		if err := tb.Sit(s, string(rune('a'+s)), st, engine.Active); err != nil {
			t.Fatal(err)
		}
	}
	if err := tb.SetButton(0); err != nil {
		t.Fatal(err)
	}
	if err := tb.StartHand(); err != nil {
		t.Fatal(err)
	}
	return tb
}

func TestDecodeRefusesBadFrames(t *testing.T) {
	cases := []struct {
		name  string
		frame string
		code  Code
	}{
		{"not json", `{"v":1,"type":`, CodeBadJSON},
		{"unknown field", `{"v":1,"type":"chat","data":{},"x":1}`, CodeBadJSON},
		{"trailing", `{"v":1,"type":"chat"} {}`, CodeBadJSON},
		{"version", `{"v":2,"type":"chat","data":{"text":"hi"}}`, CodeBadVersion},
		{"no type", `{"v":1}`, CodeUnknownType},
		{"too large", `{"v":1,"type":"chat","data":{"text":"` + strings.Repeat("x", MaxFrame) + `"}}`, CodeTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, perr := Decode([]byte(c.frame))
			if perr == nil || perr.Code != c.code {
				t.Fatalf("Decode(%.40q) = %v, want code %s", c.frame, perr, c.code)
			}
			if perr.Message == "" {
				t.Fatal("an error without a message")
			}
		})
	}
	env, perr := Decode([]byte(`{"v":1,"type":"action","data":{"hand":3,"action":"raise","to":300,"amount":1}}`))
	if perr != nil {
		t.Fatal(perr)
	}
	var a Action
	if perr := DecodeData(env, &a); perr == nil || perr.Code != CodeBadJSON || !strings.Contains(perr.Message, "amount") {
		t.Fatalf("unknown data field: %v", perr)
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	in := Action{Hand: 12, Action: ActRaise, To: 300}
	raw, _ := json.Marshal(in)
	slow, _ := json.Marshal(Envelope{V: Version, Type: TypeAction, Data: raw})
	if fast := MustEncode(TypeAction, in); !bytes.Equal(fast, slow) {
		t.Fatalf("Encode wrote %s, an Envelope marshals to %s", fast, slow)
	}
	env, perr := Decode(MustEncode(TypeAction, in))
	if perr != nil {
		t.Fatal(perr)
	}
	var out Action
	if perr := DecodeData(env, &out); perr != nil || out != in || env.Type != TypeAction {
		t.Fatalf("round trip: %+v %v", out, perr)
	}
}

// rule D5: a view carries only the cards the engine shows its viewer.
func TestRuleD5ViewOfCarriesOnlyTheViewersCards(t *testing.T) {
	tb := newTable(t, 1000, 1000, 1000, 1000)
	for viewer := engine.Spectator; viewer < 4; viewer++ {
		v := tb.View(viewer)
		tv := ViewOf("t1", &v)
		for _, s := range tv.Seats {
			if own := s.Seat == viewer; own != (len(s.Cards) == 2) {
				t.Fatalf("viewer %d: seat %d cards %v", viewer, s.Seat, s.Cards)
			}
		}
		b, _ := json.Marshal(tv)
		for s := 0; s < 4; s++ {
			if s == viewer {
				continue
			}
			for _, c := range tb.HoleCards(s) {
				if bytes.Contains(b, []byte(`"`+c.String()+`"`)) {
					t.Fatalf("viewer %d's view names seat %d's card %s: %s", viewer, s, c, b)
				}
			}
		}
	}
}

// rule A16: the player to act sees what he owes, the bounds of a raise and whether it reopens; a bot
// over the network rebuilds the same engine view.
func TestRuleA16ViewRoundTripsForBots(t *testing.T) {
	tb := newTable(t, 1000, 1000, 1000)
	toAct := tb.ToAct()
	v := tb.View(toAct)
	tv := ViewOf("t1", &v)
	if tv.Legal == nil || tv.ToCall != 100 || tv.MinRaiseTo != 200 || tv.MaxRaiseTo != 1000 || !tv.Reopens {
		t.Fatalf("A16 facts: %+v legal %+v", tv, tv.Legal)
	}
	b, _ := json.Marshal(tv)
	var back TableView
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	ev, err := back.EngineView()
	if err != nil {
		t.Fatal(err)
	}
	want := v
	for s := range want.Seats {
		want.Seats[s].State = 0 // not carried: a bot does not read it
	}
	if ev != want {
		t.Fatalf("engine view after the wire:\n got %+v\nwant %+v", ev, want)
	}
	other := tb.View((toAct + 1) % 3)
	if tv := ViewOf("t1", &other); tv.Legal != nil {
		t.Fatal("a player not to act is offered actions")
	}
}

// rule S3: side pots as they stand add up to the pot, each with who may win it.
func TestRuleS3SidePotsAddUp(t *testing.T) {
	seats := []SeatView{
		{Seat: 0, Dealt: true, InHand: true, AllIn: true, Put: 100},
		{Seat: 1, Dealt: true, InHand: true, AllIn: true, Put: 300},
		{Seat: 2, Dealt: true, InHand: true, Put: 500},
		{Seat: 3, Dealt: true, Folded: true, Put: 200},
		{Seat: 4, Dealt: true, InHand: true, Put: 500},
	}
	pots := SidePots(seats)
	want := []Pot{{Amount: 500, Eligible: []int{0, 1, 2, 4}}, {Amount: 700, Eligible: []int{1, 2, 4}}, {Amount: 400, Eligible: []int{2, 4}}}
	got, _ := json.Marshal(pots)
	exp, _ := json.Marshal(want)
	if !bytes.Equal(got, exp) {
		t.Fatalf("pots %s, want %s", got, exp)
	}
}

// rules A3, A4, A5: an engine refusal becomes an error naming the rule and the amounts, and
// VerifyAction refuses the same actions from the view alone.
func TestRuleA5ErrorsNameRuleAndAmounts(t *testing.T) {
	tb := newTable(t, 1000, 1000, 1000)
	s := tb.ToAct()
	v := tb.View(s)
	cases := []struct {
		name     string
		a        engine.Action
		to       int64
		rule     string
		min, max int64
	}{
		{"raise below the minimum", engine.Raise, 150, "A5", 200, 0},
		{"raise above the stack", engine.Raise, 5000, "A3", 0, 1000},
		{"check when owing", engine.Check, 0, "A3", 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := tb.Act(s, c.a, c.to)
			if err == nil {
				t.Fatal("the engine accepted it")
			}
			pe := FromEngine(err)
			if pe.Code != CodeIllegal || pe.Rule != c.rule || pe.Min != c.min || pe.Max != c.max {
				t.Fatalf("FromEngine(%v) = %+v", err, pe)
			}
			ve := VerifyAction(&v, c.a, c.to)
			if ve == nil || ve.Rule != c.rule {
				t.Fatalf("VerifyAction = %+v, want rule %s", ve, c.rule)
			}
		})
	}
	if _, err := tb.Act((s+1)%3, engine.Fold, 0); FromEngine(err).Code != CodeNotYourTurn {
		t.Fatalf("out of turn: %v", FromEngine(err))
	}
	if pe := FromEngine(errors.New("disk full")); pe.Code != CodeInternal {
		t.Fatalf("a foreign error: %+v", pe)
	}
	for _, ok := range []struct {
		a  engine.Action
		to int64
	}{{engine.Fold, 0}, {engine.Call, 0}, {engine.Raise, 200}, {engine.Raise, 1000}, {engine.AllIn, 0}} {
		if ve := VerifyAction(&v, ok.a, ok.to); ve != nil {
			t.Fatalf("%v to %d refused: %v", ok.a, ok.to, ve)
		}
	}
}

// Every message of docs/protocol.md decodes strictly into its type, and every type has an example.
func TestProtocolDocExamplesDecode(t *testing.T) {
	doc, err := os.ReadFile("../../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	types := map[Type]func() any{
		TypeJoin: func() any { return new(Join) }, TypeAction: func() any { return new(Action) },
		TypeAdvance: func() any { return new(Advance) }, TypeSeed: func() any { return new(Seed) },
		TypeChat: func() any { return new(Chat) }, TypeSitIn: func() any { return new(Empty) },
		TypeSitOut: func() any { return new(Empty) }, TypeWelcome: func() any { return new(Welcome) },
		TypeView: func() any { return new(TableView) }, TypeHole: func() any { return new(Hole) },
		TypeClock: func() any { return new(Clock) }, TypeCommit: func() any { return new(Commit) },
		TypeResult: func() any { return new(Result) }, TypeMove: func() any { return new(Move) },
		TypeError: func() any { return new(Error) }, TypeClosing: func() any { return new(Closing) },
	}
	seen := map[Type]bool{}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllSubmatch(doc, -1)
	for _, b := range blocks {
		env, perr := Decode(b[1])
		if perr != nil {
			t.Fatalf("example %s: %v", b[1], perr)
		}
		mk, ok := types[env.Type]
		if !ok {
			t.Fatalf("example of unknown type %q", env.Type)
		}
		if perr := DecodeData(env, mk()); perr != nil {
			t.Fatalf("example %s: %v", b[1], perr)
		}
		seen[env.Type] = true
	}
	for ty := range types {
		if !seen[ty] {
			t.Errorf("docs/protocol.md has no example of %q", ty)
		}
	}
}
