package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// envPrefix starts every environment variable the commands read: POKERFLOOR_EQUITY_TRIALS sets
// `equity --trials`.
const envPrefix = "POKERFLOOR"

// newRootCommand builds the command tree with its own viper instance, so that each run (and each test)
// starts from a clean configuration.
//
// A setting is read, first found wins, from: the command-line flag, the environment variable
// POKERFLOOR_<COMMAND>_<FLAG> ('-' and '.' become '_'), the config file given by --config (or
// POKERFLOOR_CONFIG) under the command's name, and the flag's default.
func newRootCommand() *cobra.Command {
	v := viper.New()
	v.SetEnvPrefix(envPrefix)
	v.SetEnvKeyReplacer(strings.NewReplacer("-", "_", ".", "_"))
	v.AutomaticEnv()

	root := &cobra.Command{
		Use:   "pokerfloor",
		Short: "No-Limit Hold'em tournaments on Kubernetes",
		Long: "pokerfloor runs No-Limit Hold'em tournaments on Kubernetes.\n\n" +
			"Settings come from flags, then POKERFLOOR_<COMMAND>_<FLAG> environment variables, then the\n" +
			"--config file (YAML, TOML or JSON, one section per command: equity: {trials: 100000}).",
		Args:          cobra.ArbitraryArgs,
		SilenceErrors: true, // run prints the one-line error itself
		SilenceUsage:  true,
		// With no subcommand, print help; anything else is a command that does not exist. Cobra would
		// say so too, but with an error that carries no exit status.
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			msg := fmt.Sprintf("unknown command %q (run 'pokerfloor --help' for the list)", args[0])
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				msg = fmt.Sprintf("unknown command %q (did you mean %q?)", args[0], s[0])
			}
			return usageError(errors.New(msg))
		},
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			bindFlags(v, cmd)
			return readConfig(v, cmd.Root())
		},
	}
	root.SuggestionsMinimumDistance = 2 // cobra's default, which SuggestionsFor does not apply itself
	root.PersistentFlags().String("config", "", "config file (YAML, TOML or JSON); env POKERFLOOR_CONFIG")
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError(err) })

	root.AddCommand(
		newVersionCommand(),
		newEvalCommand(),
		newEquityCommand(v),
		newReplayCommand(v),
		newRunCommand(v, startTournament),
		newStructureCommand(v),
		newVerifyDealCommand(),
		newTableCommand(v),
		newBotCommand(v),
		newManagerCommand(v),
		newWorkerCommand(v),
		newTemporalCommand(v),
	)
	return root
}

// readConfig loads the config file named by --config or POKERFLOOR_CONFIG, if any. A file that is named
// but cannot be read, or that has a key no command of root reads, is the caller's mistake.
func readConfig(v *viper.Viper, root *cobra.Command) error {
	file := v.GetString("config")
	if file == "" {
		return nil
	}
	if err := checkConfigKeys(file, root); err != nil {
		return err
	}
	v.SetConfigFile(file)
	if err := v.ReadInConfig(); err != nil {
		return usageErrorf("config file %s: %v", file, err)
	}
	return nil
}

// bindFlags binds the running command's flags to viper: the root's persistent flags under their own
// names ("config"), each subcommand's own flags under "<command>.<flag>" ("equity.trials"), so that
// commands do not share keys by accident.
func bindFlags(v *viper.Viper, cmd *cobra.Command) {
	cmd.Root().PersistentFlags().VisitAll(func(f *pflag.Flag) {
		_ = v.BindPFlag(f.Name, f) // fails only for a nil flag
	})
	prefix := configPrefix(cmd)
	cmd.LocalNonPersistentFlags().VisitAll(func(f *pflag.Flag) {
		if f.Name != "help" {
			_ = v.BindPFlag(prefix+f.Name, f)
		}
	})
}

// configPrefix is the key prefix of a command's settings: "equity." for `pokerfloor equity`, and
// "" for the root itself.
func configPrefix(cmd *cobra.Command) string {
	var parts []string
	for c := cmd; c.HasParent(); c = c.Parent() {
		parts = append([]string{c.Name()}, parts...)
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ".") + "."
}
