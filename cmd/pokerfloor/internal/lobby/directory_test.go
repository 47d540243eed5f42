package lobby

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// TestDirectoryFollowsItsList: a tournament deleted and made again under the same name (a new
// workflow ID) gets a lobby of its own, reading the new tournament, not the old one's.
func TestDirectoryFollowsItsList(t *testing.T) {
	var mu sync.Mutex
	old, renewed := &fakeSource{}, &fakeSource{level: 40}
	listing := Listing{Path: "default/spring", ID: "default/spring/uid-1", Name: "Spring", Source: old, Structure: turbo(t)}
	d := NewDirectory(DirectoryConfig{Every: 10 * time.Millisecond, List: func(context.Context) ([]Listing, error) {
		mu.Lock()
		defer mu.Unlock()
		return []Listing{listing}, nil
	}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx) }()
	srv := httptest.NewServer(d.Handler())
	defer srv.Close()
	level := func() int {
		for {
			res, err := http.Get(srv.URL + "/default/spring/board.json")
			if err != nil {
				t.Fatal(err)
			}
			var b Board
			err = json.NewDecoder(res.Body).Decode(&b)
			res.Body.Close()
			if res.StatusCode == http.StatusOK && err == nil {
				return b.Level
			}
			if ctx.Err() != nil {
				t.Fatalf("no board: %s", res.Status)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if l := level(); l < 1 || l >= 40 {
		t.Fatalf("the first tournament's board is at level %d", l)
	}
	mu.Lock()
	listing.ID, listing.Source = "default/spring/uid-2", renewed
	mu.Unlock()
	if l := level(); l <= 40 {
		t.Errorf("after the tournament was made again the board is at level %d, the old one's", l)
	}
	if d.Lobbies() != 1 {
		t.Errorf("%d lobbies, want the new tournament's alone", d.Lobbies())
	}
	cancel()
	<-done
}
