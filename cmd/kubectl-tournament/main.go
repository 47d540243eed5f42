// Command kubectl-tournament is the tournament director's kubectl plugin: `kubectl tournament
// list|describe|standings|levels|clock|results` read Tournaments and Tables, and `pause|resume|
// add-time|move|break-table|deal|unregister|sanction|register` change them, all through the
// Kubernetes API (RBAC decides who may, the audit log records who did). It never talks to
// Temporal: the manager turns the objects it writes into the tournament workflow's signals and
// updates.
//
// Exit status: 0 ok, 1 the action was refused or failed, 2 bad usage.
package main

import (
	"os"

	"github.com/pokerfloor/pokerfloor/cmd/kubectl-tournament/internal/plugin"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// version is set by `make build` (-X main.version=...).
var version = "dev"

func main() {
	streams := genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
	os.Exit(plugin.Run(os.Args[1:], streams, version))
}
