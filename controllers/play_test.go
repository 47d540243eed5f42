package controllers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/bot"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/tableserver"
	"github.com/pokerfloor/pokerfloor/workflows"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestPlayerFollowsThroughTheGateway registers a player through an EntryBatch (his token in a
// Secret the batch owns, which the registrar may read and the director may not), connects his bot
// to the tournament's one address on the manager's lobby (`pokerfloor manager` run as a process
// with the generated RBAC, the table Pods' processes run by the local kubelet), and has the
// director move him by a FloorAction: his bot plays hands at his first table, then at the new one,
// on the same connection (it never reconnects: Reconnect is off and Play never returned). Bad
// tokens are refused with a 401 saying why, an unknown entry and an unknown tournament too.
func TestPlayerFollowsThroughTheGateway(t *testing.T) {
	t.Parallel()
	// The whole test plays a tournament for minutes on a loaded machine: a deadline only for a
	// hung test.
	ctx, cancel := context.WithTimeout(context.Background(), 4*finishDeadline)
	defer cancel()
	o := startOperator(t, ctx, true)
	installManifests(t, ctx, o.api, filepath.Join("..", "config", "rbac", "roles.yaml"))
	installManifests(t, ctx, o.api, filepath.Join("..", "config", "admission", "*.yaml"))
	bindRole(t, ctx, o.api, "floor-ann", "pokerfloor-director")
	bindRole(t, ctx, o.api, "cashier-bob", "pokerfloor-registrar")
	f := &recordsFixture{operator: o, ctx: ctx, admin: o.api.client,
		ann: userClient(t, o.api, "floor-ann"), bob: userClient(t, o.api, "cashier-bob")}

	// 25 and hero: three tables until 8 have busted, two until 17 have, so that there is another
	// table with a seat for hero at the pause (with 20 and hero, two suites side by side, 12
	// busted by hand 60 and the pause left one table).
	tm := simulationTournament("route", 25)
	tm.Spec.TablePods.Template.Env[0].Value = "50ms"
	// The table's bots play the field, and leave hero's seat to his connection (the env after the
	// simulation's "all" wins, as in a container); bots that check or fold, so that nobody busts
	// and the field stays on its tables (strength bots busted enough on a clean clone's CI, 3
	// December, that hero's table was the shorter at every try and the pause left one table).
	tm.Spec.TablePods.Template.Env = append(tm.Spec.TablePods.Template.Env,
		pokerv1.EnvVar{Name: "POKERFLOOR_TABLE_BOTS", Value: strings.Join(tm.Spec.Players, ",")},
		pokerv1.EnvVar{Name: "POKERFLOOR_TABLE_BOT_STRATEGY", Value: "checkfold"})
	tm.Spec.StartingStack = 1_000_000 // few busts: two tables stay in play
	tm.Spec.HandForHand = &pokerv1.HandForHand{Disabled: true}
	tm.Spec.LateRegistration = &pokerv1.LateRegistration{UntilLevel: 40}
	tm.Spec.BalanceThreshold = 3
	// Paused from the start while hero registers and connects: the tables deal at the bots' pace
	// (a sleep, as fast on a loaded machine) and each plays its batch of hands to the end before
	// it stops, so hands dealt while a slow machine registered him were busts nobody waited for
	// (his first pause came at hand 40-60, and the next had one table left).
	tm.Spec.Paused = true
	id := f.running(t, tm)
	wf := workflows.GetTournament(o.temporal, id)

	// Registration: the entry's token is in the batch's Secret, not in its status.
	b := validEntryBatch("hero", "hero")
	b.Spec.Tournament = tm.Name
	f.create(t, f.bob, "cashier-bob", b)
	f.decided(t, b, func() string { return string(b.Status.Phase) })
	if b.Status.Phase != pokerv1.EntryBatchApplied {
		t.Fatalf("the batch: %+v", b.Status)
	}
	var tokens corev1.Secret
	waitFor(t, "the batch's tokens readable by its registrar", stepDeadline, func() error {
		return f.bob.Get(ctx, client.ObjectKey{Namespace: testNamespace, Name: EntryTokensSecret(b.Name)}, &tokens)
	})
	token := string(tokens.Data["hero"])
	if token == "" || !metav1.IsControlledBy(&tokens, b) || len(tokens.Data) != 1 {
		t.Fatalf("the tokens Secret %s: keys %d, owners %+v; want hero's token, owned by the batch", tokens.Name, len(tokens.Data), tokens.OwnerReferences)
	}
	if status, _ := json.Marshal(b.Status); strings.Contains(string(status), token) {
		t.Errorf("the batch's status holds the token: %s", status)
	}
	var secret corev1.Secret
	if err := f.ann.Get(ctx, client.ObjectKeyFromObject(&tokens), &secret); !apierrors.IsForbidden(err) {
		t.Errorf("the director reads the batch's tokens: %v, want forbidden", err)
	}
	if err := f.bob.Get(ctx, client.ObjectKey{Namespace: testNamespace, Name: DefaultKeySecret}, &secret); !apierrors.IsForbidden(err) {
		t.Errorf("the registrar reads the token key: %v, want forbidden", err)
	}

	// The one address refuses what it must, saying why.
	page := "http://" + o.lobby + "/" + testNamespace + "/" + tm.Name + "/play"
	play := "ws" + strings.TrimPrefix(page, "http")
	var key corev1.Secret
	if err := f.admin.Get(ctx, client.ObjectKey{Namespace: testNamespace, Name: DefaultKeySecret}, &key); err != nil {
		t.Fatal(err)
	}
	other, err := EntryTokens(key.Data["key"], testNamespace+"/other/0000")
	if err != nil {
		t.Fatal(err)
	}
	otherToken, _ := other.Issue("hero", protocol.RolePlayer, time.Hour)
	entries, _ := EntryTokens(key.Data["key"], id)
	ghostToken, _ := entries.Issue("ghost", protocol.RolePlayer, time.Hour)
	for _, c := range []struct {
		name, url string
		status    int
		says      string
	}{
		{"garbage", page + "?token=garbage", http.StatusUnauthorized, "bad_token"},
		{"another tournament's", page + "?token=" + otherToken, http.StatusUnauthorized, "of tournament \"" + testNamespace + "/other/0000\""},
		{"unknown tournament", "http://" + o.lobby + "/" + testNamespace + "/nosuch/play?token=" + token, http.StatusNotFound, "no tournament"},
	} {
		resp, err := http.Get(c.url)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.status || !strings.Contains(string(body), c.says) {
			t.Errorf("%s token: %s %q, want %d saying %q", c.name, resp.Status, body, c.status, c.says)
		}
	}
	ghost := &tableserver.Bot{URL: play, Token: ghostToken, Decider: bot.New(bot.KindRandom, 1)}
	var perr *protocol.Error
	if err := ghost.Play(ctx); !errors.As(err, &perr) || perr.Code != protocol.CodeNotSeated || !strings.Contains(perr.Message, `no entry "ghost"`) {
		t.Errorf("an unknown entry's bot: %v, want not_seated, no entry", err)
	}

	// Hero plays through the one address.
	h := &heroLog{holes: map[string]map[int64]bool{}, decisions: map[string]int{}}
	botCtx, stopBot := context.WithCancel(ctx)
	defer stopBot()
	done := make(chan error, 1)
	hero := &tableserver.Bot{URL: play, Token: token, Decider: &countingDecider{log: h}, OnFrame: h.frame}
	go func() { done <- hero.Play(botCtx) }()
	setPausedSpec(t, ctx, f.admin, client.ObjectKeyFromObject(tm), false)
	playing := func(what string, deadline time.Duration, ok func() bool) {
		t.Helper()
		waitFor(t, what, deadline, func() error {
			select {
			case err := <-done:
				t.Fatalf("hero's connection ended: %v (%s)", err, h)
			default:
			}
			if !ok() {
				return fmt.Errorf("%s", h)
			}
			return nil
		})
	}
	var first string
	playing("hero plays two hands at his first table", stepDeadline, func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		first = h.table
		return first != "" && len(h.holes[first]) >= 2 && h.decisions[first] >= 1
	})

	// The director moves him, on a paused clock (the tables stand still, nobody else is moving).
	// If the floor has moved him meanwhile (his table broken, R4, or balanced, R3), that is the
	// move he follows.
	var open []workflows.TableView
	var to workflows.TableView
	for try := 1; ; try++ {
		to = workflows.TableView{}
		setPausedSpec(t, ctx, f.admin, client.ObjectKeyFromObject(tm), true)
		f.stopped(t, wf)
		open = f.settled(t, id)
		seat := answer(t, "hero's seat", func() (workflows.Seat, error) { return wf.Seat(ctx, "hero") })
		if seat.Status != workflows.SeatSeated {
			t.Fatalf("hero's seat %+v, want seated", seat)
		}
		if seat.TableID != first {
			t.Logf("the floor moved hero from %s to %s before the director could", first, seat.TableID)
			to = workflows.TableView{ID: seat.Table, Workflow: seat.TableID}
		} else {
			// The emptiest other table with R3's seat free (left of the big blind); none (every
			// other one full): play on and try again.
			for _, tv := range open {
				if tv.ID != seat.Table && hasBalanceSeat(tv) && (to.ID == 0 || tv.Players < to.Players) {
					to = tv
				}
			}
			if to.ID == 0 && try < 8 {
				t.Logf("try %d: no other table with a seat for hero: %+v", try, open)
				f.playOn(t, wf, client.ObjectKeyFromObject(tm))
				continue
			}
			if to.ID == 0 {
				t.Fatalf("no other table to move hero to: %+v", open)
			}
			a := f.floorAction(t, tm.Name, "move-hero", pokerv1.FloorActionSpec{Action: pokerv1.FloorMove, Reason: "the gateway follows him",
				Move: &pokerv1.MoveAction{Player: "hero", ToTable: int32(to.ID)}})
			if try < 8 && a.Status.Phase == "Refused" && (strings.Contains(a.Status.Message, "no table may have") || strings.Contains(a.Status.Message, "is full")) {
				// R3 forbids it at these counts (hero's table the shorter, or the other one full):
				// play on a few hands and try again.
				t.Logf("try %d: %s", try, a.Status.Message)
				f.playOn(t, wf, client.ObjectKeyFromObject(tm))
				continue
			}
			wantRecord(t, a.Name, string(a.Status.Phase), "Applied", a.Status.Message, a.Status.Conditions, fmt.Sprintf("to table %d", to.ID))
		}
		break
	}
	setPausedSpec(t, ctx, f.admin, client.ObjectKeyFromObject(tm), false)
	playing("hero plays two hands at his new table", finishDeadline, func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.table == to.Workflow && len(h.holes[to.Workflow]) >= 2 && h.decisions[to.Workflow] >= 1
	})
	stopBot()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("hero's bot ended with %v, want only the test's cancel: one connection throughout", err)
	}
	t.Logf("hero through the gateway: %s", h)
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.errs) > 0 {
		t.Errorf("what hero saw: %s", strings.Join(h.errs, "; "))
	}
	if len(h.welcomes) != 2 || h.welcomes[0].Table != first || h.welcomes[1].Table != to.Workflow {
		t.Errorf("welcomes %+v, want %s then %s", h.welcomes, first, to.Workflow)
	}
}

// heroLog is what a player's bot saw and did, by table.
type heroLog struct {
	mu        sync.Mutex
	table     string // the table of the last welcome
	seat      int
	welcomes  []protocol.Welcome
	holes     map[string]map[int64]bool // the hands dealt to him, by table
	decisions map[string]int
	errs      []string
}

func (h *heroLog) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "at %q;", h.table)
	for _, w := range h.welcomes {
		fmt.Fprintf(&b, " %s: %d hands dealt, %d decisions;", w.Table, len(h.holes[w.Table]), h.decisions[w.Table])
	}
	return b.String()
}

// frame takes in a frame hero received: every welcome is his, every hole card frame his seat's.
func (h *heroLog) frame(env protocol.Envelope, _ []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch env.Type {
	case protocol.TypeWelcome:
		var w protocol.Welcome
		if perr := protocol.DecodeData(env, &w); perr != nil || w.Player != "hero" || w.Role != protocol.RolePlayer {
			h.errs = append(h.errs, fmt.Sprintf("a welcome %+v (%v)", w, perr))
		}
		h.table, h.seat = w.Table, w.Seat
		h.welcomes = append(h.welcomes, w)
	case protocol.TypeHole:
		var hole protocol.Hole
		if perr := protocol.DecodeData(env, &hole); perr != nil || hole.Seat != h.seat {
			h.errs = append(h.errs, fmt.Sprintf("hole cards %+v at %s, hero's seat %d (%v)", hole, h.table, h.seat, perr))
		}
		if h.holes[h.table] == nil {
			h.holes[h.table] = map[int64]bool{}
		}
		h.holes[h.table][hole.Hand] = true
	case protocol.TypeMove:
		h.errs = append(h.errs, "a move passed on: the gateway follows by itself")
	}
}

// countingDecider plays hero's seat and counts his decisions at the table he is at. He checks
// when he may and folds otherwise: he never risks his stack, so that he is still in to be moved
// (a random bot of his had gone all in and busted by the pause in a full package run).
type countingDecider struct{ log *heroLog }

func (d *countingDecider) Decide(_ context.Context, v *engine.View) (engine.Decision, error) {
	d.log.mu.Lock()
	d.log.decisions[d.log.table]++
	d.log.mu.Unlock()
	if v.Legal.Check {
		return engine.Decision{Action: engine.Check}, nil
	}
	return engine.Decision{Action: engine.Fold}, nil
}
