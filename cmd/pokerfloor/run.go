package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

// Defaults of `pokerfloor run`, the ones `make run` uses.
const (
	defaultRunPlayers   = 180
	defaultRunTableSize = 9
	defaultRunStructure = floor.StructureTurbo
	defaultRunSpeed     = "max"
	maxRunPlayers       = 100_000
	minTableSize        = 2
	maxTableSize        = 10 // rule T1
	maxSpeedFactor      = 3600
)

func newRunCommand(v *viper.Viper, start startTournamentFunc) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Play a whole tournament on this machine: embedded Temporal, in-process tables and bots",
		Long: "run plays a No-Limit Hold'em tournament from the seat draw to the last hand, all in this process:\n" +
			"a real Temporal server persisting to a SQLite file in --data-dir, the tournament workflows'\n" +
			"worker, and in-process tables where bots play every seat. It shows the progress while it runs\n" +
			"and prints the places and prizes at the end.\n\n" +
			"--speed compresses the clock: at 60 a 20-minute level lasts 20 seconds and each table deals a\n" +
			"hand a second (a minute's play). max deals as fast as the machine can and counts the levels in\n" +
			"hands instead (a hand for each minute of a level; no breaks).\n\n" +
			"Ctrl-C stops the run (exit status 130) and prints the standings so far; the tournament stays in\n" +
			"--data-dir, and the same command resumes it, after Ctrl-C or a kill (--fresh starts a new one\n" +
			"instead). The results of each finished tournament are kept in --data-dir/runs/<tournament>/.\n\n" +
			"Each entry pays a buy-in of 110.00, a fee of 10.00 included. --bounty makes it a progressive knockout:\n" +
			"part of each buy-in is the entry's bounty; the player who wins a busted player's last chips (the pot\n" +
			"holding the top of his stack; split equally when that pot is split) takes --bounty-cash percent of\n" +
			"it in cash and adds the rest to his own bounty; the winner takes his own at the end. --satellite pays\n" +
			"seats of a set value instead of cash prizes. The results list each place's bust level, hand and\n" +
			"eliminator, the bubble, the final table and the bounties won; JSON amounts are integer cents\n" +
			"(fields ending in Cents).",
		Example: "  pokerfloor run\n" +
			"  pokerfloor run --fresh --hand-histories hands/ && pokerfloor replay --check hands/\n" +
			"  pokerfloor run --players 1000 --speed max --output json\n" +
			"  pokerfloor run --players 45 --table-size 6 --structure deep --speed 120 --seed 7\n" +
			"  pokerfloor run --players 90 --bounty 50        # a PKO: half of each 100.00 prize part is a 50.00 bounty\n" +
			"  pokerfloor run --players 100 --satellite 1050  # seats worth 1,050.00 each, the rest in cash",
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			s, err := parseRunSettings(v)
			if err != nil {
				return err
			}
			if s, err = prepareRun(s, v.IsSet, cmd.ErrOrStderr()); err != nil {
				return err
			}
			return runTournament(cmd.Context(), s, start, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.Int("players", defaultRunPlayers, "entries: bots, one a seat")
	f.Int("table-size", defaultRunTableSize, fmt.Sprintf("seats a table, %d to %d", minTableSize, maxTableSize))
	f.String("structure", defaultRunStructure, fmt.Sprintf("blind structure: one of %s, or a file (.json, .yaml, .toml)",
		strings.Join(floor.StructureNames(), ", ")))
	f.Uint64("seed", 0, "seed of the seat draw, the decks and the bots (default: random, printed)")
	f.String("speed", defaultRunSpeed, "how much faster than real time the blind clock runs (60: a minute a second), or max")
	f.String("output", "text", "results as text or json")
	f.String("data-dir", "", "folder of the tournament in progress (the embedded Temporal server's SQLite database) and of each finished one's results (default: pokerfloor/run under the user cache folder)")
	f.Bool("fresh", false, "start a new tournament even if the data dir holds one that was interrupted (which is discarded)")
	f.String("hand-histories", "", "write every hand played to this folder as a PHH file (pokerfloor replay --check reads them)")
	f.Bool("verbose", false, "show the Temporal server's and worker's logs on stderr")
	f.Int("bounty", 0, "a progressive knockout: this percent of each buy-in's prize part (1 to 99) is the entry's bounty, paid to whoever wins his last chips (0: none)")
	f.Int("bounty-cash", floor.DefaultBountyCashPercent, "with --bounty: the percent of a bounty paid in cash at a knockout (1 to 100), the rest onto the eliminator's own bounty")
	f.String("satellite", "", "a satellite: a seat's value (the target event's buy-in, as 500 or 500.00); pays as many equal seats as the prize pool buys, the remainder in cash to the next place")
	addPlayFlags(f)    // run_play.go
	addWebFlags(f)     // run_web.go
	addMetricsFlags(f) // run_telemetry.go
	addPprofFlags(f)   // run_pprof.go
	return cmd
}

// runSettings is a checked `pokerfloor run` configuration.
type runSettings struct {
	Players   int
	TableSize int
	Structure floor.Structure
	// MaxSpeed deals as fast as the machine can; otherwise Structure.Speed compresses the clock.
	MaxSpeed bool
	Seed     uint64
	JSON     bool
	DataDir  string
	Verbose  bool
	// Fresh starts a new tournament even where DataDir holds one to resume.
	Fresh bool
	// HandHistories is the folder every hand is written to as PHH ("" for none).
	HandHistories string
	// Resume is the ID of the tournament in DataDir that this run resumes ("" for a new one), and
	// Started when that tournament started; prepareRun sets them.
	Resume  string
	Started time.Time
	// Play seats a person at one seat (run_play.go).
	Play playSettings
	// Web serves the clock and lobby page (run_web.go).
	Web webSettings
	// Metrics serves the OpenTelemetry metrics (run_telemetry.go).
	Metrics metricsSettings
	// Pprof serves Go's profiling endpoints (run_pprof.go; nil: none).
	Pprof net.Listener
	// Bounty makes the tournament a progressive knockout; Satellite pays seats (nil: neither).
	Bounty    *floor.Bounty
	Satellite *floor.Satellite
}

// parseRunSettings reads and checks the settings (flags, POKERFLOOR_RUN_* environment, the config
// file's run section), with a usage error naming the first bad one.
func parseRunSettings(v *viper.Viper) (runSettings, error) {
	s := runSettings{
		Players:   v.GetInt("run.players"),
		TableSize: v.GetInt("run.table-size"),
		Seed:      v.GetUint64("run.seed"),
		DataDir:   v.GetString("run.data-dir"),
		Verbose:   v.GetBool("run.verbose"),
		Fresh:     v.GetBool("run.fresh"),

		HandHistories: v.GetString("run.hand-histories"),
	}
	// Cast errors (a word where a number goes) surface as zeros from Get*: check the raw values.
	for _, key := range []string{"players", "table-size", "seed"} {
		raw := strings.TrimSpace(fmt.Sprint(v.Get("run." + key)))
		if _, err := strconv.ParseInt(raw, 10, 64); err != nil {
			if _, err := strconv.ParseUint(raw, 10, 64); err != nil {
				return s, usageErrorf("--%s %q is not a whole number", key, raw)
			}
		}
	}
	for _, key := range []string{"verbose", "fresh"} {
		raw := strings.TrimSpace(fmt.Sprint(v.Get("run." + key)))
		if _, err := strconv.ParseBool(raw); err != nil {
			return s, usageErrorf("--%s %q: true or false", key, raw)
		}
	}
	if s.Players < 2 || s.Players > maxRunPlayers {
		return s, usageErrorf("--players %d: a tournament needs 2 to %d players", s.Players, maxRunPlayers)
	}
	if s.TableSize < minTableSize || s.TableSize > maxTableSize {
		return s, usageErrorf("--table-size %d: a table seats %d to %d (rule T1)", s.TableSize, minTableSize, maxTableSize)
	}
	switch out := v.GetString("run.output"); out {
	case "text":
	case "json":
		s.JSON = true
	default:
		return s, usageErrorf("--output %q: text or json", out)
	}
	speed := strings.TrimSpace(v.GetString("run.speed"))
	factor := 0
	if strings.EqualFold(speed, "max") {
		s.MaxSpeed = true
	} else {
		n, err := strconv.Atoi(speed)
		if err != nil || n < 1 || n > maxSpeedFactor {
			return s, usageErrorf("--speed %q: a factor from 1 (real time) to %d, or max", speed, maxSpeedFactor)
		}
		factor = n
	}
	structure, err := loadStructure(v.GetString("run.structure"))
	if err != nil {
		return s, err
	}
	structure.Speed = factor
	s.Structure = structure
	if s.Seed == 0 {
		s.Seed = randomSeed()
	}
	if s.DataDir == "" {
		if s.DataDir, err = defaultDataDir(); err != nil {
			return s, err
		}
	}
	if err := checkDataDir(s.DataDir); err != nil {
		return s, err
	}
	if s.HandHistories != "" {
		if err := checkHistoryDir(s.HandHistories); err != nil {
			return s, err
		}
	}
	if err := parseEventSettings(v, &s); err != nil {
		return s, err
	}
	if s.Play, err = parsePlaySettings(v, s); err != nil {
		return s, err
	}
	if s.Web, err = parseWebSettings(v); err != nil {
		return s, err
	}
	if s.Metrics, err = parseMetricsSettings(v); err != nil {
		return s, err
	}
	s.Pprof, err = parsePprofSettings(v)
	return s, err
}

// parseEventSettings reads --bounty, --bounty-cash and --satellite.
func parseEventSettings(v *viper.Viper, s *runSettings) error {
	for _, key := range []string{"bounty", "bounty-cash"} {
		raw := strings.TrimSpace(fmt.Sprint(v.Get("run." + key)))
		if _, err := strconv.Atoi(raw); err != nil {
			return usageErrorf("--%s %q is not a whole number", key, raw)
		}
	}
	pct, cash := v.GetInt("run.bounty"), v.GetInt("run.bounty-cash")
	if pct < 0 || pct > 99 {
		return usageErrorf("--bounty %d: the percent of a buy-in's prize part that is the bounty, 1 to 99 (0: no bounties)", pct)
	}
	if cash < 1 || cash > 100 {
		return usageErrorf("--bounty-cash %d: the percent of a bounty paid in cash, 1 to 100", cash)
	}
	if pct > 0 {
		// Integer cents: the bounty share of the prize part, rounded down to the cent.
		s.Bounty = &floor.Bounty{StartCents: (localBuyIn - localFee) * int64(pct) / 100, CashPercent: cash, Split: floor.BountyLastChips}
	}
	if raw := strings.TrimSpace(v.GetString("run.satellite")); raw != "" {
		ticket, err := parseAmount(raw)
		if err != nil || ticket <= 0 {
			return usageErrorf("--satellite %q: a seat's value, a positive amount like 500 or 500.00", raw)
		}
		s.Satellite = &floor.Satellite{TicketCents: ticket}
	}
	if s.Bounty != nil || s.Satellite != nil {
		spec := workflows.TournamentSpec{PlayerCount: s.Players, TableSize: s.TableSize, Structure: s.Structure,
			BuyIn: localBuyIn, Fee: localFee, Bounty: s.Bounty, Satellite: s.Satellite}
		if err := spec.Validate(); err != nil {
			flag := "--satellite"
			if s.Satellite == nil {
				flag = "--bounty"
			}
			return usageErrorf("%s with %d players: %v", flag, s.Players, strings.ReplaceAll(err.Error(), "\n", "; "))
		}
	}
	return nil
}

// parseAmount reads an amount of currency, 500 or 500.5 or 500.50, as exact integer cents.
func parseAmount(raw string) (int64, error) {
	whole, frac, dot := strings.Cut(raw, ".")
	if whole == "" || dot && (frac == "" || len(frac) > 2) {
		return 0, fmt.Errorf("not an amount: %q", raw)
	}
	units, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || units < 0 || units > 1e12 {
		return 0, fmt.Errorf("not an amount: %q", raw)
	}
	var cents int64
	if dot {
		if len(frac) == 1 {
			frac += "0"
		}
		c, err := strconv.ParseInt(frac, 10, 64)
		if err != nil || c < 0 || strings.ContainsAny(frac, "+-") {
			return 0, fmt.Errorf("not an amount: %q", raw)
		}
		cents = c
	}
	return units*100 + cents, nil
}

// defaultDataDir is pokerfloor/run under the user's cache folder, or a new temporary folder where
// there is none.
func defaultDataDir() (string, error) {
	if dir, err := os.UserCacheDir(); err == nil {
		return filepath.Join(dir, "pokerfloor", "run"), nil
	}
	dir, err := os.MkdirTemp("", "pokerfloor-run-")
	if err != nil {
		return "", fmt.Errorf("data folder: %w", err)
	}
	return dir, nil
}

// handPace is the wall time of a hand at the run's set speed: a minute of play (DefaultHandTime)
// sped up.
func (s runSettings) handPace() time.Duration {
	return workflows.DefaultHandTime / time.Duration(max(s.Structure.Speed, 1))
}

// pacedSimulation says whether the run, at a set speed, plays as a simulation paced by the clock
// (TournamentSpec.Pace) rather than by the clock itself: a field of sections, whose thousand
// tables and more could not each report every hand to the embedded server at that speed (10,000
// players at x60 ask 1,112 reports a second; the server took about 20: docs/design.md, "A set
// speed at 10,000 entries"). Each table deals a hand every handPace and reports a batch at once;
// the levels go by hands (a hand a minute of a level), without breaks, as at max. A person at a
// table (--play) keeps the clock.
func (s runSettings) pacedSimulation() bool {
	if s.MaxSpeed || s.Play.Player != "" {
		return false
	}
	return workflows.TournamentSpec{PlayerCount: s.Players, TableSize: s.TableSize}.Sectioned()
}

// speedString describes the clock's speed for people.
func (s runSettings) speedString() string {
	if s.MaxSpeed {
		return "max"
	}
	return fmt.Sprintf("x%d", s.Structure.Speed)
}
