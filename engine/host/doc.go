// Package host runs one poker table between the tournament and the engine: it asks the tournament
// (a report.Reporter) what the table looks like before each hand, plays the hand with the engine and the
// players' decisions (bots in simulations), and reports what the hand changed.
//
// The table keeps nothing that matters between hands: the Reporter's State is the truth, so a
// table process that dies mid-hand loses only that hand, which is void (rule D4), and a new process
// takes up from the last acknowledged hand. The deck never leaves this package's process.
//
// Runner is the in-process table: one goroutine, one engine.Table, the players' Deciders (bots in
// engine/bot, or connections), an injectable Clock for the action clock (rule A15), the waits and the
// retries. LocalReporter is a Reporter for one table on its own (a standalone table, tests).
//
// It must never import the workflows: the tournament side comes in through report.Reporter, which the
// workflows implement and cmd wires in. It must never show a player another's hole cards: a Decider
// gets its own seat's view only (rule D5).
package host
