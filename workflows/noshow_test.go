package workflows

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/engine/tableserver"
	"github.com/pokerfloor/pokerfloor/workflows/director"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// servedTables runs each table as the table pods do, served over WebSocket by engine/tableserver,
// with a bot at every seat but those of the absent players, whose connections never come.
func servedTables(absent []string) RunTable {
	key := []byte("a key for the no-show test's tables, thirty-two bytes or more")
	return func(ctx context.Context, t HostedTable, c report.Reporter) error {
		tokens, err := tableserver.NewTokens(key, t.Tournament, t.ID, nil)
		if err != nil {
			return err
		}
		bots := bot.Players(uint64(t.Number))
		srv, err := tableserver.New(tableserver.Config{Tournament: t.Tournament, TableID: t.ID, Reporter: c, Tokens: tokens,
			Grace: 10 * time.Millisecond, ActionClock: tableserver.ActionClock{Think: 10 * time.Millisecond},
			Bots: engine.PlayersFunc(func(p string) engine.Decider {
				if slices.Contains(absent, p) {
					return nil // his connection never comes
				}
				return bots.Decider(p)
			})})
		if err != nil {
			return err
		}
		if err := srv.Run(ctx); ctx.Err() == nil {
			return err
		}
		return nil
	}
}

// TestNoShowsFromServedTablesEndToEnd: on a real Temporal server, tables served as in production
// (engine/tableserver) tell the tournament who has not connected; once the spec's no-show time
// has run (a simulation's clock is its hands) the tournament removes them itself (NoShowRule.Auto),
// refunded less the fee, by the rule (P6), in one tournament and in a tournament of sections. Every
// other entry is placed once, the prizes are the pool of the entries left, and the chips add up
// after every hand (the checking controller).
func TestNoShowsFromServedTablesEndToEnd(t *testing.T) { // rule T4
	if testing.Short() {
		t.Skip("starts a Temporal server")
	}
	// Deep stacks and a hand a report: an absent player only loses blinds, and the tables must
	// not blind him out before the tournament hears he is absent and its removal reaches them.
	deep, err := floor.BuiltinStructure(floor.StructureDeep)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		players int
		tables  int // SectionTables
		absent  []string
	}{
		{"one tournament", 18, 0, []string{"p0004", "p0013"}},
		{"sections", 45, 2, []string{"p0002", "p0023", "p0041"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, check := startServerRunning(t, nil, servedTables(tc.absent))
			spec := TournamentSpec{Name: "no-shows", PlayerCount: tc.players, TableSize: 9, Structure: deep, Seed: 5, Simulation: true, Batch: 1,
				SectionTables: tc.tables, BuyIn: 11000, Fee: 1000,
				NoShow: &floor.NoShowRule{After: 5 * time.Minute, KeepFee: true, Auto: true}}
			// A deadline for a machine many times slower than this one (seconds here).
			ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
			defer cancel()
			tour, res := playOut(ctx, t, c, fmt.Sprintf("no-shows-%d", tc.players), spec)
			// Each workflow's own record: the tournament's, or each section's (closed at the end, so
			// Tournament.Tools, which asks the sections in play, no longer reaches them).
			var withdrawn []director.WithdrawalRecord
			ids := []string{tour.ID}
			if tc.tables > 0 {
				ids = sectionIDs(tour.ID, 3)
			}
			for _, id := range ids {
				v, err := c.QueryWorkflow(ctx, id, "", StateQuery)
				var st director.TournamentState
				if err != nil || v.Get(&st) != nil {
					t.Fatalf("the state of %s: %v", id, err)
				}
				withdrawn = append(withdrawn, st.Tools.Withdrawn...)
			}
			var removed []string
			for _, w := range withdrawn {
				if !w.NoShow || w.By != director.NoShowRuleBy || w.RefundCents != spec.BuyIn-spec.Fee || w.Refused != "" {
					t.Errorf("withdrawal %+v: want a no-show refunded less the fee by the rule", w)
				}
				removed = append(removed, w.Player)
			}
			slices.Sort(removed)
			if !slices.Equal(removed, tc.absent) {
				t.Errorf("removed %v, want the players who never connected %v", removed, tc.absent)
			}
			var prizes int64
			for _, p := range res.Places {
				prizes += p.Prize
				if slices.Contains(tc.absent, p.Player) {
					t.Errorf("no-show %s placed %d", p.Player, p.Place)
				}
			}
			left := int64(tc.players - len(tc.absent))
			if res.Entries != int(left) || len(res.Places) != int(left) || prizes != res.PrizePool || res.PrizePool != left*(spec.BuyIn-spec.Fee) ||
				len(res.ChipErrors) > 0 || len(check.errs) > 0 {
				t.Errorf("%d entries, %d places, %d paid of a pool of %d (want %d entries and a pool of %d); chip errors %v %v",
					res.Entries, len(res.Places), prizes, res.PrizePool, left, left*(spec.BuyIn-spec.Fee), res.ChipErrors, check.errs)
			}
			t.Logf("%d entries, %d hands, no-shows %v removed", res.Entries, res.HandsPlayed, removed)
		})
	}
}
