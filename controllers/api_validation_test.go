package controllers

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/controllers/envtestutil"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// The validation tests prove that the API server itself refuses a bad spec, with a message that
// says what is wrong: each case names the rule it is about, changes one thing in a valid object and
// checks the server's own error text. They install the CRDs exactly as config/crd/bases has them.

const testNamespace = "default"

// apiServer is a real kube-apiserver and etcd with pokerfloor's CRDs installed.
type apiServer struct {
	env    *envtest.Environment
	client client.Client
	scheme *runtime.Scheme
}

// startAPIServer starts envtest with config/crd/bases installed, skipping (or failing in CI) when
// the binaries are missing.
func startAPIServer(t *testing.T) *apiServer {
	t.Helper()
	s := envtestutil.Start(t, filepath.Join("..", "config", "crd", "bases"), pokerv1.AddToScheme)
	return &apiServer{env: s.Env, client: s.Client, scheme: s.Scheme}
}

func testContext(t *testing.T) context.Context {
	// Generous: a deadline here only stops a hung test, and must hold on a machine 5x slower.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func level(sb, bb, ante int64) pokerv1.Level {
	return pokerv1.Level{SmallBlind: sb, BigBlind: bb, Ante: ante, Minutes: 20}
}

func breakLevel() pokerv1.Level { return pokerv1.Level{Break: true, Minutes: 10} }

// validTournament is a small valid event that each case changes in one place.
func validTournament(name string) *pokerv1.Tournament {
	return &pokerv1.Tournament{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNamespace},
		Spec: pokerv1.TournamentSpec{
			Currency:      "EUR",
			BuyInCents:    2200,
			FeeCents:      200,
			StartingStack: 10000,
			TableSize:     9,
			Structure: pokerv1.BlindStructure{Levels: []pokerv1.Level{
				level(50, 100, 0), level(100, 200, 25), breakLevel(), level(150, 300, 25), level(200, 400, 50),
			}},
			Payouts: &pokerv1.Payouts{SharesBasisPoints: []int32{5000, 3000, 2000}},
			Players: []string{"ann", "bob", "cid", "dee"},
		},
	}
}

// wantRefused checks that err is the API server refusing the object as invalid, with every one
// of wants in its message.
func wantRefused(t *testing.T, err error, wants ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("the API server accepted the object; want it refused with %q", wants)
	}
	if !apierrors.IsInvalid(err) {
		t.Fatalf("error %v is not the API server's Invalid; want %q", err, wants)
	}
	t.Logf("refused: %v", err)
	for _, w := range wants {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("the API server's message\n  %v\ndoes not say %q", err, w)
		}
	}
}

func TestAPIValidation(t *testing.T) {
	t.Parallel()
	s := startAPIServer(t)
	ctx := testContext(t)

	t.Run("Tournament", func(t *testing.T) { testTournamentValidation(t, ctx, s) })
	t.Run("TournamentImmutableAfterStart", func(t *testing.T) { testTournamentImmutableAfterStart(t, ctx, s) })
	t.Run("Table", func(t *testing.T) { testTableValidation(t, ctx, s) })
	t.Run("Sanction", func(t *testing.T) { testSanctionValidation(t, ctx, s) })
	t.Run("EntryBatch", func(t *testing.T) { testEntryBatchValidation(t, ctx, s) })
	t.Run("SamplesAccepted", func(t *testing.T) { testSamplesAccepted(t, ctx, s) })
	t.Run("PrinterColumns", func(t *testing.T) { testPrinterColumns(t, ctx, s) })
	t.Run("BuiltinStructuresAsLevels", func(t *testing.T) { testBuiltinStructuresAsLevels(t, ctx, s) })
}

// testBuiltinStructuresAsLevels: each structure the workflows build in, written out as a custom
// schedule, passes the API's rules, so the API is never stricter than the rule book's own ladders.
func testBuiltinStructuresAsLevels(t *testing.T, ctx context.Context, s *apiServer) {
	for _, name := range floor.StructureNames() {
		st, err := floor.BuiltinStructure(name)
		if err != nil {
			t.Fatal(err)
		}
		tm := validTournament("written-out-" + name)
		tm.Spec.StartingStack = st.StartingStack
		tm.Spec.Structure = pokerv1.BlindStructure{Chips: st.Chips}
		for _, l := range st.Levels {
			tm.Spec.Structure.Levels = append(tm.Spec.Structure.Levels, pokerv1.Level{Break: l.Break,
				SmallBlind: l.SmallBlind, BigBlind: l.BigBlind, Ante: l.Ante, Minutes: int32(l.Minutes), ColorUp: l.ColorUp})
		}
		if err := s.client.Create(ctx, tm); err != nil {
			t.Errorf("the built-in structure %s written out as levels was refused: %v", name, err)
		}
	}
}

func testTournamentValidation(t *testing.T, ctx context.Context, s *apiServer) {
	// The valid base is accepted: otherwise every refusal below would prove nothing.
	if err := s.client.Create(ctx, validTournament("valid-base")); err != nil {
		t.Fatalf("the valid base tournament was refused: %v", err)
	}
	// And with every option at its limit, so that each refusal below is the change it makes.
	full := validTournament("valid-full")
	full.Spec.LateRegistration = &pokerv1.LateRegistration{UntilLevel: 4}
	full.Spec.ReEntry = &pokerv1.ReEntry{Max: 2}
	full.Spec.Rebuys = &pokerv1.Rebuys{Max: 3, UntilLevel: 3, Chips: 10000, PriceCents: 2200, FeeCents: 200}
	full.Spec.AddOn = &pokerv1.AddOn{AfterLevel: 3, Chips: 15000, PriceCents: 2200, FeeCents: 200}
	full.Spec.Bounty = &pokerv1.Bounty{AmountCents: 1999, ProgressivePercent: 50}
	full.Spec.Structure.Chips = []int64{25, 100, 500}
	full.Spec.ActionClock = &pokerv1.ActionClock{ThinkSeconds: 15, ClockSeconds: 30, CountdownSeconds: 5, TimeBankSeconds: 60, Expiry: pokerv1.ExpireCheckWhenFree}
	full.Spec.HandForHand = &pokerv1.HandForHand{PlayersBeforeMoney: 2}
	if err := s.client.Create(ctx, full); err != nil {
		t.Fatalf("the valid tournament with every option was refused: %v", err)
	}
	cases := []struct {
		name   string
		change func(*pokerv1.TournamentSpec)
		want   []string
	}{
		{"RuleB3BlindsFall", func(s *pokerv1.TournamentSpec) {
			s.Structure.Levels = []pokerv1.Level{level(100, 200, 0), breakLevel(), level(50, 100, 0)}
		}, []string{"spec.structure.levels: Invalid value", "the blinds fall from one level to the next"}},
		{"RuleB3AnteFalls", func(s *pokerv1.TournamentSpec) {
			s.Structure.Levels = []pokerv1.Level{level(100, 200, 50), level(200, 400, 25)}
		}, []string{"spec.structure.levels: Invalid value", "the ante falls from one level to the next"}},
		{"RuleB3BlindsDoNotRise", func(s *pokerv1.TournamentSpec) {
			s.Structure.Levels = []pokerv1.Level{level(100, 200, 25), breakLevel(), level(100, 200, 25), level(200, 400, 50)}
		}, []string{"spec.structure.levels: Invalid value", "the blinds do not rise: a level repeats the big blind and the ante of the level before"}},
		{"RuleB1BigBlindNotTwiceSmall", func(s *pokerv1.TournamentSpec) {
			s.Structure.Levels[1] = level(100, 250, 25)
		}, []string{"spec.structure.levels[1]", "a blind level's bigBlind must be twice its smallBlind (B1)"}},
		{"RuleB1SmallBlindNotPositive", func(s *pokerv1.TournamentSpec) {
			s.Structure.Levels[0] = level(0, 0, 0)
		}, []string{"spec.structure.levels[0]", "a blind level needs a positive smallBlind (B1)"}},
		{"RuleB3BreakWithBlinds", func(s *pokerv1.TournamentSpec) {
			s.Structure.Levels[2] = pokerv1.Level{Break: true, SmallBlind: 100, BigBlind: 200, Minutes: 10}
		}, []string{"spec.structure.levels[2]", "a break has no blinds and no ante (B3)"}},
		{"RuleB3StartsWithBreak", func(s *pokerv1.TournamentSpec) {
			s.Structure.Levels = append([]pokerv1.Level{breakLevel()}, s.Structure.Levels...)
		}, []string{"spec.structure.levels[0] is a break: the tournament starts with a blind level"}},
		{"RuleB3EndsWithBreak", func(s *pokerv1.TournamentSpec) {
			s.Structure.Levels = append(s.Structure.Levels, breakLevel())
		}, []string{"spec.structure.levels ends with a break"}},
		{"RuleB3LevelWithoutMinutes", func(s *pokerv1.TournamentSpec) {
			s.Structure.Levels[0].Minutes = 0
		}, []string{"spec.structure.levels[0].minutes", "should be greater than or equal to 1"}},
		{"RuleB3NameAndLevels", func(s *pokerv1.TournamentSpec) {
			s.Structure.Name = pokerv1.StructureTurbo
		}, []string{"spec.structure takes either name", "or levels", "exactly one of them"}},
		{"RuleB3UnknownStructure", func(s *pokerv1.TournamentSpec) {
			s.Structure = pokerv1.BlindStructure{Name: "hyper"}
		}, []string{"spec.structure.name", `"turbo", "standard", "deep"`}},
		{"RuleR8ChipsNotAscending", func(s *pokerv1.TournamentSpec) {
			s.Structure.Chips = []int64{100, 25, 500}
		}, []string{"spec.structure.chips must be ascending"}},
		{"RuleR8ColorUpOfAChipNotInPlay", func(s *pokerv1.TournamentSpec) {
			s.Structure.Chips = []int64{25, 100}
			s.Structure.Levels[2].ColorUp = []int64{50}
		}, []string{"spec.structure.levels: Invalid value", "a colorUp names a denomination that spec.structure.chips does not list"}},
		{"RuleR8ColorUpWithoutChips", func(s *pokerv1.TournamentSpec) {
			s.Structure.Levels[2].ColorUp = []int64{25}
		}, []string{"a colorUp names a denomination that spec.structure.chips does not list"}},
		{"RuleR6SharesDoNotAddUp", func(s *pokerv1.TournamentSpec) {
			s.Payouts.SharesBasisPoints = []int32{5000, 3000, 1000}
		}, []string{"spec.payouts.sharesBasisPoints must add up to 10000 basis points, 100% of the prize pool (R6)"}},
		{"RuleR6SharesIncrease", func(s *pokerv1.TournamentSpec) {
			s.Payouts.SharesBasisPoints = []int32{4000, 4500, 1500}
		}, []string{"spec.payouts.sharesBasisPoints must never increase"}},
		{"RuleR6AmountsIncrease", func(s *pokerv1.TournamentSpec) {
			s.Payouts = &pokerv1.Payouts{AmountsCents: []int64{50000, 60000}}
		}, []string{"spec.payouts.amountsCents must never increase"}},
		{"RuleR6TwoPayoutForms", func(s *pokerv1.TournamentSpec) {
			s.Payouts.Builtin = pokerv1.PayoutStandard
		}, []string{"spec.payouts takes exactly one of builtin, sharesBasisPoints, amountsCents and satellite"}},
		{"RuleR6PaidPercentBelowTen", func(s *pokerv1.TournamentSpec) {
			s.Payouts = &pokerv1.Payouts{Builtin: pokerv1.PayoutStandard, PaidPercent: 5}
		}, []string{"spec.payouts.paidPercent", "should be greater than or equal to 10"}},
		{"RuleR6PaidPercentWithCustomTable", func(s *pokerv1.TournamentSpec) {
			s.Payouts.PaidPercent = 20
		}, []string{"spec.payouts.paidPercent goes with builtin"}},
		{"RuleR6SatelliteSeatWorthLessThanBuyIn", func(s *pokerv1.TournamentSpec) {
			s.Payouts = &pokerv1.Payouts{Satellite: &pokerv1.Satellite{Event: "main", Seats: 1, SeatValueCents: 2000}}
		}, []string{"spec.payouts.satellite.seatValueCents must be more than spec.buyInCents"}},
		{"RuleR6SatelliteSeatsForEveryPlayer", func(s *pokerv1.TournamentSpec) {
			s.Payouts = &pokerv1.Payouts{Satellite: &pokerv1.Satellite{Event: "main", Seats: 4, SeatValueCents: 20000}}
		}, []string{"spec.payouts.satellite.seats: Invalid value", "spec.payouts.satellite.seats must be fewer than the players listed in spec.players"}},
		{"RuleR6FeeNotLessThanBuyIn", func(s *pokerv1.TournamentSpec) {
			s.FeeCents = s.BuyInCents
		}, []string{"spec.feeCents: Invalid value", "spec.feeCents must be less than spec.buyInCents"}},
		{"RuleR6BountyTakesThePool", func(s *pokerv1.TournamentSpec) {
			s.Bounty = &pokerv1.Bounty{AmountCents: 2000, ProgressivePercent: 50}
		}, []string{"spec.bounty.amountCents must be less than the buy-in less the fee"}},
		{"RuleR6RebuyFeeNotLessThanPrice", func(s *pokerv1.TournamentSpec) {
			s.Rebuys = &pokerv1.Rebuys{Max: 1, UntilLevel: 2, PriceCents: 1000, FeeCents: 1000}
		}, []string{"spec.rebuys.feeCents must be less than spec.rebuys.priceCents"}},
		{"RuleR6AddOnFeeNotLessThanPrice", func(s *pokerv1.TournamentSpec) {
			s.AddOn = &pokerv1.AddOn{AfterLevel: 2, Chips: 5000, PriceCents: 1000, FeeCents: 1500}
		}, []string{"spec.addOn.feeCents must be less than spec.addOn.priceCents"}},
		{"RuleR1LateRegistrationPastTheLastLevel", func(s *pokerv1.TournamentSpec) {
			s.LateRegistration = &pokerv1.LateRegistration{UntilLevel: 5} // 4 blind levels
		}, []string{"spec.lateRegistration.untilLevel: Invalid value", "past the last level of spec.structure.levels"}},
		{"RuleR1RebuysPastTheLastLevel", func(s *pokerv1.TournamentSpec) {
			s.Rebuys = &pokerv1.Rebuys{Max: 1, UntilLevel: 5}
		}, []string{"spec.rebuys.untilLevel: Invalid value", "past the last level of spec.structure.levels"}},
		{"RuleR1AddOnNotWhereRebuysClose", func(s *pokerv1.TournamentSpec) {
			s.Rebuys = &pokerv1.Rebuys{Max: 1, UntilLevel: 3}
			s.AddOn = &pokerv1.AddOn{AfterLevel: 2, Chips: 5000, PriceCents: 1000}
		}, []string{"spec.addOn.afterLevel: Invalid value", "must be spec.rebuys.untilLevel: the add-on is sold at the break where rebuys close"}},
		{"RuleR1AddOnAfterTheLastLevel", func(s *pokerv1.TournamentSpec) {
			s.AddOn = &pokerv1.AddOn{AfterLevel: 4, Chips: 5000, PriceCents: 1000}
		}, []string{"spec.addOn.afterLevel: Invalid value", "must be before the last level"}},
		{"RuleR1BuyInNotPositive", func(s *pokerv1.TournamentSpec) {
			s.BuyInCents, s.FeeCents = 0, 0
		}, []string{"spec.buyInCents", "should be greater than or equal to 1"}},
		{"RuleR1StartingStackNotPositive", func(s *pokerv1.TournamentSpec) {
			s.StartingStack = -5000
		}, []string{"spec.startingStack", "should be greater than or equal to 1"}},
		{"RuleR1StartingStackMissing", func(s *pokerv1.TournamentSpec) {
			s.StartingStack = 0 // omitted: custom levels need one
		}, []string{"spec.startingStack is required with a custom level schedule"}},
		{"RuleR1RebuyChipsNotPositive", func(s *pokerv1.TournamentSpec) {
			s.Rebuys = &pokerv1.Rebuys{Max: 1, UntilLevel: 2, Chips: -1}
		}, []string{"spec.rebuys.chips", "should be greater than or equal to 1"}},
		{"RuleR1ReEntryWithoutLateRegistration", func(s *pokerv1.TournamentSpec) {
			s.ReEntry = &pokerv1.ReEntry{Max: 1}
		}, []string{"spec.reEntry needs spec.lateRegistration"}},
		{"RuleR1PlayerTwice", func(s *pokerv1.TournamentSpec) {
			s.Players = append(s.Players, "bob")
		}, []string{"spec.players[4]", "Duplicate value", `"bob"`}},
		{"RuleT1TableTooLarge", func(s *pokerv1.TournamentSpec) {
			s.TableSize = 11
		}, []string{"spec.tableSize", "should be less than or equal to 10"}},
		{"RuleT1TableTooSmall", func(s *pokerv1.TournamentSpec) {
			s.TableSize = 1
		}, []string{"spec.tableSize", "should be greater than or equal to 2"}},
		{"RuleR3BalanceThreshold", func(s *pokerv1.TournamentSpec) {
			s.BalanceThreshold = 4
		}, []string{"spec.balanceThreshold", "supported values", "2", "3"}},
		{"RuleB2AnteMode", func(s *pokerv1.TournamentSpec) {
			s.AnteMode = "button"
		}, []string{"spec.anteMode", `"everyone", "bigBlind"`}},
		{"RuleB5ButtonRule", func(s *pokerv1.TournamentSpec) {
			s.ButtonRule = "moving"
		}, []string{"spec.buttonRule", `"dead", "seed000"`}},
		{"RuleA14OutOfTurn", func(s *pokerv1.TournamentSpec) {
			s.OutOfTurn = "strict"
		}, []string{"spec.outOfTurn", `"seed000", "tda"`}},
		{"RuleA15ClockExpiry", func(s *pokerv1.TournamentSpec) {
			s.ActionClock = &pokerv1.ActionClock{ThinkSeconds: 30, Expiry: "check"}
		}, []string{"spec.actionClock.expiry", `"fold", "checkWhenFree"`}},
		{"CurrencyCode", func(s *pokerv1.TournamentSpec) {
			s.Currency = "euro"
		}, []string{"spec.currency", "should match '^[A-Z]{3}$'"}},
	}
	for _, name := range []string{"series.2026", "7-card-stud", strings.Repeat("long", 13)} {
		t.Run("NameNamesItsTables/"+name, func(t *testing.T) {
			wantRefused(t, s.client.Create(ctx, validTournament(name)),
				"a Tournament's name is a DNS label of at most 50 characters")
		})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tm := validTournament("invalid-" + strings.ToLower(tc.name))
			tc.change(&tm.Spec)
			wantRefused(t, s.client.Create(ctx, tm), tc.want...)
		})
	}
}

// testTournamentImmutableAfterStart: the money, the chips, the table size and the structure may
// change until the tournament starts (status.startedAt), and never after.
func testTournamentImmutableAfterStart(t *testing.T, ctx context.Context, s *apiServer) {
	tm := validTournament("started")
	if err := s.client.Create(ctx, tm); err != nil {
		t.Fatal(err)
	}
	// Before the start the organiser may still correct the published terms.
	tm.Spec.BuyInCents, tm.Spec.StartingStack, tm.Spec.TableSize = 3300, 15000, 8
	tm.Spec.Structure.Levels[0] = level(25, 50, 0)
	if err := s.client.Update(ctx, tm); err != nil {
		t.Fatalf("changing the terms before the start was refused: %v", err)
	}
	tm.Status.Phase = pokerv1.TournamentRunning
	tm.Status.StartedAt = &metav1.Time{Time: time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)}
	if err := s.client.Status().Update(ctx, tm); err != nil {
		t.Fatalf("the manager's status update was refused: %v", err)
	}
	cases := []struct {
		name   string
		change func(*pokerv1.TournamentSpec)
		path   string
		want   string
	}{
		{"RuleR1BuyIn", func(s *pokerv1.TournamentSpec) { s.BuyInCents = 5500 }, "spec.buyInCents",
			"spec.currency, spec.buyInCents and spec.feeCents cannot change after the tournament has started"},
		{"RuleR6Fee", func(s *pokerv1.TournamentSpec) { s.FeeCents = 300 }, "spec.buyInCents",
			"spec.currency, spec.buyInCents and spec.feeCents cannot change after the tournament has started"},
		{"RuleR1StartingStack", func(s *pokerv1.TournamentSpec) { s.StartingStack = 20000 }, "spec.startingStack",
			"spec.startingStack cannot change after the tournament has started"},
		{"RuleT1TableSize", func(s *pokerv1.TournamentSpec) { s.TableSize = 6 }, "spec.tableSize",
			"spec.tableSize cannot change after the tournament has started"},
		{"RuleB3Structure", func(s *pokerv1.TournamentSpec) { s.Structure.Levels[3].Minutes = 30 }, "spec.structure",
			"spec.structure cannot change after the tournament has started"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got pokerv1.Tournament
			if err := s.client.Get(ctx, client.ObjectKeyFromObject(tm), &got); err != nil {
				t.Fatal(err)
			}
			tc.change(&got.Spec)
			wantRefused(t, s.client.Update(ctx, &got), tc.path+": Invalid value", tc.want)
		})
	}
	// What a director changes during play is still accepted: pausing.
	var got pokerv1.Tournament
	if err := s.client.Get(ctx, client.ObjectKeyFromObject(tm), &got); err != nil {
		t.Fatal(err)
	}
	got.Spec.Paused = true
	if err := s.client.Update(ctx, &got); err != nil {
		t.Errorf("pausing a started tournament was refused: %v", err)
	}
}

func testTableValidation(t *testing.T, ctx context.Context, s *apiServer) {
	table := &pokerv1.Table{
		ObjectMeta: metav1.ObjectMeta{Name: "valid-base-1", Namespace: testNamespace},
		Spec:       pokerv1.TableSpec{Tournament: "valid-base", Number: 1, Seats: 9},
	}
	if err := s.client.Create(ctx, table); err != nil {
		t.Fatalf("a valid Table was refused: %v", err)
	}
	t.Run("RuleT1SeatsOutside2To10", func(t *testing.T) {
		bad := &pokerv1.Table{
			ObjectMeta: metav1.ObjectMeta{Name: "valid-base-2", Namespace: testNamespace},
			Spec:       pokerv1.TableSpec{Tournament: "valid-base", Number: 2, Seats: 12},
		}
		wantRefused(t, s.client.Create(ctx, bad), "spec.seats", "should be less than or equal to 10")
	})
	t.Run("RuleT1MorePlayersThanSeats", func(t *testing.T) {
		var got pokerv1.Table
		if err := s.client.Get(ctx, client.ObjectKeyFromObject(table), &got); err != nil {
			t.Fatal(err)
		}
		got.Status.Players = 10
		wantRefused(t, s.client.Status().Update(ctx, &got), "status.players: Invalid value", "status.players is more than spec.seats")
	})
	for _, tc := range []struct {
		name   string
		change func(*pokerv1.TableSpec)
		want   string
	}{
		{"TournamentImmutable", func(s *pokerv1.TableSpec) { s.Tournament = "other" }, "spec.tournament cannot change"},
		{"NumberImmutable", func(s *pokerv1.TableSpec) { s.Number = 7 }, "spec.number cannot change"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got pokerv1.Table
			if err := s.client.Get(ctx, client.ObjectKeyFromObject(table), &got); err != nil {
				t.Fatal(err)
			}
			tc.change(&got.Spec)
			wantRefused(t, s.client.Update(ctx, &got), tc.want)
		})
	}
}

func validSanction(name string) *pokerv1.Sanction {
	return &pokerv1.Sanction{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNamespace},
		Spec: pokerv1.SanctionSpec{Tournament: "valid-base", Player: "bob", Kind: pokerv1.SanctionExclusion,
			Rounds: 2, Rule: "A14", Reason: "acted out of turn on purpose"},
	}
}

func testSanctionValidation(t *testing.T, ctx context.Context, s *apiServer) {
	given := validSanction("valid-base-bob")
	if err := s.client.Create(ctx, given); err != nil {
		t.Fatalf("a valid Sanction was refused: %v", err)
	}
	for _, tc := range []struct {
		name   string
		change func(*pokerv1.SanctionSpec)
		want   []string
	}{
		{"RuleP1ExclusionWithoutRounds", func(s *pokerv1.SanctionSpec) { s.Rounds = 0 },
			[]string{"spec.rounds: Invalid value", "spec.rounds (1 to 4) is required for an exclusion and only for an exclusion (P1)"}},
		{"RuleP1WarningWithRounds", func(s *pokerv1.SanctionSpec) { s.Kind = pokerv1.SanctionWarning },
			[]string{"spec.rounds (1 to 4) is required for an exclusion and only for an exclusion (P1)"}},
		{"RuleP1FiveRounds", func(s *pokerv1.SanctionSpec) { s.Rounds = 5 },
			[]string{"spec.rounds", "should be less than or equal to 4"}},
		{"RuleP1UnknownKind", func(s *pokerv1.SanctionSpec) { s.Kind = "fine" },
			[]string{"spec.kind", `"warning", "exclusion", "disqualification"`}},
		{"RuleP6NoReason", func(s *pokerv1.SanctionSpec) { s.Reason = "" },
			[]string{"spec.reason", "at least 1 chars long"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := validSanction("invalid-" + strings.ToLower(tc.name))
			tc.change(&bad.Spec)
			wantRefused(t, s.client.Create(ctx, bad), tc.want...)
		})
	}
	t.Run("RuleP6SpecIsARecord", func(t *testing.T) {
		var got pokerv1.Sanction
		if err := s.client.Get(ctx, client.ObjectKeyFromObject(given), &got); err != nil {
			t.Fatal(err)
		}
		got.Spec.Rounds = 1
		wantRefused(t, s.client.Update(ctx, &got), "a Sanction's spec cannot change once given")
	})
}

func validEntryBatch(name string, players ...string) *pokerv1.EntryBatch {
	b := &pokerv1.EntryBatch{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNamespace},
		Spec:       pokerv1.EntryBatchSpec{Tournament: "valid-base"},
	}
	for _, p := range players {
		b.Spec.Entries = append(b.Spec.Entries, pokerv1.Entry{Player: p, Kind: pokerv1.EntryFirst})
	}
	return b
}

func testEntryBatchValidation(t *testing.T, ctx context.Context, s *apiServer) {
	// A full batch is accepted: the limit is usable, and the immutability rule's cost fits.
	full := make([]string, pokerv1.MaxEntriesPerBatch)
	for i := range full {
		full[i] = "player-" + strings.Repeat("x", 40) + "-" + strconv.Itoa(i)
	}
	batch := validEntryBatch("full", full...)
	if err := s.client.Create(ctx, batch); err != nil {
		t.Fatalf("a batch of %d entries was refused: %v", pokerv1.MaxEntriesPerBatch, err)
	}
	t.Run("RuleR1TooManyEntries", func(t *testing.T) {
		bad := validEntryBatch("too-many", append(full, "one-more")...)
		wantRefused(t, s.client.Create(ctx, bad), "spec.entries", "must have at most 1000 items")
	})
	t.Run("RuleR1SameEntryTwice", func(t *testing.T) {
		bad := validEntryBatch("twice", "ann", "bob", "ann")
		wantRefused(t, s.client.Create(ctx, bad), "spec.entries[2]", "Duplicate value")
	})
	t.Run("RuleR1ReEntryBesideEntry", func(t *testing.T) {
		ok := validEntryBatch("entry-and-reentry", "ann")
		ok.Spec.Entries = append(ok.Spec.Entries, pokerv1.Entry{Player: "ann", Kind: pokerv1.EntryReEntry})
		if err := s.client.Create(ctx, ok); err != nil {
			t.Errorf("an entry and a re-entry of one player in a batch were refused: %v", err)
		}
	})
	t.Run("RuleR1BadPlayerID", func(t *testing.T) {
		bad := validEntryBatch("bad-id", "ann smith")
		wantRefused(t, s.client.Create(ctx, bad), "spec.entries[0].player", "should match")
	})
	t.Run("SpecIsARecord", func(t *testing.T) {
		var got pokerv1.EntryBatch
		if err := s.client.Get(ctx, client.ObjectKeyFromObject(batch), &got); err != nil {
			t.Fatal(err)
		}
		got.Spec.Entries = got.Spec.Entries[1:]
		wantRefused(t, s.client.Update(ctx, &got), "an EntryBatch's spec cannot change once created")
	})
}

// readManifests decodes every object of the YAML files matching pattern.
func readManifests(t *testing.T, pattern string) []*unstructured.Unstructured {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil || len(files) == 0 {
		t.Fatalf("no files match %s (%v)", pattern, err)
	}
	var out []*unstructured.Unstructured
	for _, f := range files {
		if filepath.Base(f) == "kustomization.yaml" {
			continue
		}
		r, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		d := utilyaml.NewYAMLOrJSONDecoder(r, 4096)
		for {
			u := &unstructured.Unstructured{}
			err := d.Decode(&u.Object)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				r.Close()
				t.Fatalf("%s: %v", f, err)
			}
			if len(u.Object) > 0 {
				out = append(out, u)
			}
		}
		r.Close()
	}
	return out
}

// docExamples decodes the objects of the ```yaml blocks of a Markdown page, so that its examples
// are tested with the samples.
func docExamples(t *testing.T, page string) []*unstructured.Unstructured {
	t.Helper()
	text, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	var out []*unstructured.Unstructured
	for _, block := range strings.Split(string(text), "```yaml\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		u := &unstructured.Unstructured{}
		if err := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(block), 4096).Decode(&u.Object); err != nil {
			t.Fatalf("%s: an example does not decode: %v\n%s", page, err, block)
		}
		out = append(out, u)
	}
	if len(out) == 0 {
		t.Fatalf("%s has no yaml examples", page)
	}
	return out
}

// testSamplesAccepted: every sample in config/samples and every example of docs/kubernetes.md is
// a valid object the API server takes.
func testSamplesAccepted(t *testing.T, ctx context.Context, s *apiServer) {
	samples := readManifests(t, filepath.Join("..", "config", "samples", "*.yaml"))
	samples = append(samples, docExamples(t, filepath.Join("..", "docs", "kubernetes.md"))...)
	kinds := map[string]bool{}
	for _, u := range samples {
		u.SetNamespace(testNamespace)
		if err := s.client.Create(ctx, u); err != nil {
			t.Errorf("sample %s %s was refused: %v", u.GetKind(), u.GetName(), err)
		}
		kinds[u.GetKind()] = true
	}
	for _, k := range []string{"Tournament", "Sanction", "EntryBatch", "FloorAction"} {
		if !kinds[k] {
			t.Errorf("config/samples has no %s", k)
		}
	}
	// The defaults the CRD fills in reach the typed object.
	var series pokerv1.Tournament
	if err := s.client.Get(ctx, client.ObjectKey{Namespace: testNamespace, Name: "home-game"}, &series); err != nil {
		t.Fatal(err)
	}
	if series.Spec.AnteMode != pokerv1.AnteEveryone || series.Spec.ButtonRule != pokerv1.ButtonDead ||
		series.Spec.OutOfTurn != pokerv1.OutOfTurnSeed000 || series.Spec.BalanceThreshold != 2 {
		t.Errorf("home-game's defaulted policies are %q %q %q %d, want the rule book's everyone dead seed000 2",
			series.Spec.AnteMode, series.Spec.ButtonRule, series.Spec.OutOfTurn, series.Spec.BalanceThreshold)
	}
}

// serverTable is what `kubectl get` shows: the API server renders the CRD's printer columns
// itself when asked for a meta.k8s.io Table. It returns the columns kubectl shows without -o wide
// and, for each row, the cells by column name.
func serverTable(t *testing.T, ctx context.Context, s *apiServer, resource string) (columns []string, rows []map[string]any) {
	t.Helper()
	hc, err := rest.HTTPClientFor(s.env.Config)
	if err != nil {
		t.Fatal(err)
	}
	url := strings.TrimSuffix(s.env.Config.Host, "/") + "/apis/" + pokerv1.GroupVersion.String() + "/namespaces/" + testNamespace + "/" + resource
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io")
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var table metav1.Table
	if err := json.NewDecoder(resp.Body).Decode(&table); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s as a Table: status %d, %v", url, resp.StatusCode, err)
	}
	for _, c := range table.ColumnDefinitions {
		if c.Priority == 0 {
			columns = append(columns, c.Name)
		}
	}
	for _, r := range table.Rows {
		cells := map[string]any{}
		for i, c := range table.ColumnDefinitions {
			if i < len(r.Cells) {
				cells[c.Name] = r.Cells[i]
			}
		}
		rows = append(rows, cells)
	}
	return columns, rows
}

func testPrinterColumns(t *testing.T, ctx context.Context, s *apiServer) {
	tm := validTournament("on-the-clock")
	table := &pokerv1.Table{
		ObjectMeta: metav1.ObjectMeta{Name: "on-the-clock-1", Namespace: testNamespace},
		Spec:       pokerv1.TableSpec{Tournament: "on-the-clock", Number: 1, Seats: 9},
	}
	sanction := validSanction("on-the-clock-bob")
	sanction.Spec.Tournament = "on-the-clock"
	batch := validEntryBatch("on-the-clock-late", "zed")
	batch.Spec.Tournament = "on-the-clock"
	for _, o := range []client.Object{tm, table, sanction, batch} {
		if err := s.client.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	tm.Status = pokerv1.TournamentStatus{Phase: pokerv1.TournamentRunning, Level: 3, PlayersLeft: 3, Entries: 4,
		Tables: 1, PrizePoolCents: 8000, PlacesPaid: 3}
	table.Status = pokerv1.TableStatus{Phase: pokerv1.TableReady, HandNumber: 41, Players: 3, InHand: true, Pod: "on-the-clock-1-x"}
	sanction.Status = pokerv1.SanctionStatus{Phase: pokerv1.SanctionApplied, IssuedBy: "floor-ann"}
	batch.Status = pokerv1.EntryBatchStatus{Phase: pokerv1.EntryBatchApplied, Accepted: 1}
	for _, o := range []client.Object{tm, table, sanction, batch} {
		if err := s.client.Status().Update(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		resource string
		columns  []string
		row      string
		cells    map[string]any // JSON numbers decode as float64
	}{
		{"tournaments", []string{"Name", "Phase", "Level", "Left", "Entries", "Tables", "Pool (cents)", "Age"}, "on-the-clock",
			map[string]any{"Phase": "Running", "Level": 3.0, "Left": 3.0, "Entries": 4.0, "Tables": 1.0, "Pool (cents)": 8000.0, "Paid": 3.0, "Paused": false}},
		{"tables", []string{"Name", "Tournament", "Number", "Players", "Hand", "In hand", "Phase", "Age"}, "on-the-clock-1",
			map[string]any{"Tournament": "on-the-clock", "Number": 1.0, "Players": 3.0, "Hand": 41.0, "In hand": true, "Phase": "Ready", "Seats": 9.0, "Pod": "on-the-clock-1-x"}},
		{"sanctions", []string{"Name", "Tournament", "Player", "Kind", "Rounds", "Phase", "Issued by", "Age"}, "on-the-clock-bob",
			map[string]any{"Tournament": "on-the-clock", "Player": "bob", "Kind": "exclusion", "Rounds": 2.0, "Phase": "Applied", "Issued by": "floor-ann"}},
		{"entrybatches", []string{"Name", "Tournament", "Phase", "Accepted", "Refused", "Age"}, "on-the-clock-late",
			map[string]any{"Tournament": "on-the-clock", "Phase": "Applied", "Accepted": 1.0}},
	} {
		t.Run(tc.resource, func(t *testing.T) {
			columns, rows := serverTable(t, ctx, s, tc.resource)
			if strings.Join(columns, "|") != strings.Join(tc.columns, "|") {
				t.Errorf("kubectl get %s shows columns %q, want %q", tc.resource, columns, tc.columns)
			}
			for _, r := range rows {
				if r["Name"] != tc.row {
					continue
				}
				for name, want := range tc.cells {
					if r[name] != want {
						t.Errorf("kubectl get %s: %s's %s is %v, want %v", tc.resource, tc.row, name, r[name], want)
					}
				}
				return
			}
			t.Errorf("kubectl get %s has no row %s: %v", tc.resource, tc.row, rows)
		})
	}
}
