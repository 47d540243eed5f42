package controllers

import (
	"context"
	"errors"
	"fmt"

	"go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	temporal "go.temporal.io/sdk/client"

	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// What the manager asks of the tournament's workflow, in one place: the workflows' client API is
// being reshaped for section workflows, and this file is what follows it.

// workflowState is where the tournament's workflow is.
type workflowState int

const (
	workflowMissing workflowState = iota
	workflowRunning
	workflowCompleted
	workflowEnded // failed, terminated, cancelled, timed out: nothing will run it again
)

// describeTournament says whether the workflow id runs, ended well or ended badly (its latest run,
// so a tournament that continued as new is running).
func describeTournament(ctx context.Context, c temporal.Client, id string) (workflowState, string, error) {
	d, err := c.DescribeWorkflowExecution(ctx, id, "")
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return workflowMissing, "", nil
	}
	if err != nil {
		return 0, "", err
	}
	switch st := d.GetWorkflowExecutionInfo().GetStatus(); st {
	case enums.WORKFLOW_EXECUTION_STATUS_RUNNING:
		return workflowRunning, "", nil
	case enums.WORKFLOW_EXECUTION_STATUS_COMPLETED:
		return workflowCompleted, "", nil
	default:
		return workflowEnded, st.String(), nil
	}
}

// startTournament starts the workflow. Only called when describeTournament found none, so a
// finished tournament is never started again under its ID; two managers racing get one workflow
// (the second start is refused as already started, which is what was wanted).
func startTournament(ctx context.Context, c temporal.Client, id, taskQueue string, spec workflows.TournamentSpec) error {
	_, err := workflows.StartTournament(ctx, c, id, taskQueue, spec)
	var started *serviceerror.WorkflowExecutionAlreadyStarted
	if errors.As(err, &started) {
		return nil
	}
	return err
}

// tournamentProgress is the progress and, for a field small enough to list, the standings.
func tournamentProgress(ctx context.Context, c temporal.Client, id string, withStandings bool) (workflows.Progress, []workflows.Standing, error) {
	t := workflows.GetTournament(c, id)
	p, err := t.Progress(ctx)
	if err != nil || !withStandings {
		return p, nil, err
	}
	s, err := t.Standings(ctx)
	return p, s, err
}

// setPaused pauses or resumes the clock, keyed so that a retry of one spec generation is applied
// once.
func setPaused(ctx context.Context, c temporal.Client, id string, paused bool, key, by string) error {
	kind := floor.ClockResume
	if paused {
		kind = floor.ClockPause
	}
	_, err := workflows.GetTournament(c, id).ClockAction(ctx, workflows.ClockRequest{Kind: kind, By: by, Key: key,
		Reason: "spec.paused set to " + fmt.Sprint(paused)})
	return err
}

func tournamentResult(ctx context.Context, c temporal.Client, id string) (workflows.TournamentResult, error) {
	return workflows.GetTournament(c, id).Result(ctx)
}

// endWorkflow terminates a workflow unless it has ended already.
func endWorkflow(ctx context.Context, c temporal.Client, id, reason string) error {
	err := c.TerminateWorkflow(ctx, id, "", reason)
	var nf *serviceerror.NotFound
	if errors.As(err, &nf) {
		return nil
	}
	return err
}
