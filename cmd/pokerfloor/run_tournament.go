package main

import (
	"context"
	"io"

	"github.com/pokerfloor/pokerfloor/workflows"
)

// What `pokerfloor run` needs from the tournament: start it, watch it, wait for its end. The local
// runtime (run_local.go) provides it with the workflows' client API on the embedded server.

// startTournamentFunc starts the local runtime and a tournament in it; logs receives the server's,
// the worker's and the tables' logs, or nothing if nil. stop releases the runtime (tables, worker,
// client, server); call it once the tournament has ended or ctx is done.
type startTournamentFunc func(ctx context.Context, s runSettings, logs io.Writer) (t tournament, stop func(), err error)

// tournament is one tournament in progress.
type tournament interface {
	// ID names the tournament: its workflow ID.
	ID() string
	// Progress is the tournament as it stands.
	Progress(ctx context.Context) (workflows.Progress, error)
	// Result waits for the tournament to end and returns its places and prizes.
	Result(ctx context.Context) (workflows.TournamentResult, error)
}
