// Package tableserver serves one poker table to its players over WebSocket: the table process of a
// tournament's table Pod (`pokerfloor table`). It runs the table with the runtime of engine/host (a
// Runner, reporting each hand to its Reporter), and each seated player is a Decider fed by his
// connection. It owns what only a live table has: the signed tokens that let a connection in (bound
// to tournament, table and player; spectators read only), the action clock of rule A15 with real
// timers and a time bank, disconnect protection (a grace time, then the hand folded and the player
// sitting out, rule T5, until he comes back to his seat), the provably fair deck (engine/fairdeal),
// the readiness, liveness and in-hand endpoints, and the drain on SIGTERM (the hand in progress is
// finished, then the table stops). The web client under web/ is embedded and served at "/".
//
// What each connection sees comes from the engine's view of its own seat (or a spectator's): no
// frame ever holds another player's hole cards before they are shown, a mucked hand, or a card not
// dealt (rules D5, S6). The package never imports the workflows: the tournament comes in through the
// report.Reporter that cmd wires in.
package tableserver
