// Package director holds the tournament director's state machines, in plain Go: TournamentState
// (the field, the clock, the tables as the tournament sees them, places, sanctions, entries, deals
// and payouts) and TableState (one table between hands). The Temporal workflows in package
// workflows only sequence their methods and do the I/O; everything here is deterministic and tested
// without Temporal. The pure decisions themselves (seating, balancing, breaking, places, payouts,
// ICM) are workflows/floor's.
//
// It must never import Temporal, and nothing in it may read a clock or a random source of its own:
// time comes in as an argument, randomness from the tournament's seed.
package director
