// Package workflows runs tournaments on Temporal: the TournamentWorkflow is the tournament director
// (seat draw, blind clock, balancing and breaking tables, hand-for-hand, places, sanctions, entries,
// deals, payouts), and one child TableWorkflow per table holds the table's state between hands.
// Table processes (pods in Kubernetes, goroutines in the local run: LocalTableHost) report hands
// through TableReporter, a Temporal Update keyed by (table, hand number), and get the next
// table.State in reply. Activities create, replace (a table silent past its deadline) and delete
// tables through a TableHost.
//
// This package holds Temporal code only: the workflows, the activities, the names of signals,
// updates and queries (names.go) and the client API (Tournament). The director's state machines,
// TournamentState and TableState, are package director's (Temporal-free, tested alone), and every
// decision is a pure function of workflows/floor that they call. The workflow functions only
// sequence them and do the I/O; they must stay deterministic: no clock but workflow.Now, no
// randomness but the tournament's seed (drawn once with a SideEffect), no map iteration that
// decides anything, no goroutines but workflow.Go.
//
// Throughput: a table reports Batch hands at once in a simulation and one in live play; the
// TournamentWorkflow hears only what changes the tournament (eliminations, moves, sanctions), so
// its event rate grows with players, not with hands.
package workflows
