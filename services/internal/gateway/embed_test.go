package gateway

import (
	"net/url"
	"strings"
	"testing"

	"siteplane.dev/services/internal/platform/rest"
)

func TestEmbedAuthor(t *testing.T) {
	f := newKitFixture(t)
	if rec, _ := f.do(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "hello"}, "admin", f.adminPW); rec.Code != 201 {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	tests := []struct {
		target string
		embeds bool
	}{
		{"/cms-json/cms/v2/posts/1?_embed", true},
		{"/cms-json/cms/v2/posts/1?_embed=author", true},
		{"/cms-json/cms/v2/posts/1?_embed=1", true},
		{"/?rest_route=/cms/v2/posts/1&_embed=wp:featuredmedia", false},
		{"/cms-json/cms/v2/posts/1", false},
		{"/cms-json/cms/v2/posts/1?_embed&_fields=id,_links", false},
		{"/cms-json/cms/v2/posts/1?_embed&_fields=id,_links,_embedded.author", true},
	}
	for _, tt := range tests {
		rec, v := f.do(t, "GET", tt.target, nil)
		if rec.Code != 200 {
			t.Fatalf("%s: %d", tt.target, rec.Code)
		}
		emb, has := v.(map[string]any)["_embedded"]
		if has != tt.embeds {
			t.Fatalf("%s: _embedded present=%v: %s", tt.target, has, rec.Body)
		}
		if !has {
			continue
		}
		author := emb.(map[string]any)["author"].([]any)[0].(map[string]any)
		if author["id"] != float64(1) || author["name"] != "admin" || author["slug"] != "admin" {
			t.Fatalf("%s: author %v", tt.target, author)
		}
		if _, leaked := author["email"]; leaked {
			t.Fatalf("%s: embedded author is not in embed context: %v", tt.target, author)
		}
		// _embedded comes after _links, the rest of the body untouched.
		if b := rec.Body.String(); strings.Index(b, `"_links"`) > strings.Index(b, `"_embedded"`) || strings.Contains(b, `\u0026`) ||
			(!strings.Contains(tt.target, "_fields") && !strings.HasPrefix(b, `{"id":1,"title":"hello"`)) {
			t.Fatalf("%s: body %s", tt.target, b)
		}
	}
	// An embedded collection is fetched with per_page at its maximum.
	f.content.lastPerPage = 0
	_, v0 := f.do(t, "GET", "/cms-json/cms/v2/posts/1?_embed=wp:term", nil)
	if f.content.lastPerPage != 100 || v0.(map[string]any)["_embedded"].(map[string]any)["wp:term"] == nil {
		t.Fatalf("wp:term embed: per_page %d, body %v", f.content.lastPerPage, v0)
	}
	// HEAD: nothing to embed into, the GET's headers unchanged.
	if rec, _ := f.do(t, "HEAD", "/cms-json/cms/v2/posts/1?_embed", nil); rec.Code != 200 || rec.Body.Len() != 0 || rec.Header().Get("Content-Length") != "" {
		t.Fatalf("HEAD with _embed: %d %v %q", rec.Code, rec.Header(), rec.Body)
	}
	// JSONP: embedded inside the callback's parentheses.
	jrec, _ := f.do(t, "GET", "/cms-json/cms/v2/posts/1?_embed=author&_jsonp=cb", nil)
	if b := jrec.Body.String(); jrec.Code != 200 || !strings.HasPrefix(b, `/**/cb({"id":1,`) || !strings.Contains(b, `"_embedded":{"author":[{"id":1,`) || !strings.HasSuffix(b, "}})") {
		t.Fatalf("JSONP embed: %d %s", jrec.Code, b)
	}
	// _envelope: embedded inside "body".
	rec, v := f.do(t, "GET", "/cms-json/cms/v2/posts/1?_embed=author&_envelope", nil)
	env, _ := v.(map[string]any)
	if rec.Code != 200 || env["status"] != float64(200) || env["body"].(map[string]any)["_embedded"] == nil {
		t.Fatalf("envelope: %d %s", rec.Code, rec.Body)
	}
	// Collections: every item gets its own _embedded.
	rec, v = f.do(t, "GET", "/cms-json/cms/v2/posts?_embed=author", nil)
	list, _ := v.([]any)
	if rec.Code != 200 || len(list) != 1 || list[0].(map[string]any)["_embedded"] == nil {
		t.Fatalf("collection: %d %s", rec.Code, rec.Body)
	}
}

func TestPHPEmpty(t *testing.T) {
	for raw, want := range map[string]bool{ //nolint:gocritic // the spaced key is a case: JSON white space around []
		`[]`: true, ` [ ] `: true, `{}`: true, `null`: true, `false`: true, `0`: true, `""`: true, `"0"`: true,
		`[[]]`: false, `[{}]`: false, `{"code":"rest_forbidden"}`: false, `true`: false, `1`: false, `"a"`: false, `[`: false,
	} {
		if got := phpEmpty([]byte(raw)); got != want {
			t.Errorf("phpEmpty(%s) = %v, want %v", raw, got, want)
		}
	}
}

func TestEmbedParam(t *testing.T) {
	tests := []struct {
		query string
		rels  []string
		ok    bool
	}{
		{"", nil, false},
		{"_fields=id", nil, false},
		{"_embed", nil, true},
		{"_embed=", nil, true},
		{"_embed=1", nil, true},
		{"_embed=true", nil, true},
		{"_embed=0", nil, true}, // PHP: ! "0" is true
		{"_embed=%20", nil, true},
		{"_embed=author", []string{"author"}, true},
		{"_embed=author,wp:term", []string{"author", "wp:term"}, true},
		{"_embed=author%20wp:term", []string{"author", "wp:term"}, true},
		{"_embed[]=author&_embed[]=wp:term", []string{"author", "wp:term"}, true},
	}
	for _, tt := range tests {
		q, _ := url.ParseQuery(tt.query)
		rels, ok := rest.ParseEmbed(q)
		if ok != tt.ok || strings.Join(rels, "|") != strings.Join(tt.rels, "|") || (rels == nil) != (tt.rels == nil) {
			t.Errorf("embedParam(%q) = %q, %v; want %q, %v", tt.query, rels, ok, tt.rels, tt.ok)
		}
	}
}
