package main

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
)

// --pprof serves a goroutine dump (and the other profiles) while the run goes on, and says where.
func TestPprofServesProfiles(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	stop := servePprof(ln, &out)
	defer stop()
	base := "http://" + ln.Addr().String() + "/debug/pprof/"
	if !strings.Contains(out.String(), base) {
		t.Errorf("said %q, want the address %s", out.String(), base)
	}
	for _, path := range []string{"", "goroutine?debug=1", "heap?debug=1"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || len(body) == 0 {
			t.Errorf("GET %s: %s, %d bytes", base+path, resp.Status, len(body))
		}
		if path == "goroutine?debug=1" && !strings.Contains(string(body), "goroutine profile: total") {
			t.Errorf("GET %s: not a goroutine profile: %.200s", base+path, body)
		}
	}
	stop()
	if _, err := http.Get(base); err == nil {
		t.Error("the profiling endpoints still answer after stop")
	}
}
