package floor

import (
	"time"
)

// ClockEventKind is what the director does to the clock.
type ClockEventKind string

// The director's clock actions.
const (
	ClockPause   ClockEventKind = "pause"
	ClockResume  ClockEventKind = "resume"
	ClockAddTime ClockEventKind = "addTime"
)

// ClockEvent is one director action on the tournament clock, at a time the workflow recorded.
type ClockEvent struct {
	At   time.Time      `json:"at"`
	Kind ClockEventKind `json:"kind"`
	// Add is the time added to the period running at At (ClockAddTime); a negative Add takes
	// time off, at most down to the period's end.
	Add time.Duration `json:"add,omitempty"`
	// By and Reason record who took the action and why (P6).
	By     string `json:"by,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// ClockState is where the published schedule stands at a moment (B3, R2).
type ClockState struct {
	Started bool `json:"started"`
	Paused  bool `json:"paused"`
	// Period is the index in Structure.Levels of the period running (a level or a break).
	Period  int  `json:"period"`
	OnBreak bool `json:"onBreak"`
	// Level is the number of the blind level running, or, on a break, of the level after it.
	Level int `json:"level"`
	// Blinds is the level a hand that starts now plays at (B3: a new level applies from the next
	// hand; a hand starts when the shuffle starts). On a break it is the level after the break,
	// and no hand starts until the break ends.
	Blinds Level `json:"blinds"`
	// Remaining is the clock time left in the period (its timer, while the clock runs). In the
	// last level, once its time is up, it is 0 and Final is set: that level lasts to the end.
	Remaining time.Duration `json:"remaining"`
	Final     bool          `json:"final"`
	// Elapsed is the clock time run since the start, pauses excluded.
	Elapsed time.Duration `json:"elapsed"`
}

// Clock works out the schedule's state at now, for a tournament started at start, from the
// director's events so far (events after now are ignored, so the same log answers for any moment).
// Paused time does not count; added time lengthens the period running when it was added. Events
// must be in time order, none before the start, pauses and resumes alternating.
func Clock(s Structure, start time.Time, events []ClockEvent, now time.Time) (ClockState, error) {
	if err := s.Validate(); err != nil {
		return ClockState{}, err
	}
	extra := make([]time.Duration, len(s.Levels))
	var run time.Duration // clock time run
	last, paused := start, false
	for k, ev := range events {
		if ev.At.After(now) {
			break
		}
		if ev.At.Before(last) {
			return ClockState{}, ruleErr("B3", "clock event %d (%s at %s) is before the one before it or the start", k+1, ev.Kind, ev.At.Format(time.RFC3339))
		}
		if !paused {
			run += ev.At.Sub(last)
		}
		last = ev.At
		switch ev.Kind {
		case ClockPause:
			if paused {
				return ClockState{}, ruleErr("B3", "clock event %d: pause while already paused", k+1)
			}
			paused = true
		case ClockResume:
			if !paused {
				return ClockState{}, ruleErr("B3", "clock event %d: resume while running", k+1)
			}
			paused = false
		case ClockAddTime:
			p, left, _ := locate(s, extra, run)
			extra[p] += max(ev.Add, -left)
		default:
			return ClockState{}, ruleErr("B3", "clock event %d: unknown kind %q", k+1, ev.Kind)
		}
	}
	st := ClockState{Started: !now.Before(start), Paused: paused}
	if st.Started && !paused {
		run += now.Sub(last)
	}
	st.Elapsed = run
	st.Period, st.Remaining, st.Final = locate(s, extra, run)
	st.OnBreak = s.Levels[st.Period].Break
	st.Level = s.LevelNumber(st.Period)
	in := st.Period
	for s.Levels[in].Break { // validated: the last period is a level
		in++
	}
	st.Blinds = s.Levels[in]
	return st, nil
}

// locate finds the period running after run of clock time, the time left in it, and whether the
// schedule has run out (the last level then goes on, with nothing left).
func locate(s Structure, extra []time.Duration, run time.Duration) (int, time.Duration, bool) {
	var end time.Duration
	for i := range s.Levels {
		end += s.Duration(i) + extra[i]
		if run < end {
			return i, end - run, false
		}
	}
	return len(s.Levels) - 1, 0, true
}
