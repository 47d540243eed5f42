// Package engine runs the hands of one No-Limit Texas Hold'em table by the rule book (RULES.md,
// groups T4–T5, B, D, A, S and P3).
//
// A Table is a deterministic state machine: seats, stacks, the button, the level and the hand in
// progress. Actions go in through three faces each (CanX reports whether an action is legal, VerifyX
// returns an error value naming the rule that forbids it, X does it and returns the event); cards come
// from a pluggable DeckSource; events and views come out. The table process, the bots, the tournament
// simulation, the PHH importer and the tests all drive a table through the same methods.
//
// The engine must never do I/O, start goroutines or read a clock: time is an input (the caller says
// when a player's clock expired), and randomness comes only from the DeckSource. It must never expose
// a card that was not dealt (rule D5), nor a player's hole cards to anyone the rules do not allow. It
// allocates nothing per hand once warm, so that a simulation can deal millions of hands a second.
package engine
