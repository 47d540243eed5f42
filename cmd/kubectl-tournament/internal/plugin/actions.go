package plugin

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/spf13/cobra"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
)

// pollInterval is how often --wait reads the object's status again.
const pollInterval = 500 * time.Millisecond

var (
	// The phases in which a tournament is over: nothing can change it any more.
	overPhases = []pokerv1.TournamentPhase{pokerv1.TournamentFinished, pokerv1.TournamentFailed}
	// The phases in which hands are dealt or about to be: the clock, the tables and the players
	// can be acted on.
	playingPhases = []pokerv1.TournamentPhase{pokerv1.TournamentRunning, pokerv1.TournamentPaused}
)

// requireNotOver refuses an action on a tournament that is over.
func requireNotOver(t *pokerv1.Tournament) error {
	if slices.Contains(overPhases, t.Status.Phase) {
		return fmt.Errorf("tournament %s is not running: its phase is %s", t.Name, t.Status.Phase)
	}
	return nil
}

// requirePlaying refuses an action that needs hands being dealt.
func requirePlaying(t *pokerv1.Tournament) error {
	if !slices.Contains(playingPhases, t.Status.Phase) {
		return fmt.Errorf("tournament %s is not running: its phase is %s", t.Name, phaseOf(t))
	}
	return nil
}

func newPauseCommand(o *options, pause bool) *cobra.Command {
	use, short, example := "pause", "Pause a tournament: the clock and every table stop after the hand in progress",
		"  kubectl tournament pause spring-main"
	if !pause {
		use, short, example = "resume", "Resume a paused tournament", "  kubectl tournament resume spring-main"
	}
	return tournamentCommand(o, use, short, example, func(cmd *cobra.Command, c *client, t *pokerv1.Tournament) error {
		if err := requireNotOver(t); err != nil {
			return err
		}
		ctx := cmd.Context()
		if t.Spec.Paused == pause {
			state := "already paused"
			if !pause {
				state = "not paused: `kubectl tournament pause " + t.Name + "` pauses it"
			}
			fmt.Fprintf(o.streams.ErrOut, "Tournament %s is %s; nothing to do.\n", t.Name, state)
			return o.printResult(t, "")
		}
		// A merge patch of spec.paused alone: the manager turns it into the workflow's pause.
		patch := fmt.Appendf(nil, `{"spec":{"paused":%t}}`, pause)
		var got pokerv1.Tournament
		if err := c.mergePatch(ctx, resTournaments, t.Name, patch, &got); err != nil {
			return c.explain(ctx, err, "patch", resTournaments)
		}
		verb := "paused"
		if !pause {
			verb = "resumed"
		}
		return o.printResult(&got, fmt.Sprintf("tournament.%s/%s %s", pokerv1.GroupVersion.Group, got.Name, verb))
	})
}

// printResult prints the object an action wrote: with -o json|yaml the object, else msg.
func (o *options) printResult(obj runtime.Object, msg string) error {
	if !o.tableOutput() {
		return o.printObject(obj, o.streams.Out)
	}
	if msg != "" {
		fmt.Fprintln(o.streams.Out, msg)
	}
	return nil
}

// floorFlags are the flags of every command that creates a FloorAction.
type floorFlags struct {
	reason  string
	wait    bool
	timeout time.Duration
}

func (f *floorFlags) add(cmd *cobra.Command, waitByDefault bool) {
	cmd.Flags().StringVar(&f.reason, "reason", "", "why, in the director's words (recorded with the action, P6)")
	cmd.Flags().BoolVar(&f.wait, "wait", waitByDefault, "wait for the tournament's answer and print it")
	cmd.Flags().DurationVar(&f.timeout, "timeout", defaultWait, "how long --wait waits for the answer")
}

// check says what is wrong with the flags.
func (f *floorFlags) check() error {
	if f.timeout <= 0 {
		return usagef("--timeout %v: want a positive duration such as 2m", f.timeout)
	}
	return nil
}

// floorCommand is the shape of add-time, move, break-table, deal and unregister: parse the
// arguments into a FloorActionSpec, check the tournament's phase, create the FloorAction and,
// with --wait, print the tournament's answer.
func floorCommand(o *options, cmd *cobra.Command, f *floorFlags, gate func(*pokerv1.Tournament) error,
	build func(args []string) (pokerv1.FloorActionSpec, error)) *cobra.Command {
	f.add(cmd, true)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := o.checkOutput(); err != nil {
			return err
		}
		if err := f.check(); err != nil {
			return err
		}
		spec, err := build(args)
		if err != nil {
			return err
		}
		ctx := cmd.Context()
		c, t, err := o.tournament(ctx, args[0], gate)
		if err != nil {
			return err
		}
		spec.Tournament, spec.Reason = t.Name, f.reason
		fa := &pokerv1.FloorAction{
			ObjectMeta: metav1.ObjectMeta{GenerateName: t.Name + "-" + strings.ToLower(string(spec.Action)) + "-", Namespace: c.namespace},
			Spec:       spec,
		}
		var got pokerv1.FloorAction
		return o.submit(ctx, c, f, t.Name, "the "+string(spec.Action), resFloorActions, "flooraction", fa, &got, func() (bool, bool, string) {
			return got.Status.Phase == pokerv1.FloorActionApplied || got.Status.Phase == pokerv1.FloorActionRefused,
				got.Status.Phase == pokerv1.FloorActionRefused, got.Status.Message
		})
	}
	return cmd
}

// tournament reads the Tournament name in the context's namespace and, when gate is given, checks
// it with gate (its phase allows the command); it returns the client that read it.
func (o *options) tournament(ctx context.Context, name string, gate func(*pokerv1.Tournament) error) (*client, *pokerv1.Tournament, error) {
	c, err := o.client()
	if err != nil {
		return nil, nil, err
	}
	t, err := c.tournament(ctx, name)
	if err != nil {
		return nil, nil, err
	}
	if gate != nil {
		if err := gate(t); err != nil {
			return nil, nil, err
		}
	}
	return c, t, nil
}

// record is a director's record: a FloorAction or a Sanction.
type record interface {
	runtime.Object
	metav1.Object
}

// submit creates rec in resource (got receives it) for the tournament and, with --wait, waits
// for the tournament to decide it and prints the answer; a refusal of what (“the sanction”) is
// an error with the tournament's reason. answer reads got: decided, refused, status.message.
func (o *options) submit(ctx context.Context, c *client, f *floorFlags, tournament, what, resource, kind string,
	rec, got record, answer func() (decided, refused bool, message string)) error {
	if err := c.create(ctx, resource, rec, got); err != nil {
		return c.explainWrite(ctx, err, resource)
	}
	ref := fmt.Sprintf("%s.%s/%s", kind, pokerv1.GroupVersion.Group, got.GetName())
	if !f.wait {
		return o.printResult(got, ref+" created")
	}
	if o.tableOutput() {
		fmt.Fprintln(o.streams.Out, ref+" created; waiting for the tournament's answer")
	}
	err := waitFor(ctx, f.timeout, func() (bool, error) {
		if err := c.get(ctx, resource, got.GetName(), got); err != nil {
			return false, c.explain(ctx, err, "get", resource)
		}
		decided, _, _ := answer()
		return decided, nil
	})
	if err != nil {
		return noAnswer(err, ref, c.namespace, f.timeout)
	}
	_, refused, msg := answer()
	if refused {
		if !o.tableOutput() {
			_ = o.printObject(got, o.streams.Out)
		}
		return fmt.Errorf("tournament %s refused %s: %s", tournament, what, msg)
	}
	return o.printResult(got, "Applied: "+msg)
}

// waitFor polls done until it says so, fails, or timeout passes. done reads with the command's
// context, not the poll's: a read cut short by the poll's deadline would fail with the client's
// error instead of saying that the time is up.
func waitFor(ctx context.Context, timeout time.Duration, done func() (bool, error)) error {
	return wait.PollUntilContextTimeout(ctx, pollInterval, timeout, true, func(context.Context) (bool, error) { return done() })
}

// noAnswer explains a --wait that ended without an answer.
func noAnswer(err error, ref, namespace string, timeout time.Duration) error {
	if wait.Interrupted(err) {
		return fmt.Errorf("no answer within %v: %s is still pending; is the pokerfloor manager running? "+
			"(`kubectl get %s -n %s -o yaml` shows it; --timeout waits longer)", timeout, ref, ref, namespace)
	}
	return err
}

// explainWrite is explain for a create, with the API server's validation messages as bad usage:
// they say which value is wrong and what is expected.
func (c *client) explainWrite(ctx context.Context, err error, resource string) error {
	if apierrors.IsInvalid(err) {
		return usageError{err.Error()}
	}
	return c.explain(ctx, err, "create", resource)
}

func atoi32(what, s string, min, max int64) (int32, error) {
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil || n < min || n > max {
		return 0, usagef("%s %q: want a whole number from %d to %d", what, s, min, max)
	}
	return int32(n), nil
}

func newAddTimeCommand(o *options) *cobra.Command {
	var f floorFlags
	cmd := &cobra.Command{
		Use:   "add-time TOURNAMENT SECONDS",
		Short: "Add time to the level or break running (negative seconds take time off)",
		Example: "  kubectl tournament add-time spring-main 300 --reason 'dealer change at table 4'\n" +
			"  kubectl tournament add-time spring-main -- -60",
		Args: exactArgs("TOURNAMENT", "SECONDS"),
	}
	return floorCommand(o, cmd, &f, requirePlaying, func(args []string) (pokerv1.FloorActionSpec, error) {
		s, err := atoi32("SECONDS", args[1], -86400, 86400)
		if err == nil && s == 0 {
			err = usagef("SECONDS is 0: give the seconds to add (negative, after --, to take time off)")
		}
		return pokerv1.FloorActionSpec{Action: pokerv1.FloorAddTime, AddTime: &pokerv1.AddTimeAction{Seconds: s}}, err
	})
}

func newMoveCommand(o *options) *cobra.Command {
	var f floorFlags
	var to, seat int32
	cmd := &cobra.Command{
		Use:     "move TOURNAMENT PLAYER --to TABLE [--seat N]",
		Short:   "Move a player to another table, in the seat rule R3 gives (or the one asked for)",
		Example: "  kubectl tournament move spring-main alice --to 3",
		Args:    exactArgs("TOURNAMENT", "PLAYER"),
	}
	cmd.Flags().Int32Var(&to, "to", 0, "the number of the table the player goes to (required)")
	cmd.Flags().Int32Var(&seat, "seat", 0, "the seat asked for, 1 to 10 (default: the seat R3 gives)")
	return floorCommand(o, cmd, &f, requirePlaying, func(args []string) (pokerv1.FloorActionSpec, error) {
		if to < 1 {
			return pokerv1.FloorActionSpec{}, usagef("--to TABLE is required: the number of the table the player goes to, from 1")
		}
		if seat < 0 || seat > 10 {
			return pokerv1.FloorActionSpec{}, usagef("--seat %d: want a seat from 1 to 10, or leave it out for the seat R3 gives", seat)
		}
		return pokerv1.FloorActionSpec{Action: pokerv1.FloorMove,
			Move: &pokerv1.MoveAction{Player: args[1], ToTable: to, Seat: seat}}, nil
	})
}

func newBreakTableCommand(o *options) *cobra.Command {
	var f floorFlags
	cmd := &cobra.Command{
		Use:     "break-table TOURNAMENT TABLE",
		Short:   "Break a table: its players are reseated by draw (R4)",
		Example: "  kubectl tournament break-table spring-main 7",
		Args:    exactArgs("TOURNAMENT", "TABLE"),
	}
	return floorCommand(o, cmd, &f, requirePlaying, func(args []string) (pokerv1.FloorActionSpec, error) {
		n, err := atoi32("TABLE", args[1], 1, 1<<31-1)
		return pokerv1.FloorActionSpec{Action: pokerv1.FloorBreakTable, BreakTable: &pokerv1.BreakTableAction{Table: n}}, err
	})
}

func newDealCommand(o *options) *cobra.Command {
	var f floorFlags
	var method string
	var leave int64
	cmd := &cobra.Command{
		Use:     "deal TOURNAMENT --method icm|chipChop [--leave-for-winner CENTS]",
		Short:   "Approve a deal the players left agreed on: the prizes shared by ICM or by chip count",
		Example: "  kubectl tournament deal spring-main --method icm --leave-for-winner 50000",
		Args:    exactArgs("TOURNAMENT"),
	}
	cmd.Flags().StringVar(&method, "method", "", "icm (Malmuth-Harville) or chipChop (required)")
	cmd.Flags().Int64Var(&leave, "leave-for-winner", 0, "cents of the prizes left to play for, to the winner")
	return floorCommand(o, cmd, &f, requirePlaying, func(args []string) (pokerv1.FloorActionSpec, error) {
		if method != "icm" && method != "chipChop" {
			return pokerv1.FloorActionSpec{}, usagef("--method %q: want icm or chipChop", method)
		}
		if leave < 0 {
			return pokerv1.FloorActionSpec{}, usagef("--leave-for-winner %d: want cents, 0 or more", leave)
		}
		return pokerv1.FloorActionSpec{Action: pokerv1.FloorDeal,
			Deal: &pokerv1.DealAction{Method: method, LeaveForWinnerCents: leave}}, nil
	})
}

func newUnregisterCommand(o *options) *cobra.Command {
	var f floorFlags
	cmd := &cobra.Command{
		Use:     "unregister TOURNAMENT PLAYER",
		Short:   "Withdraw a player's entry before the start, refunded in full (R1)",
		Example: "  kubectl tournament unregister spring-main bob --reason 'asked at the desk'",
		Args:    exactArgs("TOURNAMENT", "PLAYER"),
	}
	beforeStart := func(t *pokerv1.Tournament) error {
		if err := requireNotOver(t); err != nil {
			return err
		}
		if t.Status.StartedAt != nil || slices.Contains(playingPhases, t.Status.Phase) {
			return fmt.Errorf("tournament %s has started: its phase is %s; an entry can be withdrawn only before the start (R1)", t.Name, phaseOf(t))
		}
		return nil
	}
	return floorCommand(o, cmd, &f, beforeStart, func(args []string) (pokerv1.FloorActionSpec, error) {
		return pokerv1.FloorActionSpec{Action: pokerv1.FloorUnregister, Unregister: &pokerv1.UnregisterAction{Player: args[1]}}, nil
	})
}

func newRemoveNoShowsCommand(o *options) *cobra.Command {
	var f floorFlags
	cmd := &cobra.Command{
		Use:   "remove-no-shows TOURNAMENT [PLAYER...]",
		Short: "Remove players who never sat down, once the no-show time has run (T4)",
		Long: "Remove the players named, or with no name every player whose table has not seen him connect\n" +
			"since he sat there (tables with a human dealer do not know: name the players there).",
		Example: "  kubectl tournament remove-no-shows spring-main gina hal\n  kubectl tournament remove-no-shows spring-main",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 {
				return usagef("remove-no-shows takes the tournament, then the players if you name them; got no argument")
			}
			return nil
		},
	}
	return floorCommand(o, cmd, &f, requirePlaying, func(args []string) (pokerv1.FloorActionSpec, error) {
		players := args[1:]
		for i, p := range players {
			if slices.Contains(players[:i], p) {
				return pokerv1.FloorActionSpec{}, usagef("player %s is named twice", p)
			}
		}
		return pokerv1.FloorActionSpec{Action: pokerv1.FloorRemoveNoShows,
			RemoveNoShows: &pokerv1.RemoveNoShowsAction{Players: players}}, nil
	})
}

func newSanctionCommand(o *options) *cobra.Command {
	var f floorFlags
	var kind, rule string
	var rounds int32
	cmd := &cobra.Command{
		Use:   "sanction TOURNAMENT PLAYER --kind warning|exclusion|disqualification --reason TEXT [--rounds N] [--rule ID]",
		Short: "Give a player a penalty (P1): a warning, an exclusion of 1 to 4 rounds, or disqualification",
		Example: "  kubectl tournament sanction spring-main carol --kind exclusion --rounds 1 --rule P7 --reason 'soft play'\n" +
			"  kubectl tournament sanction spring-main dave --kind warning --reason 'acting out of turn' --rule A14 --wait",
		Args: exactArgs("TOURNAMENT", "PLAYER"),
	}
	f.add(cmd, false)
	cmd.Flags().StringVar(&kind, "kind", "", "warning, exclusion or disqualification (required)")
	cmd.Flags().Int32Var(&rounds, "rounds", 0, "an exclusion's length, 1 to 4 rounds (P1, P2)")
	cmd.Flags().StringVar(&rule, "rule", "", "the rule broken, by its ID in RULES.md (P7, A14, ...)")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := o.checkOutput(); err != nil {
			return err
		}
		k := pokerv1.SanctionKind(kind)
		switch {
		case k != pokerv1.SanctionWarning && k != pokerv1.SanctionExclusion && k != pokerv1.SanctionDisqualification:
			return usagef("--kind %q: want warning, exclusion or disqualification (P1)", kind)
		case k == pokerv1.SanctionExclusion && rounds == 0:
			return usagef("--rounds N is required for an exclusion: 1 to 4 rounds (P1)")
		case k == pokerv1.SanctionExclusion && (rounds < 1 || rounds > 4):
			return usagef("--rounds %d: an exclusion lasts 1 to 4 rounds (P1)", rounds)
		case k != pokerv1.SanctionExclusion && rounds != 0:
			return usagef("--rounds is for an exclusion only, not for a %s (P1)", kind)
		case strings.TrimSpace(f.reason) == "":
			return usagef("--reason is required: a ruling records why (P6)")
		}
		if err := f.check(); err != nil {
			return err
		}
		ctx := cmd.Context()
		c, t, err := o.tournament(ctx, args[0], requireNotOver)
		if err != nil {
			return err
		}
		sc := &pokerv1.Sanction{
			ObjectMeta: metav1.ObjectMeta{GenerateName: t.Name + "-" + string(k) + "-", Namespace: c.namespace},
			Spec: pokerv1.SanctionSpec{Tournament: t.Name, Player: args[1], Kind: k, Rounds: rounds,
				Rule: rule, Reason: f.reason},
		}
		var got pokerv1.Sanction
		return o.submit(ctx, c, &f, t.Name, "the sanction", resSanctions, "sanction", sc, &got, func() (bool, bool, string) {
			return got.Status.Phase == pokerv1.SanctionApplied || got.Status.Phase == pokerv1.SanctionRefused,
				got.Status.Phase == pokerv1.SanctionRefused, got.Status.Message
		})
	}
	return cmd
}
