// Package routing holds the gateway's route table: the contract route file
// compiled for longest-prefix matching, hot-reloaded from disk with an atomic
// swap, and the reverse proxy that forwards a request to the owning service.
package routing

import (
	"net/url"
	"sort"
	"strings"

	"siteplane.dev/services/pkg/contract"
)

// Table is an immutable, compiled route file. A new file produces a new
// Table; readers never see a half-updated one.
type Table struct {
	File     contract.RouteFile
	backends map[string]*Backend
	rest     []entry // longest prefix first
	public   []entry
}

// Backend is a compiled contract.Backend.
type Backend struct {
	contract.Backend
	Base *url.URL
}

type entry struct {
	prefix  string // lower-cased, without trailing slash
	backend *Backend
	site    bool
}

// Compile validates f and builds its lookup structures.
func Compile(f contract.RouteFile) (*Table, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	t := &Table{File: f, backends: map[string]*Backend{}}
	for _, b := range f.Services {
		u, _ := url.Parse(strings.TrimSuffix(b.URL, "/")) // Validate checked it
		t.backends[b.Name] = &Backend{Backend: b, Base: u}
	}
	for _, r := range f.Routes {
		e := entry{prefix: normalizePrefix(r.Prefix), backend: t.backends[r.Service], site: r.Site}
		if r.Public {
			t.public = append(t.public, e)
		} else {
			t.rest = append(t.rest, e)
		}
	}
	for _, l := range [][]entry{t.rest, t.public} {
		sort.SliceStable(l, func(i, j int) bool { return len(l[i].prefix) > len(l[j].prefix) })
	}
	return t, nil
}

func normalizePrefix(p string) string {
	p = strings.ToLower(strings.TrimRight(p, "/"))
	return p
}

// MatchREST returns the backend owning a REST route ("/cms/v2/posts/5"):
// the longest prefix that matches on whole path segments, compared
// case-insensitively because WordPress matches routes that way.
func (t *Table) MatchREST(route string) (*Backend, bool) { return match(t.rest, route) }

// MatchPublic returns the backend of a raw public URL path ("/api/v1/...").
func (t *Table) MatchPublic(path string) (*Backend, bool) {
	b, _, ok := t.MatchPublicSite(path)
	return b, ok
}

// MatchPublicSite is MatchPublic that also tells whether the matching route
// is the website's (contract.Route.Site).
func (t *Table) MatchPublicSite(path string) (b *Backend, site, ok bool) {
	e, ok := matchEntry(t.public, path)
	if !ok || (e.site && contract.IsSiteReserved(path)) {
		// reserved paths (/api, /cms-admin, …) never become pages
		return nil, false, false
	}
	return e.backend, e.site, true
}

func match(entries []entry, p string) (*Backend, bool) {
	e, ok := matchEntry(entries, p)
	return e.backend, ok
}

func matchEntry(entries []entry, p string) (entry, bool) {
	lp := strings.ToLower(p)
	for _, e := range entries {
		if segmentPrefix(lp, e.prefix) {
			return e, true
		}
	}
	return entry{}, false
}

// segmentPrefix reports whether prefix is p or a leading run of whole
// segments of p: "/cms/v2/media" owns "/cms/v2/media/5" but not "/cms/v2/mediax".
func segmentPrefix(p, prefix string) bool {
	if prefix == "" {
		return true
	}
	if !strings.HasPrefix(p, prefix) {
		return false
	}
	return len(p) == len(prefix) || p[len(prefix)] == '/'
}

// Backend returns a backend by service name.
func (t *Table) Backend(name string) (*Backend, bool) {
	b, ok := t.backends[name]
	return b, ok
}

// Describing lists the backends that publish route descriptions, in file order.
func (t *Table) Describing() []*Backend {
	var out []*Backend
	for _, b := range t.File.Services {
		if b.Describes {
			out = append(out, t.backends[b.Name])
		}
	}
	return out
}
