package director

import (
	"testing"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// TestWinnerOnHisWayBetweenSections: the last two players sit at one table of section 3 when the
// tournament plans the field: section 2 still counts an open table (its last player left it, the
// table not yet closed), so the field's one table is section 2's and section 3 sends both there
// (floor.PlanSections takes the table from the highest-numbered section). In the hand under way
// one busts the other, and the winner leaves for section 2 after it: section 3's event brings the
// bust and the winner on his way together. The tournament is over (R5), and the winner is the
// one player between two sections; before, only a section's last player was one, and place 1
// (a satellite's seat, 1,050.00) went unpaid: 44 places for 45 entries
// (TestBountiesAndSatellitesInSectionsEndToEnd/satellite once under load). The plan counts
// section 2's empty table as the plan of a run started before PlanKeptTables does; from there a
// section's count is the tables its players need, and the plan sends nobody to an empty one.
func TestWinnerOnHisWayBetweenSections(t *testing.T) { // rules R5, R6
	spec := simSpec(45)
	spec.SectionTables = 2
	spec.BuyIn, spec.Fee = 11000, 1000
	spec.Satellite = &floor.Satellite{TicketCents: 105000}
	top, _, err := NewTopState("sat", spec, 12, 0, simStart)
	if err != nil {
		t.Fatal(err)
	}
	if len(top.Sections) != 3 {
		t.Fatalf("%d sections, want 3", len(top.Sections))
	}
	top.Plan = PlanKeptTables - 1
	top.Tick(simStart)
	stack := top.Ledger.Total()
	var sendOut *SendOutOrder // the last order to section 3 to send players out
	event := func(n int, ev SectionEvent) {
		r := top.Section(n)
		for _, o := range top.Section(3).Orders.Unacked {
			if o.Msg.SendOut != nil {
				sendOut = o.Msg.SendOut
			}
		}
		// Every order applied, the hand-for-hand round open (the bubble) dealt.
		ev.Section, ev.Acked, ev.Settled, ev.RoundDone = n, r.Orders.Sent, true, top.HandForHand.Round
		top.OnEvents(n, []Numbered[SectionEvent]{{Seq: r.Events.Last + 1, Msg: ev}})
		top.Step(simStart)
	}
	// 43 busts: section 1 empties and closes, section 2 keeps one table and nobody at it, the
	// last two are at section 3's table.
	names := PlayerNames(45)
	var busts [][]floor.Elimination
	for k := 1; k <= 43; k++ {
		busts = append(busts, []floor.Elimination{{Player: floor.PlayerID(names[k-1]), Stack: 1}})
	}
	event(1, SectionEvent{Busts: busts[:18], Players: 0, Tables: 0})
	event(1, SectionEvent{Closed: true})
	event(2, SectionEvent{Busts: busts[18:35], Players: 0, Tables: 1})
	event(3, SectionEvent{Busts: busts[35:], Players: 2, Tables: 1, Chips: stack})
	for range 2 { // the orders of the news (the bubble's) applied
		event(2, SectionEvent{Players: 0, Tables: 1})
		event(3, SectionEvent{Players: 2, Tables: 1, Chips: stack})
	}
	if top.Left != 2 || top.Finished {
		t.Fatalf("%d left, finished %v: want the last two in play", top.Left, top.Finished)
	}
	if sendOut == nil || sendOut.To != 2 || sendOut.Players != 2 {
		t.Fatalf("section 3 ordered to send out %+v: want both sent to section 2's table (errors %v; phases %s %s %s; settled %v; h4h %+v)", sendOut, top.ChipErrors, top.Sections[0].Phase, top.Sections[1].Phase, top.Sections[2].Phase, top.settled(), top.HandForHand)
	}
	// The hand under way: p0044 busts p0045, then leaves for section 2.
	winner := names[43]
	event(3, SectionEvent{Busts: [][]floor.Elimination{{{Player: floor.PlayerID(names[44]), Stack: 1}}}, Players: 0, Tables: 1,
		Out: []Transfer{{Player: winner, Entrant: winner, Stack: stack, From: 3, To: 2}}})
	if !top.Finished {
		t.Fatalf("one player left (%d), on his way to section 2: the tournament is not over", top.Left)
	}
	res, err := top.Result()
	if err != nil {
		t.Fatal(err)
	}
	var paid int64
	for _, p := range res.Places {
		paid += p.Prize
	}
	if len(res.Places) != 45 || res.Places[0].Place != 1 || res.Places[0].Player != winner || paid != res.PrizePool {
		t.Errorf("%d places for 45 entries, %d paid of %d; first %+v, want %s 1st", len(res.Places), paid, res.PrizePool, res.Places[0], winner)
	}
}
