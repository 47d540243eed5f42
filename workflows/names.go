package workflows

// The names of the workflows' signals, updates and queries, in one place.
const (
	// TaskQueue is the task queue of the workflows and activities; the tables' workflows run on
	// TableTaskQueue(TaskQueue).
	TaskQueue = "pokerfloor"

	// ReportUpdate is the TableWorkflow's Update for hand results (report.Reporter's Report).
	ReportUpdate = "report"
	// OrdersSignal carries the tournament's orders to a TableWorkflow ([]director.Order).
	OrdersSignal = "orders"
	// TableEventSignal carries a TableWorkflow's news to the TournamentWorkflow (director.TableEvent).
	TableEventSignal = "table-event"
	// TableEventsSignal carries a batch of a TableWorkflow's news, in order ([]director.TableEvent):
	// a table's run from its marker eventBatches sends its events so, one signal at a time.
	TableEventsSignal = "table-events"
	// TableEventsUpdate carries the same batch from a table's marker eventUpdates on (sent by
	// ReportTableEventsActivity, or from eventsByHost by the table's host): the section takes at most the server's ten Updates in flight at
	// once, where signals came in whatever it was doing.
	TableEventsUpdate = "table-events"
	// SectionOrdersSignal carries the tournament's orders to a SectionWorkflow
	// ([]director.Numbered[director.SectionOrder]); SectionEventsSignal a section's news to the
	// tournament (SectionEvents) in a run of a pace before director.PaceReportUpdate, and
	// SectionEventsUpdate from it (sent by ReportSectionActivity).
	SectionOrdersSignal = "section-orders"
	SectionEventsSignal = "section-events"
	SectionEventsUpdate = "section-events"
	// TableStateQuery returns a TableWorkflow's director.TableState.
	TableStateQuery = "table-state"

	// The director's updates on the TournamentWorkflow. Each has a validator (director's Verify...)
	// that refuses it with the rule that forbids it before anything is recorded, and a handler that
	// records it with who asked and when (P6).
	ClockUpdate    = "clock"
	SanctionUpdate = "sanction"
	RegisterUpdate = "register"
	// RegisterBatchUpdate registers up to director.MaxBatchEntries entries in one Update, each
	// with its own key, answered one by one ([]director.BatchResult).
	RegisterBatchUpdate = "register-batch"
	RebuyUpdate         = "rebuy"
	// RebuyBatchUpdate takes up to director.MaxBatchEntries rebuys in one Update, each answered
	// ([]director.BatchResult) once its table has checked the stack; at several sections each
	// section takes its own players' (Tournament.RebuyBatch routes them).
	RebuyBatchUpdate = "rebuy-batch"
	DealUpdate       = "deal"
	// The director's tools by hand (director_tools.go): a move (R3), a table broken (R4), an entry
	// unregistered before the start (R1), no-shows removed (T4), an add-on (R1).
	MoveUpdate       = "move"
	BreakTableUpdate = "break-table"
	UnregisterUpdate = "unregister"
	NoShowUpdate     = "no-shows"
	AddOnUpdate      = "add-on"

	// The TournamentWorkflow's queries.
	ProgressQuery  = "progress"
	StandingsQuery = "standings"
	TablesQuery    = "tables"
	ClockQuery     = "clock"
	PayoutsQuery   = "payouts"
	SanctionsQuery = "sanctions"
	DealQuoteQuery = "deal-quote"
	// ToolsQuery returns what the director's tools recorded (director.ToolsState).
	ToolsQuery = "tools"
	// StateQuery returns the TournamentState less what predicts a draw, for debugging and audits.
	StateQuery = "state"
	// SectionsQuery returns the workflow IDs of a tournament's sections in play (none for a
	// tournament of one section): the players' records are there (Tournament.Standings).
	SectionsQuery = "sections"
	// WhereQuery (a director.Where) answers whether the workflow holds that player's or table's
	// record: the section a director's action on him goes to (Tournament finds it).
	WhereQuery = "where"
)

// TableTaskQueue is the task queue of the TableWorkflows of tournaments on taskQueue: apart, so
// that thousands of tables' reports never queue the tournament's and the sections' tasks behind
// them. A worker (or a second worker in the same process) must poll it, with Register.
func TableTaskQueue(taskQueue string) string { return taskQueue + "-tables" }
