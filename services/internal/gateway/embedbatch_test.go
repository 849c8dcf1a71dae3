package gateway

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/gateway/edgecache"
	"siteplane.dev/services/internal/gateway/migrations"
	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// embedSite is a gateway in front of a kit service holding 100 posts, each
// linking an author (a gateway user), featured media (one item; every
// tenth refused), its tags and its replies (collections), and counting the
// HTTP requests the service receives. With framed, the service also has
// content's embed endpoint (contract.EmbedPath), answering as its batch
// endpoint does.
type embedSite struct {
	gw       *Gateway
	requests atomic.Int64
}

func newEmbedSite(t *testing.T, framed bool) *embedSite {
	t.Helper()
	pool := pgtest.NewPool(t, "gateway", migrations.FS)
	store := accounts.New(pool, accounts.NewHasher(testKey))
	if _, err := store.Bootstrap(context.Background(), accounts.Admin{Login: "admin", Email: "admin@example.com", Password: accounts.GeneratePassword()}); err != nil {
		t.Fatal(err)
	}
	ctxArg := rest.Prop{Name: "context", Schema: &rest.Schema{Type: "string", Enum: []any{"view", "embed", "edit"}, Default: "view"}}
	perPage := rest.Prop{Name: "per_page", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(1.0), Maximum: rest.Ptr(100.0), Default: 10}}
	postArg := rest.Prop{Name: "post", Schema: &rest.Schema{Type: "integer"}}
	list := func(r *rest.Request) (*rest.Response, error) {
		var out []rest.Item
		for id := int64(1); id <= min(100, r.Int("per_page")); id++ {
			out = append(out, rest.Item{Data: rest.Object{{Key: "id", Value: id}, {Key: "title", Value: fmt.Sprintf("post %d", id)}},
				Links: rest.Links{
					{Rel: "self", Href: r.URL(fmt.Sprintf("/cms/v2/posts/%d", id))},
					rest.EmbeddableLink("author", r.URL("/cms/v2/users/1")),
					rest.EmbeddableLink(rest.APIRelPrefix+"featuredmedia", r.URL(fmt.Sprintf("/cms/v2/media/%d", id))),
					rest.EmbeddableLink(rest.APIRelPrefix+"term", r.URL(fmt.Sprintf("/cms/v2/tags?post=%d", id))),
					rest.EmbeddableLink("replies", r.URL(fmt.Sprintf("/cms/v2/comments?post=%d", id))),
				}})
		}
		return rest.OK(out), nil
	}
	media := func(r *rest.Request) (*rest.Response, error) {
		id := r.Int("id")
		if id%10 == 7 {
			return nil, rest.Forbidden(r)
		}
		return rest.OK(rest.Object{{Key: "id", Value: id}, {Key: "source_url", Value: fmt.Sprintf("%s/cms-content/uploads/%d.jpg", siteURL, id)}}), nil
	}
	children := func(kind string) rest.HandlerFunc {
		return func(r *rest.Request) (*rest.Response, error) {
			out := []any{}
			if p := r.Int("post"); kind == "tags" || p%2 == 1 {
				out = append(out, rest.Object{{Key: "id", Value: p}, {Key: "name", Value: fmt.Sprintf("%s of %d", kind, p)}})
			}
			return rest.OK(out), nil
		}
	}
	get := func(h rest.HandlerFunc, args ...rest.Prop) []rest.Endpoint {
		return []rest.Endpoint{{Methods: rest.Readable, Args: args, Handler: h}}
	}
	srv, err := rest.New(rest.Options{RootURL: siteURL + RESTPrefix + "/", Caller: callerOf},
		rest.Route{Namespace: "cms/v2", Path: "/posts", Endpoints: get(list, ctxArg, perPage, rest.Prop{Name: "page", Schema: &rest.Schema{Type: "integer"}})},
		rest.Route{Namespace: "cms/v2", Path: `/media/(?P<id>[\d]+)`, Endpoints: get(media, ctxArg)},
		rest.Route{Namespace: "cms/v2", Path: "/tags", Endpoints: get(children("tags"), ctxArg, perPage, postArg)},
		rest.Route{Namespace: "cms/v2", Path: "/comments", Endpoints: get(children("comments"), ctxArg, perPage, postArg)})
	if err != nil {
		t.Fatal(err)
	}
	noop := func(context.Context) error { return nil }
	mux := http.NewServeMux()
	mux.Handle(contract.RouteDescriptionsPath, srv.IndexHandler())
	mux.Handle(contract.BatchPath, rest.TxBatchHandler(srv, func(ctx context.Context, _ []rest.Call) (*rest.Tx, error) {
		return &rest.Tx{Context: ctx, Commit: noop, Rollback: noop}, nil
	}, nil))
	if framed {
		mux.Handle(contract.EmbedPath, framedHandler(srv))
	}
	mux.Handle("/", srv)
	s := &embedSite{}
	svc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != contract.RouteDescriptionsPath {
			s.requests.Add(1)
		}
		mux.ServeHTTP(w, r)
	}))
	t.Cleanup(svc.Close)
	tb, err := routing.Compile(contract.DefaultRoutes(map[string]string{contract.ServiceContent: svc.URL, contract.ServiceMedia: svc.URL}))
	if err != nil {
		t.Fatal(err)
	}
	c := edgecache.New(16 << 20)
	c.SetOnline(true)
	s.gw, err = New(Config{Store: store, Routes: routing.NewStatic(tb), Proxy: routing.NewProxy(routing.ProxyConfig{}, rest.WriteErrorCode, nil),
		Keys: identity.Static(testKey), Secret: testKey, Site: contract.DefaultSite(siteURL), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Cache: c})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// get answers target anonymously and says how many requests the service
// received meanwhile.
func (s *embedSite) get(t *testing.T, target string) (string, int64) {
	t.Helper()
	before := s.requests.Load()
	rec := httptest.NewRecorder()
	s.gw.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
	if rec.Code != 200 {
		t.Fatalf("%s: %d %s", target, rec.Code, rec.Body)
	}
	return rec.Body.String(), s.requests.Load() - before
}

// _embed fetches linked resources in batches: one call per service instead
// of one per link (issue 26: 302 requests for 100 posts), with
// the same answer as fetching each link alone; an anonymous caller's
// embedded resources then come from the edge cache, so a cache-buster costs
// only the list itself.
func TestEmbedFetchesInBatches(t *testing.T) {
	serial := newEmbedSite(t, false)
	prefetchEmbeds = false
	want, oneByOne := serial.get(t, "/cms-json/cms/v2/posts?per_page=100&_embed")
	prefetchEmbeds = true
	if oneByOne < 300 {
		t.Fatalf("one link at a time cost %d requests, want 301 (the reference)", oneByOne)
	}
	for _, framed := range []bool{false, true} {
		t.Run(fmt.Sprintf("framed=%v", framed), func(t *testing.T) {
			embedInBatches(t, newEmbedSite(t, framed), framed, want)
		})
	}
	if !strings.Contains(want, `"rest_forbidden"`) || !strings.Contains(want, `"comments of 1"`) {
		t.Fatalf("reference without the refused media or the replies: %.300s", want)
	}
}

// embedInBatches checks s's embedded pages against want, the answer of one
// link at a time: through content's embed endpoint (framed) or, for a
// service without it, its batch endpoint, the page costs the same calls.
func embedInBatches(t *testing.T, s *embedSite, framed bool, want string) {
	tests := []struct {
		name, target string
		// most is the calls with the embed endpoint; a service without
		// it (an old replica during a rollout) is asked on it first, then
		// on its batch endpoint: one call more for content's links
		most, unframed int64
	}{
		// The list, then 100 media and 200 tags and replies, one call
		// each (not one per 100 links: content would read the page's
		// posts ahead for every call); the author is the gateway's own.
		{"first page", "/cms-json/cms/v2/posts?per_page=100&_embed", 3, 4},
		// A cache-buster misses the edge cache for the list, not for what
		// it embeds: only the refused media (errors are never cached) are
		// asked again, in one call.
		{"cache-buster", "/cms-json/cms/v2/posts?per_page=100&_embed&buster=1", 2, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, n := s.get(t, tc.target)
			if got != want {
				t.Fatalf("answer differs from one link at a time:\n%.400s\nwant\n%.400s", got, want)
			}
			most := tc.most
			if !framed {
				most = tc.unframed
			}
			if n > most {
				t.Fatalf("%d requests to the service, want at most %d", n, most)
			}
		})
	}
}

// framedHandler is content's embed endpoint for srv's routes: each request
// run as the batch endpoint runs a read, answered framed.
func framedHandler(srv *rest.Server) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var out bytes.Buffer
		for _, line := range strings.Split(strings.TrimSuffix(string(body), "\n"), "\n") {
			method, path, _ := strings.Cut(line, " ")
			res := srv.Do(r.Context(), rest.Call{Method: method, Path: path})
			fmt.Fprintf(&out, "%d %d\n%s", res.Status, len(res.Body), res.Body)
		}
		w.Header().Set("Content-Type", contract.EmbedContentType)
		_, _ = w.Write(out.Bytes())
	})
}

// At most maxEmbedded distinct links are resolved for one answer.
func TestEmbedIsCapped(t *testing.T) {
	s := newEmbedSite(t, true)
	defer func(n int) { maxEmbedded = n }(maxEmbedded)
	maxEmbedded = 7
	got, _ := s.get(t, "/cms-json/cms/v2/posts?per_page=100&_embed")
	// In order: the author, media 1, tags and replies of post 1, then
	// media 2, tags and replies of post 2; nothing of post 3 on.
	if media, tags := strings.Count(got, `"source_url"`), strings.Count(got, `"tags of`); media != 2 || tags != 2 {
		t.Fatalf("%d media and %d tags embedded, want 2 and 2", media, tags)
	}
}

// splitFramed takes exactly the responses an embed answer frames, bodies
// as they are, and refuses anything else (the caller then asks the batch
// endpoint).
func TestSplitFramed(t *testing.T) {
	tests := []struct {
		name, in string
		n        int
		want     []framedAnswer
	}{
		{"two", "200 2\n[]401 12\n{\"code\":\"x\"}", 2, []framedAnswer{{200, []byte("[]")}, {401, []byte(`{"code":"x"}`)}}},
		{"a body with newlines", "200 5\n[\n1\n]", 1, []framedAnswer{{200, []byte("[\n1\n]")}}},
		{"empty body", "200 0\n", 1, []framedAnswer{{200, []byte{}}}},
		{"none", "", 0, []framedAnswer{}},
		{"too few", "200 2\n[]", 2, nil},
		{"too many", "200 2\n[]200 2\n[]", 1, nil},
		{"short body", "200 9\n[]", 1, nil},
		{"no length", "200\n[]", 1, nil},
		{"bad status", "abc 2\n[]", 1, nil},
		{"status out of range", "20 2\n[]", 1, nil},
		{"negative length", "200 -1\n", 1, nil},
		{"no newline", "200 2", 1, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := splitFramed([]byte(tc.in), tc.n)
			if tc.want == nil {
				if err == nil {
					t.Fatalf("split %q into %d answers, want an error", tc.in, len(got))
				}
				return
			}
			if err != nil || len(got) != len(tc.want) {
				t.Fatalf("got %d answers (%v), want %d", len(got), err, len(tc.want))
			}
			for i := range got {
				if got[i].status != tc.want[i].status || !bytes.Equal(got[i].body, tc.want[i].body) {
					t.Fatalf("answer %d: %d %q, want %d %q", i, got[i].status, got[i].body, tc.want[i].status, tc.want[i].body)
				}
			}
		})
	}
}

// readBody reads what io.ReadAll of the limited body read, in one buffer
// when the length is known, and fails on a body shorter than its length.
func TestReadBody(t *testing.T) {
	tests := []struct {
		name, body string
		n, limit   int64
		want       string
		fails      bool
	}{
		{"length known", "abcdef", 6, 100, "abcdef", false},
		{"length unknown", "abcdef", -1, 100, "abcdef", false},
		{"unknown, over the limit", "abcdef", -1, 4, "abcd", false},
		{"known, over the limit", "abcdef", 6, 4, "abcd", false},
		{"shorter than its length", "abc", 6, 100, "", true},
		{"empty", "", 0, 100, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readBody(strings.NewReader(tc.body), tc.n, tc.limit)
			if (err != nil) != tc.fails || (!tc.fails && string(got) != tc.want) {
				t.Fatalf("got %q, %v; want %q (fails %v)", got, err, tc.want, tc.fails)
			}
		})
	}
}

// Embedded pages served at once get their own answers: the pooled buffers
// (embedpool.go) an answer was read into and built in go back only after
// its last byte was written, never while another answer uses them.
func TestEmbedPagesConcurrently(t *testing.T) {
	s := newEmbedSite(t, true)
	pages := []string{"per_page=100", "per_page=37", "per_page=5"}
	want := map[string]string{}
	for _, p := range pages {
		want[p], _ = s.get(t, "/cms-json/cms/v2/posts?_embed&"+p)
	}
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for i := range 40 {
				p := pages[(g+i)%len(pages)]
				rec := httptest.NewRecorder()
				// a cache-buster: the list itself is read and embedded anew
				s.gw.ServeHTTP(rec, httptest.NewRequest("GET", fmt.Sprintf("/cms-json/cms/v2/posts?_embed&%s&buster=%d-%d", p, g, i), nil))
				if rec.Code != 200 || rec.Body.String() != want[p] {
					t.Errorf("%s (goroutine %d, round %d): %d, answer differs:\n%.300s", p, g, i, rec.Code, rec.Body)
					return
				}
			}
		})
	}
	wg.Wait()
}
