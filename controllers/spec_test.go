package controllers

import (
	"strings"
	"testing"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A Tournament's spec becomes the workflow's; what the workflows do not play yet is refused by
// its field's name, never dropped: players bought in on those terms.
func TestWorkflowSpec(t *testing.T) {
	base := func() *pokerv1.Tournament {
		tm := validTournament("club")
		tm.Spec.Players = append(tm.Spec.Players, "eve", "fay", "gus", "hal", "ida", "jon")
		return tm
	}
	tests := []struct {
		name    string
		change  func(*pokerv1.Tournament)
		refused string
	}{
		{"custom levels and shares", func(*pokerv1.Tournament) {}, ""},
		{"a built-in structure with its own stack", func(tm *pokerv1.Tournament) {
			tm.Spec.Structure = pokerv1.BlindStructure{Name: pokerv1.StructureTurbo}
			tm.Spec.StartingStack = 15000
		}, ""},
		{"no-shows after 30 minutes, the fee kept (T4)", func(tm *pokerv1.Tournament) {
			tm.Spec.NoShow = &pokerv1.NoShow{AfterMinutes: 30, KeepFee: true}
		}, ""},
		{"bounty", func(tm *pokerv1.Tournament) { tm.Spec.Bounty = &pokerv1.Bounty{AmountCents: 500} }, "spec.bounty"},
		{"add-on at the break after level 2 (R1)", func(tm *pokerv1.Tournament) {
			tm.Spec.AddOn = &pokerv1.AddOn{AfterLevel: 2, Chips: 5000, PriceCents: 1000, FeeCents: 100}
		}, ""},
		{"add-on and rebuys closing at level 2 (R1)", func(tm *pokerv1.Tournament) {
			tm.Spec.Rebuys = &pokerv1.Rebuys{Max: 1, UntilLevel: 2}
			tm.Spec.AddOn = &pokerv1.AddOn{AfterLevel: 2, Chips: 5000, PriceCents: 1000}
		}, ""},
		{"add-on after a level with no break (R1)", func(tm *pokerv1.Tournament) {
			tm.Spec.AddOn = &pokerv1.AddOn{AfterLevel: 1, Chips: 5000, PriceCents: 1000}
		}, "no break there"},
		{"add-on where rebuys do not close (R1)", func(tm *pokerv1.Tournament) {
			tm.Spec.Rebuys = &pokerv1.Rebuys{Max: 1, UntilLevel: 3}
			tm.Spec.AddOn = &pokerv1.AddOn{AfterLevel: 2, Chips: 5000, PriceCents: 1000}
		}, "spec.rebuys.untilLevel 3"},
		{"satellite", func(tm *pokerv1.Tournament) {
			tm.Spec.Payouts = &pokerv1.Payouts{Satellite: &pokerv1.Satellite{Event: "main", Seats: 1, SeatValueCents: 50000}}
		}, "spec.payouts.satellite"},
		// The API server accepts it; the workflows' R6 check (a prize at least the buy-in) does
		// not, and the manager reports it in WorkflowRunning.
		{"three paid of four", func(tm *pokerv1.Tournament) { tm.Spec.Players = tm.Spec.Players[:4] }, "rule R6"},
		{"big blind ante", func(tm *pokerv1.Tournament) { tm.Spec.AnteMode = pokerv1.AnteBigBlind }, "spec.anteMode bigBlind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tm := base()
			tm.ObjectMeta = metav1.ObjectMeta{Name: "club", Namespace: "default", Annotations: map[string]string{SimulationAnnotation: "true"}}
			tt.change(tm)
			spec, err := workflowSpec(tm)
			if err == nil {
				err = spec.Validate()
			}
			if tt.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tt.refused) {
					t.Fatalf("got %v, want it refused naming %s", err, tt.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !spec.Simulation || spec.BuyIn != tm.Spec.BuyInCents || spec.Fee != tm.Spec.FeeCents || len(spec.Players) != len(tm.Spec.Players) {
				t.Errorf("spec %+v does not carry the Tournament's simulation, money and players", spec)
			}
			if n := tm.Spec.NoShow; n != nil && (spec.NoShow == nil || spec.NoShow.After != time.Duration(n.AfterMinutes)*time.Minute || spec.NoShow.KeepFee != n.KeepFee) {
				t.Errorf("no-show rule %+v, want %+v (T4)", spec.NoShow, n)
			}
			if tm.Spec.StartingStack != 0 && spec.Structure.StartingStack != tm.Spec.StartingStack {
				t.Errorf("starting stack %d, want %d", spec.Structure.StartingStack, tm.Spec.StartingStack)
			}
			if a := tm.Spec.AddOn; a != nil && (spec.AddOn == nil || spec.AddOn.Chips != a.Chips || spec.AddOn.PriceCents != a.PriceCents ||
				spec.AddOn.FeeCents != a.FeeCents || spec.RebuyLevel != int(a.AfterLevel)) {
				t.Errorf("add-on %+v at the end of level %d, want %+v (R1)", spec.AddOn, spec.RebuyLevel, a)
			}
			if tm.Spec.Payouts.SharesBasisPoints != nil && (spec.Payouts.Name != floor.PayoutCustom || len(spec.Payouts.Custom) != 3) {
				t.Errorf("payouts %+v, want the custom table of 3 places", spec.Payouts)
			}
		})
	}
}

// The IDs the manager makes are the ones it reads back, and a table's name is a DNS label.
func TestWorkflowIDs(t *testing.T) {
	tm := &pokerv1.Tournament{ObjectMeta: metav1.ObjectMeta{Namespace: "poker", Name: strings.Repeat("a", 50), UID: "0b9c"}}
	id := tournamentWorkflowID(tm)
	ns, name, err := parseTournamentWorkflowID(id)
	if err != nil || ns != "poker" || name != tm.Name {
		t.Errorf("%q read back as %q %q (%v)", id, ns, name, err)
	}
	key, err := tableKey(id + "/table-100000")
	if err != nil || key.Namespace != "poker" || key.Name != tm.Name+"-table-100000" || len(key.Name) > 63 {
		t.Errorf("table key %v (%v), want %s-table-100000 of at most 63 characters", key, err, tm.Name)
	}
	for _, bad := range []string{"poker/club", id + "/table-x", "table-7"} {
		if _, err := tableKey(bad); err == nil {
			t.Errorf("table workflow ID %q accepted", bad)
		}
	}
}
