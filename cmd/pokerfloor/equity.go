package main

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/pokerfloor/pokerfloor/eval"
	"github.com/spf13/cast"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

func newEquityCommand(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "equity HAND HAND [HAND...]",
		Short: "Compute each hand's chance to win, exactly or by Monte Carlo",
		Long: "equity prints each hand's win %, tie % and equity % (its share of the pot on average)\n" +
			"for 2 to 10 hands of two cards, with an optional board and dead cards. With no --trials it\n" +
			"enumerates every board exactly; with --trials N it deals N random boards from --seed.",
		Example: "  pokerfloor equity AsKs QdQc\n" +
			"  pokerfloor equity AhAd KsKc 7c6c --board 2c7d9h --dead 3s\n" +
			"  pokerfloor equity AsKs QdQc JhTh --trials 1000000 --seed 7",
		Args: cobra.ArbitraryArgs, // counted and checked in RunE, with exit status 2
		RunE: func(cmd *cobra.Command, args []string) error {
			req, err := parseEquityRequest(args, v)
			if err != nil {
				return err
			}
			return req.run(cmd)
		},
	}
	f := cmd.Flags()
	f.String("board", "", "community cards already dealt: 0, 3, 4 or 5 cards (e.g. 2c7d9h)")
	f.String("dead", "", "cards known to be out of the deck (e.g. 3s)")
	f.Int("trials", 0, "Monte Carlo trials; 0 enumerates every board exactly")
	f.Uint64("seed", 0, "Monte Carlo seed, for a run that repeats exactly (default: a random seed, printed)")
	return cmd
}

// equityRequest is a checked equity command line.
type equityRequest struct {
	hands       [][]eval.Card
	board, dead []eval.Card
	trials      int
	seed        uint64
}

// parseEquityRequest reads the hands from args and the rest from viper (flags, environment, config),
// rejecting with a usage error anything the evaluator could not use.
func parseEquityRequest(args []string, v *viper.Viper) (*equityRequest, error) {
	if n := len(args); n < 2 || n > 10 {
		return nil, usageErrorf("equity needs 2 to 10 hands, got %d", n)
	}
	req := &equityRequest{}
	for _, arg := range args {
		hand, err := parseCards([]string{arg})
		if err != nil {
			return nil, err
		}
		if len(hand) != 2 {
			return nil, usageErrorf("hand %q has %d cards; each hand is two cards, like AsKs", arg, len(hand))
		}
		req.hands = append(req.hands, hand)
	}
	var err error
	if req.board, err = parseCards([]string{v.GetString("equity.board")}); err != nil {
		return nil, err
	}
	if n := len(req.board); n == 1 || n == 2 || n > 5 {
		return nil, usageErrorf("board has %d cards; a board is 0, 3, 4 or 5 cards", n)
	}
	if req.dead, err = parseCards([]string{v.GetString("equity.dead")}); err != nil {
		return nil, err
	}
	// Each card of the deck is in one place at most: parse them all together to find one given twice.
	all := []string{strings.Join(args, " "), eval.CardsString(req.board), eval.CardsString(req.dead)}
	if _, err := parseCards(all); err != nil {
		return nil, err
	}
	if req.trials, err = cast.ToIntE(v.Get("equity.trials")); err != nil || req.trials < 0 {
		return nil, usageErrorf("trials must be a whole number, 0 (exact) or more, got %q", v.GetString("equity.trials"))
	}
	if req.trials > 0 {
		if !v.IsSet("equity.seed") {
			req.seed = randomSeed()
		} else if req.seed, err = cast.ToUint64E(v.Get("equity.seed")); err != nil {
			return nil, usageErrorf("seed must be a whole number from 0 to 2^64-1, got %q", v.GetString("equity.seed"))
		}
	}
	return req, nil
}

func (r *equityRequest) run(cmd *cobra.Command) error {
	var (
		eqs []eval.HandEquity
		err error
	)
	if r.trials == 0 {
		eqs, err = eval.ExactEquity(r.hands, r.board, r.dead)
	} else {
		eqs, err = eval.MonteCarloEquity(r.hands, r.board, r.dead, r.trials, r.seed)
	}
	if err != nil {
		// The input was checked above; what the evaluator still rejects is input too.
		return usageError(err)
	}

	out := cmd.OutOrStdout()
	method := "exact, every board"
	if r.trials > 0 {
		method = fmt.Sprintf("Monte Carlo, %d trials, seed %d", r.trials, r.seed)
	}
	fmt.Fprintf(out, "Board: %s  Dead: %s  (%s)\n", cardsOrDash(r.board), cardsOrDash(r.dead), method)
	fmt.Fprintf(out, "%-4s  %7s  %7s  %8s\n", "Hand", "Win %", "Tie %", "Equity %")
	for i, e := range eqs {
		_, err = fmt.Fprintf(out, "%-4s  %7.2f  %7.2f  %8.2f\n",
			eval.CardsString(r.hands[i]), 100*e.Win, 100*e.Tie, 100*e.Equity)
	}
	return err
}

func cardsOrDash(cards []eval.Card) string {
	if len(cards) == 0 {
		return "-"
	}
	return eval.CardsString(cards)
}

// randomSeed picks a Monte Carlo seed when none is given; it is printed so the run can be repeated.
func randomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on Linux
	return binary.LittleEndian.Uint64(b[:])
}
