package host

// observe shows the table to Options.Observe: once a hand is dealt and after every action, a turn
// that expired included, so that a table server can push each player's and spectator's view as the
// hand goes (the runner's Deciders hear only their own turns). It runs on the runner's goroutine with
// the table between two actions: the observer reads it (View, Log, Result) and must not change it
// or block, and the table is valid during the call only.
func (r *Runner) observe() {
	if r.opt.Observe != nil {
		r.opt.Observe(r.tbl)
	}
}
