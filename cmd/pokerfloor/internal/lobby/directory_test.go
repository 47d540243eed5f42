package lobby

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
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

// TestDirectoryServesTables: a listing's Tables handler gets "/PATH/table/..." with "/PATH"
// stripped, query and all, while the rest of "/PATH/" stays the lobby's; a tournament not started
// serves no table.
func TestDirectoryServesTables(t *testing.T) {
	tables := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s?%s", r.URL.Path, r.URL.RawQuery)
	})
	d := NewDirectory(DirectoryConfig{List: func(context.Context) ([]Listing, error) {
		return []Listing{
			{Path: "default/spring", ID: "uid-1", Source: &fakeSource{}, Structure: turbo(t), Tables: tables},
			{Path: "default/autumn", Tables: tables},
		}, nil
	}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); d.Run(ctx) }()
	defer func() { cancel(); <-done }()
	srv := httptest.NewServer(d.Handler())
	defer srv.Close()
	for _, c := range []struct {
		path, want string
		code       int
	}{
		{"/default/spring/table/2/ws?token=t", "/table/2/ws?token=t", http.StatusOK},
		{"/default/spring/table/2/", "/table/2/?", http.StatusOK},
		{"/default/spring/static/lobby.js", "", http.StatusOK}, // the lobby's own asset
		{"/default/autumn/table/1/", "has not started", http.StatusServiceUnavailable},
	} {
		res, err := http.Get(srv.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.code || !strings.Contains(string(body), c.want) {
			t.Errorf("GET %s: %d %q, want %d with %q", c.path, res.StatusCode, body, c.code, c.want)
		}
	}
}
