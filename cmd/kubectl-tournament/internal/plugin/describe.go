package plugin

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// describeTables is how many Tables describe lists.
var describeTables = 50

func newDescribeCommand(o *options) *cobra.Command {
	return tournamentCommand(o, "describe", "Describe a tournament, its tables, conditions and events (as kubectl describe)",
		"  kubectl tournament describe spring-main\n  kubectl tournament describe spring-main -o yaml",
		func(cmd *cobra.Command, c *client, t *pokerv1.Tournament) error {
			if !o.tableOutput() {
				return o.printObject(t, o.streams.Out)
			}
			tables, more, err := c.tables(cmd.Context(), t.Name, describeTables)
			if err != nil {
				return err
			}
			// As kubectl describe: events the user may not read are left out, not an error.
			events, eventsErr := c.events(cmd.Context(), t, "Tournament")
			w := tabwriter.NewWriter(o.streams.Out, 0, 8, 2, ' ', 0)
			describeTournament(w, t, tables, more, events, eventsErr, o.now())
			return w.Flush()
		})
}

// describeTournament writes t in kubectl describe's layout: "Field:<tab>value" lines, sections
// indented by two spaces.
func describeTournament(w io.Writer, t *pokerv1.Tournament, tables []pokerv1.Table, moreTables bool, events []corev1.Event, eventsErr error, now time.Time) {
	line := func(indent int, format string, args ...any) {
		fmt.Fprintf(w, "%*s"+format+"\n", append([]any{indent, ""}, args...)...)
	}
	// table writes rows under the tab-separated columns, each name underlined, or <none>.
	table := func(columns string, rows int, row func(i int)) {
		if rows == 0 {
			line(2, "<none>")
			return
		}
		rule := strings.Split(columns, "\t")
		for i, c := range rule {
			rule[i] = strings.Repeat("-", len(c))
		}
		line(2, "%s", columns)
		line(2, "%s", strings.Join(rule, "\t"))
		for i := range rows {
			row(i)
		}
	}
	spec, s := t.Spec, t.Status
	cur := spec.Currency
	line(0, "Name:\t%s", t.Name)
	line(0, "Namespace:\t%s", t.Namespace)
	if spec.DisplayName != "" {
		line(0, "Display Name:\t%s", spec.DisplayName)
	}
	line(0, "Phase:\t%s", phaseOf(t))
	line(0, "Paused:\t%t", spec.Paused)
	line(0, "Buy-in:\t%s (fee %s)", money(spec.BuyInCents, cur), money(spec.FeeCents, cur))
	if spec.StartingStack > 0 {
		line(0, "Starting Stack:\t%s", chips(spec.StartingStack))
	}
	line(0, "Table Size:\t%d", spec.TableSize)
	if spec.Structure.Name != "" {
		line(0, "Structure:\tbuilt-in %s", spec.Structure.Name)
	} else {
		n := 0
		for _, l := range spec.Structure.Levels {
			if !l.Break {
				n++
			}
		}
		line(0, "Structure:\t%s, %s (kubectl tournament levels %s)", plural(n, "level"), plural(len(spec.Structure.Levels)-n, "break"), t.Name)
	}
	if s.StartedAt != nil {
		line(0, "Started:\t%s", s.StartedAt.UTC().Format(time.RFC3339))
	}
	if s.FinishedAt != nil {
		line(0, "Finished:\t%s", s.FinishedAt.UTC().Format(time.RFC3339))
	}
	if s.Level > 0 {
		v := clock(t, now)
		state := "ends in " + clockTime(time.Duration(v.SecondsLeft)*time.Second)
		if v.Paused {
			state = clockTime(time.Duration(v.SecondsLeft)*time.Second) + " left, paused"
		}
		if s.OnBreak {
			state = "on break before it, " + state
		}
		if v.Blinds != "" && !s.OnBreak {
			state = v.Blinds + ", " + state
		}
		line(0, "Level:\t%d (%s)", s.Level, state)
	}
	line(0, "Players:\t%d left of %d entries (%d registered)", s.PlayersLeft, s.Entries, s.PlayersRegistered)
	line(0, "Tables:\t%d", s.Tables)
	line(0, "Prize Pool:\t%s, %d places paid", money(s.PrizePoolCents, cur), s.PlacesPaid)
	if s.WorkflowID != "" {
		line(0, "Workflow:\t%s", s.WorkflowID)
	}

	line(0, "Standings:")
	table("Place\tPlayer\tChips\tPrize\tBounty", len(s.Standings), func(i int) {
		st := s.Standings[i]
		line(2, "%d\t%s\t%s\t%s\t%s", st.Place, st.Player, chips(st.Chips), money(st.PrizeCents, cur), money(st.BountyCents, cur))
	})

	line(0, "Tables In Play:")
	table("Number\tName\tPlayers\tHand\tIn Hand\tPhase", len(tables), func(i int) {
		tb := tables[i]
		line(2, "%d\t%s\t%d\t%d\t%t\t%s", tb.Spec.Number, tb.Name, tb.Status.Players, tb.Status.HandNumber, tb.Status.InHand, tb.Status.Phase)
	})
	if len(tables) > 0 && moreTables {
		line(2, "... more: kubectl get tables -n %s -l %s=%s", t.Namespace, tournamentLabel, t.Name)
	}

	line(0, "Conditions:")
	table("Type\tStatus\tReason\tMessage", len(s.Conditions), func(i int) {
		c := s.Conditions[i]
		line(2, "%s\t%s\t%s\t%s", c.Type, c.Status, c.Reason, c.Message)
	})

	switch {
	case apierrors.IsForbidden(eventsErr):
		line(0, "Events:\t<not shown: you may not list events in namespace %s>", t.Namespace)
	case eventsErr != nil:
		line(0, "Events:\t<cannot list: %v>", eventsErr)
	case len(events) == 0:
		line(0, "Events:\t<none>")
	default:
		line(0, "Events:")
		table("Type\tReason\tAge\tFrom\tMessage", len(events), func(i int) {
			e := events[i]
			from := e.Source.Component
			if from == "" {
				from = e.ReportingController
			}
			line(2, "%s\t%s\t%s\t%s\t%s", e.Type, e.Reason, age(now, eventTime(e).Time), from, e.Message)
		})
	}
}
