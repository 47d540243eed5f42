package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

// Bad --bounty, --bounty-cash and --satellite values exit 2 with one line naming the flag.
func TestRunEventFlagsExitTwo(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"bounty of the whole pool", []string{"--bounty", "100"}, "--bounty 100: the percent of a buy-in's prize part that is the bounty, 1 to 99"},
		{"negative bounty", []string{"--bounty=-5"}, "--bounty -5"},
		{"bounty cash zero", []string{"--bounty", "50", "--bounty-cash", "0"}, "--bounty-cash 0: the percent of a bounty paid in cash, 1 to 100"},
		{"satellite a word", []string{"--satellite", "lots"}, `--satellite "lots": a seat's value, a positive amount like 500 or 500.00`},
		{"satellite three decimals", []string{"--satellite", "5.001"}, `--satellite "5.001"`},
		{"satellite too dear", []string{"--players", "20", "--satellite", "5000"}, "does not buy one seat"},
		{"satellite too cheap", []string{"--players", "20", "--satellite", "10"}, "every entry would win one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			saved := startTournament
			startTournament = func(context.Context, runSettings, io.Writer) (tournament, func(), error) {
				t.Error("the tournament started with bad settings")
				return nil, nil, errSettingsSeen
			}
			defer func() { startTournament = saved }()
			code, out, errOut := runCommand(t, append([]string{"run", "--data-dir", t.TempDir()}, tt.args...)...)
			if code != 2 || out != "" {
				t.Errorf("exit %d, stdout %q, want 2 and nothing (stderr %q)", code, out, errOut)
			}
			checkOneLineError(t, errOut, tt.want)
		})
	}
}

func TestRunEventSettings(t *testing.T) {
	s := runSettingsFor(t, "--bounty", "40", "--bounty-cash", "25", "--satellite", "1050.5", "--players", "100", "--data-dir", t.TempDir())
	if s.Bounty == nil || s.Bounty.StartCents != 4000 || s.Bounty.CashPercent != 25 || s.Satellite == nil || s.Satellite.TicketCents != 105050 {
		t.Errorf("bounty %+v, satellite %+v", s.Bounty, s.Satellite)
	}
	if s := runSettingsFor(t, "--data-dir", t.TempDir()); s.Bounty != nil || s.Satellite != nil {
		t.Errorf("by default: bounty %+v, satellite %+v", s.Bounty, s.Satellite)
	}
}

// `pokerfloor run --bounty 50` plays a PKO: every bounty is paid (the pool is half of each
// buy-in's prize part), prizes and bounties add up to what was paid in less the fees, and the
// results say where and to whom each place went out, with the bubble, the final table and the
// stacks over time, amounts in cents. `--satellite` pays equal seats and the cash remainder.
func TestRunBountyAndSatellite(t *testing.T) {
	if testing.Short() {
		t.Skip("plays tournaments on a Temporal server")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"run", "--players", "27", "--speed", "max", "--output", "json", "--seed", "9",
		"--data-dir", t.TempDir(), "--bounty", "50"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, stderr.String())
	}
	var doc runReport
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout.String())
	}
	checkPlaces(t, doc.Places, 27)
	if doc.Bounty == nil || doc.Record == nil {
		t.Fatalf("no bounty or record in the document:\n%s", stdout.String())
	}
	var prizes, bounties int64
	knockouts := 0
	for _, p := range doc.Places {
		prizes += p.PrizeCents
		bounties += p.BountiesCents
		knockouts += p.Knockouts
		if p.Level < 1 || p.Place > 1 && (p.Hand < 1 || len(p.EliminatedBy) == 0) {
			t.Errorf("place %+v: where and to whom did he go out?", p)
		}
	}
	in := int64(27) * (localBuyIn - localFee)
	if doc.Bounty.PoolCents != 27*5000 || doc.Bounty.PaidCents != doc.Bounty.PoolCents || bounties != doc.Bounty.PaidCents ||
		prizes != doc.PrizePoolCents || prizes+bounties != in || knockouts != 26 {
		t.Errorf("bounties %+v, %d won, %d knockouts; prizes %d of %d; %d paid in less fees", doc.Bounty, bounties, knockouts, prizes, doc.PrizePoolCents, in)
	}
	rec := doc.Record
	if rec.Bubble == nil || rec.FinalTable == nil || len(rec.Stacks) == 0 || len(rec.Levels) == 0 || !rec.Finished ||
		rec.PaidInCents != rec.FeesCents+rec.PrizePoolCents+rec.BountyPoolCents {
		t.Errorf("record: bubble %+v, final table %+v, %d samples, %d levels, money %d = %d + %d + %d",
			rec.Bubble, rec.FinalTable, len(rec.Stacks), len(rec.Levels), rec.PaidInCents, rec.FeesCents, rec.PrizePoolCents, rec.BountyPoolCents)
	}

	stdout.Reset()
	stderr.Reset()
	code = run(ctx, []string{"run", "--players", "27", "--speed", "max", "--seed", "9", "--data-dir", t.TempDir(), "--satellite", "500"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, stderr.String())
	}
	text := stdout.String()
	// The pool of 27 entries' 100.00 buys 5 seats of 500.00; 200.00 is left, to the sixth.
	for _, want := range []string{"satellite     5 seats of 500.00, 200.00 in cash", "    1  ", "seat", "bubble        ", "final table   level", "stacks        hand"} {
		if !strings.Contains(text, want) {
			t.Errorf("the text results lack %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "%  seat"); n != 5 {
		t.Errorf("%d seats marked, want 5:\n%s", n, text)
	}
	t.Logf("the satellite's results:\n%s", text)
}
