package workflows

import "github.com/pokerfloor/pokerfloor/workflows/director"

// The client API's types are the director's (package director holds them, Temporal-free); these
// names keep cmd and the manager's imports to this package.
type (
	TournamentSpec    = director.TournamentSpec
	TournamentResult  = director.TournamentResult
	Place             = director.Place
	Progress          = director.Progress
	Standing          = director.Standing
	TableView         = director.TableView
	ClockView         = director.ClockView
	PayoutsView       = director.PayoutsView
	SanctionRecord    = director.SanctionRecord
	DealRecord        = director.DealRecord
	DealQuote         = director.DealQuote
	ClockRequest      = director.ClockRequest
	SanctionRequest   = director.SanctionRequest
	RegisterRequest   = director.RegisterRequest
	RebuyRequest      = director.RebuyRequest
	RebuyBatchRequest = director.RebuyBatchRequest
	DealRequest       = director.DealRequest
	TableState        = director.TableState
	MoveRequest       = director.MoveRequest
	BreakRequest      = director.BreakRequest
	UnregisterRequest = director.UnregisterRequest
	NoShowRequest     = director.NoShowRequest
	AddOnRequest      = director.AddOnRequest
	WithdrawalRecord  = director.WithdrawalRecord
	AddOnRecord       = director.AddOnRecord
	ToolsState        = director.ToolsState
	// Registration in batches.
	RegisterBatchRequest = director.RegisterBatchRequest
	BatchEntry           = director.BatchEntry
	BatchResult          = director.BatchResult
)

// Defaults of a TournamentSpec (director's).
const (
	DefaultTableSize = director.DefaultTableSize
	DefaultHandTime  = director.DefaultHandTime
	DefaultBatch     = director.DefaultBatch
)

// PlayerNames names n players p0001, p0002, ... (director.PlayerNames).
func PlayerNames(n int) []string { return director.PlayerNames(n) }
