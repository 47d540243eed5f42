package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/host"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/tableserver"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

func newTableCommand(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "table --players a,b,c --key-file FILE",
		Short: "Serve one table to its players over WebSocket and in a browser",
		Long: "table runs one table process: the engine deals, players connect to ws://ADDR/ws (or open\n" +
			"http://ADDR/?token=... in a browser), spectators watch, and /healthz, /readyz and /inhand\n" +
			"serve Kubernetes. On SIGTERM it finishes the hand in progress, then stops.\n\n" +
			"This process directs the table itself (a standalone table: blinds from --blinds, every\n" +
			"--hands-per-level hands); in a tournament the table's workflow directs it. With --print-tokens\n" +
			"it prints a link with a token for each player and one for spectators.",
		Example: "  pokerfloor table --players ada,bo,cy --key-file /var/run/secrets/table/key --print-tokens",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runTable(cmd, v)
		},
	}
	f := cmd.Flags()
	f.String("listen", "127.0.0.1:8080", "address to serve on")
	f.String("tournament", "local", "the tournament's name (tokens are bound to it)")
	f.String("table", "t1", "the table's ID (tokens are bound to it)")
	f.String("players", "", "the players seated, in seat order, comma-separated")
	f.Int64("stack", 10000, "each player's starting stack")
	f.String("blinds", "50/100,100/200,200/400,300/600,400/800,500/1000", "blind levels small/big[/ante], comma-separated")
	f.Int("hands-per-level", 10, "hands between levels")
	f.String("key-file", "", "file holding the token signing key (a mounted Secret); at least 32 bytes")
	f.String("key", "", "the token signing key itself (prefer --key-file)")
	f.String("history-dir", "", "write each hand's PHH history with its deal here")
	f.Duration("think", tableserver.DefaultActionClock.Think, "think time before the time bank (rule A15)")
	f.Duration("countdown", tableserver.DefaultActionClock.Countdown, "countdown after the bank")
	f.Duration("bank", tableserver.DefaultActionClock.Bank.Initial, "each player's time bank at the start")
	f.Duration("bank-per-level", tableserver.DefaultActionClock.Bank.PerLevel, "added to each bank at every level")
	f.Duration("bank-max", tableserver.DefaultActionClock.Bank.Max, "a bank's cap (0: none)")
	f.Duration("grace", 20*time.Second, "how long a disconnected player's turn waits for him")
	f.Bool("print-tokens", false, "print a link with a token (valid 24 h) for each player and for spectators")
	return cmd
}

func runTable(cmd *cobra.Command, v *viper.Viper) error {
	get := func(k string) string { return v.GetString("table." + k) }
	players := strings.Split(get("players"), ",")
	if get("players") == "" || len(players) < 2 || len(players) > engine.MaxSeats {
		return usageErrorf("--players names 2 to %d players, comma-separated", engine.MaxSeats)
	}
	levels, err := parseLevels(get("blinds"))
	if err != nil {
		return usageError(err)
	}
	key := []byte(get("key"))
	if f := get("key-file"); f != "" {
		if key, err = tableserver.ReadKeyFile(f); err != nil {
			return usageError(err)
		}
	}
	tokens, err := tableserver.NewTokens(key, get("tournament"), get("table"), nil)
	if err != nil {
		return usageErrorf("%v (give --key-file or --key)", err)
	}
	reporter, err := host.NewLocalReporter(host.LocalConfig{TableID: get("table"), Config: engine.Config{Seats: max(len(players), 2)},
		Levels: levels, HandsPerLevel: v.GetInt("table.hands-per-level"), Players: players, Stack: v.GetInt64("table.stack")})
	if err != nil {
		return usageError(err)
	}
	log := slog.New(slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv, err := tableserver.New(tableserver.Config{Tournament: get("tournament"), TableID: get("table"), Reporter: reporter,
		Tokens: tokens, HistoryDir: get("history-dir"), Grace: v.GetDuration("table.grace"), Logger: log,
		ActionClock: tableserver.ActionClock{Think: v.GetDuration("table.think"), Countdown: v.GetDuration("table.countdown"),
			Bank: tableserver.TimeBank{Initial: v.GetDuration("table.bank"), PerLevel: v.GetDuration("table.bank-per-level"), Max: v.GetDuration("table.bank-max")}}})
	if err != nil {
		return usageError(err)
	}
	ln, err := net.Listen("tcp", get("listen"))
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	base := "http://" + ln.Addr().String()
	fmt.Fprintf(out, "table %s serving on %s (players ws://%s/ws)\n", get("table"), base, ln.Addr())
	if v.GetBool("table.print-tokens") {
		for _, p := range append(players, "") {
			role := protocol.RolePlayer
			if p == "" {
				role = protocol.RoleSpectator
			}
			tok, err := tokens.Issue(p, role, 24*time.Hour)
			if err != nil {
				return err
			}
			name := p
			if name == "" {
				name = "spectators"
			}
			fmt.Fprintf(out, "  %s: %s/?token=%s\n", name, base, tok)
		}
	}
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
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
	if winner, ok := reporter.Winner(); ok {
		fmt.Fprintf(out, "%s has every chip\n", winner)
	}
	last, voided := reporter.Hands()
	fmt.Fprintf(out, "%d hands played, %d void\n", last, voided)
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
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
