package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pokerfloor/pokerfloor/cmd/pokerfloor/internal/localtemporal"
	"github.com/pokerfloor/pokerfloor/workflows"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
)

// asMainEnv makes the test binary run main instead of the tests: the process tests start it as a
// real pokerfloor process, which they can interrupt and kill.
const asMainEnv = "POKERFLOOR_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMainEnv) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// The real deadlines of the process tests: each is many times what the step takes here, so that
// they hold on a machine five times slower that is busy with other builds.
const (
	startDeadline  = 6 * time.Minute  // for a process to start its tournament and say so (progressWait, and more)
	finishDeadline = 15 * time.Minute // for a 500-player tournament to finish
)

// child is a pokerfloor process started by a test.
type child struct {
	cmd    *exec.Cmd
	stdout bytes.Buffer
	mu     sync.Mutex
	stderr []string
	lines  chan string
	done   chan struct{}
	err    error
}

func startChild(t *testing.T, args ...string) *child {
	t.Helper()
	c := &child{lines: make(chan string, 1024), done: make(chan struct{})}
	c.cmd = exec.Command(os.Args[0], args...)
	c.cmd.Env = append(os.Environ(), asMainEnv+"=1")
	c.cmd.Stdout = &c.stdout
	errPipe, err := c.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(errPipe)
		for sc.Scan() {
			c.mu.Lock()
			c.stderr = append(c.stderr, sc.Text())
			c.mu.Unlock()
			select {
			case c.lines <- sc.Text():
			default:
			}
		}
		close(c.lines)
		c.err = c.cmd.Wait()
		close(c.done)
	}()
	t.Cleanup(func() {
		select {
		case <-c.done:
		default:
			_ = c.cmd.Process.Kill()
			<-c.done
		}
	})
	return c
}

// waitFor waits for a stderr line that starts with one of prefixes and returns it.
func (c *child) waitFor(t *testing.T, timeout time.Duration, prefixes ...string) string {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				<-c.done
				t.Fatalf("the process ended (%v) before a line starting with %q; stderr:\n%s", c.err, prefixes, c.stderrText())
			}
			for _, p := range prefixes {
				if strings.HasPrefix(line, p) {
					return line
				}
			}
		case <-deadline:
			t.Fatalf("no line starting with %q in %v; stderr:\n%s", prefixes, timeout, c.stderrText())
		}
	}
}

// wait waits for the process to end and returns its exit status.
func (c *child) wait(t *testing.T, timeout time.Duration) int {
	t.Helper()
	go func() {
		for range c.lines { // keep the pipe drained
		}
	}()
	select {
	case <-c.done:
	case <-time.After(timeout):
		t.Fatalf("the process did not end in %v; stderr:\n%s", timeout, c.stderrText())
	}
	var ee *exec.ExitError
	switch {
	case c.err == nil:
		return 0
	case errors.As(c.err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(c.err)
	return -1
}

func (c *child) stderrText() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.stderr, "\n")
}

// runningWorkflows starts a server on the data dir of a run that has ended and lists the workflows
// still running in it.
func runningWorkflows(t *testing.T, dataDir string) []string {
	t.Helper()
	srv, err := localtemporal.Start(localtemporal.Options{DataDir: dataDir})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = srv.Stop() }()
	c, err := srv.Dial(client.Options{Logger: sdkLogger(nil)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var ids []string
	var token []byte
	for {
		resp, err := c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Query: "ExecutionStatus = 'Running'", NextPageToken: token,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range resp.GetExecutions() {
			ids = append(ids, e.GetExecution().GetWorkflowId())
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			break
		}
	}
	slices.Sort(ids)
	return ids
}

// Ctrl-C ends the bar's line, says what happened and how to resume, prints the standings so far
// and exits 130; the tournament and its tables stay in the data dir and nothing else. The same
// command resumes it (and says so), and once it has finished nothing is left: no database, no
// tournament to resume, only the results.
func TestRunInterruptThenResume(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pokerfloor processes on a Temporal server")
	}
	dir := t.TempDir()
	args := []string{"run", "--players", "300", "--speed", "max", "--seed", "9", "--data-dir", dir}
	c := startChild(t, args...)
	header := c.waitFor(t, startDeadline, "tournament run-")
	// "tournament run-...: 300 players, ..."
	id := strings.TrimSuffix(strings.Fields(header)[1], ":")
	// Into the first levels: 300 players play for far longer than this.
	time.Sleep(time.Second)
	if err := c.cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if code := c.wait(t, startDeadline); code != 130 {
		t.Fatalf("exit %d after SIGINT, want 130; stderr:\n%s", code, c.stderrText())
	}
	errText, out := c.stderrText(), c.stdout.String()
	last := c.stderr[len(c.stderr)-1]
	for _, want := range []string{"pokerfloor: interrupted (interrupt): tournament " + id + " is kept in " + dir,
		"players left", `run "pokerfloor run --data-dir ` + dir + `" to resume it, or add --fresh`} {
		if !strings.Contains(last, want) {
			t.Errorf("last line of stderr %q does not say %q", last, want)
		}
	}
	if !strings.HasPrefix(out, "standings so far: level ") || !strings.Contains(out, "rank  player") {
		t.Errorf("stdout does not show the standings so far:\n%s", out)
	}
	saved, err := readSavedRun(dir)
	if err != nil || saved == nil || saved.TournamentID != id {
		t.Fatalf("the data dir does not keep tournament %s to resume: %+v, %v\n%s", id, saved, err, errText)
	}
	// Only the tournament and its tables are left running, for the resume.
	running := runningWorkflows(t, dir)
	if !slices.Contains(running, id) {
		t.Errorf("tournament %s is not running in the data dir; running: %v", id, running)
	}
	for _, w := range running {
		if w != id && !strings.HasPrefix(w, id+"/table-") {
			t.Errorf("workflow %s is left running: not the tournament's nor one of its tables", w)
		}
	}

	// The same command resumes it, and nothing is left running at the end.
	c = startChild(t, args...)
	line := c.waitFor(t, startDeadline, "resuming tournament ", "tournament run-")
	if !strings.HasPrefix(line, "resuming tournament "+id+" ") || !strings.Contains(line, "players left on") {
		t.Errorf("the second run says %q, want it to resume %s with the level and players left", line, id)
	}
	if code := c.wait(t, finishDeadline); code != 0 {
		t.Fatalf("the resumed run: exit %d; stderr:\n%s", code, c.stderrText())
	}
	if !strings.Contains(c.stdout.String(), "300 players, 30 paid") {
		t.Errorf("the resumed run's results:\n%s", c.stdout.String())
	}
	checkFinishedDataDir(t, dir)
}

// rule D4: the kill test. A 500-player run is killed with SIGKILL at random points five times,
// and each time started again with the same data dir: it resumes the same tournament (and says
// so), and finishes. Every place is given once, to the same 500 players; the prizes add up to the
// pool; no chip count failed (the run exits 1 if one did); and the hand histories are exactly the
// hands the tournament counted, each of which replays (chips conserved in every hand): the hands
// interrupted by the kills were void and left nothing behind.
func TestRunResumesAfterKills(t *testing.T) {
	if testing.Short() {
		t.Skip("runs pokerfloor processes on a Temporal server")
	}
	const players = 500
	dir := t.TempDir()
	histories := filepath.Join(t.TempDir(), "hands")
	args := []string{"run", "--players", "500", "--speed", "max", "--seed", "21", "--data-dir", dir, "--hand-histories", histories}
	seed := uint64(time.Now().UnixNano())
	if env := os.Getenv("POKERFLOOR_KILL_SEED"); env != "" {
		var err error
		if seed, err = strconv.ParseUint(env, 10, 64); err != nil {
			t.Fatalf("POKERFLOOR_KILL_SEED=%q: %v", env, err)
		}
	}
	t.Logf("kill points drawn with seed %d (POKERFLOOR_KILL_SEED=%d draws them again)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	id := ""
	for kill := 1; kill <= 5; kill++ {
		c := startChild(t, args...)
		line := c.waitFor(t, startDeadline, "tournament run-", "resuming tournament ")
		if kill == 1 {
			id = strings.TrimSuffix(strings.Fields(line)[1], ":")
		} else if !strings.HasPrefix(line, "resuming tournament "+id+" ") || !strings.Contains(line, "players left on") {
			t.Fatalf("start %d says %q, want it to resume %s with the level and players left", kill, line, id)
		}
		// Anywhere from the first hands to a few seconds of play: the whole run is longer than
		// five of these, so each kill lands in the middle of the tournament.
		time.Sleep(200*time.Millisecond + time.Duration(rng.Int64N(int64(1800*time.Millisecond))))
		if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		if code := c.wait(t, startDeadline); code != -1 {
			t.Fatalf("kill %d: the process ended by itself (exit %d) before the kill; stderr:\n%s", kill, code, c.stderrText())
		}
		logUnsettled(t, c.stderrText())
	}
	c := startChild(t, append(args, "--output", "json")...)
	if code := c.wait(t, finishDeadline); code != 0 {
		t.Fatalf("the last run: exit %d; stderr:\n%s", code, c.stderrText())
	}
	logUnsettled(t, c.stderrText())
	if !strings.Contains(c.stderrText(), "resuming tournament "+id+" ") {
		t.Errorf("the last run did not resume %s; stderr:\n%s", id, c.stderrText())
	}
	var doc runReport
	if err := json.Unmarshal(c.stdout.Bytes(), &doc); err != nil {
		t.Fatalf("stdout is not the results: %v\n%s", err, c.stdout.String())
	}
	if doc.TournamentID != id || doc.Players != players {
		t.Errorf("results of %s with %d players, want %s with %d", doc.TournamentID, doc.Players, id, players)
	}
	checkPlaces(t, doc.Places, players)
	var names []string
	var sum int64
	for _, p := range doc.Places {
		names = append(names, p.Player)
		sum += p.PrizeCents
	}
	slices.Sort(names)
	if !slices.Equal(names, workflows.PlayerNames(players)) {
		t.Errorf("the places are not given to the %d players who entered", players)
	}
	// Chips: the tournament counted them after every hand and step (none went missing or was
	// made by the kills); 500 entries of the turbo's 10,000.
	if doc.ChipsInPlay != players*10000 || len(doc.ChipErrors) > 0 {
		t.Errorf("chips in play %d, want %d; chip errors %v", doc.ChipsInPlay, players*10000, doc.ChipErrors)
	}
	if sum != doc.PrizePoolCents || sum != players*(localBuyIn-localFee) {
		t.Errorf("prizes add up to %d, pool %d, want %d", sum, doc.PrizePoolCents, players*(localBuyIn-localFee))
	}
	kept, err := os.ReadFile(filepath.Join(dir, runsDir, id, resultsFile))
	if err != nil || !bytes.Equal(kept, c.stdout.Bytes()) {
		t.Errorf("%s does not keep the results printed (%v)", resultsFile, err)
	}
	checkHistories(t, histories, doc.HandsPlayed)
	checkFinishedDataDir(t, dir)
}

// checkFinishedDataDir checks that a data dir whose tournament has finished keeps its results and
// nothing else: no database (its workflows all gone with it), no tournament to resume.
func checkFinishedDataDir(t *testing.T, dir string) {
	t.Helper()
	for _, name := range []string{localtemporal.DatabaseFile, localtemporal.DatabaseFile + "-wal", currentRunFile, tablesFile} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s is still in the data dir after the end (%v)", name, err)
		}
	}
	results, _ := filepath.Glob(filepath.Join(dir, runsDir, "*", resultsFile))
	if len(results) != 1 {
		t.Errorf("results files %v, want one", results)
	}
}

// checkHistories checks that dir holds one PHH file for each of the hands played, no hand left
// half-acknowledged (.part), and that every one replays to its finishing stacks.
func checkHistories(t *testing.T, dir string, hands int64) {
	t.Helper()
	var files, parts int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case strings.HasSuffix(path, historyExt):
			files++
		case strings.HasSuffix(path, partExt):
			parts++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d hand histories for %d hands played", files, hands)
	if files != hands || parts != 0 {
		t.Errorf("%d hand histories and %d .part files for %d hands played; want one history a hand", files, parts, hands)
	}
	code, out, errOut := runCommand(t, "replay", "--check", dir)
	if code != 0 || !strings.HasSuffix(out, " passed, 0 failed\n") {
		t.Errorf("replay --check %s: exit %d, stderr %q, last lines:\n%s", dir, code, errOut, tail(out, 5))
	}
}

// logUnsettled logs what a resumed run said of the hand histories it could not settle (their
// .part files left): why a later check finds .part files.
func logUnsettled(t *testing.T, stderr string) {
	t.Helper()
	for _, line := range strings.Split(stderr, "\n") {
		if strings.Contains(line, "left as "+partExt) {
			t.Log(line)
		}
	}
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
