package plugin

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	crclient "sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"
)

// seed creates the tournaments the tests read, with the status a manager would have written:
// spring-main running at level 2 in nsPoker, autumn-deep registering on a built-in structure in
// nsPoker, and old-final finished in nsOther; three Tables of spring-main and an Event about it.
func seed(t *testing.T, ctx context.Context, c crclient.Client) {
	t.Helper()
	lvl := func(sb, ante int64) pokerv1.Level {
		return pokerv1.Level{SmallBlind: sb, BigBlind: 2 * sb, Ante: ante, Minutes: 20}
	}
	started := metav1.NewTime(time.Now().Add(-30 * time.Minute).Truncate(time.Second))
	spring := &pokerv1.Tournament{
		ObjectMeta: metav1.ObjectMeta{Name: "spring-main", Namespace: nsPoker},
		Spec: pokerv1.TournamentSpec{
			DisplayName: "Spring Main Event", Currency: "EUR", BuyInCents: 2200, FeeCents: 200,
			StartingStack: 10000, TableSize: 9,
			Structure: pokerv1.BlindStructure{Chips: []int64{25, 100, 500}, Levels: []pokerv1.Level{
				lvl(50, 0), lvl(100, 100), {Break: true, Minutes: 10, ColorUp: []int64{25}}, lvl(200, 200), lvl(300, 300),
			}},
		},
	}
	autumn := &pokerv1.Tournament{
		ObjectMeta: metav1.ObjectMeta{Name: "autumn-deep", Namespace: nsPoker},
		Spec: pokerv1.TournamentSpec{Currency: "USD", BuyInCents: 10000, FeeCents: 1000,
			Structure: pokerv1.BlindStructure{Name: pokerv1.StructureDeep}},
	}
	final := &pokerv1.Tournament{
		ObjectMeta: metav1.ObjectMeta{Name: "old-final", Namespace: nsOther},
		Spec: pokerv1.TournamentSpec{Currency: "EUR", BuyInCents: 1100, FeeCents: 100,
			Structure: pokerv1.BlindStructure{Name: pokerv1.StructureTurbo}},
	}
	for _, tm := range []*pokerv1.Tournament{spring, autumn, final} {
		if err := c.Create(ctx, tm); err != nil {
			t.Fatalf("creating Tournament %s: %v", tm.Name, err)
		}
	}
	next := metav1.NewTime(time.Now().Add(12*time.Minute + 30*time.Second))
	spring.Status = pokerv1.TournamentStatus{
		Phase: pokerv1.TournamentRunning, StartedAt: &started, Level: 2, NextLevelAt: &next,
		PlayersRegistered: 110, Entries: 120, PlayersLeft: 87, Tables: 10, PrizePoolCents: 240000, PlacesPaid: 12,
		Standings: []pokerv1.Standing{
			{Place: 1, Player: "alice", Chips: 41250, PrizeCents: 72000},
			{Place: 2, Player: "bob", Chips: 30100, PrizeCents: 43200},
			{Place: 3, Player: "carol", Chips: 2575, PrizeCents: 28800},
		},
		Conditions: []metav1.Condition{{Type: pokerv1.TournamentWorkflowRunning, Status: metav1.ConditionTrue,
			Reason: "Started", Message: "the tournament workflow runs", LastTransitionTime: started}},
	}
	autumn.Status = pokerv1.TournamentStatus{Phase: pokerv1.TournamentRegistering, PlayersRegistered: 4, Entries: 4}
	finished := metav1.NewTime(started.Add(20 * time.Minute))
	final.Status = pokerv1.TournamentStatus{
		Phase: pokerv1.TournamentFinished, StartedAt: &started, FinishedAt: &finished, Level: 9,
		Entries: 18, PrizePoolCents: 18000, PlacesPaid: 2,
		// The built-in turbo's first periods, as the manager publishes the schedule it runs.
		Levels: []pokerv1.Level{lvl(50, 0), lvl(100, 0), {Break: true, Minutes: 5}, lvl(150, 25)},
		Standings: []pokerv1.Standing{
			{Place: 1, Player: "dora", PrizeCents: 12600, BountyCents: 500},
			{Place: 2, Player: "eve", PrizeCents: 5400},
		},
	}
	for _, tm := range []*pokerv1.Tournament{spring, autumn, final} {
		if err := c.Status().Update(ctx, tm); err != nil {
			t.Fatalf("writing the status of %s as the manager would: %v", tm.Name, err)
		}
	}
	for n := int32(1); n <= 3; n++ {
		tb := &pokerv1.Table{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("spring-main-table-%03d", n), Namespace: nsPoker,
				Labels: map[string]string{tournamentLabel: "spring-main"}},
			Spec: pokerv1.TableSpec{Tournament: "spring-main", Number: n, Seats: 9},
		}
		if err := c.Create(ctx, tb); err != nil {
			t.Fatal(err)
		}
		tb.Status = pokerv1.TableStatus{Phase: pokerv1.TableReady, Players: 9, HandNumber: int64(40 + n), InHand: n != 2}
		if err := c.Status().Update(ctx, tb); err != nil {
			t.Fatal(err)
		}
	}
	ev := &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{Name: "spring-main.level", Namespace: nsPoker},
		InvolvedObject: corev1.ObjectReference{Kind: "Tournament", APIVersion: pokerv1.GroupVersion.String(),
			Name: spring.Name, Namespace: nsPoker, UID: spring.UID},
		Type: corev1.EventTypeNormal, Reason: "LevelUp", Message: "level 2 started: blinds 100/200 ante 100",
		Source: corev1.EventSource{Component: "pokerfloor-manager"}, LastTimestamp: metav1.Now(), Count: 1,
	}
	if err := c.Create(ctx, ev); err != nil {
		t.Fatal(err)
	}
}

// playManager plays the manager's part, which does not run in these tests: it answers every
// FloorAction, Sanction and EntryBatch it finds in nsPoker by writing their status as the manager
// would after the workflow's answer. A move to table 3 and a sanction of "ghost" are refused, an
// entry of "late-larry" too; a break of table 99 gets no answer, to see --wait give up.
func playManager(t *testing.T, ctx context.Context, c crclient.Client) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	t.Cleanup(func() { cancel(); wg.Wait() })
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			answerFloorActions(ctx, c)
			answerSanctions(ctx, c)
			answerEntryBatches(ctx, c)
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
}

// answerPending lists the records of list's kind in nsPoker and writes the status of each that
// decide decides (it leaves alone the ones answered already, and those it does not answer).
func answerPending[T any, R interface {
	*T
	crclient.Object
}](ctx context.Context, c crclient.Client, list crclient.ObjectList, items func() []T, decide func(R) bool) {
	if c.List(ctx, list, crclient.InNamespace(nsPoker)) != nil {
		return
	}
	all := items()
	for i := range all {
		if r := R(&all[i]); decide(r) {
			_ = c.Status().Update(ctx, r)
		}
	}
}

func answerFloorActions(ctx context.Context, c crclient.Client) {
	var list pokerv1.FloorActionList
	answerPending(ctx, c, &list, func() []pokerv1.FloorAction { return list.Items }, func(fa *pokerv1.FloorAction) bool {
		if fa.Status.Phase != "" || (fa.Spec.BreakTable != nil && fa.Spec.BreakTable.Table == 99) {
			return false
		}
		now := metav1.Now()
		fa.Status = pokerv1.FloorActionStatus{Phase: pokerv1.FloorActionApplied, DecidedAt: &now,
			IssuedBy: fa.Annotations[pokerv1.IssuedByAnnotation]}
		switch {
		case fa.Spec.AddTime != nil:
			fa.Status.Message = fmt.Sprintf("added %d seconds to level 2", fa.Spec.AddTime.Seconds)
		case fa.Spec.Move != nil && fa.Spec.Move.ToTable == 3:
			fa.Status.Phase = pokerv1.FloorActionRefused
			fa.Status.Message = "table 3 has no seat free: a player moves to a table with fewer players (R3)"
		case fa.Spec.Move != nil:
			fa.Status.Message = fmt.Sprintf("%s moved to table %d seat 4", fa.Spec.Move.Player, fa.Spec.Move.ToTable)
		default:
			fa.Status.Message = string(fa.Spec.Action) + " applied"
		}
		return true
	})
}

func answerSanctions(ctx context.Context, c crclient.Client) {
	var list pokerv1.SanctionList
	answerPending(ctx, c, &list, func() []pokerv1.Sanction { return list.Items }, func(s *pokerv1.Sanction) bool {
		if s.Status.Phase != "" {
			return false
		}
		s.Status = pokerv1.SanctionStatus{Phase: pokerv1.SanctionApplied, Table: 2, StartsAtHand: 43, Hands: 9,
			Message: fmt.Sprintf("%s sits out 9 hands at table 2 from hand 43 (P2)", s.Spec.Player)}
		if s.Spec.Player == "ghost" {
			s.Status = pokerv1.SanctionStatus{Phase: pokerv1.SanctionRefused, Message: "ghost is not in the tournament"}
		}
		return true
	})
}

func answerEntryBatches(ctx context.Context, c crclient.Client) {
	var list pokerv1.EntryBatchList
	answerPending(ctx, c, &list, func() []pokerv1.EntryBatch { return list.Items }, func(b *pokerv1.EntryBatch) bool {
		if b.Status.Phase != "" {
			return false
		}
		b.Status = pokerv1.EntryBatchStatus{Phase: pokerv1.EntryBatchApplied}
		for _, e := range b.Spec.Entries {
			if e.Player == "late-larry" {
				b.Status.Refused = append(b.Status.Refused, pokerv1.RefusedEntry{Player: e.Player, Kind: e.Kind,
					Reason: "re-entries used up (R1)"})
				continue
			}
			b.Status.Accepted++
		}
		if b.Status.RefusedCount = int32(len(b.Status.Refused)); b.Status.RefusedCount > 0 {
			b.Status.Phase = pokerv1.EntryBatchPartlyRefused
		}
		return true
	})
}

// setPhase writes the tournament's phase and the time left on a stopped clock, as the manager
// would.
func setPhase(t *testing.T, ctx context.Context, c crclient.Client, name string, phase pokerv1.TournamentPhase, secondsLeft int32) {
	t.Helper()
	var tm pokerv1.Tournament
	if err := c.Get(ctx, crclient.ObjectKey{Namespace: nsPoker, Name: name}, &tm); err != nil {
		t.Fatal(err)
	}
	tm.Status.Phase, tm.Status.LevelSecondsLeft = phase, secondsLeft
	if err := c.Status().Update(ctx, &tm); err != nil {
		t.Fatalf("writing %s's phase %s as the manager would: %v", name, phase, err)
	}
}

// decode parses the plugin's -o json or -o yaml output.
func decode(t *testing.T, r result, format string) map[string]any {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("-o %s: %v", format, r)
	}
	var m map[string]any
	var err error
	if format == "json" {
		err = json.Unmarshal([]byte(r.stdout), &m)
	} else {
		err = yaml.Unmarshal([]byte(r.stdout), &m)
	}
	if err != nil {
		t.Fatalf("-o %s is not %s: %v\n%s", format, format, err, r.stdout)
	}
	return m
}

// field walks a decoded document: field(m, "items", 0, "metadata", "name").
func field(m any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			mm, _ := m.(map[string]any)
			m = mm[k]
		case int:
			s, _ := m.([]any)
			if k >= len(s) {
				return nil
			}
			m = s[k]
		}
	}
	return m
}

// wantLines checks that the output has a line holding each group of words, in that order on
// the line, whatever the spacing between them: a golden-like check that ignores column widths.
func wantLines(t *testing.T, what, out string, lines ...[]string) {
	t.Helper()
next:
	for _, words := range lines {
		for _, l := range strings.Split(out, "\n") {
			rest, ok := l, true
			for _, w := range words {
				i := strings.Index(rest, w)
				if i < 0 {
					ok = false
					break
				}
				rest = rest[i+len(w):]
			}
			if ok {
				continue next
			}
		}
		t.Errorf("%s: no line with %q in order in:\n%s", what, words, out)
	}
}

func wantFailure(t *testing.T, r result, code int, message string) {
	t.Helper()
	if r.code != code || !strings.Contains(r.stderr, message) {
		t.Errorf("want exit %d and stderr saying %q; got %v", code, message, r)
	}
}

func TestPlugin(t *testing.T) {
	f := startFixture(t)
	ctx := testContext(t)
	seed(t, ctx, f.admin)
	playManager(t, ctx, f.admin)
	// RBAC learns of the bindings from a watch: wait until both users are known.
	if r := f.runAs(t, "--context", userDirector, "list"); r.code != 0 {
		t.Fatalf("the director cannot list tournaments: %v", r)
	}
	if r := f.runAs(t, "--context", userViewer, "list"); r.code != 0 {
		t.Fatalf("the viewer cannot list tournaments: %v", r)
	}

	t.Run("List", func(t *testing.T) {
		r := f.run(t, "", "list")
		if r.code != 0 {
			t.Fatal(r)
		}
		wantLines(t, "list", r.stdout,
			[]string{"NAME", "PHASE", "LEVEL", "LEFT", "ENTRIES", "TABLES", "PRIZE POOL", "PAID", "PAUSED", "AGE"},
			[]string{"spring-main", "Running", "2", "87", "120", "10", "2,400.00 EUR", "12", "false"},
			[]string{"autumn-deep", "Registering", "0", "0", "4", "0", "0.00 USD"})
		if strings.Contains(r.stdout, "old-final") || strings.Contains(r.stdout, "NAMESPACE") {
			t.Errorf("list without -A shows another namespace:\n%s", r.stdout)
		}
		for _, format := range []string{"json", "yaml"} {
			m := decode(t, f.run(t, "", "list", "-o", format), format)
			if field(m, "kind") != "TournamentList" || field(m, "apiVersion") != "poker.pokerfloor.dev/v1alpha1" {
				t.Errorf("-o %s: kind %v apiVersion %v, want a TournamentList", format, field(m, "kind"), field(m, "apiVersion"))
			}
			pools, phases := map[any]any{}, map[any]any{}
			for i := range 2 {
				name := field(m, "items", i, "metadata", "name")
				pools[name], phases[name] = field(m, "items", i, "status", "prizePoolCents"), field(m, "items", i, "status", "phase")
			}
			if len(field(m, "items").([]any)) != 2 || pools["spring-main"] != float64(240000) || phases["autumn-deep"] != "Registering" {
				t.Errorf("-o %s: pools %v phases %v, want spring-main (prize pool 240000) and autumn-deep (Registering)", format, pools, phases)
			}
		}
	})
	t.Run("ListNamespaces", func(t *testing.T) {
		r := f.run(t, "", "list", "-A")
		wantLines(t, "list -A", r.stdout,
			[]string{"NAMESPACE", "NAME", "PHASE"},
			[]string{nsOther, "old-final", "Finished", "9"},
			[]string{nsPoker, "spring-main", "Running"})
		r = f.run(t, "", "list", "-n", nsOther)
		wantLines(t, "list -n other", r.stdout, []string{"old-final", "Finished"})
		if strings.Contains(r.stdout, "spring-main") {
			t.Errorf("list -n %s shows %s's tournaments:\n%s", nsOther, nsPoker, r.stdout)
		}
		r = f.run(t, "", "--context", ctxAdminOther, "list", "-o", "name")
		if r.code != 0 || strings.TrimSpace(r.stdout) != "tournament.poker.pokerfloor.dev/old-final" {
			t.Errorf("--context %s (namespace %s) list -o name: %v", ctxAdminOther, nsOther, r)
		}
		r = f.run(t, "", "--context", ctxAdminOther, "-n", nsPoker, "list", "-o", "name")
		if !strings.Contains(r.stdout, "tournament.poker.pokerfloor.dev/spring-main") {
			t.Errorf("-n overrides the context's namespace: %v", r)
		}
		r = f.run(t, "", "--context", "no-such-context", "list")
		wantFailure(t, r, 1, `context "no-such-context" does not exist`)
	})

	t.Run("Describe", func(t *testing.T) {
		r := f.run(t, "", "describe", "spring-main")
		if r.code != 0 {
			t.Fatal(r)
		}
		wantLines(t, "describe", r.stdout,
			[]string{"Name:", "spring-main"},
			[]string{"Namespace:", nsPoker},
			[]string{"Display Name:", "Spring Main Event"},
			[]string{"Phase:", "Running"},
			[]string{"Buy-in:", "22.00 EUR (fee 2.00 EUR)"},
			[]string{"Structure:", "4 levels, 1 break (kubectl tournament levels spring-main)"},
			[]string{"Level:", "2 (100/200 ante 100, ends in 1"},
			[]string{"Players:", "87 left of 120 entries (110 registered)"},
			[]string{"Prize Pool:", "2,400.00 EUR, 12 places paid"},
			[]string{"1", "alice", "41,250", "720.00 EUR"},
			[]string{"Tables In Play:"},
			[]string{"Number", "Name", "Players", "Hand", "In Hand", "Phase"},
			[]string{"------ ", "---- ", "------- ", "---- ", "------- ", "-----"},
			[]string{"1", "spring-main-table-001", "9", "41", "true", "Ready"},
			[]string{"2", "spring-main-table-002", "9", "42", "false", "Ready"},
			[]string{"3", "spring-main-table-003", "9", "43", "true", "Ready"},
			[]string{"WorkflowRunning", "True", "Started", "the tournament workflow runs"},
			[]string{"Normal", "LevelUp", "pokerfloor-manager", "level 2 started: blinds 100/200 ante 100"})
		if strings.Contains(r.stdout, "... more") {
			t.Errorf("describe says there are more than the 3 tables:\n%s", r.stdout)
		}
		// A large event's tables do not all fit: describe lists the first and says where the rest are.
		defer func(n int) { describeTables = n }(describeTables)
		describeTables = 2
		r = f.run(t, "", "describe", "spring-main")
		wantLines(t, "describe of more tables than it lists", r.stdout,
			[]string{"2", "spring-main-table-002"},
			[]string{"... more: kubectl get tables -n poker -l poker.pokerfloor.dev/tournament=spring-main"})
		if strings.Contains(r.stdout, "spring-main-table-003") {
			t.Errorf("describe listed more than %d tables:\n%s", describeTables, r.stdout)
		}
		for _, format := range []string{"json", "yaml"} {
			m := decode(t, f.run(t, "", "describe", "spring-main", "-o", format), format)
			if field(m, "kind") != "Tournament" || field(m, "spec", "displayName") != "Spring Main Event" ||
				field(m, "status", "standings", 0, "player") != "alice" {
				t.Errorf("describe -o %s: %v", format, m)
			}
		}
		// The viewer may not read events: describe leaves them out and still succeeds.
		r = f.run(t, "", "--context", userViewer, "describe", "spring-main")
		wantLines(t, "describe as the viewer", r.stdout, []string{"Name:", "spring-main"}, []string{"Events:", "<not shown: you may not list events in namespace poker>"})
	})

	t.Run("NotFound", func(t *testing.T) {
		r := f.run(t, "", "standings", "sprng-main")
		wantFailure(t, r, 1, `tournament "sprng-main" not found in namespace "poker"; the tournaments there are: autumn-deep, spring-main`)
		r = f.run(t, "", "clock", "x", "-n", "default")
		wantFailure(t, r, 1, `namespace "default", which has no tournaments`)
	})

	t.Run("Standings", func(t *testing.T) {
		r := f.run(t, "", "standings", "spring-main")
		wantLines(t, "standings", r.stdout,
			[]string{"PLACE", "PLAYER", "CHIPS", "PRIZE", "BOUNTY"},
			[]string{"1", "alice", "41,250", "720.00 EUR", "0.00 EUR"},
			[]string{"3", "carol", "2,575", "288.00 EUR"})
		wantLines(t, "standings' note", r.stderr, []string{"87 players left of 120 entries; 12 places paid", "2,400.00 EUR"},
			[]string{"top 3 places; the manager serves the whole list"})
		for _, format := range []string{"json", "yaml"} {
			m := decode(t, f.run(t, "", "standings", "spring-main", "-o", format), format)
			if field(m, "kind") != "Standings" || field(m, "apiVersion") != viewAPIVersion ||
				field(m, "standings", 1, "player") != "bob" || field(m, "standings", 1, "chips") != float64(30100) ||
				field(m, "playersLeft") != float64(87) || field(m, "currency") != "EUR" {
				t.Errorf("standings -o %s: %v", format, m)
			}
		}
	})

	t.Run("Levels", func(t *testing.T) {
		r := f.run(t, "", "levels", "spring-main")
		wantLines(t, "levels", r.stdout,
			[]string{"LEVEL", "BLINDS", "ANTE", "MINUTES", "COLOR UP", "NOW"},
			[]string{"1", "50/100", "0", "20", "-"},
			[]string{"2", "100/200", "100", "20", "-", "<-"},
			[]string{"break", "-", "0", "10", "25"},
			[]string{"4", "300/600", "300", "20"})
		if strings.Count(r.stdout, "<-") != 1 {
			t.Errorf("levels marks %d periods as running, want 1:\n%s", strings.Count(r.stdout, "<-"), r.stdout)
		}
		for _, format := range []string{"json", "yaml"} {
			m := decode(t, f.run(t, "", "levels", "spring-main", "-o", format), format)
			if field(m, "kind") != "Levels" || field(m, "levels", 1, "current") != true || field(m, "levels", 2, "break") != true ||
				field(m, "levels", 3, "level") != float64(3) || field(m, "levels", 3, "bigBlind") != float64(400) {
				t.Errorf("levels -o %s: %v", format, m)
			}
		}
		r = f.run(t, "", "levels", "autumn-deep")
		if r.code != 0 || !strings.Contains(r.stderr, `plays the built-in structure "deep": its levels are not in the Tournament's spec or status, so they cannot be listed here; no level is running yet`) {
			t.Errorf("levels of a built-in structure: %v", r)
		}
		m := decode(t, f.run(t, "", "levels", "autumn-deep", "-o", "json"), "json")
		if field(m, "builtIn") != "deep" || len(field(m, "levels").([]any)) != 0 {
			t.Errorf("levels -o json of a built-in structure: %v", m)
		}
		// A built-in structure whose levels the manager published in status.levels.
		r = f.run(t, "", "levels", "old-final", "-n", nsOther)
		wantLines(t, "levels of a published built-in structure", r.stdout,
			[]string{"LEVEL", "BLINDS", "ANTE", "MINUTES"},
			[]string{"1", "50/100", "0", "20"},
			[]string{"break", "-", "0", "5"},
			[]string{"3", "150/300", "25", "20"})
		if !strings.Contains(r.stderr, `built-in structure "turbo"`) {
			t.Errorf("levels of a published built-in structure does not name it: %v", r)
		}
	})

	t.Run("Clock", func(t *testing.T) {
		r := f.run(t, "", "clock", "spring-main")
		wantLines(t, "clock", r.stdout,
			[]string{"TOURNAMENT", "PHASE", "LEVEL", "BLINDS", "TIME LEFT", "NEXT", "PLAYERS", "TABLES"},
			[]string{"spring-main", "Running", "2", "100/200 ante 100", ":", "200/400 ante 200", "87/120", "10"})
		for _, format := range []string{"json", "yaml"} {
			m := decode(t, f.run(t, "", "clock", "spring-main", "-o", format), format)
			// status.nextLevelAt is 12m30s after the seed: the time left is at most that, and a
			// slow machine only makes it less (the check has no lower bound but zero).
			left, _ := field(m, "secondsLeft").(float64)
			if field(m, "kind") != "Clock" || left <= 0 || left > 750 || field(m, "blinds") != "100/200 ante 100" || field(m, "paused") != false {
				t.Errorf("clock -o %s: %v", format, m)
			}
		}
	})

	t.Run("Results", func(t *testing.T) {
		r := f.run(t, "", "results", "old-final", "-n", nsOther)
		wantLines(t, "results", r.stdout,
			[]string{"PLACE", "PLAYER", "PRIZE", "BOUNTY", "TOTAL"},
			[]string{"1", "dora", "126.00 EUR", "5.00 EUR", "131.00 EUR"},
			[]string{"2", "eve", "54.00 EUR", "0.00 EUR", "54.00 EUR"})
		wantLines(t, "results' note", r.stderr, []string{"18 entries; 180.00 EUR of prizes (prize pool 180.00 EUR) and 5.00 EUR of bounties paid to these 2 places."})
		for _, format := range []string{"json", "yaml"} {
			m := decode(t, f.run(t, "", "results", "old-final", "-n", nsOther, "-o", format), format)
			if field(m, "kind") != "Results" || field(m, "places", 0, "totalCents") != float64(13100) || field(m, "places", 1, "player") != "eve" {
				t.Errorf("results -o %s: %v", format, m)
			}
		}
		wantFailure(t, f.run(t, "", "results", "spring-main"), 1,
			"tournament spring-main has no results yet: its phase is Running; `kubectl tournament standings spring-main` shows the standings so far")
	})

	t.Run("PauseResume", func(t *testing.T) {
		paused := func() bool {
			var tm pokerv1.Tournament
			if err := f.admin.Get(ctx, crclient.ObjectKey{Namespace: nsPoker, Name: "spring-main"}, &tm); err != nil {
				t.Fatal(err)
			}
			return tm.Spec.Paused
		}
		r := f.run(t, "", "--context", userDirector, "pause", "spring-main")
		if r.code != 0 || !strings.Contains(r.stdout, "tournament.poker.pokerfloor.dev/spring-main paused") || !paused() {
			t.Fatalf("pause: %v (spec.paused %v)", r, paused())
		}
		r = f.run(t, "", "--context", userDirector, "pause", "spring-main")
		if r.code != 0 || !strings.Contains(r.stderr, "already paused; nothing to do") {
			t.Errorf("pausing twice: %v", r)
		}
		m := decode(t, f.run(t, "", "--context", userDirector, "resume", "spring-main", "-o", "json"), "json")
		if field(m, "kind") != "Tournament" || field(m, "spec", "paused") == true || paused() {
			t.Errorf("resume -o json: %v (spec.paused %v)", m, paused())
		}
		m = decode(t, f.run(t, "", "--context", userDirector, "pause", "spring-main", "-o", "yaml"), "yaml")
		if field(m, "spec", "paused") != true || !paused() {
			t.Errorf("pause -o yaml: %v", m)
		}

		// The manager would stop the clock and record the time left: the clock shows that time.
		setPhase(t, ctx, f.admin, "spring-main", pokerv1.TournamentPaused, 437)
		wantLines(t, "clock while paused", f.run(t, "", "clock", "spring-main").stdout,
			[]string{"spring-main", "Paused", "2", "100/200 ante 100", "7:17 (paused)", "200/400 ante 200"})
		m = decode(t, f.run(t, "", "clock", "spring-main", "-o", "json"), "json")
		if field(m, "secondsLeft") != float64(437) || field(m, "paused") != true {
			t.Errorf("clock -o json while paused: %v", m)
		}
		if r := f.run(t, "", "--context", userDirector, "resume", "spring-main"); r.code != 0 || paused() {
			t.Errorf("resume: %v", r)
		}
		setPhase(t, ctx, f.admin, "spring-main", pokerv1.TournamentRunning, 0)
		wantFailure(t, f.run(t, "", "pause", "old-final", "-n", nsOther), 1, "tournament old-final is not running: its phase is Finished")
	})

	t.Run("AllNamespacesIsForListOnly", func(t *testing.T) {
		wantFailure(t, f.run(t, "", "standings", "spring-main", "-A"), 2, "-A (--all-namespaces) is for list only")
	})

	t.Run("RBACRefusals", func(t *testing.T) {
		wantFailure(t, f.run(t, "", "--context", userViewer, "pause", "spring-main"), 1,
			"you (user viewer-vic) may not patch tournaments in namespace poker: ask for the pokerfloor director role")
		wantFailure(t, f.run(t, "", "--context", userNobody, "add-time", "spring-main", "60"), 1,
			"you (user nobody-ned) may not get tournaments in namespace poker: ask for the pokerfloor-viewer role")
		wantFailure(t, f.run(t, "", "--context", userNobody, "list"), 1,
			"you (user nobody-ned) may not list tournaments in namespace poker")
		wantFailure(t, f.run(t, "", "--context", userDirector, "list", "-A"), 1,
			"you (user floor-ann) may not list tournaments in every namespace (-A): ask for the pokerfloor-viewer role (or pokerfloor-director) bound by a ClusterRoleBinding (config/rbac), or leave out -A to list those of namespace poker")
		wantFailure(t, f.run(t, "", "--context", userViewer, "add-time", "spring-main", "60"), 1,
			"you (user viewer-vic) may not create flooractions in namespace poker: ask for the pokerfloor director role (pokerfloor-director), bound in this namespace (config/rbac)")
		wantFailure(t, f.run(t, "", "--context", userViewer, "sanction", "spring-main", "bob", "--kind", "warning", "--reason", "x"), 1,
			"you (user viewer-vic) may not create sanctions in namespace poker: ask for the pokerfloor director role")
	})

	t.Run("AddTime", func(t *testing.T) {
		r := f.run(t, "", "--context", userDirector, "add-time", "spring-main", "300", "--reason", "dealer change")
		if r.code != 0 {
			t.Fatal(r)
		}
		wantLines(t, "add-time", r.stdout,
			[]string{"flooraction.poker.pokerfloor.dev/spring-main-addtime-", "created; waiting"},
			[]string{"Applied: added 300 seconds to level 2"})
		for _, format := range []string{"json", "yaml"} {
			m := decode(t, f.run(t, "", "--context", userDirector, "add-time", "spring-main", "-o", format, "--", "-60"), format)
			if field(m, "kind") != "FloorAction" || field(m, "spec", "action") != "addTime" ||
				field(m, "spec", "addTime", "seconds") != float64(-60) || field(m, "status", "phase") != "Applied" {
				t.Errorf("add-time -o %s: %v", format, m)
			}
		}
		wantFailure(t, f.run(t, "", "add-time", "spring-main", "0"), 2, "SECONDS is 0")
		wantFailure(t, f.run(t, "", "add-time", "spring-main", "five"), 2, `SECONDS "five": want a whole number from -86400 to 86400`)
		wantFailure(t, f.run(t, "", "add-time", "autumn-deep", "60"), 1, "tournament autumn-deep is not running: its phase is Registering")
	})

	t.Run("Move", func(t *testing.T) {
		r := f.run(t, "", "--context", userDirector, "move", "spring-main", "alice", "--to", "2")
		wantLines(t, "move", r.stdout, []string{"Applied: alice moved to table 2 seat 4"})
		r = f.run(t, "", "--context", userDirector, "move", "spring-main", "alice", "--to", "3", "-o", "json")
		wantFailure(t, r, 1, "tournament spring-main refused the move: table 3 has no seat free: a player moves to a table with fewer players (R3)")
		if m := decode(t, result{stdout: r.stdout}, "json"); field(m, "status", "phase") != "Refused" || field(m, "spec", "move", "toTable") != float64(3) {
			t.Errorf("a refused move -o json: %v", m)
		}
		wantFailure(t, f.run(t, "", "move", "spring-main", "alice"), 2, "--to TABLE is required")
		wantFailure(t, f.run(t, "", "move", "spring-main", "alice", "--to", "2", "--seat", "11"), 2, "--seat 11: want a seat from 1 to 10")
		wantFailure(t, f.run(t, "", "move", "spring-main", "al ice", "--to", "2"), 2, "spec.move.player")
	})

	t.Run("BreakTableDealUnregister", func(t *testing.T) {
		r := f.run(t, "", "--context", userDirector, "break-table", "spring-main", "2", "-o", "yaml")
		if m := decode(t, r, "yaml"); field(m, "spec", "breakTable", "table") != float64(2) || field(m, "status", "message") != "breakTable applied" {
			t.Errorf("break-table -o yaml: %v", m)
		}
		r = f.run(t, "", "--context", userDirector, "break-table", "spring-main", "2", "--wait=false")
		wantLines(t, "break-table --wait=false", r.stdout, []string{"flooraction.poker.pokerfloor.dev/spring-main-breaktable-", "created"})
		if strings.Contains(r.stdout, "Applied") {
			t.Errorf("--wait=false waited: %v", r)
		}
		// Nobody answers a break of table 99: --wait gives up after --timeout and says what to look at.
		wantFailure(t, f.run(t, "", "break-table", "spring-main", "99", "--timeout", "2s"), 1,
			"no answer within 2s: flooraction.poker.pokerfloor.dev/spring-main-breaktable-")
		r = f.run(t, "", "--context", userDirector, "deal", "spring-main", "--method", "icm", "--leave-for-winner", "50000", "-o", "json")
		if m := decode(t, r, "json"); field(m, "spec", "deal", "method") != "icm" || field(m, "spec", "deal", "leaveForWinnerCents") != float64(50000) {
			t.Errorf("deal -o json: %v", m)
		}
		wantFailure(t, f.run(t, "", "deal", "spring-main", "--method", "even"), 2, `--method "even": want icm or chipChop`)
		r = f.run(t, "", "--context", userDirector, "remove-no-shows", "spring-main", "gina", "hal", "-o", "json")
		if m := decode(t, r, "json"); field(m, "spec", "action") != "removeNoShows" || field(m, "spec", "removeNoShows", "players", 1) != "hal" {
			t.Errorf("remove-no-shows -o json: %v", m)
		}
		r = f.run(t, "", "--context", userDirector, "remove-no-shows", "spring-main", "-o", "json")
		if m := decode(t, r, "json"); field(m, "spec", "action") != "removeNoShows" || field(m, "spec", "removeNoShows", "players") != nil {
			t.Errorf("remove-no-shows with no name -o json: %v (want no players: the tables say who)", m)
		}
		wantFailure(t, f.run(t, "", "remove-no-shows"), 2, "takes the tournament")
		wantFailure(t, f.run(t, "", "unregister", "spring-main", "bob"), 1,
			"tournament spring-main has started: its phase is Running; an entry can be withdrawn only before the start (R1)")
		r = f.run(t, "", "--context", userDirector, "unregister", "autumn-deep", "bob")
		wantLines(t, "unregister", r.stdout, []string{"Applied: unregister applied"})
	})

	t.Run("Sanction", func(t *testing.T) {
		r := f.run(t, "", "--context", userDirector, "sanction", "spring-main", "carol", "--kind", "exclusion",
			"--rounds", "1", "--rule", "P7", "--reason", "soft play", "--wait")
		wantLines(t, "sanction", r.stdout, []string{"sanction.poker.pokerfloor.dev/spring-main-exclusion-", "created"},
			[]string{"Applied: carol sits out 9 hands at table 2 from hand 43 (P2)"})
		for _, format := range []string{"json", "yaml"} {
			m := decode(t, f.run(t, "", "--context", userDirector, "sanction", "spring-main", "dave", "--kind", "warning",
				"--rule", "A14", "--reason", "acting out of turn", "-o", format), format)
			if field(m, "kind") != "Sanction" || field(m, "spec", "player") != "dave" || field(m, "spec", "rule") != "A14" {
				t.Errorf("sanction -o %s: %v", format, m)
			}
		}
		wantFailure(t, f.run(t, "", "--context", userDirector, "sanction", "spring-main", "ghost", "--kind", "warning",
			"--reason", "x", "--wait"), 1, "tournament spring-main refused the sanction: ghost is not in the tournament")
		wantFailure(t, f.run(t, "", "sanction", "spring-main", "carol", "--kind", "exclusion", "--reason", "x"), 2,
			"--rounds N is required for an exclusion: 1 to 4 rounds (P1)")
		wantFailure(t, f.run(t, "", "sanction", "spring-main", "carol", "--kind", "exclusion", "--rounds", "5", "--reason", "x"), 2,
			"--rounds 5: an exclusion lasts 1 to 4 rounds (P1)")
		wantFailure(t, f.run(t, "", "sanction", "spring-main", "carol", "--kind", "warning", "--rounds", "1", "--reason", "x"), 2,
			"--rounds is for an exclusion only, not for a warning (P1)")
		wantFailure(t, f.run(t, "", "sanction", "spring-main", "carol", "--kind", "scolding", "--reason", "x"), 2,
			`--kind "scolding": want warning, exclusion or disqualification`)
		wantFailure(t, f.run(t, "", "sanction", "spring-main", "carol", "--kind", "warning"), 2, "--reason is required")
	})

	t.Run("Register", func(t *testing.T) {
		var csv strings.Builder
		csv.WriteString("player,kind,displayName\n")
		for i := range 1500 {
			fmt.Fprintf(&csv, "p%04d,,Player %d\n", i, i)
		}
		csv.WriteString("late-larry,reEntry,Larry\n")
		path := writeFile(t, "entries.csv", csv.String())
		r := f.run(t, "", "--context", userDirector, "register", "spring-main", "-f", path, "--wait")
		wantFailure(t, r, 1, "1 of 1501 entries were refused")
		wantLines(t, "register", r.stdout,
			[]string{"entrybatch.poker.pokerfloor.dev/spring-main-entries-", "created (1000 entries)"},
			[]string{"entrybatch.poker.pokerfloor.dev/spring-main-entries-", "created (501 entries)"},
			[]string{"1500 entries registered, 1 refused"})
		wantLines(t, "register's refusals", r.stderr, []string{"refused: late-larry (reEntry): re-entries used up (R1)"})

		// The same file again registers nobody twice: the batches have the same names.
		r = f.run(t, "", "--context", userDirector, "register", "spring-main", "-f", path, "-o", "json")
		m := decode(t, r, "json")
		if field(m, "kind") != "EntryBatchList" || len(field(m, "items").([]any)) != 2 ||
			field(m, "items", 0, "spec", "entries", 0, "player") != "p0000" || field(m, "items", 0, "spec", "entries", 0, "kind") != "entry" {
			t.Errorf("register -o json: %v", m)
		}
		var batches pokerv1.EntryBatchList
		if err := f.admin.List(ctx, &batches, crclient.InNamespace(nsPoker)); err != nil {
			t.Fatal(err)
		}
		entries := 0
		for _, b := range batches.Items {
			entries += len(b.Spec.Entries)
		}
		if len(batches.Items) != 2 || entries != 1501 {
			t.Errorf("after registering the file twice: %d batches of %d entries, want 2 of 1501", len(batches.Items), entries)
		}
		wantFailure(t, f.run(t, "", "register", "spring-main", "-f", "-"), 2, "- is empty: want a header line player,kind,displayName")
		r = f.run(t, csv.String(), "--context", userDirector, "register", "spring-main", "-f", "-")
		wantLines(t, "register from stdin again", r.stdout, []string{"already registered, unchanged (1000 entries)"},
			[]string{"already registered, unchanged (501 entries)"})

		// A file changed in one line would register the rest of that line's batch again: refused,
		// unless --allow-repeat says it is meant (a second rebuy).
		grown := writeFile(t, "grown.csv", csv.String()+"newcomer,entry,New\n")
		wantFailure(t, f.run(t, "", "--context", userDirector, "register", "spring-main", "-f", grown), 1,
			"501 entries of this file are already in EntryBatches of spring-main: p1000 (entry) in spring-main-entries-")
		rebuy := writeFile(t, "rebuy.csv", "player,kind\np0001,rebuy\n")
		if r := f.run(t, "", "--context", userDirector, "register", "spring-main", "-f", rebuy); r.code != 0 {
			t.Errorf("a first rebuy: %v", r)
		}
		rebuy2 := writeFile(t, "rebuy2.csv", "player,kind,displayName\np0001,rebuy,again\n")
		wantFailure(t, f.run(t, "", "--context", userDirector, "register", "spring-main", "-f", rebuy2), 1,
			"1 entry of this file is already in EntryBatches of spring-main: p0001 (rebuy) in spring-main-entries-")
		if r := f.run(t, "", "--context", userDirector, "register", "spring-main", "-f", rebuy2, "--allow-repeat"); r.code != 0 {
			t.Errorf("a second rebuy with --allow-repeat: %v", r)
		}

		bad := writeFile(t, "bad.csv", "player,kind\nann,entry\nbob,rebuyy\n,entry\nann,entry\n")
		wantFailure(t, f.run(t, "", "register", "spring-main", "-f", bad), 2,
			`line 3: kind "rebuyy": want entry, reEntry, rebuy or addOn`)
		wantFailure(t, f.run(t, "", "--context", userViewer, "register", "spring-main", "-f", path), 1,
			"you (user viewer-vic) may not create entrybatches in namespace poker: ask for the pokerfloor-registrar role (or pokerfloor-director)")
	})

	// Every command that writes, in every format: the table says what was written and the answer,
	// json and yaml give the object written with the manager's answer in its status.
	t.Run("EveryWriteInEveryFormat", func(t *testing.T) {
		entries := writeFile(t, "one.csv", "player\nivan\n")
		writes := []struct {
			kind, table string
			args        []string
		}{
			{"Tournament", "spring-main paused", []string{"pause", "spring-main"}},
			{"Tournament", "spring-main resumed", []string{"resume", "spring-main"}},
			{"FloorAction", "Applied: added 30 seconds", []string{"add-time", "spring-main", "30"}},
			{"FloorAction", "Applied: bob moved to table 1 seat 4", []string{"move", "spring-main", "bob", "--to", "1"}},
			{"FloorAction", "Applied: breakTable applied", []string{"break-table", "spring-main", "1"}},
			{"FloorAction", "Applied: deal applied", []string{"deal", "spring-main", "--method", "chipChop"}},
			{"FloorAction", "Applied: unregister applied", []string{"unregister", "autumn-deep", "carl"}},
			{"FloorAction", "Applied: removeNoShows applied", []string{"remove-no-shows", "spring-main", "hal"}},
			{"Sanction", "Applied: erin sits out", []string{"sanction", "spring-main", "erin", "--kind", "warning", "--reason", "x", "--wait"}},
			{"EntryBatchList", "1 entry registered, 0 refused", []string{"register", "spring-main", "-f", entries, "--wait", "--allow-repeat"}},
		}
		for _, w := range writes {
			for _, format := range []string{"table", "json", "yaml"} {
				args := append([]string{"--context", userDirector, "-o", format}, w.args...)
				r := f.run(t, "", args...)
				if format == "table" {
					if r.code != 0 || !strings.Contains(r.stdout, w.table) {
						t.Errorf("%s: want %q; got %v", strings.Join(w.args, " "), w.table, r)
					}
					continue
				}
				m := decode(t, r, format)
				phase := field(m, "status", "phase")
				if w.kind == "EntryBatchList" {
					phase = field(m, "items", 0, "status", "phase")
				}
				if field(m, "kind") != w.kind || (w.kind != "Tournament" && phase != "Applied") {
					t.Errorf("%s -o %s: kind %v phase %v, want %s Applied", strings.Join(w.args, " "), format, field(m, "kind"), phase, w.kind)
				}
			}
		}
	})

	t.Run("Usage", func(t *testing.T) {
		wantFailure(t, f.run(t, "", "standings"), 2, "standings takes 1 argument(s), TOURNAMENT; got 0")
		wantFailure(t, f.run(t, "", "standings", "spring-main", "-o", "xml"), 2, "-o xml: want table, json, yaml")
		wantFailure(t, f.run(t, "", "standings", "spring-main", "--nope"), 2, "unknown flag: --nope")
	})
}
