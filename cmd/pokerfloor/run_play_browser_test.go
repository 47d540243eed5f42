package main

import (
	"context"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/pokerfloor/pokerfloor/workflows"
	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// browserPath returns Debian's chromium, or skips the test (fails it under CI=true) without it.
func browserPath(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed: run hack/setup-chromium.sh (the browser tests are part of CI)")
	}
	t.Skip("chromium is not installed: hack/setup-chromium.sh installs it")
	return ""
}

// pageState is what the test reads of the player's page.
type pageState struct {
	Path    string `json:"path"`
	Cards   int    `json:"cards"`
	Turn    bool   `json:"turn"`
	Check   bool   `json:"check"`
	History int    `json:"history"`
	Status  string `json:"status"`
}

// readPage reads what the person sees. The page may be between two documents when it is read
// (following a move, it loads the new table's page): an element not there yet reads as no cards,
// not his turn, and no history.
const readPage = `(() => { const el = (id) => document.getElementById(id);
	return {path: location.pathname, cards: document.querySelectorAll("#my-cards .card.face").length,
	turn: !!el("fold-btn") && !el("fold-btn").disabled && !!el("actions") && !el("actions").hidden,
	check: el("call-btn")?.dataset.action === "check",
	history: el("history")?.children.length ?? -1,
	status: el("status")?.textContent ?? ""}; })()`

// TestBrowserPlayFollowsTheMove is TestPlaySeatsAPersonAndFollowsHisMove with the person in headless
// Chromium on the page the run serves: he opens the printed link, sees his two cards, plays a hand
// with the page's buttons (checking when he may, folding otherwise), and when his table breaks the
// page takes him to his new table's page on its own, where he sees his cards and plays again.
func TestBrowserPlayFollowsTheMove(t *testing.T) {
	path := browserPath(t)
	if testing.Short() {
		t.Skip("starts a Temporal server, a tournament and a browser")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	out := newLineWriter()
	structure, err := loadStructure("deep")
	if err != nil {
		t.Fatal(err)
	}
	structure.Speed = 60
	s := runSettings{Players: 14, TableSize: 9, Structure: structure, Seed: 11, DataDir: t.TempDir(),
		Play: playSettings{Player: "p0001", ln: ln, out: out}}
	tour, stop, err := startLocalTournament(ctx, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	lt := tour.(*localTournament)
	m := out.wait(ctx, regexp.MustCompile(`^p0001 plays at table (\d+): (http://\S+\?token=\S+)$`))
	if m == nil {
		t.Fatal("no link for p0001")
	}
	first := "/table/" + m[1] + "/"

	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.WindowSize(1260, 900), chromedp.Flag("headless", true))...)
	defer cancelAlloc()
	page, cancelPage := chromedp.NewContext(alloc)
	defer cancelPage()
	if err := chromedp.Do(page, chromedp.Navigate(m[2])); err != nil {
		t.Fatal(err)
	}
	// act reads the page and, at his turn, checks when he may and folds otherwise: he never keeps
	// the table waiting on his action clock. It reports whether he acted.
	act := func() (pageState, bool) {
		st, err := chromedp.Run(page, chromedp.Evaluate[pageState](readPage))
		if err != nil {
			// A page being replaced (the move) may have no context to evaluate in for a moment.
			if ctx.Err() != nil {
				t.Fatal(err)
			}
			t.Logf("reading the page: %v (read again)", err)
			return pageState{}, false
		}
		if !st.Turn || st.Cards != 2 {
			return st, false
		}
		btn := `#fold-btn`
		if st.Check {
			btn = `#call-btn`
		}
		if err := chromedp.Do(page, chromedp.Click(btn)); err != nil {
			t.Fatal(err)
		}
		return st, true
	}
	// playHand plays at the page's table until a hand he acted in has ended.
	playHand := func(at string) pageState {
		acted, before := false, -1
		for {
			st, did := act()
			if st.Path == at {
				switch {
				case acted && st.History > before:
					return st
				case did:
					acted, before = true, st.History
				}
			}
			if ctx.Err() != nil {
				t.Fatalf("the page at %s: %+v; no hand played", at, st)
			}
			time.Sleep(50 * time.Millisecond) // a person's pace; nothing depends on it
		}
	}
	st := playHand(first)

	// His table's bots are disqualified: it breaks, and his page follows him.
	tables, err := lt.t.Tables(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var bots []string
	for _, tv := range tables {
		if strconv.Itoa(int(tv.ID)) == m[1] {
			for _, p := range tv.Seats {
				if p != "" && p != "p0001" {
					bots = append(bots, p)
				}
			}
		}
	}
	// He plays on while the director acts: the disqualifications take effect between hands.
	var wg sync.WaitGroup
	for _, p := range bots {
		wg.Go(func() {
			if _, err := lt.t.Sanction(ctx, workflows.SanctionRequest{Player: p, Kind: floor.Disqualification, Rule: "P4",
				Reason: "the test breaks p0001's table", By: "test director"}); err != nil {
				t.Error(err)
			}
		})
	}
	for st.Path == first || st.Path == "" { // "": the page being replaced, not read this time
		st, _ = act()
		if ctx.Err() != nil {
			t.Fatalf("the page stayed at %s: %+v", first, st)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !regexp.MustCompile(`^/table/\d+/$`).MatchString(st.Path) {
		t.Fatalf("the page went to %s, not a table's page", st.Path)
	}
	second := st.Path
	st = playHand(second)
	wg.Wait()
	t.Logf("the page played at %s, followed the move to %s and played there (%+v)", first, second, st)
}
