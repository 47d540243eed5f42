// Package plugin is `kubectl tournament`: the tournament director's commands, in kubectl's
// conventions (kubeconfig, --context, -n, -A, -o table|json|yaml through k8s.io/cli-runtime).
//
// Every read is a get or a list of Tournament and Table objects, and every change is an object
// written to the Kubernetes API (spec.paused, a Sanction, an EntryBatch, a FloorAction), so RBAC
// decides who may act and the API server's audit log records who did. The package must never
// import Temporal or workflows/: the manager turns those objects into the workflow's signals and
// updates, and answers in their status.
package plugin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// The exit codes.
const (
	exitOK      = 0
	exitFailed  = 1 // the action was refused, or failed
	exitUsage   = 2 // bad usage: an unknown flag, a missing argument, a bad value
	pluginName  = "kubectl tournament"
	defaultWait = 2 * time.Minute
)

// usageError is bad usage: exit code 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// Run runs the plugin with args (without the program's name) and returns the exit code. Every
// failure prints one "error: ..." line to streams.ErrOut.
func Run(args []string, streams genericiooptions.IOStreams, version string) int {
	cmd := NewCommand(streams, version)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(context.Background())
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(streams.ErrOut, "error: %v\n", err)
	var usage usageError
	if errors.As(err, &usage) || isCobraUsage(err) {
		fmt.Fprintf(streams.ErrOut, "See '%s --help' for usage.\n", commandPath(cmd, args))
		return exitUsage
	}
	return exitFailed
}

// isCobraUsage recognises the errors cobra itself returns for an unknown command.
func isCobraUsage(err error) bool {
	return strings.HasPrefix(err.Error(), "unknown command") || strings.HasPrefix(err.Error(), "unknown flag") ||
		strings.HasPrefix(err.Error(), "unknown shorthand flag")
}

func commandPath(root *cobra.Command, args []string) string {
	if c, _, err := root.Find(args); err == nil && c != nil {
		return c.CommandPath()
	}
	return root.CommandPath()
}

// options are the flags every command shares.
type options struct {
	streams       genericiooptions.IOStreams
	config        *genericclioptions.ConfigFlags
	print         *genericclioptions.PrintFlags
	allNamespaces bool
	scheme        *runtime.Scheme
	now           func() time.Time
}

// NewCommand builds the plugin's command tree.
func NewCommand(streams genericiooptions.IOStreams, version string) *cobra.Command {
	scheme := runtime.NewScheme()
	if err := pokerv1.AddToScheme(scheme); err != nil {
		panic(err) // a programming error: the scheme is fixed at build time
	}
	o := &options{
		streams: streams,
		config:  genericclioptions.NewConfigFlags(true),
		print:   genericclioptions.NewPrintFlags("").WithTypeSetter(scheme).WithDefaultOutput("table"),
		scheme:  scheme,
		now:     time.Now,
	}
	root := &cobra.Command{
		Use:   "kubectl-tournament",
		Short: "Run No-Limit Hold'em tournaments from kubectl",
		Long: "kubectl tournament reads and directs pokerfloor tournaments through the Kubernetes API:\n" +
			"RBAC decides who may act (config/rbac's roles) and the API server's audit log records who did.",
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
		Annotations:   map[string]string{cobra.CommandDisplayNameAnnotation: pluginName},
	}
	root.PersistentPreRunE = func(cmd *cobra.Command, _ []string) error {
		if o.allNamespaces && cmd.Name() != "list" {
			return usagef("-A (--all-namespaces) is for list only: %s acts on one tournament, in the namespace of -n", cmd.Name())
		}
		return nil
	}
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err.Error()} })
	o.config.AddFlags(root.PersistentFlags())
	root.PersistentFlags().BoolVarP(&o.allNamespaces, "all-namespaces", "A", false,
		"list the tournaments of every namespace (list only)")
	root.PersistentFlags().StringVarP(o.print.OutputFormat, "output", "o", "table",
		"output format: table, json, yaml, name, jsonpath=..., go-template=...")

	root.AddCommand(
		newListCommand(o), newDescribeCommand(o), newStandingsCommand(o), newLevelsCommand(o),
		newClockCommand(o), newResultsCommand(o),
		newPauseCommand(o, true), newPauseCommand(o, false),
		newAddTimeCommand(o), newMoveCommand(o), newBreakTableCommand(o), newDealCommand(o),
		newUnregisterCommand(o), newRemoveNoShowsCommand(o), newSanctionCommand(o), newRegisterCommand(o),
	)
	for _, c := range root.Commands() {
		c.SetFlagErrorFunc(root.FlagErrorFunc())
	}
	return root
}

// exactArgs is cobra.ExactArgs with a message that names the arguments and exits with code 2.
func exactArgs(names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != len(names) {
			return usagef("%s takes %d argument(s), %s; got %d", cmd.Name(), len(names),
				strings.Join(names, " "), len(args))
		}
		return nil
	}
}

// tableOutput reports whether the human-readable table is asked for.
func (o *options) tableOutput() bool {
	f := *o.print.OutputFormat
	return f == "" || f == "table" || f == "wide"
}

// printObject prints obj with the -o printer (json, yaml, name, jsonpath, go-template).
func (o *options) printObject(obj runtime.Object, w io.Writer) error {
	p, err := o.print.ToPrinter()
	if err != nil {
		return usagef("-o %s: want table, json, yaml, name, jsonpath=TEMPLATE or go-template=TEMPLATE", *o.print.OutputFormat)
	}
	if *o.print.OutputFormat == "name" && meta.IsListType(obj) {
		// The name printer takes one object at a time, as kubectl get -o name prints them.
		items, err := meta.ExtractList(obj)
		if err != nil {
			return err
		}
		for _, item := range items {
			if err := p.PrintObj(item, w); err != nil {
				return err
			}
		}
		return nil
	}
	return p.PrintObj(obj, w)
}

// checkOutput refuses an unknown -o before anything is done.
func (o *options) checkOutput() error {
	if o.tableOutput() {
		return nil
	}
	if _, err := o.print.ToPrinter(); err != nil {
		return usagef("-o %s: want table, json, yaml, name, jsonpath=TEMPLATE or go-template=TEMPLATE", *o.print.OutputFormat)
	}
	return nil
}
