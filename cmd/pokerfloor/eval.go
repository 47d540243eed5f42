package main

import (
	"fmt"
	"strings"

	"github.com/pokerfloor/pokerfloor/eval"
	"github.com/spf13/cobra"
)

func newEvalCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "eval CARDS...",
		Short: "Rank a hand of 5 to 7 cards",
		Long: "eval prints the hand's category and description and the best five cards.\n" +
			"Cards are a rank of 23456789TJQKA and a suit of cdhs, given apart or together.",
		Example: "  pokerfloor eval Ah Kh Qh Jh Th 2c 3d\n  pokerfloor eval AhKhQhJhTh2c3d",
		Args:    cobra.ArbitraryArgs, // counted after parsing, since "AhKh" is two cards
		RunE: func(cmd *cobra.Command, args []string) error {
			cards, err := parseCards(args)
			if err != nil {
				return err
			}
			if n := len(cards); n < 5 || n > 7 {
				return usageErrorf("eval needs 5 to 7 cards, got %d", n)
			}
			v := eval.Evaluate(cards...)
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "%s: %s\n", v.Category(), v.Describe())
			_, err = fmt.Fprintf(out, "Best five: %s\n", eval.CardsString(eval.BestFive(cards)))
			return err
		},
	}
}

// parseCards reads cards written apart or together, across any number of arguments, and rejects an
// unknown card or a card given twice with a usage error naming it.
func parseCards(args []string) ([]eval.Card, error) {
	cards, err := eval.ParseCards(strings.Join(args, " "))
	if err != nil {
		return nil, usageError(err)
	}
	return cards, nil
}
