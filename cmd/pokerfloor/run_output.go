package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows"
)

// runTournament starts the runtime and the tournament, shows its progress on stderr while it plays,
// and writes the results to stdout.
func runTournament(ctx context.Context, s runSettings, start startTournamentFunc, stdout, stderr io.Writer) error {
	began := time.Now()
	var logs io.Writer
	if s.Verbose {
		logs = stderr
	}
	t, stop, err := start(ctx, s, logs)
	if err != nil {
		return err
	}
	defer stop()

	if !s.JSON || s.Verbose {
		fmt.Fprintf(stderr, "tournament %s: %d players, tables of %d, %s structure, speed %s, seed %d, data in %s\n",
			t.ID(), s.Players, s.TableSize, s.Structure.Name, s.speedString(), s.Seed, s.DataDir)
	}
	display, interval := newProgressDisplay(stderr, s.Players, began)
	watchCtx, stopWatching := context.WithCancel(ctx)
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		watchProgress(watchCtx, t, display, interval)
	}()
	res, err := t.Result(ctx)
	stopWatching()
	<-watched
	if err != nil {
		return fmt.Errorf("tournament %s: %w", t.ID(), err)
	}
	final := workflows.Progress{Entries: s.Players, PlayersLeft: 1, Tables: 1, HandsPlayed: res.HandsPlayed, Finished: true}
	if p, err := t.Progress(ctx); err == nil {
		final = p
	}
	display.Done(final)

	report := newRunReport(t.ID(), s, res, time.Since(began))
	write := writeTextReport
	if s.JSON {
		write = writeJSONReport
	}
	if err := write(stdout, report); err != nil {
		return err
	}
	if len(res.ChipErrors) > 0 {
		return fmt.Errorf("tournament %s: chips were not conserved: %s", t.ID(), res.ChipErrors[0])
	}
	return nil
}

// runReport is the result document: `--output json` writes it as it is, the text output shows the
// same facts.
type runReport struct {
	TournamentID    string            `json:"tournamentId"`
	Players         int               `json:"players"`
	TableSize       int               `json:"tableSize"`
	Structure       string            `json:"structure"`
	Speed           string            `json:"speed"`
	Seed            uint64            `json:"seed"`
	Places          []workflows.Place `json:"places"`
	PrizePool       int64             `json:"prizePool"`
	HandsPlayed     int64             `json:"handsPlayed"`
	DurationSeconds float64           `json:"durationSeconds"`
}

func newRunReport(id string, s runSettings, r workflows.TournamentResult, took time.Duration) runReport {
	places := r.Places
	if places == nil {
		places = []workflows.Place{}
	}
	return runReport{
		TournamentID:    id,
		Players:         s.Players,
		TableSize:       s.TableSize,
		Structure:       s.Structure.Name,
		Speed:           s.speedString(),
		Seed:            s.Seed,
		Places:          places,
		PrizePool:       r.PrizePool,
		HandsPlayed:     r.HandsPlayed,
		DurationSeconds: took.Round(time.Millisecond).Seconds(),
	}
}

func writeJSONReport(w io.Writer, r runReport) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// writeTextReport writes the places in the money as a table, then the totals. Places out of the money
// are counted, not listed: the JSON output has every one.
func writeTextReport(w io.Writer, r runReport) error {
	paid := 0
	for _, p := range r.Places {
		if p.Prize > 0 {
			paid++
		}
	}
	// Place and prize right-aligned, the player left-aligned.
	wPlace, wPlayer, wPrize := len("place"), len("player"), len("prize")
	for _, p := range r.Places {
		if p.Prize > 0 {
			wPlace = max(wPlace, len(placeLabel(p)))
			wPlayer = max(wPlayer, len(p.Player))
			wPrize = max(wPrize, len(formatAmount(p.Prize)))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%*s  %-*s  %*s\n", wPlace, "place", wPlayer, "player", wPrize, "prize")
	for _, p := range r.Places {
		if p.Prize > 0 {
			fmt.Fprintf(&b, "%*s  %-*s  %*s\n", wPlace, placeLabel(p), wPlayer, p.Player, wPrize, formatAmount(p.Prize))
		}
	}
	fmt.Fprintf(&b, "\n%d players, %d paid (%.1f%%)", len(r.Places), paid, 100*float64(paid)/float64(max(len(r.Places), 1)))
	if paid < len(r.Places) {
		fmt.Fprintf(&b, "; places %d to %d win nothing", paid+1, len(r.Places))
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "prize pool    %s\n", formatAmount(r.PrizePool))
	fmt.Fprintf(&b, "hands played  %s\n", formatCount(r.HandsPlayed))
	fmt.Fprintf(&b, "time taken    %s\n", time.Duration(r.DurationSeconds*float64(time.Second)).Round(100*time.Millisecond))
	_, err := io.WriteString(w, b.String())
	return err
}

// placeLabel is a place as the results show it: 3, or 3-4 for two players sharing places 3 and 4.
func placeLabel(p workflows.Place) string {
	if p.Shared > 1 {
		return fmt.Sprintf("%d-%d", p.Place, p.Place+p.Shared-1)
	}
	return fmt.Sprint(p.Place)
}

// formatAmount writes an amount in minor units (cents) as currency: 123456 is 1,234.56.
func formatAmount(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return fmt.Sprintf("%s%s.%02d", sign, formatCount(cents/100), cents%100)
}

// formatCount writes n with thousands separators: 1234567 is 1,234,567.
func formatCount(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + formatCount(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
