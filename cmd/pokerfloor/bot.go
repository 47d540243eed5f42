package main

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"

	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/tableserver"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

func newBotCommand(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bot --url URL --token TOKEN",
		Short: "Play a seat over the network with a bot",
		Long: "bot connects to a table's WebSocket (ws://HOST:PORT/ws), joins with the token and plays the\n" +
			"seat with one of engine/bot's players, the same ones the local run seats, until the table\n" +
			"closes the connection for good. A move to another table is followed; a lost connection or a\n" +
			"table process restarting is joined again (--reconnect=false stops instead).",
		Example: "  pokerfloor bot --url ws://localhost:8080/ws --token eyJhbGciOi... --strategy strength\n" +
			"  pokerfloor bot --url ws://localhost:8090/pokerfloor/club-night/play --token \"$TOKEN\"",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			url, token := v.GetString("bot.url"), v.GetString("bot.token")
			if url == "" || token == "" {
				return usageErrorf("bot needs --url (the table's ws://HOST:PORT/ws) and --token")
			}
			kind, err := bot.ParseKind(v.GetString("bot.strategy"))
			if err != nil {
				return usageError(err)
			}
			seed := v.GetUint64("bot.seed")
			if seed == 0 {
				var b [8]byte
				rand.Read(b[:])
				seed = binary.LittleEndian.Uint64(b[:])
			}
			b := &tableserver.Bot{URL: url, Token: token, Decider: bot.New(kind, seed), ClientSeed: v.GetString("bot.client-seed"),
				Reconnect: v.GetBool("bot.reconnect")}
			if err := b.Play(cmd.Context()); err != nil {
				return fmt.Errorf("bot: %w", err)
			}
			fmt.Fprintln(cmd.OutOrStdout(), "the table closed the connection")
			return nil
		},
	}
	f := cmd.Flags()
	f.String("url", "", "the table's WebSocket URL, ws://HOST:PORT/ws, or a tournament's one address ws://MANAGER/NAMESPACE/NAME/play")
	f.String("token", "", "the player's token")
	f.String("strategy", "random", "random, strength or checkfold")
	f.Uint64("seed", 0, "the bot's seed (default: random)")
	f.String("client-seed", "", "a client seed for the provably fair deal")
	f.Bool("reconnect", true, "join again, with backoff, after a lost connection or a table process restarting; stop when the table refuses the seat")
	return cmd
}
