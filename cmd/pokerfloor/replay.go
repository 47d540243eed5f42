package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pokerfloor/pokerfloor/engine/phh"
	"github.com/pokerfloor/pokerfloor/engine/replay"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

func newReplayCommand(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "replay PATH...",
		Short: "Replay PHH hand histories through the engine",
		Long: "replay plays each hand history (a .phh file, or every .phh file under a folder) through the\n" +
			"engine from its starting stacks, forced bets and dealt cards, by the rules of the rule book.\n" +
			"Without --check it prints each hand's final stacks. With --check it compares them with the\n" +
			"history's finishing_stacks and prints one line per hand that differs (or cannot be read or\n" +
			"played) and a summary \"N passed, M failed\". It exits 1 if any hand failed.",
		Example: "  pokerfloor replay --check ../shared/testdata/phh\n  pokerfloor replay hand.phh",
		Args:    cobra.ArbitraryArgs, // checked below, for the usage error's exit status
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("replay needs a .phh file or a folder of them")
			}
			files, err := phhFiles(args)
			if err != nil {
				return err
			}
			check := v.GetBool("replay.check")
			out := cmd.OutOrStdout()
			passed, failed, err := replayFiles(cmd, files, check, out)
			if err != nil {
				return err
			}
			if check {
				fmt.Fprintf(out, "%d passed, %d failed\n", passed, failed)
			}
			if failed > 0 {
				return fmt.Errorf("%d of %d hands failed", failed, passed+failed)
			}
			return nil
		},
	}
	cmd.Flags().Bool("check", false, "compare the final stacks with finishing_stacks; env POKERFLOOR_REPLAY_CHECK")
	return cmd
}

// replayFiles replays the files in order, printing a line for each failure (and, without check, for
// each hand) to out.
func replayFiles(cmd *cobra.Command, files []string, check bool, out io.Writer) (passed, failed int, err error) {
	var (
		parser phh.Parser
		hand   phh.Hand
		player replay.Replayer
		stacks []int64
	)
	ctx := cmd.Context()
	for _, file := range files {
		if ctx != nil && ctx.Err() != nil {
			return passed, failed, ctx.Err()
		}
		if err := replayFile(file, &parser, &hand, &player, check); err != nil {
			failed++
			fmt.Fprintln(out, describeFailure(file, err))
			continue
		}
		passed++
		if !check {
			stacks = player.FinishingStacks(stacks[:0])
			fmt.Fprintf(out, "%s: final stacks %s\n", file, strings.Trim(fmt.Sprint(stacks), "[]"))
		}
	}
	return passed, failed, nil
}

// replayFile reads, parses and replays (or checks) one hand history.
func replayFile(file string, parser *phh.Parser, hand *phh.Hand, player *replay.Replayer, check bool) error {
	data, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	if err := parser.ParseInto(data, hand); err != nil {
		return err
	}
	if check {
		return player.Check(hand)
	}
	return player.Replay(hand)
}

// describeFailure writes a failure as one line starting with the file: a parse error names the line
// ("hand.phh:7: actions[3]: ..."), a replay error the action.
func describeFailure(file string, err error) string {
	var pe *phh.Error
	if errors.As(err, &pe) {
		pe.File = file
		return pe.Error()
	}
	var fe *fs.PathError
	if errors.As(err, &fe) {
		return fmt.Sprintf("%s: %v", file, fe.Err)
	}
	return fmt.Sprintf("%s: %v", file, err)
}

// phhFiles lists the hand histories the arguments name: each file as given, and every *.phh file
// under each folder, in lexical order. A path that does not exist, or a folder without hand
// histories, is a usage error.
func phhFiles(args []string) ([]string, error) {
	var files []string
	for _, arg := range args {
		info, err := os.Stat(arg)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, usageErrorf("%s does not exist (expected a .phh file or a folder of them)", arg)
		}
		if err != nil {
			return nil, usageError(err)
		}
		if !info.IsDir() {
			files = append(files, arg)
			continue
		}
		before := len(files)
		err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && filepath.Ext(path) == ".phh" {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(files) == before {
			return nil, usageErrorf("no .phh files under %s", arg)
		}
	}
	return files, nil
}
