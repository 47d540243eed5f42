package lobby

import (
	"context"
	"html/template"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/pokerfloor/pokerfloor/workflows/floor"
)

// Listing is one tournament of a Directory.
type Listing struct {
	// Path is where its lobby is served under the directory: "NAMESPACE/NAME" in a cluster.
	Path string
	// ID tells one tournament from another listed at the same path before (deleted and made
	// again): its workflow's ID.
	ID string
	// Name is what the list shows.
	Name string
	// Source reads the tournament; nil while it has not started (no workflow yet).
	Source    Source
	Structure floor.Structure
	// Phase is a word on the tournament's state for the list (the Tournament's status.phase).
	Phase string
	// Watch gives a table's spectator page for the lobby's links (Config.Watch), relative to the
	// lobby page; nil: no links.
	Watch func(table int) string
	// Tables serves the tournament's tables to spectators under "/PATH/table/", with "/PATH"
	// stripped; nil: none.
	Tables http.Handler
	// Play is the tournament's one address for its players (a Gateway), served at "/PATH/play";
	// nil: none.
	Play http.Handler
}

// DirectoryConfig is a Directory's.
type DirectoryConfig struct {
	// List gives the tournaments, in the order the list shows them. It is called for the list
	// and for each page's first request, so it should read a cache (the manager's informers).
	List func(ctx context.Context) ([]Listing, error)
	// Every is how often an open lobby reads its tournament (default a second).
	Every  time.Duration
	Logger *slog.Logger
}

// Directory serves the lobbies of many tournaments (the manager's): the list at "/", and each
// tournament's lobby, the page `pokerfloor run --web` serves, under "/PATH/". A tournament's
// lobby reads it only while a page of it is open; a lobby whose tournament is no longer listed
// is stopped.
type Directory struct {
	cfg DirectoryConfig

	mu      sync.Mutex
	ctx     context.Context // Run's: the lobbies read until it ends; nil before Run
	lobbies map[string]*directoryLobby
}

type directoryLobby struct {
	id      string
	srv     *Server
	handler http.Handler
	stop    context.CancelFunc
	done    chan struct{}
}

// NewDirectory returns a directory; Run keeps its lobbies.
func NewDirectory(cfg DirectoryConfig) *Directory {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Directory{cfg: cfg, lobbies: map[string]*directoryLobby{}}
}

// Run lets the lobbies read their tournaments until ctx ends, then stops them (which ends their
// pages' event streams) and returns.
func (d *Directory) Run(ctx context.Context) {
	d.mu.Lock()
	d.ctx = ctx
	d.mu.Unlock()
	<-ctx.Done()
	d.mu.Lock()
	lobbies := d.lobbies
	d.lobbies = map[string]*directoryLobby{}
	d.mu.Unlock()
	for _, l := range lobbies {
		l.stop()
		<-l.done
	}
}

// Handler serves the list at "/" and each tournament's lobby under "/PATH/", its tables under
// "/PATH/table/" and its players' gateway at "/PATH/play" when its Listing serves them.
func (d *Directory) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", d.serveList)
	mux.HandleFunc("/", d.serveLobby)
	return mux
}

var listPage = template.Must(template.New("list").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>pokerfloor: tournaments</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;background:#0b1a12;color:#e8efe9}a{color:#9fe0b5}td,th{padding:.3rem 1rem;text-align:left}</style>
</head><body><h1>Tournaments</h1>
{{if .}}<table><tr><th>Tournament</th><th>Where</th><th>Phase</th></tr>
{{range .}}<tr><td>{{if .Source}}<a href="{{.Path}}/">{{.Name}}</a>{{else}}{{.Name}}{{end}}</td><td>{{.Path}}</td><td>{{if .Source}}{{.Phase}}{{else}}not started{{end}}</td></tr>
{{end}}</table>{{else}}<p>No tournament yet.</p>{{end}}
</body></html>
`))

func (d *Directory) serveList(w http.ResponseWriter, r *http.Request) {
	ls, err := d.cfg.List(r.Context())
	if err != nil {
		d.cfg.Logger.Warn("lobby: listing the tournaments", "err", err)
		http.Error(w, "the tournaments cannot be listed: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	d.forget(ls)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_ = listPage.Execute(w, ls)
}

// serveLobby serves "/PATH/..." from the lobby of the tournament listed at PATH, the longest
// listed path the request's starts with.
func (d *Directory) serveLobby(w http.ResponseWriter, r *http.Request) {
	ls, err := d.cfg.List(r.Context())
	if err != nil {
		http.Error(w, "the tournaments cannot be listed: "+err.Error(), http.StatusServiceUnavailable)
		return
	}
	var found *Listing
	for i, l := range ls {
		p := "/" + l.Path
		if (r.URL.Path == p || strings.HasPrefix(r.URL.Path, p+"/")) && (found == nil || len(l.Path) > len(found.Path)) {
			found = &ls[i]
		}
	}
	if found == nil {
		http.Error(w, "no tournament at "+r.URL.Path+": the list at / has the tournaments served", http.StatusNotFound)
		return
	}
	prefix := "/" + found.Path
	if r.URL.Path == prefix {
		http.Redirect(w, r, prefix+"/", http.StatusFound) // the page's assets are relative to it
		return
	}
	if found.Source == nil {
		http.Error(w, "tournament "+found.Path+" has not started: its lobby opens with its workflow", http.StatusServiceUnavailable)
		return
	}
	if found.Play != nil && r.URL.Path == prefix+"/play" {
		found.Play.ServeHTTP(w, r)
		return
	}
	if found.Tables != nil && strings.HasPrefix(r.URL.Path, prefix+"/table/") {
		http.StripPrefix(prefix, found.Tables).ServeHTTP(w, r)
		return
	}
	l := d.lobby(*found)
	if l == nil {
		http.Error(w, "the lobby is closed", http.StatusServiceUnavailable)
		return
	}
	http.StripPrefix(prefix, l.handler).ServeHTTP(w, r)
}

// lobby returns the running lobby of l, started if it was not; nil before Run or after it.
func (d *Directory) lobby(l Listing) *directoryLobby {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ctx == nil || d.ctx.Err() != nil {
		return nil
	}
	if dl := d.lobbies[l.Path]; dl != nil {
		if dl.id == l.ID {
			return dl
		}
		dl.stop() // another tournament under the same name
	}
	srv := New(Config{Source: l.Source, Structure: l.Structure, Watch: l.Watch, Every: d.cfg.Every, Logger: d.cfg.Logger.With("tournament", l.Path)})
	ctx, stop := context.WithCancel(d.ctx)
	dl := &directoryLobby{id: l.ID, srv: srv, handler: srv.Handler(), stop: stop, done: make(chan struct{})}
	go func() { defer close(dl.done); srv.Run(ctx) }()
	d.lobbies[l.Path] = dl
	return dl
}

// forget stops the lobbies of tournaments no longer listed (deleted ones).
func (d *Directory) forget(ls []Listing) {
	listed := make(map[string]string, len(ls))
	for _, l := range ls {
		if l.Source != nil {
			listed[l.Path] = l.ID
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for path, dl := range d.lobbies {
		if id, ok := listed[path]; !ok || id != dl.id {
			dl.stop()
			delete(d.lobbies, path)
		}
	}
}

// Lobbies is how many tournaments' lobbies run.
func (d *Directory) Lobbies() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.lobbies)
}
