// Package floor holds the tournament director's decisions as pure functions: the seat and button
// draw, blind structures and the tournament clock, balancing and breaking tables, hand-for-hand,
// places, payouts, deals (ICM and chip-chop), sanctions and the chip race; add-ons, satellites and
// progressive knockout bounties; the director's moves and breaks by hand, unregistering and
// no-shows; and the director's record of a tournament (TournamentRecord). Each function cites the
// rule of RULES.md it implements (T1–T4, B3, B7, B8, R1–R8, P1–P6).
//
// The Temporal workflows in the parent package call these functions; so everything here must stay
// deterministic given its inputs, and its data plain, JSON-serialisable structs. The package must
// never do I/O, read a clock, start a goroutine or import Temporal: time comes in as time.Time
// values, and randomness as an io.Reader (crypto/rand.Reader in production, NewSeededReader in
// tests and replays, so a draw can be reproduced from its seed).
package floor
