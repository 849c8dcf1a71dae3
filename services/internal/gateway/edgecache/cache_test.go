package edgecache

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"siteplane.dev/services/internal/platform/rest"
)

func entry(body string) *Entry {
	return &Entry{Status: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}
}

func TestKeyNormalisesQueryAndVaryHeaders(t *testing.T) {
	h := func(kv ...string) http.Header {
		out := http.Header{}
		for i := 0; i < len(kv); i += 2 {
			out.Add(kv[i], kv[i+1])
		}
		return out
	}
	// REST queries are keyed as the route kit reads them.
	keys := []struct {
		a, b string
		same bool
	}{
		{"per_page=2&page=1", "page=1&per_page=2", true},
		{"search=a%20b", "search=a+b", true},
		{"%70age=1", "page=1", true},
		{"a=1&&b=2", "b=2&a=1", true},
		{"per.page=3", "per_page=3", true},
		{"+_fields=id", "_fields=id", true},
		// PHP reads "." as "_" and keeps the last of equal names: these are
		// per_page=3 and per_page=1 (issue 26: one entry for both).
		{"per_page=1&per.page=3", "per.page=3&per_page=1", false},
		{"per_page=1&per_page=3", "per_page=3&per_page=1", false},
		{"a[]=1&a[]=2", "a[]=2&a[]=1", false},
		{"a[x]=1&a[y]=2", "a[y]=2&a[x]=1", true},
	}
	for _, c := range keys {
		ka, kb := Key("GET", "rest:", "/cms/v2/posts", RESTQuery(c.a), nil), Key("GET", "rest:", "/cms/v2/posts", RESTQuery(c.b), nil)
		if (ka == kb) != c.same {
			t.Errorf("%q and %q: same key %v, want %v", c.a, c.b, ka == kb, c.same)
		}
	}
	q := RESTQuery("a[]=1&a[]=2")
	base := Key("GET", "rest:", "/cms/v2/posts", q, h("Origin", "https://a.example"))
	differ := map[string]string{
		"value order of one name": Key("GET", "rest:", "/cms/v2/posts", RESTQuery("a[]=2&a[]=1"), h("Origin", "https://a.example")),
		"method":                  Key("HEAD", "rest:", "/cms/v2/posts", q, h("Origin", "https://a.example")),
		"kind":                    Key("GET", "file:", "/cms/v2/posts", q, h("Origin", "https://a.example")),
		"path":                    Key("GET", "rest:", "/cms/v2/pages", q, h("Origin", "https://a.example")),
		"origin":                  Key("GET", "rest:", "/cms/v2/posts", q, h("Origin", "https://b.example")),
		"no origin":               Key("GET", "rest:", "/cms/v2/posts", q, nil),
		"accept-language":         Key("GET", "rest:", "/cms/v2/posts", q, h("Origin", "https://a.example", "Accept-Language", "fr")),
	}
	for what, k := range differ {
		if k == base {
			t.Errorf("%s: same key", what)
		}
	}
	// Headers outside VaryHeaders do not split the cache.
	if Key("GET", "rest:", "/x", "", h("User-Agent", "a")) != Key("GET", "rest:", "/x", "", h("User-Agent", "b")) {
		t.Error("User-Agent splits the key")
	}
	if got := NormalizeQuery("b=%zz&a=1"); got != "b=%zz&a=1" {
		t.Errorf("malformed query rewritten: %q", got)
	}
}

func TestCacheableSafeStorable(t *testing.T) {
	req := func(method, target string, hdr ...string) (*http.Request, rest.Query) {
		r := httptest.NewRequest(method, target, nil)
		for i := 0; i < len(hdr); i += 2 {
			r.Header.Set(hdr[i], hdr[i+1])
		}
		return r, rest.ParseQuery(r.URL.RawQuery)
	}
	cases := []struct {
		name            string
		method, target  string
		hdr             []string
		cacheable, safe bool
	}{
		{"anonymous GET", "GET", "/x?a=1", nil, true, true},
		{"anonymous HEAD", "HEAD", "/x", nil, true, true},
		{"OPTIONS", "OPTIONS", "/x", nil, false, true},
		{"POST", "POST", "/x", nil, false, false},
		{"DELETE", "DELETE", "/x", nil, false, false},
		{"basic auth", "GET", "/x", []string{"Authorization", "Basic YTpi"}, false, true},
		{"cookie", "GET", "/x", []string{"Cookie", "a=b"}, false, true},
		{"nonce header", "GET", "/x", []string{"X-WP-Nonce", "abc"}, false, true},
		{"nonce query", "GET", "/x?_wpnonce=abc", nil, false, true},
		{"_method", "GET", "/x?_method=DELETE", nil, false, false},
		{"override header", "GET", "/x", []string{"X-HTTP-Method-Override", "DELETE"}, false, false},
		// Every spelling the route kit reads as _method (issue 26: an
		// authenticated GET ...?+_method=POST wrote without invalidating).
		{"_method after a blank", "GET", "/x?+_method=POST", nil, false, false},
		{"_method percent-encoded", "GET", "/x?%5Fmethod=POST", nil, false, false},
		{"_method after an encoded blank", "GET", "/x?%20_method=POST", nil, false, false},
		{"_wpnonce after a blank", "GET", "/x?+_wpnonce=abc", nil, false, true},
	}
	for _, c := range cases {
		r, q := req(c.method, c.target, c.hdr...)
		if got := Cacheable(r, q); got != c.cacheable {
			t.Errorf("%s: Cacheable %v, want %v", c.name, got, c.cacheable)
		}
		if got := Safe(r, q); got != c.safe {
			t.Errorf("%s: Safe %v, want %v", c.name, got, c.safe)
		}
	}
	for _, c := range []struct {
		name   string
		status int
		hdr    http.Header
		want   bool
	}{
		{"plain 200", 200, http.Header{}, true},
		{"vary origin", 200, http.Header{"Vary": {"Origin, Accept-Encoding"}}, true},
		{"vary cookie", 200, http.Header{"Vary": {"Origin, Cookie"}}, false},
		{"vary star", 200, http.Header{"Vary": {"*"}}, false},
		{"set-cookie", 200, http.Header{"Set-Cookie": {"a=b"}}, false},
		{"no-store", 200, http.Header{"Cache-Control": {"no-cache, must-revalidate, max-age=0, no-store, private"}}, false},
		{"private", 200, http.Header{"Cache-Control": {"Private"}}, false},
		{"public max-age", 200, http.Header{"Cache-Control": {"public, max-age=60"}}, true},
		// A private attachment's file as media serves it (issue 26).
		{"private file", 200, http.Header{"Cache-Control": {"private, no-cache"}}, false},
		{"private naming fields", 200, http.Header{"Cache-Control": {`private="Set-Cookie"`}}, false},
		{"no-store in a second line", 200, http.Header{"Cache-Control": {"public, max-age=60", "No-Store"}}, false},
		{"no-cache naming fields", 200, http.Header{"Cache-Control": {`max-age=60, no-cache="X-Token"`}}, false},
		{"404", 404, http.Header{}, false},
		{"500", 500, http.Header{}, false},
	} {
		if got := Storable(c.status, c.hdr); got != c.want {
			t.Errorf("%s: Storable %v, want %v", c.name, got, c.want)
		}
	}
}

func TestBudgetAndLRU(t *testing.T) {
	c := New(8 * 1024)
	c.SetOnline(true)
	gen, _ := c.Generation()
	if c.Put("huge", gen, entry(strings.Repeat("x", 1100))) {
		t.Fatal("an answer above budget/8 was stored")
	}
	body := strings.Repeat("y", 600)
	for i := range 20 {
		c.Put(string(rune('a'+i)), gen, entry(body))
		if _, ok := c.Get("a"); !ok && i < 5 {
			t.Fatalf("the most recently used entry was evicted after %d puts", i+1)
		}
	}
	s := c.Stats()
	if s.Bytes > s.Budget {
		t.Fatalf("%d bytes used over a budget of %d", s.Bytes, s.Budget)
	}
	if s.Evictions == 0 || s.Entries >= 20 {
		t.Fatalf("nothing evicted: %+v", s)
	}
	// "a" was read after every put: it survived, the oldest unread did not.
	if _, ok := c.Get("a"); !ok {
		t.Error("the constantly read entry was evicted")
	}
	if _, ok := c.Get("b"); ok {
		t.Error("the least recently used entry survived")
	}
	// Replacing an entry does not count it twice.
	before := c.Stats().Bytes
	c.Put("a", gen, entry(body))
	if c.Stats().Bytes != before {
		t.Errorf("replacing an entry changed the bytes used from %d to %d", before, c.Stats().Bytes)
	}
}

func TestGenerationAndOffline(t *testing.T) {
	c := New(1 << 20)
	gen, online := c.Generation()
	if online || c.Put("k", gen, entry("{}")) {
		t.Fatal("a new cache is online before its listener")
	}
	c.SetOnline(true)
	gen, _ = c.Generation()
	if !c.Put("k", gen, entry("{}")) {
		t.Fatal("put refused")
	}
	c.Bump()
	if _, ok := c.Get("k"); ok {
		t.Fatal("entry survived a bump")
	}
	if c.Put("k", gen, entry("{}")) {
		t.Fatal("an answer fetched before the bump was stored")
	}
	gen, _ = c.Generation()
	c.Put("k", gen, entry("{}"))
	c.SetOnline(false)
	if _, ok := c.Get("k"); ok {
		t.Fatal("served while offline")
	}
	if c.Put("k", gen, entry("{}")) {
		t.Fatal("stored while offline")
	}
	c.SetOnline(true)
	if _, ok := c.Get("k"); ok {
		t.Fatal("an entry from before the outage survived reconnection")
	}
	var off *Cache
	off.Bump()
	if _, ok := off.Generation(); ok || off.Stats().Enabled {
		t.Fatal("a nil cache claims to be usable")
	}
}

func TestPurgePrefix(t *testing.T) {
	c := New(1 << 20)
	c.SetOnline(true)
	gen, _ := c.Generation()
	for _, k := range []string{
		Key("GET", "rest:", "/cms/v2/posts", "", nil),
		Key("GET", "rest:", "/cms/v2/posts/1", "", nil),
		Key("HEAD", "rest:", "/cms/v2/posts", "page=2", nil),
		Key("GET", "rest:", "/cms/v2/pages", "", nil),
	} {
		c.Put(k, gen, entry("{}"))
	}
	if n := c.PurgePrefix("rest:/cms/v2/posts"); n != 3 {
		t.Fatalf("purged %d, want 3", n)
	}
	if c.Stats().Entries != 1 {
		t.Fatalf("%d entries left, want 1", c.Stats().Entries)
	}
}

func TestRecorder(t *testing.T) {
	w := httptest.NewRecorder()
	rec := NewRecorder(w, httptest.NewRequest("GET", "/", nil), 10)
	rec.Header().Set("Content-Type", "application/json")
	_, _ = rec.Write([]byte(`{"a":1}`))
	e, ok := rec.Entry()
	if !ok || string(e.Body) != `{"a":1}` || e.Status != 200 || w.Body.String() != `{"a":1}` {
		t.Fatalf("recorded %v %+v, client got %q", ok, e, w.Body.String())
	}
	w = httptest.NewRecorder()
	rec = NewRecorder(w, httptest.NewRequest("GET", "/", nil), 10)
	_, _ = rec.Write([]byte(`0123456789ab`))
	if _, ok := rec.Entry(); ok || w.Body.Len() != 12 {
		t.Fatal("an answer over the limit was kept, or not passed through")
	}
	w = httptest.NewRecorder()
	rec = NewRecorder(w, httptest.NewRequest("GET", "/", nil), 10)
	rec.Header().Set("Set-Cookie", "a=b")
	rec.WriteHeader(200)
	if _, ok := rec.Entry(); ok {
		t.Fatal("an answer with Set-Cookie was kept")
	}
	// A body shorter than its Content-Length was cut off: not kept.
	w = httptest.NewRecorder()
	rec = NewRecorder(w, httptest.NewRequest("GET", "/", nil), 100)
	rec.Header().Set("Content-Length", "20")
	_, _ = rec.Write([]byte(`{"a":`))
	if _, ok := rec.Entry(); ok {
		t.Fatal("a truncated answer was kept")
	}
	w = httptest.NewRecorder()
	rec = NewRecorder(w, httptest.NewRequest("HEAD", "/", nil), 100)
	rec.Header().Set("Content-Length", "20")
	rec.WriteHeader(200)
	if e, ok := rec.Entry(); !ok || e.Header.Get("Content-Length") != "20" {
		t.Fatal("a HEAD answer was not kept with its length")
	}
	// A hit is the stored answer, marked, with its length; HEAD has no body.
	hit := httptest.NewRecorder()
	Serve(hit, httptest.NewRequest("GET", "/", nil), entry(`{"b":2}`))
	if hit.Header().Get(XCache) != "hit" || hit.Body.String() != `{"b":2}` || hit.Header().Get("Content-Length") != "7" {
		t.Fatalf("hit: %v %q", hit.Header(), hit.Body.String())
	}
	hit = httptest.NewRecorder()
	Serve(hit, httptest.NewRequest("HEAD", "/", nil), entry(`{"b":2}`))
	if hit.Body.Len() != 0 {
		t.Fatal("HEAD hit has a body")
	}
}
