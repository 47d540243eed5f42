package controllers

import (
	"fmt"
	"strconv"
	"strings"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
)

// The labels and annotations the manager writes. Names of the workflows' IDs are made and read
// here only, so that a change to their shape is one edit.
const (
	// TournamentLabel names the Tournament a Table, Pod or Service belongs to.
	TournamentLabel = "poker.pokerfloor.dev/tournament"
	// TableLabel names the Table a Pod or Service belongs to; the Service selects on it.
	TableLabel = "poker.pokerfloor.dev/table"
	// ProtectedLabel is "true" on a table Pod that was in the middle of a hand when the manager last
	// asked it: the tournament's PodDisruptionBudget selects those Pods and allows none of them to be
	// evicted.
	ProtectedLabel = "poker.pokerfloor.dev/protected"
	// TableIDAnnotation is a Table's ID in Temporal: its TableWorkflow's ID, which the table
	// process reports to.
	TableIDAnnotation = "poker.pokerfloor.dev/table-id"
	// SimulationAnnotation "true" on a Tournament makes it a simulation: bots at every seat, levels
	// counted in hands (workflows' TournamentSpec.Simulation). Its Tables carry it on to their Pods.
	SimulationAnnotation = "poker.pokerfloor.dev/simulation"
	// tournamentFinalizer holds a deleted Tournament until its workflow has been ended.
	tournamentFinalizer = "poker.pokerfloor.dev/end-workflow"
)

// tournamentWorkflowID is the TournamentWorkflow's ID of t: namespace, name and UID, so that a
// Tournament deleted and created again under the same name is a new tournament, and the ID says
// which object it is.
func tournamentWorkflowID(t *pokerv1.Tournament) string {
	return t.Namespace + "/" + t.Name + "/" + string(t.UID)
}

// parseTournamentWorkflowID reads the namespace and name back from a tournament's workflow ID.
func parseTournamentWorkflowID(id string) (namespace, name string, err error) {
	parts := strings.Split(id, "/")
	if len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return "", "", fmt.Errorf("tournament workflow ID %q is not NAMESPACE/NAME/UID", id)
	}
	return parts[0], parts[1], nil
}

// parseTableWorkflowID reads a TableWorkflow's ID (the tournament's workflow ID, "/table-", the
// number: director's tableWorkflowID) into the tournament's workflow ID and the table number.
func parseTableWorkflowID(id string) (tournamentID string, number int, err error) {
	i := strings.LastIndex(id, "/table-")
	if i < 0 {
		return "", 0, fmt.Errorf("table workflow ID %q does not end in /table-NNN", id)
	}
	n, err := strconv.Atoi(id[i+len("/table-"):])
	if err != nil || n < 1 {
		return "", 0, fmt.Errorf("table workflow ID %q does not end in /table-NNN", id)
	}
	return id[:i], n, nil
}

// tableName is the name of table number n of a tournament: the Table's, its Pod's and its
// Service's. A tournament's name is at most 50 characters, so this is a DNS label (at most 63).
func tableName(tournament string, n int) string {
	return fmt.Sprintf("%s-table-%03d", tournament, n)
}
