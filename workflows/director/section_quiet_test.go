package director

import (
	"encoding/json"
	"slices"
	"testing"
	"time"
)

// quietTop is a tournament of three sections, as its first run holds it.
func quietTop(t *testing.T) *TopState {
	t.Helper()
	spec := simSpec(60)
	spec.SectionTables = 3 // 7 tables: three sections
	top, _, err := NewTopState("quiet", spec, 1, 0, simStart)
	if err != nil {
		t.Fatal(err)
	}
	if len(top.Sections) != 3 {
		t.Fatalf("%d sections, expected 3", len(top.Sections))
	}
	return top
}

// TestSectionQuietHoldsOrdersUntilItsNextRun (link.go, "A section's quiet"): a section's report
// that asks for its orders to be held makes it quiet, and only it; a later report of the same run
// (one that ends instead) and a report of an earlier run change nothing; the next run's first
// report, whatever it says, ends the quiet; an ask that comes late, after a later run was heard
// from, is not held; a closed section is never held; a section from before PaceSectionQuiet
// (its reports name no run) never is.
func TestSectionQuietHoldsOrdersUntilItsNextRun(t *testing.T) {
	top := quietTop(t)
	now := simStart.Add(time.Minute)
	holds := func(want ...bool) {
		t.Helper()
		for i, w := range want {
			if got := top.Sections[i].Holds(); got != w {
				t.Fatalf("section %d holds %v, expected %v (records %+v)", i+1, got, w, top.Sections[i])
			}
		}
	}
	steps := []struct {
		name      string
		section   int
		run       int
		quiet     bool
		wantQuiet bool // Heard's answer: the report waits for the signals on their way
		holds     []bool
	}{
		{"a report of the first run", 1, 1, false, false, []bool{false, false, false}},
		{"a section from before PaceSectionQuiet asks nothing", 2, 0, true, false, []bool{false, false, false}},
		{"the first run asks", 1, 1, true, true, []bool{true, false, false}},
		{"its ask again (a retried report)", 1, 1, true, true, []bool{true, false, false}},
		{"another section's report", 3, 4, false, false, []bool{true, false, false}},
		{"a later report of the asking run", 1, 1, false, false, []bool{true, false, false}},
		{"the next run's first report", 1, 2, false, false, []bool{false, false, false}},
		{"the first run's ask, come late", 1, 1, true, false, []bool{false, false, false}},
		{"the second run asks", 1, 2, true, true, []bool{true, false, false}},
		{"the third run's first report asks at once", 1, 3, true, true, []bool{true, false, false}},
	}
	for _, st := range steps {
		if got := top.Heard(st.section, st.run, st.quiet, now); got != st.wantQuiet {
			t.Fatalf("%s: Heard says quiet %v, expected %v", st.name, got, st.wantQuiet)
		}
		holds(st.holds...)
	}
	if r := top.Section(1); r.QuietRun != 3 || !r.QuietSince.Equal(now) {
		t.Fatalf("the quiet of run %d since %v, expected run 3 since %v", r.QuietRun, r.QuietSince, now)
	}
	// Held, an order stays queued on the section's Link (the workflow takes none while it holds)
	// and goes once the quiet ends.
	seq := top.order(1, SectionOrder{Approach: new(bool)})
	if r := top.Section(1); r.Orders.Queued == 0 || r.Orders.Unacked[len(r.Orders.Unacked)-1].Seq != seq {
		t.Fatalf("the order to the quiet section is not queued: %+v", r.Orders)
	}
	top.Heard(1, 4, false, now)
	holds(false, false, false)
	// A closed section is never held, even by an ask that comes as it closes.
	top.Section(2).Phase = SectionClosed
	if top.Heard(2, 1, true, now) {
		t.Fatal("a closed section is held")
	}
	holds(false, false, false)
}

// TestSectionQuietEndsAfterItsWait: the tournament holds a quiet section's orders at most
// SectionQuietWait (a section that never comes back, or whose report is lost); the ask of the
// same run again does not make it quiet again; the state carries the quiet, its start and the
// held orders over a continue-as-new of the tournament's (JSON), and the next run sends them
// once the section's next run reports. A cancelled tournament ends every quiet at once.
func TestSectionQuietEndsAfterItsWait(t *testing.T) {
	top := quietTop(t)
	if !top.QuietEnds().IsZero() {
		t.Fatalf("no section is quiet, yet a quiet ends at %v", top.QuietEnds())
	}
	at := simStart.Add(time.Minute)
	top.Heard(1, 1, true, at)
	top.Heard(2, 1, true, at.Add(10*time.Second))
	if want := at.Add(SectionQuietWait); !top.QuietEnds().Equal(want) {
		t.Fatalf("the first quiet ends at %v, expected %v", top.QuietEnds(), want)
	}
	top.order(1, SectionOrder{Approach: new(bool)})
	top.order(2, SectionOrder{Approach: new(bool)})

	// The tournament continues as new: its next run holds what this one held.
	data, err := json.Marshal(top)
	if err != nil {
		t.Fatal(err)
	}
	var next TopState
	if err := json.Unmarshal(data, &next); err != nil {
		t.Fatal(err)
	}
	next.Resend()
	for n := 1; n <= 2; n++ {
		if r := next.Section(n); !r.Holds() || r.Orders.Queued != len(r.Orders.Unacked) || r.Orders.Queued == 0 {
			t.Fatalf("section %d after the continue-as-new: holds %v, %d of %d orders queued", n, r.Holds(), r.Orders.Queued, len(r.Orders.Unacked))
		}
	}
	if !next.QuietEnds().Equal(top.QuietEnds()) {
		t.Fatalf("the next run's quiet ends at %v, expected %v", next.QuietEnds(), top.QuietEnds())
	}

	if late := next.EndLateQuiets(at.Add(SectionQuietWait - time.Second)); len(late) > 0 {
		t.Fatalf("quiets ended early: %v", late)
	}
	if late := next.EndLateQuiets(at.Add(SectionQuietWait)); !slices.Equal(late, []int{1}) {
		t.Fatalf("late quiets ended %v, expected section 1's", late)
	}
	if next.Section(1).Holds() || !next.Section(2).Holds() {
		t.Fatal("section 1's quiet did not end, or section 2's ended with it")
	}
	if next.Heard(1, 1, true, at.Add(SectionQuietWait)) || next.Section(1).Holds() {
		t.Fatal("the ask of a run whose quiet ran out made it quiet again")
	}
	if want := at.Add(10 * time.Second).Add(SectionQuietWait); !next.QuietEnds().Equal(want) {
		t.Fatalf("the quiet left ends at %v, expected %v", next.QuietEnds(), want)
	}
	next.Heard(2, 2, false, at.Add(20*time.Second))
	if next.Section(2).Holds() || !next.QuietEnds().IsZero() {
		t.Fatal("section 2's next run reported, and its orders are still held")
	}

	if !top.EndQuiets() || top.EndQuiets() {
		t.Fatal("EndQuiets says it ended no quiet, or ended one twice")
	}
	for n := 1; n <= 3; n++ {
		if top.Section(n).Holds() {
			t.Fatalf("section %d still holds after EndQuiets", n)
		}
	}
}

// TestSectionAsksOnceToContinueAsNew: a section's run due to continue as new asks its
// tournament to hold its orders once, and may continue once the ask is answered, whichever
// way (a failed ask does not hold it: it continues as before PaceSectionQuiet); a section that
// ends does not ask; the next run is counted and has its first report to send; a run from
// before PaceSectionQuiet never asks, names no run, and may always continue.
func TestSectionAsksOnceToContinueAsNew(t *testing.T) {
	top := quietTop(t)
	_, secs, err := NewTopState("quiet", top.Spec, 1, 3, simStart)
	if err != nil {
		t.Fatal(err)
	}
	s, err := secs[0].State(simStart)
	if err != nil {
		t.Fatal(err)
	}
	if s.Pace != PaceLatest || PaceLatest < PaceSectionQuiet || s.ReportRun() != 1 {
		t.Fatalf("pace %d, run %d: expected the latest pace (%d), which asks, and run 1", s.Pace, s.ReportRun(), PaceLatest)
	}
	for _, granted := range []bool{true, false} {
		if s.HoldDone() {
			t.Fatal("the run may continue as new before it asked")
		}
		if !s.AskHold() || s.AskHold() {
			t.Fatal("expected one ask a run")
		}
		if s.HoldDone() {
			t.Fatal("the run may continue as new before its ask was answered")
		}
		s.HoldAnswer(granted)
		if !s.HoldDone() {
			t.Fatalf("the ask answered (granted %v), and the run may not continue as new", granted)
		}
		run := s.ReportRun()
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var next TournamentState
		if err := json.Unmarshal(data, &next); err != nil {
			t.Fatal(err)
		}
		next.ResumeSection()
		if next.ReportRun() != run+1 || !next.Section.FirstReport || next.Section.Hold != HoldNone {
			t.Fatalf("the next run: run %d, first report due %v, hold %v; expected run %d, due, none",
				next.ReportRun(), next.Section.FirstReport, next.Section.Hold, run+1)
		}
		s = &next
	}
	s.Finished = true
	if s.AskHold() {
		t.Fatal("a section that ends asked")
	}

	old, err := secs[1].State(simStart)
	if err != nil {
		t.Fatal(err)
	}
	old.Pace = PaceQuiet
	if old.AskHold() || !old.HoldDone() || old.ReportRun() != 0 {
		t.Fatalf("a run from before PaceSectionQuiet: asks %v, may continue %v, run %d", old.AskHold(), old.HoldDone(), old.ReportRun())
	}
	old.ResumeSection()
	if old.Section.FirstReport {
		t.Fatal("a run from before PaceSectionQuiet has a first report due")
	}
}
