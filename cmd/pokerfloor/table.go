package main

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/pokerfloor/pokerfloor/cmd/pokerfloor/internal/telemetry"
	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/report"
	"github.com/pokerfloor/pokerfloor/engine/tableserver"
	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
	"go.temporal.io/sdk/client"
)

func newTableCommand(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "table --table ID --key-file FILE [--temporal-address HOST:PORT]",
		Short: "Serve one table to its players over WebSocket and in a browser",
		Long: "table runs one table process: the engine deals, players connect to ws://ADDR/ws (or open\n" +
			"http://ADDR/?token=... in a browser), spectators watch, and /healthz, /readyz and /inhand\n" +
			"serve Kubernetes. On SIGTERM it finishes the hand in progress, then stops.\n\n" +
			"In a tournament (the default) the table's TableWorkflow directs it: each hand is reported to\n" +
			"the workflow --table names (a Temporal Update on --temporal-address, --namespace), and its\n" +
			"answer says what comes next. On start the process loads the table as of the last hand the\n" +
			"workflow acknowledged, so a restarted process continues where the killed one left off; the\n" +
			"hand that was in progress is void (rule D4) and dealt again under the same number. /readyz is\n" +
			"ready once that state is loaded; /inhand says whether a hand is being dealt; /metrics serves\n" +
			"the table's metrics to Prometheus (OTEL_EXPORTER_OTLP_ENDPOINT sends them and the hands'\n" +
			"spans by OTLP).\n\n" +
			"--standalone is a home game with no tournament: the process directs the table itself (the\n" +
			"--players in seat order with --stack each, blinds from --blinds, every --hands-per-level\n" +
			"hands) until one player has every chip.\n\n" +
			"--bots plays seats with in-process bots (all, or a list of players): a simulation, or empty\n" +
			"seats. With --print-tokens it prints a link with a token for each player and one for\n" +
			"spectators once the seats are known.",
		Example: "  pokerfloor table --table sunday/table-007 --key-file /var/run/secrets/table/key --temporal-address temporal:7233\n" +
			"  pokerfloor table --standalone --players ada,bo,cy --key-file key --print-tokens",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runTable(cmd, v)
		},
	}
	f := cmd.Flags()
	f.String("listen", "127.0.0.1:8080", "address to serve on (:0 picks a free port, printed at the start)")
	f.String("table", "", "the table's ID, which is its TableWorkflow's ID (standalone: t1)")
	f.String("tournament", "", "the tournament's name, which tokens are bound to (default: what --table starts with before /table-; standalone: local)")
	f.String("temporal-address", "localhost:7233", "the Temporal frontend the table reports to")
	f.String("namespace", "default", "the Temporal namespace of the table's workflow")
	f.Bool("standalone", false, "a home game: the process directs the table itself (--players, --stack, --blinds, --hands-per-level), no Temporal")
	f.String("players", "", "standalone: the players seated, in seat order, comma-separated")
	f.Int64("stack", 10000, "standalone: each player's starting stack")
	f.String("blinds", "50/100,100/200,200/400,300/600,400/800,500/1000", "standalone: blind levels small/big[/ante], comma-separated")
	f.Int("hands-per-level", 10, "standalone: hands between levels")
	f.String("key-file", "", "file holding the token signing key (a mounted Secret); at least 32 bytes")
	f.String("key", "", "the token signing key itself (prefer --key-file)")
	f.String("history-dir", "", "write each hand's PHH history with its deal here")
	f.String("bots", "", "players played by in-process bots: all, or comma-separated names (their connections are refused)")
	f.String("bot-strategy", "random", "the bots' strategy: random, strength or checkfold (checks or folds: nobody busts)")
	f.Duration("bot-think", 0, "how long each bot decision takes (0: at once)")
	f.Duration("hand-pause", tableserver.DefaultHandPause, "the pause after each hand before the next, where people play (not at a table of --bots all): time to see the showdown")
	f.Duration("report-after", tableserver.DefaultReportAfter, "a simulation's table reports its batch of hands after this long at most, so that it hears a pause or an order soon (0: after the whole batch)")
	f.Duration("think", tableserver.DefaultActionClock.Think, "think time before the time bank (rule A15)")
	f.Duration("countdown", tableserver.DefaultActionClock.Countdown, "countdown after the bank")
	f.Duration("bank", tableserver.DefaultActionClock.Bank.Initial, "each player's time bank at the start")
	f.Duration("bank-per-level", tableserver.DefaultActionClock.Bank.PerLevel, "added to each bank at every level")
	f.Duration("bank-max", tableserver.DefaultActionClock.Bank.Max, "a bank's cap (0: none)")
	f.Duration("grace", 20*time.Second, "how long a disconnected player's turn waits for him")
	f.Bool("print-tokens", false, "print a link with a token (valid 24 h) for each player and for spectators")
	f.String("log-level", "warn", "what goes to stderr: error, warn, info (the state loaded) or debug (every hand dealt)")
	return cmd
}

// tableSettings are a table process's settings, read and checked.
type tableSettings struct {
	standalone bool
	table      string
	tournament string
	players    []string // standalone
	local      host.LocalConfig
	key        []byte
	anyBots    bool
	bots       func(player string) bool
	botKind    bot.Kind
	botThink   time.Duration
	logLevel   slog.Level
}

func readTableSettings(v *viper.Viper) (tableSettings, error) {
	get := func(k string) string { return v.GetString("table." + k) }
	s := tableSettings{standalone: v.GetBool("table.standalone"), table: get("table"), tournament: get("tournament")}
	if err := s.logLevel.UnmarshalText([]byte(get("log-level"))); err != nil {
		return s, usageErrorf("--log-level %q: expected error, warn, info or debug", get("log-level"))
	}
	if s.standalone {
		if s.table == "" {
			s.table = "t1"
		}
		if s.tournament == "" {
			s.tournament = "local"
		}
		s.players = strings.Split(get("players"), ",")
		if get("players") == "" || len(s.players) < 2 || len(s.players) > engine.MaxSeats {
			return s, usageErrorf("--standalone --players names 2 to %d players, comma-separated", engine.MaxSeats)
		}
		levels, err := parseLevels(get("blinds"))
		if err != nil {
			return s, usageError(err)
		}
		s.local = host.LocalConfig{TableID: s.table, Config: engine.Config{Seats: max(len(s.players), 2)},
			Levels: levels, HandsPerLevel: v.GetInt("table.hands-per-level"), Players: s.players, Stack: v.GetInt64("table.stack")}
	} else {
		if s.table == "" {
			return s, usageErrorf("--table names the table's workflow (sunday/table-007); or --standalone for a table with no tournament")
		}
		if get("players") != "" {
			return s, usageErrorf("--players seats a --standalone table; a tournament's table gets its players from its workflow")
		}
		if s.tournament == "" {
			if i := strings.LastIndex(s.table, "/table-"); i > 0 {
				s.tournament = s.table[:i]
			} else {
				return s, usageErrorf("--tournament is needed: --table %q does not start with the tournament's name (TOURNAMENT/table-NNN)", s.table)
			}
		}
	}
	s.key = []byte(get("key"))
	if f := get("key-file"); f != "" {
		k, err := tableserver.ReadKeyFile(f)
		if err != nil {
			return s, usageError(err)
		}
		s.key = k
	}
	switch b := get("bots"); b {
	case "":
		s.bots = func(string) bool { return false }
	case "all":
		s.anyBots = true
		s.bots = func(string) bool { return true }
	default:
		s.anyBots = true
		names := map[string]bool{}
		for _, n := range strings.Split(b, ",") {
			names[strings.TrimSpace(n)] = true
		}
		s.bots = func(p string) bool { return names[p] }
	}
	k, err := bot.ParseKind(get("bot-strategy"))
	if err != nil {
		return s, usageErrorf("--bot-strategy: %v", err)
	}
	s.botKind, s.botThink = k, v.GetDuration("table.bot-think")
	if s.botThink < 0 {
		return s, usageErrorf("--bot-think %v: expected 0 or more", s.botThink)
	}
	for _, k := range []string{"report-after", "hand-pause"} {
		if d := v.GetDuration("table." + k); d < 0 {
			return s, usageErrorf("--%s %v: expected 0 or more", k, d)
		}
	}
	return s, nil
}

func runTable(cmd *cobra.Command, v *viper.Viper) error {
	s, err := readTableSettings(v)
	if err != nil {
		return err
	}
	tokens, err := tableserver.NewTokens(s.key, s.tournament, s.table, nil)
	if err != nil {
		return usageErrorf("%v (give --key-file or --key)", err)
	}
	log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: s.logLevel}))
	out := cmd.OutOrStdout()
	// The table's telemetry: /metrics beside the players' endpoints, and OTLP when the environment
	// names a collector (its hands' and reports' spans, and the Temporal client's).
	tel, err := telemetry.New(context.Background(), telemetry.Config{Service: "pokerfloor-table", Prometheus: true, OTLP: telemetry.OTLPFromEnv()})
	if err != nil {
		return err
	}
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := tel.Shutdown(sctx); err != nil {
			log.Warn("telemetry shutdown", "err", err)
		}
	}()

	var reporter report.Reporter
	var local *host.LocalReporter
	if s.standalone {
		if local, err = host.NewLocalReporter(s.local); err != nil {
			return usageError(err)
		}
		reporter = local
	} else {
		// A lazy client: the process starts (and stays not ready) while Temporal is out of reach,
		// and the runner's reports retry with backoff until it answers.
		c, err := client.NewLazyClient(tel.TemporalOptions(client.Options{HostPort: v.GetString("table.temporal-address"),
			Namespace: v.GetString("table.namespace"), Logger: sdkLogger(nil)}))
		if err != nil {
			return usageErrorf("--temporal-address %s: %v", v.GetString("table.temporal-address"), err)
		}
		defer c.Close()
		reporter = workflows.NewTableReporter(c)
	}
	var printTokens func(report.State)
	var base string
	if v.GetBool("table.print-tokens") {
		printTokens = func(st report.State) {
			for _, ss := range st.Seats {
				if !s.bots(ss.Player) {
					printToken(out, tokens, base, ss.Player)
				}
			}
			printToken(out, tokens, base, "")
		}
	}
	reporter = tel.Reporter(func(string) string { return s.tournament }, reporter)
	announce := &firstStateReporter{inner: reporter, first: func(st report.State) {
		fmt.Fprintf(out, "table %s: state as of hand %d loaded, %d players\n", s.table, st.HandNumber, len(st.Seats))
		if printTokens != nil {
			printTokens(st)
		}
	}}
	srv, err := tableserver.New(tableserver.Config{Tournament: s.tournament, TableID: s.table, Reporter: announce,
		Tokens: tokens, HistoryDir: v.GetString("table.history-dir"), Grace: v.GetDuration("table.grace"), Logger: log, ReportAfter: v.GetDuration("table.report-after"), HandPause: v.GetDuration("table.hand-pause"),
		Observe: tel.Table(s.tournament, s.table).Observe, Bots: tableBots(s), ActionClock: tableserver.ActionClock{Think: v.GetDuration("table.think"), Countdown: v.GetDuration("table.countdown"),
			Bank: tableserver.TimeBank{Initial: v.GetDuration("table.bank"), PerLevel: v.GetDuration("table.bank-per-level"), Max: v.GetDuration("table.bank-max")}}})
	if err != nil {
		return usageError(err)
	}
	ln, err := net.Listen("tcp", v.GetString("table.listen"))
	if err != nil {
		return usageErrorf("--listen %s: %v", v.GetString("table.listen"), err)
	}
	base = "http://" + ln.Addr().String()
	fmt.Fprintf(out, "table %s serving on %s (players ws://%s/ws)\n", s.table, base, ln.Addr())
	mux := http.NewServeMux()
	mux.Handle("/", tel.CountWebSockets(srv.Handler()))
	mux.Handle("GET /metrics", tel.Handler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	ctx := cmd.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	done := make(chan error, 1)
	go func() { done <- srv.Run(context.WithoutCancel(ctx)) }()
	select {
	case err = <-done:
	case <-ctx.Done(): // SIGTERM or SIGINT: finish the hand, then stop
		fmt.Fprintln(out, "stopping: the hand in progress finishes first")
		srv.Drain()
		err = <-done
	}
	shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	hs.Shutdown(shut)
	if local != nil {
		if winner, ok := local.Winner(); ok {
			fmt.Fprintf(out, "%s has every chip\n", winner)
		}
		last, voided := local.Hands()
		fmt.Fprintf(out, "%d hands played, %d void\n", last, voided)
	} else {
		st := srv.Runner().Stats()
		fmt.Fprintf(out, "%d hands played and reported, %d void\n", st.Hands, st.Voided+st.Interrupted)
	}
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

func printToken(out io.Writer, tokens *tableserver.Tokens, base, player string) {
	role, name := protocol.RolePlayer, player
	if player == "" {
		role, name = protocol.RoleSpectator, "spectators"
	}
	tok, err := tokens.Issue(player, role, 24*time.Hour)
	if err != nil {
		fmt.Fprintf(out, "  %s: no token: %v\n", name, err)
		return
	}
	fmt.Fprintf(out, "  %s: %s/?token=%s\n", name, base, tok)
}

// tableBots are the in-process bots of --bots, nil when there are none. Each process seeds its
// bots afresh: a restarted table's bots play on as bots, not as a replay of the killed one's.
func tableBots(s tableSettings) engine.Players {
	if !s.anyBots {
		return nil
	}
	var seed [8]byte
	_, _ = rand.Read(seed[:])
	bots := bot.Players(binary.LittleEndian.Uint64(seed[:]), s.botKind)
	return engine.PlayersFunc(func(player string) engine.Decider {
		if !s.bots(player) {
			return nil
		}
		d := bots.Decider(player)
		if s.botThink > 0 {
			return &thinkingBot{bot: d, think: s.botThink}
		}
		return d
	})
}

// thinkingBot is a bot that takes its time, as a person would: a simulation's pace, or the local
// run's bots at a human's table. It is no engine.Instant, so the table's action clock runs on it.
type thinkingBot struct {
	bot   engine.Decider
	think time.Duration
}

func (b *thinkingBot) Decide(ctx context.Context, v *engine.View) (engine.Decision, error) {
	t := time.NewTimer(b.think)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		return engine.Decision{}, ctx.Err()
	}
	return b.bot.Decide(ctx, v)
}

// firstStateReporter passes reports through and calls first with the first State the reporter
// answers: the table as of the last hand acknowledged.
type firstStateReporter struct {
	inner report.Reporter
	once  sync.Once
	first func(report.State)
}

func (r *firstStateReporter) Report(ctx context.Context, tableID string, results []report.HandResult) (report.State, error) {
	st, err := r.inner.Report(ctx, tableID, results)
	if err == nil {
		r.once.Do(func() { r.first(st) })
	}
	return st, err
}

// parseLevels reads "50/100,100/200/25" (small/big[/ante]).
func parseLevels(s string) ([]engine.Level, error) {
	var out []engine.Level
	for _, part := range strings.Split(s, ",") {
		var l engine.Level
		n, _ := fmt.Sscanf(strings.TrimSpace(part), "%d/%d/%d", &l.SmallBlind, &l.BigBlind, &l.Ante)
		if n < 2 || l.BigBlind <= 0 || l.SmallBlind < 0 || l.SmallBlind > l.BigBlind || l.Ante < 0 {
			return nil, fmt.Errorf("blind level %q: expected small/big or small/big/ante, e.g. 50/100", part)
		}
		out = append(out, l)
	}
	return out, nil
}
