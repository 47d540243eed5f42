package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// runTournament starts the runtime and the tournament (or resumes the one in the data dir), shows
// its progress on stderr while it plays, writes the results to stdout and keeps them in the data
// dir. A signal stops it in order: see interrupted.
func runTournament(ctx context.Context, s runSettings, start startTournamentFunc, stdout, stderr io.Writer) error {
	began := time.Now()
	defer servePprof(s.Pprof, stderr)() // run_pprof.go
	var logs io.Writer
	if s.Verbose {
		logs = stderr
	}
	t, stop, err := start(ctx, s, logs)
	if sig := interruption(ctx); err != nil && sig != nil {
		if s.Resume != "" {
			return &exitError{code: sig.exitStatus(), err: fmt.Errorf("%v while resuming: tournament %s stays in %s; the same command resumes it",
				*sig, s.Resume, s.DataDir)}
		}
		return &exitError{code: sig.exitStatus(), err: fmt.Errorf("%v while starting: nothing to resume, the next run starts a new tournament", *sig)}
	}
	if err != nil {
		return err
	}
	defer stop()

	if s.Resume != "" {
		announceResume(ctx, t, s, stderr)
	} else if !s.JSON || s.Verbose {
		fmt.Fprintf(stderr, "tournament %s: %d players, tables of %d, %s structure, speed %s, seed %d, data in %s\n",
			t.ID(), s.Players, s.TableSize, s.Structure.Name, s.speedString(), s.Seed, s.DataDir)
	}
	if s.pacedSimulation() && (!s.JSON || s.Verbose) {
		fmt.Fprintf(stderr, "%d players at %s play as a simulation paced by the clock: each table deals a hand every %v and reports %d at once, and the levels go by hands (a hand a minute of a level), without breaks: so many tables cannot report every hand to this process's Temporal server at that speed\n",
			s.Players, s.speedString(), s.handPace(), s.tournamentSpec().Batch)
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
		if sig := interruption(ctx); sig != nil {
			return interrupted(t, s, display, sig, stdout, stderr)
		}
		return fmt.Errorf("tournament %s: %w", t.ID(), err)
	}
	if res.Places, err = allPlaces(s.DataDir, res); err != nil {
		return fmt.Errorf("tournament %s: %w", t.ID(), err)
	}
	if err := allRows(s.DataDir, res); err != nil {
		return fmt.Errorf("tournament %s: %w", t.ID(), err)
	}
	final := workflows.Progress{Entries: s.Players, PlayersLeft: 1, Tables: 1, HandsPlayed: res.HandsPlayed, Finished: true}
	if p, err := t.Progress(ctx); err == nil {
		final = p
	}
	display.Done(final)

	report := newRunReport(t.ID(), s, res, final, time.Since(began))
	var text strings.Builder
	if err := writeTextReport(&text, report); err != nil {
		return err
	}
	if s.JSON {
		err = writeJSONReport(stdout, report)
	} else {
		_, err = io.WriteString(stdout, text.String())
	}
	if err != nil {
		return err
	}
	dir, err := keepResults(s.DataDir, report, text.String())
	if err != nil {
		return fmt.Errorf("tournament %s: keeping the results: %w", t.ID(), err)
	}
	if !s.JSON || s.Verbose {
		fmt.Fprintf(stderr, "results kept in %s (%s, %s)\n", dir, resultsFile, summaryFile)
	}
	if len(res.ChipErrors) > 0 {
		return fmt.Errorf("tournament %s: chips were not conserved: %s", t.ID(), res.ChipErrors[0])
	}
	return nil
}

// keepResults writes the results into the data dir, runs/<tournament>/, and forgets the tournament
// in progress: the next run starts a new one.
func keepResults(dataDir string, r runReport, text string) (string, error) {
	dir := filepath.Join(dataDir, runsDir, r.TournamentID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	var doc bytes.Buffer
	if err := writeJSONReport(&doc, r); err != nil {
		return "", err
	}
	if err := writeFileAtomic(filepath.Join(dir, resultsFile), doc.Bytes()); err != nil {
		return "", err
	}
	if err := writeFileAtomic(filepath.Join(dir, summaryFile), []byte(text)); err != nil {
		return "", err
	}
	return dir, clearSavedRun(dataDir)
}

// runReport is the result document: `--output json` writes it as it is, results.json in the data
// dir keeps it, and the text output shows the same facts. Amounts are integer cents (1/100 of the
// currency unit), as every field ending in Cents says; chip counts are chips.
type runReport struct {
	TournamentID   string        `json:"tournamentId"`
	Players        int           `json:"players"`
	TableSize      int           `json:"tableSize"`
	Structure      string        `json:"structure"`
	Speed          string        `json:"speed"`
	Seed           uint64        `json:"seed"`
	Currency       string        `json:"currency"`
	Entries        int           `json:"entries"` // buy-ins paid: players, and re-entries where allowed
	BuyInCents     int64         `json:"buyInCents"`
	FeeCents       int64         `json:"feeCents"`  // of each buy-in, to the house
	FeesCents      int64         `json:"feesCents"` // every entry's fee
	PrizePoolCents int64         `json:"prizePoolCents"`
	Places         []reportPlace `json:"places"`
	TablesOpened   int           `json:"tablesOpened"`
	// HandForHandRounds are the rounds dealt hand-for-hand on the bubble (R7).
	HandForHandRounds int `json:"handForHandRounds"`
	// EndedAtLevel is the level the last hand was dealt at, and EndedAtBlinds its blinds.
	EndedAtLevel    int          `json:"endedAtLevel"`
	EndedAtBlinds   reportBlinds `json:"endedAtBlinds"`
	HandsPlayed     int64        `json:"handsPlayed"`
	DurationSeconds float64      `json:"durationSeconds"`
	// ChipsInPlay is the chips the ledger says are in play (entries times the starting stack, plus
	// rebuys, less disqualified chips); ChipErrors are the tournament's chip counts that found
	// another sum, after any hand or step (none, or the run exits 1).
	ChipsInPlay int64    `json:"chipsInPlay"`
	ChipErrors  []string `json:"chipErrors"`
	// Bounty is a progressive knockout's (--bounty), Satellite a satellite's seats (--satellite).
	Bounty    *reportBounty    `json:"bounty,omitempty"`
	Satellite *reportSatellite `json:"satellite,omitempty"`
	// Record is the director's end-of-run list: the money and the payouts' bands, the bubble, the
	// final table with its chips, each level's blinds, eliminations, table breaks and moves, the
	// chip leader and the average stack over time, where it ended (a tournament of one section;
	// each place's bust level, hand and eliminators are in Places).
	Record *floor.RecordSummary `json:"record,omitempty"`
}

// reportBounty is a PKO's bounties: each entry's starting bounty, the cash share of a knockout,
// the bounty pool (every entry's bounty) and what was paid from it (all of it, at the end).
type reportBounty struct {
	StartCents  int64 `json:"startCents"`
	CashPercent int   `json:"cashPercent"`
	PoolCents   int64 `json:"poolCents"`
	PaidCents   int64 `json:"paidCents"`
}

// reportSatellite is a satellite's prizes: Seats seats of TicketCents, then CashCents in cash to
// the next place.
type reportSatellite struct {
	TicketCents int64 `json:"ticketCents"`
	Seats       int   `json:"seats"`
	CashCents   int64 `json:"cashCents,omitempty"`
}

// reportBlinds are a level's blinds and ante, in chips.
type reportBlinds struct {
	SmallBlind int64 `json:"smallBlind"`
	BigBlind   int64 `json:"bigBlind"`
	Ante       int64 `json:"ante,omitempty"`
}

// reportPlace is one place in the results; players who share places (R7) are listed at the first
// of them, each with Shared, how many share.
type reportPlace struct {
	Place      int    `json:"place"`
	Player     string `json:"player"`
	Shared     int    `json:"shared,omitempty"`
	PrizeCents int64  `json:"prizeCents"`
	// PercentOfPool is the prize's share of the pool, to a hundredth of a percent.
	PercentOfPool float64 `json:"percentOfPool,omitempty"`
	// Ticket: the prize is a satellite's seat (worth PrizeCents).
	Ticket bool `json:"ticket,omitempty"`
	// BountiesCents is the bounty cash he won (a PKO; the winner's own bounty included), and
	// Knockouts the players he knocked out.
	BountiesCents int64 `json:"bountiesCents,omitempty"`
	Knockouts     int   `json:"knockouts,omitempty"`
	// Level, Table and Hand are where he went out (the winner: the level of the last hand), and
	// EliminatedBy who won his last chips; Stack is his stack at the start of that hand (the
	// winner's: every chip).
	Level        int      `json:"level,omitempty"`
	Table        int      `json:"table,omitempty"`
	Hand         int64    `json:"hand,omitempty"`
	EliminatedBy []string `json:"eliminatedBy,omitempty"`
	Stack        int64    `json:"stack,omitempty"`
}

// localCurrency is the local run's currency, for the record: its amounts are in its cents.
const localCurrency = "USD"

func newRunReport(id string, s runSettings, r workflows.TournamentResult, final workflows.Progress, took time.Duration) runReport {
	places := make([]reportPlace, 0, len(r.Places))
	for _, p := range r.Places {
		pl := reportPlace{Place: p.Place, Player: p.Player, Shared: p.Shared, PrizeCents: p.Prize}
		if r.PrizePool > 0 && p.Prize > 0 {
			pl.PercentOfPool = math.Round(10000*float64(p.Prize)/float64(r.PrizePool)) / 100
		}
		places = append(places, pl)
	}
	entries := r.Entries
	if entries == 0 {
		entries = s.Players
	}
	rep := runReport{
		Entries:           entries,
		FeesCents:         int64(entries) * localFee,
		TablesOpened:      r.Tables,
		HandForHandRounds: r.HandForHandRounds,
		EndedAtLevel:      final.Level,
		ChipsInPlay:       r.Ledger.Total(),
		ChipErrors:        append([]string{}, r.ChipErrors...),
		EndedAtBlinds:     reportBlinds{SmallBlind: final.Blinds.SmallBlind, BigBlind: final.Blinds.BigBlind, Ante: final.Blinds.Ante},
		TournamentID:      id,
		Players:           s.Players,
		TableSize:         s.TableSize,
		Structure:         s.Structure.Name,
		Speed:             s.speedString(),
		Seed:              s.Seed,
		Currency:          localCurrency,
		BuyInCents:        localBuyIn,
		FeeCents:          localFee,
		PrizePoolCents:    r.PrizePool,
		Places:            places,
		HandsPlayed:       r.HandsPlayed,
		DurationSeconds:   took.Round(time.Millisecond).Seconds(),
	}
	addEventReport(&rep, s, r)
	return rep
}

// addEventReport adds the bounties, the satellite's seats and the director's record to the
// report, and to each place its bust facts.
func addEventReport(rep *runReport, s runSettings, r workflows.TournamentResult) {
	byPlayer := map[string]int{}
	for i, p := range rep.Places {
		byPlayer[p.Player] = i
	}
	if b := r.Bounties; b != nil {
		rep.Bounty = &reportBounty{PoolCents: b.PoolCents, PaidCents: b.PaidCents}
		if s.Bounty != nil {
			rep.Bounty.StartCents, rep.Bounty.CashPercent = s.Bounty.StartCents, s.Bounty.CashPercent
		}
		for _, w := range b.Won {
			if i, ok := byPlayer[w.Player]; ok {
				rep.Places[i].BountiesCents, rep.Places[i].Knockouts = w.CashCents, w.Knockouts
			}
		}
	}
	if sat := s.Satellite; sat != nil {
		// A seat is a whole ticket to one player; players sharing places across the last seat
		// share their value in cash (floor.SatelliteAwards).
		rs := &reportSatellite{TicketCents: sat.TicketCents}
		for i, p := range rep.Places {
			if p.PrizeCents == sat.TicketCents && p.Shared <= 1 {
				rep.Places[i].Ticket = true
				rs.Seats++
			} else {
				rs.CashCents += p.PrizeCents
			}
		}
		rep.Satellite = rs
	}
	if rec := r.Record; rec != nil {
		sum := rec.Summary
		rep.Record = &sum
		for _, row := range rec.Rows {
			i, ok := byPlayer[string(row.Player)]
			if !ok {
				continue
			}
			p := &rep.Places[i]
			p.Level, p.Table, p.Hand, p.Stack = row.Level, int(row.Table), row.Hand, row.Stack
			for _, by := range row.Eliminators {
				p.EliminatedBy = append(p.EliminatedBy, string(by))
			}
		}
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
		if p.PrizeCents > 0 {
			paid++
		}
	}
	// Place and prize right-aligned, the player left-aligned.
	wPlace, wPlayer, wPrize, wShare := len("place"), len("player"), len("prize"), len("of pool")
	for _, p := range r.Places {
		if p.PrizeCents > 0 || p.BountiesCents > 0 {
			wPlace = max(wPlace, len(placeLabel(p.Place, p.Shared)))
			wPlayer = max(wPlayer, len(p.Player))
			wPrize = max(wPrize, len(formatAmount(p.PrizeCents)))
		}
	}
	var b strings.Builder
	// A PKO adds the bounties won, a satellite marks its seats, and the record where each went out.
	extra := func(p reportPlace) string {
		var x strings.Builder
		if r.Bounty != nil {
			fmt.Fprintf(&x, "  %*s", len("bounties"), formatAmount(p.BountiesCents))
		}
		if r.Satellite != nil {
			seat := ""
			if p.Ticket {
				seat = "seat"
			}
			fmt.Fprintf(&x, "  %-4s", seat)
		}
		if r.Record != nil && p.Place > 1 && p.Level > 0 {
			fmt.Fprintf(&x, "  level %d, table %d hand %d", p.Level, p.Table, p.Hand)
			if len(p.EliminatedBy) > 0 {
				fmt.Fprintf(&x, ", by %s", strings.Join(p.EliminatedBy, " and "))
			}
		}
		return x.String()
	}
	header := ""
	if r.Bounty != nil {
		header += "  bounties"
	}
	if r.Satellite != nil {
		header += "  prize"
	}
	if r.Record != nil {
		header += "  out"
	}
	fmt.Fprintf(&b, "%s\n", strings.TrimRight(fmt.Sprintf("%*s  %-*s  %*s  %*s%s", wPlace, "place", wPlayer, "player", wPrize, "prize", wShare, "of pool", header), " "))
	for _, p := range r.Places {
		if p.PrizeCents > 0 || p.BountiesCents > 0 {
			line := fmt.Sprintf("%*s  %-*s  %*s  %*s%s", wPlace, placeLabel(p.Place, p.Shared), wPlayer, p.Player, wPrize, formatAmount(p.PrizeCents),
				wShare, fmt.Sprintf("%.2f%%", p.PercentOfPool), extra(p))
			fmt.Fprintf(&b, "%s\n", strings.TrimRight(line, " "))
		}
	}
	fmt.Fprintf(&b, "\n%d players, %d paid (%.1f%%)", len(r.Places), paid, 100*float64(paid)/float64(max(len(r.Places), 1)))
	if paid < len(r.Places) {
		fmt.Fprintf(&b, "; places %d to %d win nothing", paid+1, len(r.Places))
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "prize pool    %s: %s entries at %s, fees %s\n", formatAmount(r.PrizePoolCents), formatCount(int64(r.Entries)),
		formatAmount(r.BuyInCents), formatAmount(r.FeesCents))
	fmt.Fprintf(&b, "tables        %s opened", formatCount(int64(r.TablesOpened)))
	if r.HandForHandRounds > 0 {
		fmt.Fprintf(&b, "; %d hand-for-hand rounds on the bubble", r.HandForHandRounds)
	}
	b.WriteString("\n")
	if r.EndedAtLevel > 0 {
		fmt.Fprintf(&b, "ended at      level %d (%d/%d", r.EndedAtLevel, r.EndedAtBlinds.SmallBlind, r.EndedAtBlinds.BigBlind)
		if r.EndedAtBlinds.Ante > 0 {
			fmt.Fprintf(&b, " ante %d", r.EndedAtBlinds.Ante)
		}
		b.WriteString(")\n")
	}
	fmt.Fprintf(&b, "hands played  %s\n", formatCount(r.HandsPlayed))
	writeEventSummary(&b, r)
	fmt.Fprintf(&b, "time taken    %s\n", time.Duration(r.DurationSeconds*float64(time.Second)).Round(100*time.Millisecond))
	_, err := io.WriteString(w, b.String())
	return err
}

// placeLabel is a place as the results show it: 3, or 3-4 for two players sharing places 3 and 4.
func placeLabel(place, shared int) string {
	if shared > 1 {
		return fmt.Sprintf("%d-%d", place, place+shared-1)
	}
	return fmt.Sprint(place)
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

// writeEventSummary writes the bounties, the satellite's seats and the director's record: the
// bubble, the final table, the chip leader and average over time, the eliminations, breaks and
// moves by level.
func writeEventSummary(b *strings.Builder, r runReport) {
	if bt := r.Bounty; bt != nil {
		fmt.Fprintf(b, "bounties      %s paid of a pool of %s (%s an entry, %d%% in cash at a knockout, the rest onto the eliminator's bounty; to whoever wins the last chips)\n",
			formatAmount(bt.PaidCents), formatAmount(bt.PoolCents), formatAmount(bt.StartCents), bt.CashPercent)
	}
	if st := r.Satellite; st != nil {
		fmt.Fprintf(b, "satellite     %d seats of %s", st.Seats, formatAmount(st.TicketCents))
		if st.CashCents > 0 {
			fmt.Fprintf(b, ", %s in cash", formatAmount(st.CashCents))
		}
		b.WriteString("\n")
	}
	rec := r.Record
	if rec == nil {
		return
	}
	if bb := rec.Bubble; bb != nil {
		names := make([]string, len(bb.Players))
		for i, p := range bb.Players {
			names[i] = string(p)
		}
		fmt.Fprintf(b, "bubble        %s, place %d, level %d, table %d hand %d", strings.Join(names, " and "), bb.Place, bb.Level, bb.Table, bb.Hand)
		if bb.HandForHandRounds > 0 {
			fmt.Fprintf(b, ", after %d hand-for-hand rounds", bb.HandForHandRounds)
		}
		b.WriteString("\n")
	}
	if ft := rec.FinalTable; ft != nil {
		parts := make([]string, len(ft.Seats))
		for i, s := range ft.Seats {
			parts[i] = fmt.Sprintf("%d %s %s", s.Seat, s.Player, formatCount(s.Chips))
		}
		fmt.Fprintf(b, "final table   level %d, after %s hands: %s\n", ft.Level, formatCount(ft.Hand), strings.Join(parts, ", "))
	}
	if n := len(rec.Stacks); n > 0 {
		fmt.Fprintf(b, "stacks        hand, level, players left, chip leader, average\n")
		step := max(1, (n+7)/8) // at most about 8 lines; the JSON has every sample
		for i := 0; i < n; i += step {
			writeSample(b, rec.Stacks[i])
		}
		if (n-1)%step != 0 {
			writeSample(b, rec.Stacks[n-1])
		}
	}
	var levels []string
	for _, l := range rec.Levels {
		if l.Eliminations > 0 || l.TablesBroken > 0 || l.Moves > 0 {
			levels = append(levels, fmt.Sprintf("%d: %d out, %d broken, %d moved", l.Level, l.Eliminations, l.TablesBroken, l.Moves))
		}
	}
	if len(levels) > 0 {
		fmt.Fprintf(b, "by level      %s\n", strings.Join(levels, "; "))
	}
	fmt.Fprintf(b, "tables broken %d; players moved: %d to balance, %d from broken tables, %d by the director\n",
		rec.TablesBroken, rec.Moves.Balance, rec.Moves.Break, rec.Moves.Director)
}

func writeSample(b *strings.Builder, s floor.StackSample) {
	fmt.Fprintf(b, "  %8s  L%-3d %6s  %s %s  %s\n", formatCount(s.Hand), s.Level, formatCount(int64(s.PlayersLeft)), s.Leader,
		formatCount(s.LeaderStack), formatCount(s.Average))
}
