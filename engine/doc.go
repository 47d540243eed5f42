// Package engine runs the hands of one No-Limit Texas Hold'em table by the rule book (RULES.md,
// groups T4–T5, B, D, A, S, L and P3).
//
// A Table is a deterministic state machine: seats, stacks, player states, the button, the level and
// the hand in progress, which is in exactly one Phase. Between hands the caller seats and unseats
// players, sets states (sitting out, penalised, waiting for the button) and the level; StartHand
// places the button and blinds (B4–B7), posts antes and blinds and deals. During a hand every action
// has three faces, as in PokerKit: CanX reports whether it is legal, VerifyX returns an error value
// naming the rule that forbids it with the amounts ("raise to 250 is below the minimum raise to 300
// (rule A5)"), and X does it and returns its event; LegalActions (or FillLegal, without a copy)
// lists what the player to act may do. ReadChips reads a live dealer's chip input (A12, A13),
// QueueAdvance records an online advance action and DeclareOutOfTurn a live declaration out of turn
// (A14, policy OutOfTurnRule), Clock and TimeExpired make the action clock data (A15), Void voids the
// hand (D4). A live table (Config.Live) is dealt by a human dealer who reports every card
// (ReportHole, ReportBoard) instead of a DeckSource; the misdeal procedures of group L (exposed,
// extra, early and face-up cards, a flop of too many cards, burn errors, passed cards) each have
// their CanX, VerifyX and X, and either void the hand or go on as the rule says, logged as EvLive. The hand
// ends by itself: uncontested, or at a showdown with side pots (S1–S7); Result reports the pots and
// the eliminations with each player's starting stack (R7).
//
// Out come events and views. Log is the hand's event log; with Header it replays the hand exactly
// (Replay). View shows the table to a seated player (his own hole cards only), a spectator (no hole
// cards until shown) or the hand history (every dealt card); EventsFor filters the log the same way.
// The package engine/replay reads and writes PHH hand histories through the same API. A Decider (a
// bot in engine/bot, a person's connection) chooses a seat's Decision from its View; the engine
// defines the interface and never calls it: the table runtime (engine/host) does.
//
// The engine must never do I/O, start goroutines or read a clock: time is an input (the caller says
// when a player's clock expired), and randomness comes only from the DeckSource (crypto/rand in
// production, a seeded generator for simulations, a script for replays). It must never expose a card
// that was not dealt (rule D5), nor a player's hole cards to anyone the rules do not allow. A Table
// allocates nothing per hand once warm: fixed-size arrays per seat and a reused log, so that a
// simulation deals about a million hands a second on one core (BenchmarkRandomHands6Max).
package engine
