package host

import (
	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

// knockouts says who won each eliminated player's last chips in the hand just completed (a
// progressive knockout's bounty goes to them).
func knockouts(t *engine.Table, hd engine.Header, elim []engine.Elimination) []report.Knockout {
	out := make([]report.Knockout, 0, len(elim))
	for _, e := range elim {
		k := report.Knockout{Player: e.ID}
		for _, s := range t.LastChipsWinners(e.Seat) {
			k.By = append(k.By, hd.Seats[s].ID)
		}
		out = append(out, k)
	}
	return out
}
