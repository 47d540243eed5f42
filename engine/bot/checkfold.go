package bot

import (
	"context"

	"github.com/pokerfloor/pokerfloor/engine"
)

// CheckFolder checks when it may and folds otherwise. Nobody busts at a table of them, so the
// table plays on for as long as one looks: a stand-in for the seats of a test's table.
type CheckFolder struct{}

// Instant marks the bot as answering at once (engine.Instant).
func (CheckFolder) Instant() {}

// Decide checks or folds.
func (CheckFolder) Decide(_ context.Context, v *engine.View) (engine.Decision, error) {
	return checkOrFold(&v.Legal), nil
}

var _ engine.Instant = CheckFolder{}
