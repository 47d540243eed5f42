package plugin

import (
	"fmt"
	"strings"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/cli-runtime/pkg/printers"
)

// viewAPIVersion marks the documents that standings, levels, clock and results print with -o json
// or yaml: views the plugin computes from a Tournament, not objects the API server stores.
const viewAPIVersion = "kubectl-tournament.pokerfloor.dev/v1alpha1"

func newListCommand(o *options) *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the tournaments of the namespace (-A: of every namespace)",
		Example: "  kubectl tournament list -n poker\n" +
			"  kubectl tournament list -A -o yaml",
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.checkOutput(); err != nil {
				return err
			}
			c, err := o.client()
			if err != nil {
				return err
			}
			var list pokerv1.TournamentList
			if err := c.list(cmd.Context(), resTournaments, o.allNamespaces, &list); err != nil {
				return c.explain(cmd.Context(), err, "list", resTournaments)
			}
			if !o.tableOutput() {
				return o.printObject(&list, o.streams.Out)
			}
			if len(list.Items) == 0 {
				if o.allNamespaces {
					fmt.Fprintln(o.streams.ErrOut, "No tournaments found.")
				} else {
					fmt.Fprintf(o.streams.ErrOut, "No tournaments found in namespace %s.\n", c.namespace)
				}
				return nil
			}
			return o.printTable(tournamentTable(list.Items, o.now()), o.allNamespaces)
		},
	}
}

func tournamentTable(items []pokerv1.Tournament, now time.Time) *metav1.Table {
	t := &metav1.Table{ColumnDefinitions: columns("Name", "Phase", "Level", "Left", "Entries", "Tables",
		"Prize pool", "Paid", "Paused", "Age")}
	for i := range items {
		tm := &items[i]
		s := tm.Status
		t.Rows = append(t.Rows, metav1.TableRow{
			Cells: []any{tm.Name, phaseOf(tm), s.Level, s.PlayersLeft, s.Entries, s.Tables,
				money(s.PrizePoolCents, tm.Spec.Currency), s.PlacesPaid, tm.Spec.Paused,
				age(now, tm.CreationTimestamp.Time)},
			Object: runtime.RawExtension{Object: tm},
		})
	}
	return t
}

func phaseOf(t *pokerv1.Tournament) string {
	if t.Status.Phase == "" {
		return string(pokerv1.TournamentPending)
	}
	return string(t.Status.Phase)
}

func columns(names ...string) []metav1.TableColumnDefinition {
	out := make([]metav1.TableColumnDefinition, len(names))
	for i, n := range names {
		out[i] = metav1.TableColumnDefinition{Name: n, Type: "string"}
	}
	return out
}

// printTable prints t with cli-runtime's table printer, as kubectl get does.
func (o *options) printTable(t *metav1.Table, withNamespace bool) error {
	return printers.NewTablePrinter(printers.PrintOptions{WithNamespace: withNamespace}).PrintObj(t, o.streams.Out)
}

// printView prints a computed view: with -o json|yaml|..., as a document of kind kind.
func (o *options) printView(kind string, view any) error {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&view)
	if err != nil {
		return err
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetAPIVersion(viewAPIVersion)
	u.SetKind(kind)
	return o.printObject(u, o.streams.Out)
}

// tournamentCommand is the shape of the commands about one tournament, their only argument: run
// gets it read, with the client that read it.
func tournamentCommand(o *options, use, short, example string, run func(cmd *cobra.Command, c *client, t *pokerv1.Tournament) error) *cobra.Command {
	return &cobra.Command{
		Use:     use + " TOURNAMENT",
		Short:   short,
		Example: example,
		Args:    exactArgs("TOURNAMENT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.checkOutput(); err != nil {
				return err
			}
			c, t, err := o.tournament(cmd.Context(), args[0], nil)
			if err != nil {
				return err
			}
			return run(cmd, c, t)
		},
	}
}

// standingsView is what standings prints with -o json|yaml.
type standingsView struct {
	Tournament     string             `json:"tournament"`
	Namespace      string             `json:"namespace"`
	Phase          string             `json:"phase"`
	Currency       string             `json:"currency"`
	PlayersLeft    int32              `json:"playersLeft"`
	Entries        int32              `json:"entries"`
	PlacesPaid     int32              `json:"placesPaid"`
	PrizePoolCents int64              `json:"prizePoolCents"`
	Standings      []pokerv1.Standing `json:"standings"`
}

func newStandingsCommand(o *options) *cobra.Command {
	return tournamentCommand(o, "standings", "Show the top of a tournament's standings",
		"  kubectl tournament standings spring-main -n poker",
		func(cmd *cobra.Command, c *client, t *pokerv1.Tournament) error {
			s := t.Status
			if !o.tableOutput() {
				return o.printView("Standings", standingsView{
					Tournament: t.Name, Namespace: t.Namespace, Phase: phaseOf(t), Currency: t.Spec.Currency,
					PlayersLeft: s.PlayersLeft, Entries: s.Entries, PlacesPaid: s.PlacesPaid,
					PrizePoolCents: s.PrizePoolCents, Standings: nonNil(s.Standings),
				})
			}
			if len(s.Standings) == 0 {
				fmt.Fprintf(o.streams.ErrOut, "Tournament %s has no standings yet (phase %s).\n", t.Name, phaseOf(t))
				return nil
			}
			if err := o.printTable(standingsTable(t), false); err != nil {
				return err
			}
			fmt.Fprintf(o.streams.ErrOut, "%d players left of %d entries; %d places paid from a prize pool of %s.\n",
				s.PlayersLeft, s.Entries, s.PlacesPaid, money(s.PrizePoolCents, t.Spec.Currency))
			if len(s.Standings) < int(s.PlayersLeft) || len(s.Standings) == pokerv1.MaxStandings {
				fmt.Fprintf(o.streams.ErrOut, "The Tournament's status holds the top %d places; the manager serves the whole list.\n", len(s.Standings))
			}
			return nil
		})
}

func nonNil(s []pokerv1.Standing) []pokerv1.Standing {
	if s == nil {
		return []pokerv1.Standing{}
	}
	return s
}

func standingsTable(t *pokerv1.Tournament) *metav1.Table {
	tab := &metav1.Table{ColumnDefinitions: columns("Place", "Player", "Chips", "Prize", "Bounty")}
	for _, st := range t.Status.Standings {
		tab.Rows = append(tab.Rows, metav1.TableRow{Cells: []any{
			st.Place, st.Player, chips(st.Chips), money(st.PrizeCents, t.Spec.Currency), money(st.BountyCents, t.Spec.Currency),
		}})
	}
	return tab
}

// resultsView is what results prints with -o json|yaml.
type resultsView struct {
	Tournament     string          `json:"tournament"`
	Namespace      string          `json:"namespace"`
	Currency       string          `json:"currency"`
	Entries        int32           `json:"entries"`
	PrizePoolCents int64           `json:"prizePoolCents"`
	FinishedAt     *metav1.Time    `json:"finishedAt,omitempty"`
	Places         []resultOfPlace `json:"places"`
}

type resultOfPlace struct {
	Place       int32  `json:"place"`
	Player      string `json:"player"`
	PrizeCents  int64  `json:"prizeCents"`
	BountyCents int64  `json:"bountyCents"`
	TotalCents  int64  `json:"totalCents"`
}

func newResultsCommand(o *options) *cobra.Command {
	return tournamentCommand(o, "results", "Show a finished tournament's places and prizes",
		"  kubectl tournament results spring-main -o yaml",
		func(cmd *cobra.Command, c *client, t *pokerv1.Tournament) error {
			if t.Status.Phase != pokerv1.TournamentFinished {
				return fmt.Errorf("tournament %s has no results yet: its phase is %s; "+
					"`kubectl tournament standings %s` shows the standings so far", t.Name, phaseOf(t), t.Name)
			}
			v := resultsView{Tournament: t.Name, Namespace: t.Namespace, Currency: t.Spec.Currency,
				Entries: t.Status.Entries, PrizePoolCents: t.Status.PrizePoolCents, FinishedAt: t.Status.FinishedAt,
				Places: []resultOfPlace{}}
			for _, s := range t.Status.Standings {
				v.Places = append(v.Places, resultOfPlace{Place: s.Place, Player: s.Player, PrizeCents: s.PrizeCents,
					BountyCents: s.BountyCents, TotalCents: s.PrizeCents + s.BountyCents})
			}
			if !o.tableOutput() {
				return o.printView("Results", v)
			}
			tab := &metav1.Table{ColumnDefinitions: columns("Place", "Player", "Prize", "Bounty", "Total")}
			var prizes, bounties int64
			for _, p := range v.Places {
				prizes, bounties = prizes+p.PrizeCents, bounties+p.BountyCents
				tab.Rows = append(tab.Rows, metav1.TableRow{Cells: []any{p.Place, p.Player,
					money(p.PrizeCents, v.Currency), money(p.BountyCents, v.Currency), money(p.TotalCents, v.Currency)}})
			}
			if err := o.printTable(tab, false); err != nil {
				return err
			}
			fmt.Fprintf(o.streams.ErrOut, "%d entries; %s of prizes (prize pool %s) and %s of bounties paid to these %d places.\n",
				v.Entries, money(prizes, v.Currency), money(v.PrizePoolCents, v.Currency), money(bounties, v.Currency), len(v.Places))
			return nil
		})
}

// period is one period of a published schedule: a blind level (numbered from 1) or a break.
type period struct {
	Level   int32 // 0 for a break
	Spec    pokerv1.Level
	Current bool
}

// published is the schedule the tournament plays: status.levels as the manager publishes it (a
// built-in structure's levels too), else spec.structure.levels.
func published(t *pokerv1.Tournament) []pokerv1.Level {
	if len(t.Status.Levels) > 0 {
		return t.Status.Levels
	}
	return t.Spec.Structure.Levels
}

// schedule numbers the levels of the published schedule and marks the period running:
// status.level is the current level (during a break, the level after it).
func schedule(t *pokerv1.Tournament) []period {
	var out []period
	var n int32
	for _, l := range published(t) {
		p := period{Spec: l}
		if !l.Break {
			n++
			p.Level = n
		}
		out = append(out, p)
	}
	s := t.Status
	if s.Level == 0 || s.Phase == pokerv1.TournamentFinished || s.Phase == pokerv1.TournamentFailed {
		return out
	}
	for i := range out {
		if out[i].Level != s.Level {
			continue
		}
		if s.OnBreak && i > 0 && out[i-1].Spec.Break {
			out[i-1].Current = true
		} else {
			out[i].Current = true
		}
		break
	}
	return out
}

// levelsView is what levels prints with -o json|yaml.
type levelsView struct {
	Tournament   string          `json:"tournament"`
	Namespace    string          `json:"namespace"`
	BuiltIn      string          `json:"builtIn,omitempty"`
	CurrentLevel int32           `json:"currentLevel"`
	OnBreak      bool            `json:"onBreak"`
	Levels       []levelOfPeriod `json:"levels"`
}

type levelOfPeriod struct {
	Level      int32   `json:"level,omitempty"`
	Break      bool    `json:"break,omitempty"`
	SmallBlind int64   `json:"smallBlind,omitempty"`
	BigBlind   int64   `json:"bigBlind,omitempty"`
	Ante       int64   `json:"ante,omitempty"`
	Minutes    int32   `json:"minutes"`
	ColorUp    []int64 `json:"colorUp,omitempty"`
	Current    bool    `json:"current,omitempty"`
}

func newLevelsCommand(o *options) *cobra.Command {
	return tournamentCommand(o, "levels", "Show a tournament's blind structure, the level running marked",
		"  kubectl tournament levels spring-main",
		func(cmd *cobra.Command, c *client, t *pokerv1.Tournament) error {
			v := levelsView{Tournament: t.Name, Namespace: t.Namespace, BuiltIn: string(t.Spec.Structure.Name),
				CurrentLevel: t.Status.Level, OnBreak: t.Status.OnBreak, Levels: []levelOfPeriod{}}
			for _, p := range schedule(t) {
				v.Levels = append(v.Levels, levelOfPeriod{Level: p.Level, Break: p.Spec.Break, SmallBlind: p.Spec.SmallBlind,
					BigBlind: p.Spec.BigBlind, Ante: p.Spec.Ante, Minutes: p.Spec.Minutes, ColorUp: p.Spec.ColorUp, Current: p.Current})
			}
			if !o.tableOutput() {
				return o.printView("Levels", v)
			}
			if v.BuiltIn != "" && len(v.Levels) == 0 {
				running := "no level is running yet"
				if t.Status.Level > 0 {
					running = fmt.Sprintf("the level running is %d", t.Status.Level)
				}
				fmt.Fprintf(o.streams.ErrOut, "Tournament %s plays the built-in structure %q: its levels are not in the "+
					"Tournament's spec or status, so they cannot be listed here; %s.\n", t.Name, v.BuiltIn, running)
				return nil
			}
			if v.BuiltIn != "" {
				fmt.Fprintf(o.streams.ErrOut, "Tournament %s plays the built-in structure %q.\n", t.Name, v.BuiltIn)
			}
			tab := &metav1.Table{ColumnDefinitions: columns("Level", "Blinds", "Ante", "Minutes", "Color up", "Now")}
			for _, p := range v.Levels {
				level, sb := fmt.Sprint(p.Level), chips(p.SmallBlind)+"/"+chips(p.BigBlind)
				if p.Break {
					level, sb = "break", "-"
				}
				now := ""
				if p.Current {
					now = "<-"
				}
				tab.Rows = append(tab.Rows, metav1.TableRow{Cells: []any{level, sb, chips(p.Ante), p.Minutes, joinChips(p.ColorUp), now}})
			}
			return o.printTable(tab, false)
		})
}

func joinChips(cs []int64) string {
	if len(cs) == 0 {
		return "-"
	}
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = chips(c)
	}
	return strings.Join(s, ",")
}

// clockView is what clock prints with -o json|yaml.
type clockView struct {
	Tournament  string       `json:"tournament"`
	Namespace   string       `json:"namespace"`
	Phase       string       `json:"phase"`
	Level       int32        `json:"level"`
	OnBreak     bool         `json:"onBreak"`
	Blinds      string       `json:"blinds,omitempty"`
	NextBlinds  string       `json:"nextBlinds,omitempty"`
	NextLevelAt *metav1.Time `json:"nextLevelAt,omitempty"`
	SecondsLeft int64        `json:"secondsLeft"`
	Paused      bool         `json:"paused"`
	PlayersLeft int32        `json:"playersLeft"`
	Entries     int32        `json:"entries"`
	Tables      int32        `json:"tables"`
}

func newClockCommand(o *options) *cobra.Command {
	return tournamentCommand(o, "clock", "Show a tournament's clock: the level, the blinds and the time left",
		"  kubectl tournament clock spring-main",
		func(cmd *cobra.Command, c *client, t *pokerv1.Tournament) error {
			v := clock(t, o.now())
			if !o.tableOutput() {
				return o.printView("Clock", v)
			}
			left := clockTime(time.Duration(v.SecondsLeft) * time.Second)
			if v.Paused {
				left += " (paused)"
			}
			blinds, next := v.Blinds, v.NextBlinds
			if v.OnBreak {
				blinds = "break"
			}
			if t.Spec.Structure.Name != "" && len(t.Status.Levels) == 0 {
				blinds, next = "built-in "+string(t.Spec.Structure.Name), "-"
			}
			tab := &metav1.Table{ColumnDefinitions: columns("Tournament", "Phase", "Level", "Blinds", "Time left", "Next", "Players", "Tables")}
			tab.Rows = append(tab.Rows, metav1.TableRow{Cells: []any{t.Name, v.Phase, v.Level, blinds, left, next,
				fmt.Sprintf("%d/%d", v.PlayersLeft, v.Entries), v.Tables}})
			return o.printTable(tab, false)
		})
}

// clock reads the clock from the status: while it runs, the time to status.nextLevelAt; while it
// is stopped, status.levelSecondsLeft.
func clock(t *pokerv1.Tournament, now time.Time) clockView {
	s := t.Status
	v := clockView{Tournament: t.Name, Namespace: t.Namespace, Phase: phaseOf(t), Level: s.Level, OnBreak: s.OnBreak,
		NextLevelAt: s.NextLevelAt, Paused: s.Phase == pokerv1.TournamentPaused || t.Spec.Paused,
		PlayersLeft: s.PlayersLeft, Entries: s.Entries, Tables: s.Tables}
	switch {
	case s.Phase == pokerv1.TournamentPaused:
		v.SecondsLeft = int64(s.LevelSecondsLeft)
	case s.NextLevelAt != nil:
		if left := s.NextLevelAt.Sub(now); left > 0 {
			v.SecondsLeft = int64(left / time.Second)
		}
	}
	periods := schedule(t)
	for i, p := range periods {
		if !p.Current {
			continue
		}
		v.Blinds = blinds(p.Spec)
		for _, q := range periods[i+1:] {
			if !q.Spec.Break {
				v.NextBlinds = blinds(q.Spec)
				break
			}
		}
		if v.NextBlinds == "" && i+1 < len(periods) {
			v.NextBlinds = "break"
		}
	}
	return v
}
