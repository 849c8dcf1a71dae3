package content

import (
	"bytes"
	"fmt"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

// embedFixture is a site with every kind of link a page embeds from
// content: posts with categories and tags (some none), comments and a reply,
// a draft, a private and a protected post, a child page with a comment (its
// link is the parent's path), a pattern with a pattern category and a menu
// item in a menu (the custom taxonomies).
type embedFixture struct {
	posts              []int64 // every post, page, pattern and menu item
	tag, parent, draft int64
}

func newEmbedFixture(t *testing.T, e *testEnv) embedFixture {
	t.Helper()
	var f embedFixture
	f.tag = e.do(editor, "POST", "/cms/v2/tags", map[string]any{"name": "Zeta"}).id()
	news := e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": "News"}).id()
	for i := range 6 {
		body := map[string]any{"title": fmt.Sprintf("P%d", i), "status": "publish"}
		if i%2 == 0 {
			body["categories"], body["tags"] = []int64{news, 1}, []int64{f.tag}
		}
		id := e.do(editor, "POST", "/cms/v2/posts", body).id()
		f.posts = append(f.posts, id)
		if i%3 == 0 {
			first := e.do(editor, "POST", "/cms/v2/comments", map[string]any{"post": id, "content": "c0"}).id()
			wantStatus(t, e.do(editor, "POST", "/cms/v2/comments", map[string]any{"post": id, "content": "c1", "parent": first}), 201)
		}
	}
	f.draft = f.posts[1]
	wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/posts/%d", f.draft), map[string]any{"status": "draft"}), 200)
	f.parent = e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "Parent", "status": "publish"}).id()
	pc := e.do(admin, "POST", "/cms/v2/cms_pattern_category", map[string]any{"name": "Heroes"}).id()
	menu := e.do(admin, "POST", "/cms/v2/menus", map[string]any{"name": "Main"}).id()
	for _, tc := range []struct {
		base string
		body map[string]any
	}{
		{"pages", map[string]any{"title": "Child", "status": "publish", "parent": f.parent, "comment_status": "open"}},
		{"posts", map[string]any{"title": "Private", "status": "private"}},
		{"posts", map[string]any{"title": "Protected", "status": "publish", "password": "secret"}},
		{"blocks", map[string]any{"title": "Pattern", "status": "publish", "cms_pattern_category": []int64{pc}}},
		{"menu-items", map[string]any{"title": "Home", "url": "https://example.test/", "menus": menu}},
	} {
		r := e.do(admin, "POST", "/cms/v2/"+tc.base, tc.body)
		wantStatus(t, r, 201)
		f.posts = append(f.posts, r.id())
		if tc.base != "blocks" && tc.base != "menu-items" {
			wantStatus(t, e.do(editor, "POST", "/cms/v2/comments", map[string]any{"post": r.id(), "content": "on " + tc.base}), 201)
		}
	}
	return f
}

// lookups are the reads a page of f's posts embeds from content: every
// post's lookups in every taxonomy and its replies, a post that does not
// exist, a variant the embed endpoint leaves to the kit, and the parent
// page (a child page's "up" link).
func (f embedFixture) lookups() []contract.BatchSubRequest {
	var reqs []contract.BatchSubRequest
	for _, id := range append(f.posts, 999999) {
		for _, base := range []string{"categories", "tags", "comments", "cms_pattern_category", "menus"} {
			reqs = append(reqs, contract.BatchSubRequest{Method: "GET", Route: "/cms/v2/" + base, Query: fmt.Sprintf("post=%d&context=embed&per_page=100", id)})
		}
	}
	return append(reqs,
		contract.BatchSubRequest{Method: "GET", Route: "/cms/v2/tags", Query: fmt.Sprintf("post=%d&context=embed&per_page=100&orderby=id", f.posts[0])},
		contract.BatchSubRequest{Method: "GET", Route: fmt.Sprintf("/cms/v2/pages/%d", f.parent), Query: "context=embed"},
		contract.BatchSubRequest{Method: "GET", Route: fmt.Sprintf("/cms/v2/posts/%d", f.draft), Query: "context=embed"})
}

// The embed endpoint answers every read (status and body) byte for byte as
// the read answers alone, for anonymous callers and editors, the first
// time and when its kept answers are used, and again after every kind of
// change those answers are made of: a renamed term, a new comment, a post
// unpublished, the time zone, a parent page's slug. Kept answers cost no
// statement: the read-ahead's three are all a page of lookups costs.
func TestEmbedEndpointAnswers(t *testing.T) {
	e := newEnv(t)
	f := newEmbedFixture(t, e)
	reqs := f.lookups()
	changes := []struct {
		name string
		do   func()
	}{
		{"first", func() {}},
		{"kept", func() {}},
		{"term renamed", func() {
			wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/tags/%d", f.tag), map[string]any{"name": "Omega"}), 200)
		}},
		{"comment added", func() {
			wantStatus(t, e.do(editor, "POST", "/cms/v2/comments", map[string]any{"post": f.posts[2], "content": "late"}), 201)
		}},
		{"post unpublished", func() {
			wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/posts/%d", f.posts[0]), map[string]any{"status": "draft"}), 200)
		}},
		{"time zone", func() {
			wantStatus(t, e.do(admin, "POST", "/cms/v2/settings", map[string]any{"timezone": "Asia/Tokyo"}), 200)
		}},
		{"parent slug", func() {
			wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/pages/%d", f.parent), map[string]any{"slug": "elder"}), 200)
		}},
	}
	for _, ch := range changes {
		ch.do()
		for _, who := range []string{anon, editor} {
			before := e.queries.n.Load()
			got := postEmbed(t, e, who, reqs)
			if n := e.queries.n.Load() - before; ch.name == "kept" && who == anon && n > 3+3 {
				t.Errorf("kept answers: %d statements, want the read-ahead's 3 and the kit's 3 for the variant and the pages", n)
			}
			for i, req := range reqs {
				alone := e.do(who, req.Method, req.Route+"?"+req.Query, nil)
				if got[i].status != alone.Status || !bytes.Equal(got[i].body, alone.Raw) {
					t.Fatalf("%s, %s: %s?%s: embedded %d\n%s\nalone %d\n%s", ch.name, who, req.Route, req.Query,
						got[i].status, got[i].body, alone.Status, alone.Raw)
				}
			}
		}
	}
}

// embedAnswerOf is one framed answer.
type embedAnswerOf struct {
	status int
	body   []byte
}

// postEmbed posts reqs to the embed endpoint as who and splits its framed
// answer.
func postEmbed(t *testing.T, e *testEnv, who string, reqs []contract.BatchSubRequest) []embedAnswerOf {
	t.Helper()
	var body bytes.Buffer
	for _, req := range reqs {
		fmt.Fprintf(&body, "%s %s?%s\n", req.Method, req.Route, req.Query)
	}
	srv, err := e.svc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	h := identity.Middleware(identity.Static(testKey), contract.ServiceContent, nil, nil)(e.svc.EmbedHandler(srv))
	req := httptest.NewRequest("POST", contract.EmbedPath, &body)
	if id := callers[who]; id.LoggedIn() {
		req.Header.Set(contract.IdentityHeader, identity.Sign(identity.NewKey(testKey), contract.ServiceContent, id, time.Now().Add(time.Minute)))
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 200 || rec.Header().Get("Content-Type") != contract.EmbedContentType {
		t.Fatalf("embed status %d (%s): %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	var out []embedAnswerOf
	b := rec.Body.Bytes()
	for len(b) > 0 {
		line, rest, _ := bytes.Cut(b, []byte{'\n'})
		st, size, _ := bytes.Cut(line, []byte{' '})
		status, err1 := strconv.Atoi(string(st))
		n, err2 := strconv.Atoi(string(size))
		if err1 != nil || err2 != nil || n > len(rest) {
			t.Fatalf("malformed frame %q", line)
		}
		out = append(out, embedAnswerOf{status, rest[:n]})
		b = rest[n:]
	}
	if len(out) != len(reqs) {
		t.Fatalf("%d answers for %d reads", len(out), len(reqs))
	}
	return out
}

// lookupPost reads a query as url.ParseQuery does (parsedLookupPost, the
// old postLookup's reading), by hand when it has no escapes.
func TestLookupPost(t *testing.T) {
	tests := []struct{ name, raw string }{
		{"the gateway's", "post=5&context=embed&per_page=100"},
		{"post alone", "post=5"},
		{"twice", "post=5&post=6"},
		{"none", "context=embed&per_page=100"},
		{"another parameter", "post=5&orderby=id"},
		{"empty pairs", "&post=5&&context=embed&"},
		{"no value", "post"},
		{"empty value", "post=&context=embed"},
		{"escaped", "post=%35&context=embed"},
		{"escaped key", "p%6Fst=5"},
		{"plus", "post=5+"},
		{"semicolon", "post=5;context=embed"},
		{"empty", ""},
		{"two equals", "post=5=6"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, gotOK := lookupPost(tc.raw)
			want, wantOK := parsedLookupPost(tc.raw)
			if got != want || gotOK != wantOK {
				t.Fatalf("%q: %q %v, want %q %v", tc.raw, got, gotOK, want, wantOK)
			}
		})
	}
}

// The embed endpoint's request is reads only, one a line.
func TestEmbedCalls(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string // method and path of each call; nil: refused
	}{
		{"two reads", "GET /cms/v2/tags?post=5&context=embed\nHEAD /cms/v2/pages/3\n", []string{"GET /cms/v2/tags?post=5&context=embed", "HEAD /cms/v2/pages/3"}},
		{"no last newline", "GET /cms/v2/tags", []string{"GET /cms/v2/tags"}},
		{"a query with a space", "GET /cms/v2/tags?search=a b\n", []string{"GET /cms/v2/tags?search=a b"}},
		{"a write", "GET /cms/v2/tags\nPOST /cms/v2/tags\n", nil},
		{"lower case", "get /cms/v2/tags\n", nil},
		{"no path", "GET\n", nil},
		{"not a route", "GET cms/v2/tags\n", nil},
		{"an empty line", "GET /cms/v2/tags\n\nGET /cms/v2/tags\n", nil},
		{"empty", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			calls, ok := embedCalls(tc.body)
			if ok != (tc.want != nil) || len(calls) != len(tc.want) {
				t.Fatalf("%d calls (%v), want %q", len(calls), ok, tc.want)
			}
			for i, c := range calls {
				if got := c.Method + " " + c.Path; got != tc.want[i] {
					t.Fatalf("call %d: %q, want %q", i, got, tc.want[i])
				}
			}
		})
	}
}
