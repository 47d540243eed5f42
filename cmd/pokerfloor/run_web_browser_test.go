package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var updateScreenshots = flag.Bool("update-screenshots", false, "write the lobby's screenshots to docs/ (TestBrowserLobby)")

// lobbyState is what the test reads of the lobby page.
type lobbyState struct {
	Level   int    `json:"level"`
	Left    int    `json:"left"`
	Clock   string `json:"clock"`
	Blinds  string `json:"blinds"`
	Tables  int    `json:"tables"`
	Watch   string `json:"watch"`
	Out     int    `json:"out"`
	TV      bool   `json:"tv"`
	ClockPx int    `json:"clockPx"`
	Height  int    `json:"height"`
}

const readLobby = `(() => { const b = document.body, el = (id) => document.getElementById(id);
	const w = document.querySelector(".tcard a.watch");
	return {level: Number(b.dataset.level || 0), left: Number(b.dataset.left || 0),
	clock: el("countdown").textContent, blinds: el("blinds").textContent,
	tables: document.querySelectorAll(".tcard").length, watch: w ? w.getAttribute("href") : "",
	out: document.querySelectorAll("#eliminations li:not(.muted)").length, tv: b.classList.contains("tv"),
	clockPx: Math.round(parseFloat(getComputedStyle(el("countdown")).fontSize)), height: innerHeight}; })()`

// TestBrowserLobby loads the clock and lobby page of `pokerfloor run --web` in headless Chromium
// during a short tournament whose clock runs 60 times faster than real time (a 10-minute level in
// 10 seconds): the page, updated only by the server's pushes, shows the level change and the field
// shrink; a table's Watch link opens that table's spectator page; the full-screen mode draws the
// clock larger. It saves a screenshot of each mode (under docs/ with -update-screenshots).
func TestBrowserLobby(t *testing.T) {
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
	structure, err := loadStructure("turbo")
	if err != nil {
		t.Fatal(err)
	}
	structure.Speed = 60
	out := newLineWriter()
	s := runSettings{Players: 40, TableSize: 9, Structure: structure, Seed: 5, DataDir: t.TempDir(),
		Web: webSettings{ln: ln, out: out}}
	s.Structure.Name = "turbo"
	tour, stop, err := startLocalTournament(ctx, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	m := out.wait(ctx, regexp.MustCompile(`^tournament clock and lobby at (http://\S+/)$`))
	if m == nil {
		t.Fatal("the lobby's address was not printed")
	}
	lobbyURL := m[1]

	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.WindowSize(1600, 1000), chromedp.Flag("headless", true))...)
	defer cancelAlloc()
	page, cancelPage := chromedp.NewContext(alloc)
	defer cancelPage()
	if err := chromedp.Do(page, chromedp.Navigate(lobbyURL)); err != nil {
		t.Fatal(err)
	}
	read := func() lobbyState {
		st, err := chromedp.Run(page, chromedp.Evaluate[lobbyState](readLobby))
		if err != nil {
			t.Fatalf("reading the lobby: %v", err)
		}
		return st
	}
	// waitFor reads the page until ok holds (the page changes only when the server pushes).
	waitFor := func(what string, ok func(lobbyState) bool) lobbyState {
		for {
			st := read()
			if ok(st) {
				return st
			}
			if ctx.Err() != nil {
				t.Fatalf("the lobby never showed %s: %+v", what, st)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	first := waitFor("the tournament", func(st lobbyState) bool { return st.Level >= 1 && st.Left > 0 && st.Tables > 0 })
	if first.Left > s.Players {
		t.Fatalf("the lobby shows %d players left of %d entries", first.Left, s.Players)
	}
	if !regexp.MustCompile(`^\d\d:\d\d$`).MatchString(first.Clock) {
		t.Errorf("the clock reads %q, want mm:ss", first.Clock)
	}
	later := waitFor("the level change and the field shrink", func(st lobbyState) bool {
		return st.Level > first.Level && st.Left < first.Left && st.Out > 0
	})
	t.Logf("the lobby went from level %d, %d left (%s) to level %d, %d left (%s), %d eliminations listed",
		first.Level, first.Left, first.Blinds, later.Level, later.Left, later.Blinds, later.Out)
	if p, err := tour.Progress(ctx); err == nil && p.Level < later.Level {
		t.Errorf("the lobby shows level %d, ahead of the tournament's %d", later.Level, p.Level)
	}
	shots := t.TempDir()
	if *updateScreenshots {
		shots = filepath.Join("..", "..", "docs")
	}
	shot := func(name string, action chromedp.Action[[]byte]) {
		buf, err := chromedp.Run(page, action)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(shots, name), buf, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shot("lobby.png", chromedp.FullScreenshot(100))

	// The room's TV (1080p): full screen, the clock's digits a quarter of the screen high.
	if err := chromedp.Do(page, chromedp.EmulateViewport(1920, 1080), chromedp.Click("#tv-btn")); err != nil {
		t.Fatal(err)
	}
	tv := waitFor("the full-screen mode", func(st lobbyState) bool { return st.TV && st.Height == 1080 })
	if tv.ClockPx <= later.ClockPx || tv.ClockPx < tv.Height/5 {
		t.Errorf("full screen draws the clock at %dpx on a screen %dpx high (the page's at %dpx)", tv.ClockPx, tv.Height, later.ClockPx)
	}
	shot("lobby-tv.png", chromedp.CaptureScreenshot())

	// A table's Watch link opens its spectator page, which connects and shows the table. The
	// table may break (its players moved to others) between the lobby's link and the page's
	// connection, the more so on a busy machine: its page then says it is disconnected, and the
	// spectator goes back to the lobby for a table still open, as a person would.
	watched := []string{} // each table tried and what its page last showed, for the failure's message
	for try := 1; ; try++ {
		watch := waitFor("a Watch link", func(st lobbyState) bool { return st.Watch != "" }).Watch
		if !regexp.MustCompile(`^/table/\d+/\?token=\S+$`).MatchString(watch) {
			t.Fatalf("the Watch link is %q", watch)
		}
		seen, closed := watchSpectator(ctx, t, page, lobbyURL+watch[1:])
		if !closed {
			t.Logf("the spectator's page shows %q", seen)
			return
		}
		table, _, _ := strings.Cut(watch, "?") // the link without its token
		watched = append(watched, fmt.Sprintf("%s: %q", table, seen))
		if try == 5 || ctx.Err() != nil {
			t.Fatalf("no spectator's page showed its table: %s", strings.Join(watched, "; "))
		}
		t.Logf("the table at %s closed before its page showed it (%q): back to the lobby", table, seen)
	}
}

// watchSpectator opens a spectator's page at url in a new tab of page and reads it until it shows
// its table (returning what it shows) or says the table is gone (closed: disconnected for good,
// or a page that is not the table's), or ctx ends.
func watchSpectator(ctx context.Context, t *testing.T, page context.Context, url string) (seen string, closed bool) {
	t.Helper()
	spec, cancelSpec := chromedp.NewContext(page)
	defer cancelSpec()
	if err := chromedp.Do(spec, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	const readSpectator = `(() => { const el = (id) => document.getElementById(id);
		if (!el("status")) return "no table page: " + document.body.innerText.slice(0, 200);
		return el("status").textContent + " | " + (el("table-name")?.textContent ?? "") +
			(document.body.dataset.phase === "closed" ? " | closed" : ""); })()`
	shows := regexp.MustCompile(`^spectator \| table \S+ · hand \d+$`)
	for {
		s, err := chromedp.Run(spec, chromedp.Evaluate[string](readSpectator))
		if err == nil {
			seen = s
			if shows.MatchString(s) {
				return s, false
			}
			// Gone for good: a page that is not a table's, or a socket closed and not tried again.
			if strings.HasPrefix(s, "no table page") || (strings.HasSuffix(s, " | closed") && !strings.Contains(s, "reconnecting")) {
				return s, true
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("the spectator's page at %s shows no table (last read %q; %v)", url, seen, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
