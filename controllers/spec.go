package controllers

import (
	"fmt"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// workflowSpec turns a Tournament's spec into the TournamentWorkflow's. What the workflows cannot
// play yet is refused with the field's name rather than ignored: players bought in on those terms.
func workflowSpec(t *pokerv1.Tournament) (workflows.TournamentSpec, error) {
	s := t.Spec
	out := workflows.TournamentSpec{
		Name:       t.Name,
		Players:    s.Players,
		TableSize:  int(s.TableSize),
		BuyIn:      s.BuyInCents,
		Fee:        s.FeeCents,
		Balance:    floor.Policy{BalanceThreshold: int(s.BalanceThreshold)},
		Simulation: t.Annotations[SimulationAnnotation] == "true",
	}
	if s.DisplayName != "" {
		out.Name = s.DisplayName
	}
	if s.Structure.Name != "" {
		st, err := floor.BuiltinStructure(string(s.Structure.Name))
		if err != nil {
			return out, fmt.Errorf("spec.structure.name: %w", err)
		}
		out.Structure = st
	} else {
		out.Structure = floor.Structure{Chips: s.Structure.Chips}
		for _, l := range s.Structure.Levels {
			out.Structure.Levels = append(out.Structure.Levels, floor.Level{Break: l.Break, SmallBlind: l.SmallBlind,
				BigBlind: l.BigBlind, Ante: l.Ante, Minutes: int(l.Minutes), ColorUp: l.ColorUp})
		}
	}
	if s.StartingStack > 0 {
		out.Structure.StartingStack = s.StartingStack
	}
	if p := s.Payouts; p != nil {
		switch {
		case p.Builtin != "":
			out.Payouts = floor.PayoutStructure{Name: string(p.Builtin), PaidPercent: int(p.PaidPercent), Unit: p.UnitCents}
		case len(p.SharesBasisPoints) > 0:
			out.Payouts = floor.PayoutStructure{Name: floor.PayoutCustom}
			for _, bp := range p.SharesBasisPoints {
				out.Payouts.Custom = append(out.Payouts.Custom, int(bp))
			}
		case len(p.AmountsCents) > 0:
			return out, unsupported("spec.payouts.amountsCents")
		case p.Satellite != nil:
			return out, unsupported("spec.payouts.satellite")
		}
	}
	if h := s.HandForHand; h != nil {
		if h.Disabled {
			out.HandForHandBefore = -1
		} else {
			out.HandForHandBefore = int(h.PlayersBeforeMoney)
		}
	}
	if s.LateRegistration != nil {
		out.LateRegistrationLevel = int(s.LateRegistration.UntilLevel)
	}
	if n := s.NoShow; n != nil {
		out.NoShow = &floor.NoShowRule{After: time.Duration(n.AfterMinutes) * time.Minute, KeepFee: n.KeepFee, Auto: n.Auto}
	}
	if s.ReEntry != nil {
		out.ReEntries = int(s.ReEntry.Max)
	}
	if r := s.Rebuys; r != nil {
		if r.PriceCents != 0 && r.PriceCents != s.BuyInCents || r.FeeCents != 0 && r.FeeCents != s.FeeCents {
			return out, unsupported("spec.rebuys.priceCents and feeCents other than the buy-in's")
		}
		out.Rebuys, out.RebuyLevel, out.RebuyChips = int(r.Max), int(r.UntilLevel), r.Chips
	}
	if a := s.AddOn; a != nil {
		// The workflows sell the add-on at the break where rebuys close (R1): that level is the
		// rebuy period's end, with or without rebuys (the API server has checked they agree).
		if s.Rebuys != nil && s.Rebuys.UntilLevel != a.AfterLevel {
			return out, fmt.Errorf("spec.addOn.afterLevel %d: the add-on is sold at the break where rebuys close, spec.rebuys.untilLevel %d (R1)", a.AfterLevel, s.Rebuys.UntilLevel)
		}
		out.AddOn = &floor.AddOn{Chips: a.Chips, PriceCents: a.PriceCents, FeeCents: a.FeeCents}
		out.RebuyLevel = int(a.AfterLevel)
	}
	switch {
	case s.Bounty != nil:
		return out, unsupported("spec.bounty")
	case s.AnteMode != "" && s.AnteMode != pokerv1.AnteEveryone:
		return out, unsupported("spec.anteMode " + string(s.AnteMode))
	case s.ButtonRule != "" && s.ButtonRule != pokerv1.ButtonDead:
		return out, unsupported("spec.buttonRule " + string(s.ButtonRule))
	case s.OutOfTurn != "" && s.OutOfTurn != pokerv1.OutOfTurnSeed000:
		return out, unsupported("spec.outOfTurn " + string(s.OutOfTurn))
	case s.ActionClock != nil:
		return out, unsupported("spec.actionClock (the tables play the rule book's clock)")
	}
	return out, nil
}

func unsupported(field string) error {
	return fmt.Errorf("%s is not played by this version of the tournament workflows; remove it or upgrade pokerfloor", field)
}

// statusLevels is the schedule the workflow plays, as status.levels publishes it.
func statusLevels(s floor.Structure) []pokerv1.Level {
	out := make([]pokerv1.Level, 0, len(s.Levels))
	for _, l := range s.Levels {
		out = append(out, pokerv1.Level{Break: l.Break, SmallBlind: l.SmallBlind, BigBlind: l.BigBlind,
			Ante: l.Ante, Minutes: int32(l.Minutes), ColorUp: l.ColorUp})
	}
	return out
}
