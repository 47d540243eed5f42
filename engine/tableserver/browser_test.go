package tableserver

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/pokerfloor/pokerfloor/engine"
)

// caller checks or calls, never folds: its table reaches the showdown.
type caller struct{}

func (caller) Decide(_ context.Context, v *engine.View) (engine.Decision, error) {
	if v.Legal.Check {
		return engine.Decision{Action: engine.Check}, nil
	}
	return engine.Decision{Action: engine.Call}, nil
}

// chromium returns Debian's browser, or skips the test (fails it under CI=true) when it is missing.
func chromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed: run hack/setup-chromium.sh (the browser test is part of CI)")
	}
	t.Skip("chromium is not installed: hack/setup-chromium.sh installs it; skipping the browser test")
	return ""
}

// A person in headless Chromium joins with his token, sees his two cards, raises with the slider and
// sees the showdown; a spectator's page never shows a hole card before it is shown. With
// POKERFLOOR_SCREENSHOT=1 the table mid-hand is saved to docs/table.png.
func TestBrowserPlayerRaisesWithSliderAndSpectatorSeesNoHoleCard(t *testing.T) {
	path := chromium(t)
	tt := startTable(t, tableOpts{players: 6})
	for _, id := range tt.ids[1:] {
		b := &Bot{URL: tt.url, Token: tt.token(id), Decider: caller{}, ClientSeed: "bot " + id}
		go b.Play(context.Background())
	}
	// A real deadline for a real browser: generous, so that it holds on a slow machine.
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.WindowSize(1260, 900), chromedp.Flag("headless", true))...)
	defer cancelAlloc()
	human, cancelHuman := chromedp.NewContext(alloc)
	defer cancelHuman()
	if err := chromedp.Do(human, chromedp.Navigate(tt.http.URL+"/?token="+tt.token("p01"))); err != nil {
		t.Fatal(err)
	}
	spectator, cancelSpectator := chromedp.NewContext(human)
	defer cancelSpectator()
	if err := chromedp.Do(spectator, chromedp.Navigate(tt.http.URL+"/?token="+tt.token(""))); err != nil {
		t.Fatal(err)
	}

	// His two cards.
	if err := chromedp.Do(human, chromedp.WaitVisible(`#my-cards .card.face:nth-child(2)`)); err != nil {
		t.Fatal(err)
	}
	cards, err := chromedp.Run(human, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#my-cards .card.face")].map(c => c.dataset.card)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(cards) != 2 {
		t.Fatalf("the player's page shows cards %v", cards)
	}
	// His turn: the slider moves the raise up from the minimum, and he raises.
	if err := chromedp.Do(human, chromedp.WaitEnabled(`#raise-btn`)); err != nil {
		t.Fatal(err)
	}
	// On his turn the advance actions (A14) are greyed out; one ticked just as the turn came (the
	// box enabled again for the click) is refused by the table, and the page says so as a quiet
	// notice, not as an error, and unticks it.
	advance, err := chromedp.Run(human, chromedp.Evaluate[[]bool](`[...document.querySelectorAll("#advance input")].map(b => b.disabled)`))
	if err != nil {
		t.Fatal(err)
	}
	// And he is shown at his seat, not away (he joined after the deal).
	if away, err := chromedp.Run(human, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".seat.away")].map(e => e.textContent)`)); err != nil {
		t.Fatal(err)
	} else if slices.ContainsFunc(away, func(s string) bool { return strings.Contains(s, "p01") }) {
		t.Errorf("on his turn his own seat is shown away: %v", away)
	}
	if len(advance) == 0 || slices.Contains(advance, false) {
		t.Errorf("on his turn the advance boxes are disabled: %v, want all true", advance)
	}
	if _, err := chromedp.Run(human, chromedp.Evaluate[bool](`(() => {
		const b = document.querySelector("#advance input"); b.disabled = false; b.click(); b.disabled = true; return true; })()`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(human, chromedp.WaitVisible(`#toast.notice`)); err != nil {
		t.Fatal(err)
	}
	type noticeState struct {
		Text    string `json:"text"`
		Checked bool   `json:"checked"`
	}
	if n, err := chromedp.Run(human, chromedp.Evaluate[noticeState](`({text: document.getElementById("toast").textContent,
		checked: [...document.querySelectorAll("#advance input")].some(b => b.checked)})`)); err != nil {
		t.Fatal(err)
	} else if !strings.Contains(n.Text, "act now") || n.Checked {
		t.Errorf("an advance action ticked on his turn: the notice %q, a box still ticked: %v; want a notice to act now and no box ticked", n.Text, n.Checked)
	}
	minAttr, err := chromedp.Run(human, chromedp.AttributeValue(`#raise-slider`, "min"))
	if err != nil {
		t.Fatal(err)
	}
	minTo := minAttr.Value
	if err := chromedp.Do(human, chromedp.Focus(`#raise-slider`),
		chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	amount, err := chromedp.Run(human, chromedp.Value(`#raise-amount`))
	if err != nil {
		t.Fatal(err)
	}
	if amount == minTo || amount == "" {
		t.Fatalf("the slider did not move the raise: %q, the minimum %q", amount, minTo)
	}
	if err := chromedp.Do(human, chromedp.Click(`#raise-btn`)); err != nil {
		t.Fatal(err)
	}
	// Then he checks or calls to the showdown, the spectator watching every step.
	screenshot := os.Getenv("POKERFLOOR_SCREENSHOT") == "1"
	var shown, hand string
	for shown == "" {
		type humanState struct {
			CanCall bool   `json:"canCall"`
			Board   int    `json:"board"`
			Result  string `json:"result"`
			Hand    string `json:"hand"`
			Raised  bool   `json:"raised"`
		}
		state, err := chromedp.Run(human, chromedp.Evaluate[humanState](`({canCall: !document.getElementById("call-btn").disabled,
			board: document.querySelectorAll("#board .card").length,
			result: ((document.body.dataset.showdowns || "").split(" ").find(s => s.startsWith("1=")) || "").slice(2),
			hand: (document.body.dataset.showdowns || "").startsWith("1=") ? "1" : ""})`))
		if err != nil {
			t.Fatal(err)
		}
		type specState struct {
			Phase  string   `json:"phase"`
			Faces  []string `json:"faces"`
			Mine   int      `json:"mine"`
			Action bool     `json:"action"`
		}
		spec, err := chromedp.Run(spectator, chromedp.Evaluate[specState](`({phase: document.body.dataset.phase,
			faces: [...document.querySelectorAll(".seat .card.face")].map(c => c.dataset.card),
			mine: document.querySelectorAll("#my-cards .card").length,
			action: ["actions", "chat-form"].some(id => getComputedStyle(document.getElementById(id)).display !== "none")})`))
		if err != nil {
			t.Fatal(err)
		}
		if spec.Action || spec.Mine > 0 || spec.Phase == "betting" && len(spec.Faces) > 0 {
			t.Fatalf("the spectator's page shows hole cards %v (phase %s), or the player's controls or chat box (%v)", spec.Faces, spec.Phase, spec.Action)
		}
		switch {
		case state.Result != "" && state.Hand == "1":
			shown, hand = state.Result, state.Hand
		case state.CanCall:
			if screenshot && state.Board >= 3 {
				png, err := chromedp.Run(human, chromedp.CaptureScreenshot())
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join("..", "..", "docs", "table.png"), png, 0o644); err != nil {
					t.Fatal(err)
				}
				screenshot = false
			}
			if err := chromedp.Do(human, chromedp.Click(`#call-btn`)); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(20 * time.Millisecond) // a person's pace; the checks above do not depend on it
	}
	if !strings.Contains(shown, ":") || hand != "1" {
		t.Fatalf("the showdown the player saw: %q", shown)
	}
	// The result, and a message the page pops up, cover no seat's cards or plate.
	if covered, err := chromedp.Run(human, chromedp.Evaluate[map[string][]string](coveredSeats)); err != nil {
		t.Fatal(err)
	} else if len(covered["result"]) > 0 || len(covered["toast"]) > 0 {
		t.Errorf("the result covers seats %v, a message seats %v (by their cards or plates)", covered["result"], covered["toast"])
	}
	// The spectator sees the same showdown.
	if err := chromedp.Do(spectator, chromedp.WaitVisible(`body[data-showdowns]`)); err != nil {
		t.Fatal(err)
	}
	specShown, err := chromedp.Run(spectator, chromedp.AttributeValue(`body`, "data-showdowns"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(specShown.Value, "1="+shown) {
		t.Logf("spectator: %q, player: %q", specShown.Value, shown)
		t.Fatal("the spectator saw no showdown")
	}
}

// A spectator's page of a table that closes for good (its last hand played) says the table is
// closed and stops: it does not try to join a table that will not come back.
func TestBrowserSpectatorSeesTheTableClose(t *testing.T) {
	path := chromium(t)
	tt := startTable(t, tableOpts{players: 2, stack: 100}) // a big blind each: all in within a few hands
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.Flag("headless", true))...)
	defer cancelAlloc()
	page, cancelPage := chromedp.NewContext(alloc)
	defer cancelPage()
	if err := chromedp.Do(page, chromedp.Navigate(tt.http.URL+"/?token="+tt.token(""))); err != nil {
		t.Fatal(err)
	}
	status := func() string {
		s, err := chromedp.Run(page, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
		if err != nil {
			return fmt.Sprintf("(unread: %v)", err)
		}
		return s
	}
	for s := status(); s != "spectator"; s = status() {
		if ctx.Err() != nil {
			t.Fatalf("the spectator's page never joined: %q", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
	tt.bots(tt.ids, nil) // the players come: the table plays until one has every chip, and closes
	if err := tt.wait(); err != nil {
		t.Fatal(err)
	}
	// Closed, and it stays so: no reconnecting.
	want := "table closed"
	for s := status(); s != want; s = status() {
		if ctx.Err() != nil {
			t.Fatalf("the spectator's page after the table closed shows %q, want %q", s, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(time.Second) // a page that reconnects would have tried by now (its first try is at 0.5 s)
	if s := status(); s != want {
		t.Fatalf("a second after the close the spectator's page shows %q, want %q", s, want)
	}
	tt.checkChips(100)
}

// coveredSeats is a script that returns, for the result on the felt and for a message popped up
// (the toast), the seats whose cards or plate it covers on the page: each is shown for the
// measure with a long text (the next hand hides the result as soon as it starts) and put back.
const coveredSeats = `(() => {
	const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
	const covered = (id, text) => {
		const el = document.getElementById(id);
		const was = [el.hidden, el.textContent];
		[el.hidden, el.textContent] = [false, text];
		const box = el.getBoundingClientRect();
		const seats = [...new Set([...document.querySelectorAll(".seat .cards, .seat .plate")]
			.filter(e => hit(box, e.getBoundingClientRect())).map(e => e.closest(".seat").dataset.seat))];
		[el.hidden, el.textContent] = was;
		return seats;
	};
	return {
		result: covered("result", "hand 12: p05 wins 24,000 with a flush, ace high; p02 shows Qs 2d; p04 shows 8d 7d; p06 mucks"),
		toast: covered("toast", "You are moved to table 12: following… the action is for hand 11; hand 12 is in progress"),
	};
})()`
