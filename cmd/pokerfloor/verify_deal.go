package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/pokerfloor/pokerfloor/engine/fairdeal"
	"github.com/pokerfloor/pokerfloor/engine/phh"
	"github.com/spf13/cobra"
)

func newVerifyDealCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "verify-deal PATH...",
		Short: "Check that hand histories were dealt by their published seeds",
		Long: "verify-deal re-derives every card of each hand history (a .phh file, or every .phh file\n" +
			"under a folder) from the deal recorded in it: the commitment published before the deal, the\n" +
			"server seed revealed after it and the players' client seeds (engine/fairdeal documents the\n" +
			"algorithm). It prints one line per hand, \"ok\" with the cards checked or what does not match,\n" +
			"and a summary \"N check, M do not\". It exits 1 if any hand does not check.",
		Example: "  pokerfloor verify-deal hands/\n  pokerfloor verify-deal t1-hand-000017.phh",
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("verify-deal needs a .phh file or a folder of them")
			}
			files, err := phhFiles(args)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			good, bad := 0, 0
			var parser phh.Parser
			var hand phh.Hand
			for _, file := range files {
				n, err := verifyDealFile(file, &parser, &hand)
				if err != nil {
					bad++
					var m fairdeal.Mismatch
					if errors.As(err, &m) {
						fmt.Fprintf(out, "%s: hand %v does not check: %v\n", file, hand.Hand, err)
					} else {
						fmt.Fprintf(out, "%s: does not check: %v\n", file, err)
					}
					continue
				}
				good++
				fmt.Fprintf(out, "%s: hand %v ok, %d cards dealt by the seeds\n", file, hand.Hand, n)
			}
			fmt.Fprintf(out, "%d check, %d do not\n", good, bad)
			if bad > 0 {
				return fmt.Errorf("%d of %d hands do not check", bad, good+bad)
			}
			return nil
		},
	}
}

func verifyDealFile(file string, parser *phh.Parser, hand *phh.Hand) (int, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	if err := parser.ParseInto(data, hand); err != nil {
		return 0, err
	}
	return fairdeal.Verify(hand)
}
