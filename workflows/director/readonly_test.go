package director

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

func snapshot(t *testing.T, s *TournamentState) []byte {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestQueriesAndValidatorsChangeNothing: every query and update validator leaves the state as it
// was, byte for byte (neither is replayed, so a write there would differ between a worker and a
// replay). The state is caught with news taken and not yet stepped on, where a simulation's clock
// (the median of the tables' hands) has moved past what Tick recorded.
func TestQueriesAndValidatorsChangeNothing(t *testing.T) {
	spec := simSpec(60)
	spec.LateRegistrationLevel, spec.ReEntries, spec.Rebuys, spec.RebuyLevel = 5, 1, 1, 5
	f := newFloorSim(t, spec, 3)
	f.s.Step(f.now)
	f.flush()
	for k := 0; k < 50 && f.s.medianHands() <= f.s.SimHands; k++ {
		f.once()
		f.deliver()
		for _, id := range sortedIDs(f.tables) {
			f.report(f.tables[id])
		}
		for _, ev := range f.events {
			f.s.OnEvent(ev)
		}
		f.events = nil
	}
	if f.s.medianHands() <= f.s.SimHands {
		t.Fatalf("the tables' hands (median %d) never passed the clock's %d", f.s.medianHands(), f.s.SimHands)
	}
	var seated string
	for _, p := range f.s.Players {
		if p.Status == Seated && !p.Leaving {
			seated = p.ID
			break
		}
	}
	before := snapshot(t, f.s)
	reads := map[string]func(){
		"progress":  func() { f.s.Progress(f.now) },
		"clock":     func() { f.s.ClockView(f.now) },
		"standings": func() { f.s.StandingsView() },
		"tables":    func() { f.s.TablesView() },
		"payouts":   func() { f.s.PayoutsView() },
		"quote":     func() { _, _ = f.s.Quote(floor.DealTerms{}) },
		"state":     func() { f.s.Redacted() },
		"level":     func() { f.s.Level(f.now) },
		"register":  func() { _ = f.s.VerifyRegister(RegisterRequest{Player: "late"}, f.now) },
		"re-entry":  func() { _ = f.s.VerifyRegister(RegisterRequest{ReEntryOf: "p0001"}, f.now) },
		"rebuy":     func() { _ = f.s.VerifyRebuy(RebuyRequest{Player: seated}, f.now) },
		"sanction": func() {
			_ = f.s.VerifySanction(SanctionRequest{Player: seated, Kind: floor.Warning, Reason: "x", By: "td"}, f.now)
		},
		"clock action": func() { _ = f.s.VerifyClock(ClockRequest{Kind: floor.ClockPause, By: "td"}) },
		"deal":         func() { _ = f.s.VerifyDeal(DealRequest{Method: "icm", ApprovedBy: "td"}) },
	}
	for name, read := range reads {
		read()
		if after := snapshot(t, f.s); !bytes.Equal(before, after) {
			t.Errorf("%s changed the state", name)
			before = after
		}
	}
}

// TestStateQueryHidesTheSeed: the State query's view holds neither the seed nor the draw counter,
// which predict every later draw; the state itself keeps them.
func TestStateQueryHidesTheSeed(t *testing.T) {
	spec := simSpec(30)
	spec.Seed = 0x5eed5eed
	s, err := NewTournamentState("t", spec, 0xdeadbeef, simStart)
	if err != nil {
		t.Fatal(err)
	}
	v := s.Redacted()
	b, _ := json.Marshal(v)
	if v.Seed != 0 || v.Draws != 0 || v.Spec.Seed != 0 || strings.Contains(string(b), "3735928559") || strings.Contains(string(b), "1592614637") {
		t.Errorf("the State query shows seed %d, draws %d, spec seed %d", v.Seed, v.Draws, v.Spec.Seed)
	}
	if s.Seed != 0xdeadbeef || s.Draws == 0 {
		t.Errorf("redacting changed the state: seed %x draws %d", s.Seed, s.Draws)
	}
}

// TestEntryThePayoutsCannotTakeIsRefusedR6: a custom table of 10 places is valid for 100 entries
// and not for 101 (at least 10% are paid): the 101st entry is refused with the reason, and the
// prize pool is not left behind the field silently.
func TestEntryThePayoutsCannotTakeIsRefusedR6(t *testing.T) { // rule R6
	spec := simSpec(100)
	spec.LateRegistrationLevel, spec.ReEntries = 5, 1
	spec.Payouts = floor.PayoutStructure{Name: floor.PayoutCustom, Custom: []int{3000, 2000, 1500, 1000, 800, 600, 400, 300, 200, 200}}
	s, err := NewTournamentState("t", spec, 1, simStart)
	if err != nil {
		t.Fatal(err)
	}
	err = s.VerifyRegister(RegisterRequest{Player: "late"}, simStart)
	if ruleOf(err) != "R6" || !strings.Contains(err.Error(), "payout") {
		t.Fatalf("the 101st entry: %v, want refused by R6", err)
	}
	spec.Payouts.Custom = nil
	spec.Payouts.Name = ""
	s, err = NewTournamentState("t", spec, 1, simStart)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.VerifyRegister(RegisterRequest{Player: "late"}, simStart); err != nil {
		t.Fatalf("a standard structure refused the 101st entry: %v", err)
	}
}

// TestClockActionsRecordWhoAndWhyP6: every pause, resume and added time is kept with who took it
// and why.
func TestClockActionsRecordWhoAndWhyP6(t *testing.T) { // rule P6
	spec := simSpec(20)
	spec.Simulation = false
	s, err := NewTournamentState("t", spec, 1, simStart)
	if err != nil {
		t.Fatal(err)
	}
	s.Clock(ClockRequest{Kind: floor.ClockPause, By: "td-anna", Reason: "a dispute at table 2"}, simStart)
	s.Clock(ClockRequest{Kind: floor.ClockResume, By: "td-bo", Reason: "ruled"}, simStart)
	want := []floor.ClockEvent{
		{At: simStart, Kind: floor.ClockPause, By: "td-anna", Reason: "a dispute at table 2"},
		{At: simStart, Kind: floor.ClockResume, By: "td-bo", Reason: "ruled"},
	}
	v := s.ClockView(simStart)
	if len(v.Events) != len(want) || v.Events[0] != want[0] || v.Events[1] != want[1] {
		t.Errorf("clock record %+v, want %+v", v.Events, want)
	}
}
