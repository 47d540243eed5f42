package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// How often run asks the tournament for its progress: often enough for a live bar, and a plain line
// every few seconds where the output is a file or a pipe.
const (
	barRefresh    = 250 * time.Millisecond
	plainInterval = 5 * time.Second
)

// progressDisplay shows a tournament's progress as it changes.
type progressDisplay interface {
	Update(p workflows.Progress)
	// Done ends the display; the results follow.
	Done(p workflows.Progress)
	// Interrupt ends the display of a run stopped before the end, leaving the line for what
	// follows.
	Interrupt()
}

// newProgressDisplay is a live bar when w is a terminal, and plain lines otherwise.
func newProgressDisplay(w io.Writer, entries int, start time.Time) (progressDisplay, time.Duration) {
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return newProgressBar(f, entries), barRefresh
	}
	return &plainProgress{w: w, start: start}, plainInterval
}

// watchProgress updates d from t until ctx is done, every interval.
func watchProgress(ctx context.Context, t tournament, d progressDisplay, interval time.Duration) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	var clock levelCountdown
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		// A query can fail while the workflow continues-as-new or the worker is busy; the next
		// tick tries again.
		p, err := t.Progress(ctx)
		if err == nil {
			clock.run(&p, time.Now())
			d.Update(p)
		}
	}
}

// levelCountdown keeps the time to the next level running between the tournament's steps. A
// workflow's query reads the workflow's clock, which stands still between its tasks: with one or two
// tables left the tournament may hear nothing for a while, and every query then answers the same
// NextLevelIn. An answer unchanged since the last is that one, minus the time gone since.
type levelCountdown struct {
	level int
	in    time.Duration
	at    time.Time // when the tournament first answered in
}

func (c *levelCountdown) run(p *workflows.Progress, now time.Time) {
	if p.NextLevelIn <= 0 || p.Paused || p.Level != c.level || p.NextLevelIn != c.in {
		c.level, c.in, c.at = p.Level, p.NextLevelIn, now
		return
	}
	p.NextLevelIn = max(c.in-now.Sub(c.at), 0)
}

// progressBar is the terminal display: a bar of eliminations, with the field, the tables and the
// clock in its description.
type progressBar struct {
	bar *progressbar.ProgressBar
	w   io.Writer
}

func newProgressBar(w io.Writer, entries int) *progressBar {
	bar := progressbar.NewOptions(entries-1, // the tournament ends when one player is left
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetWidth(24),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionSetDescription("starting"),
		progressbar.OptionShowDescriptionAtLineEnd(),
		progressbar.OptionUseANSICodes(true),
		progressbar.OptionSetTheme(progressbar.ThemeASCII),
	)
	return &progressBar{bar: bar, w: w}
}

func (b *progressBar) Update(p workflows.Progress) {
	// Late entries and re-entries grow the field: the bar counts the eliminations of all of it.
	if n := int64(max(p.Entries-1, 1)); n != b.bar.GetMax64() {
		b.bar.ChangeMax64(n)
	}
	b.bar.Describe(describeProgress(p))
	_ = b.bar.Set(p.Entries - p.PlayersLeft)
}

// Interrupt ends the bar's line where it stands: the terminal echoed ^C on it.
func (b *progressBar) Interrupt() { fmt.Fprintln(b.w) }

func (b *progressBar) Done(p workflows.Progress) {
	b.Update(p)
	_ = b.bar.Finish()
	fmt.Fprintln(b.w) // the bar leaves its line open
}

// plainProgress is the display for a file or a pipe: a line every few seconds when something
// changed, and every plainQuiet when nothing did, to show the run is still alive.
type plainProgress struct {
	w       io.Writer
	start   time.Time
	last    string
	printed time.Time
}

const plainQuiet = 30 * time.Second

func (d *plainProgress) Update(p workflows.Progress) {
	line := describeProgress(p)
	if line == d.last && time.Since(d.printed) < plainQuiet {
		return
	}
	d.last, d.printed = line, time.Now()
	fmt.Fprintf(d.w, "%7s  %s\n", formatClock(time.Since(d.start)), line)
}

func (d *plainProgress) Done(p workflows.Progress) { d.Update(p) }

// Interrupt does nothing: each plain line is ended.
func (d *plainProgress) Interrupt() {}

// describeProgress is one line: players left, tables, level and blinds, time to the next level, hands.
func describeProgress(p workflows.Progress) string {
	if p.Finished {
		return fmt.Sprintf("finished: %d players, hands %d", p.Entries, p.HandsPlayed)
	}
	s := fmt.Sprintf("players %d/%d, tables %d", p.PlayersLeft, p.Entries, p.Tables)
	switch {
	case p.Level == 0:
	case p.OnBreak:
		s += fmt.Sprintf(", break before level %d", p.Level)
	default:
		s += fmt.Sprintf(", level %d (%d/%d", p.Level, p.Blinds.SmallBlind, p.Blinds.BigBlind)
		if p.Blinds.Ante > 0 {
			s += fmt.Sprintf(" ante %d", p.Blinds.Ante)
		}
		s += ")"
	}
	if p.NextLevelIn > 0 {
		s += ", next level in " + formatClock(p.NextLevelIn)
	}
	return s + fmt.Sprintf(", hands %d", p.HandsPlayed)
}

// formatClock is a duration as a clock shows it: 4:05, 1:02:03.
func formatClock(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}
