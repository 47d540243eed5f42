package director

import "github.com/pokerfloor/pokerfloor/workflows/floor"

// bubble is where a field (a tournament's, or the whole field of a tournament of sections) stands
// against the money, for hand-for-hand (R7).
type bubble struct {
	spec               TournamentSpec
	left, paid, tables int
	// alone: one table is left and nobody is on his way to it; it plays one hand at a time by
	// itself, and the players it eliminates in one hand are one group (R7): rounds would only make
	// it wait for the tournament between hands.
	alone bool
}

func (s TournamentSpec) bubble(left, paid, tables int, alone bool) bubble {
	return bubble{spec: s, left: left, paid: paid, tables: tables, alone: alone}
}

// nearing: a simulation's tables play toward the bubble, which rounds may be needed for.
func (b bubble) nearing() bool {
	return b.spec.Simulation && b.spec.HandForHandBefore >= 0 && b.left > b.paid && !b.alone
}

// within says the field is within margin players of where the rounds' margins are counted from:
// the paid places and HandForHandBefore (at least one) above them.
func (b bubble) within(margin int) bool {
	return b.left <= b.paid+max(b.spec.HandForHandBefore, 1)+margin
}

// approach says whether a simulation nears the bubble (approaching, it was already): from then on
// every table tells every hand, so that the floor sees the bubble come.
func (b bubble) approach(approaching bool) bool {
	return b.nearing() && (approaching || b.within(4*b.tables))
}

// near says whether a simulation in the approach (approaching) is within three times the rounds'
// margin of them (near: it was already, until the approach ends): from there its tables report
// every hand again (one hand a batch: tableBatch), so that when the rounds open none still deals
// a batch on toward a hand with an elimination before it hears of them (PaceSlideBatch).
func (b bubble) near(approaching, near bool) bool {
	return approaching && (near || b.nearing() && b.within(3*b.tables+4))
}

// nearNow is near as the tournament of sections decides it from PlanNearFollowsTables: within
// three times the rounds' margin of them, and no longer once the tables in play have fallen so
// far that the field is above three and a half times it again (it was already: near). The margin
// counts the tables in play, and at 100,000 entries the floor's breaks lag the eliminations
// through the approach: read from the tournament's state on 7 December, it came near with 30,355
// left on 6,906 tables (4.4 players a table), and the floor had broken them to 3,192 by 21,527
// left, where it is near no longer. Kept near until the rounds (before the plan), the field
// dealt one hand a report there, about 1,100 hands a minute against 17,000 before it: the run
// reached the rounds at about 1:02 rather than 46 minutes. Near counted at the tables left, the
// field deals its approach's batches again until it is near the fewer tables' rounds; the half
// table of margin between the two keeps a table from being told back and forth.
func (b bubble) nearNow(approaching, near bool) bool {
	if !approaching || !b.nearing() {
		return false
	}
	margin := 3 * b.tables
	if near {
		margin += b.tables / 2
	}
	return b.within(margin + 4)
}

// rounds says whether the tables play in hand-for-hand rounds (lockstep; on: they do already) and
// whether a round's eliminations are one group for the places (R7). Within HandForHandBefore of
// the money both. A simulation goes into rounds earlier, tables breaking shrinking the margin,
// and stays in them until the money; there a round may bust several players across the bubble,
// so every round of its is grouped: the eliminations of one hand-for-hand hand count as
// simultaneous (R7, TDA RP-8).
func (b bubble) rounds(on bool) (lockstep, grouped bool) {
	before := b.spec.HandForHandBefore
	grouped = before >= 0 && floor.HandForHand(b.left, b.paid, before) && !b.alone
	if !b.nearing() {
		return grouped, grouped
	}
	lockstep = on || b.within(b.tables+2)
	return lockstep, lockstep
}
