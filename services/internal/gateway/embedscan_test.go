package gateway

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
)

// scanPage is a small list answer with what a page of posts holds: escapes,
// numbers of every shape, literals, nesting, _links with an escaped key,
// an item with an _embedded of its own and items that are not objects.
const scanPage = `[{"id":5,"title":{"rendered":"A \"quoted\" \\ title \u00e9\/"},"n":-0.5e+10,"m":0,"f":1.25E-3,"ok":true,"no":false,"z":null,` +
	`"tags":[1,2,[3,{"x":[]}]],"_links":{"self":[{"href":"http:\/\/x\/5"}],"author":[{"embeddable":true,"href":"http:\/\/x\/u\/1"}]}},` +
	` {"id":6,"_embedded":{},"_links":{"author":[]}} , {"id":7,"_l\u0069nks":{"replies":[{"href":"r","embeddable":true}]},"content":"<p>x<\/p>"},` +
	"\n\t1, \"s\", [], {} ]"

// splitPage says of every input what json.Valid says, on a page and on
// every one-byte change of it (each byte replaced by one of JSON's
// structural or escape characters, a control character, a letter, or
// dropped), and for a valid array gives the items json.Unmarshal gives and
// the _links linksMember finds.
func TestSplitPage(t *testing.T) {
	if !json.Valid([]byte(scanPage)) {
		t.Fatal("the sample is not valid JSON")
	}
	inputs := []string{
		scanPage, `[]`, ` [ ] `, `[1]`, `[1,]`, `[`, `]`, `"s"`, `{"a":1}`, `[01]`, `[1.]`, `[.5]`, `[1e]`, `[-]`, `[--1]`,
		`[tru]`, `[nul]`, `["\x"]`, `["\u12g4"]`, `["a` + "\x01" + `"]`, `["a` + "\x7f\xff" + `"]`, `[1 2]`, `[{"a" 1}]`,
		`[{"a":1,}]`, `[{,}]`, `[{1:1}]`, `[] x`, `[]]`, "", " ", strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
		strings.Repeat("[", 10000) + strings.Repeat("]", 10000), `[{"a":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}]`,
		`[{"a":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}]`,
	}
	subs := []byte{'"', '\\', '{', '}', '[', ']', ',', ':', '0', '-', '.', 'e', ' ', 0x01, 'u', 'x'}
	for i := range len(scanPage) {
		for _, c := range subs {
			b := []byte(scanPage)
			b[i] = c
			inputs = append(inputs, string(b))
		}
		inputs = append(inputs, scanPage[:i]+scanPage[i+1:])
	}
	for _, in := range inputs {
		items, ok := splitPage([]byte(in))
		var want []json.RawMessage
		wantOK := json.Valid([]byte(in)) && json.Unmarshal([]byte(in), &want) == nil
		if ok != wantOK {
			t.Fatalf("%.200q: splitPage %v, json.Valid and Unmarshal %v", in, ok, wantOK)
		}
		if !ok {
			continue
		}
		if len(items) != len(want) {
			t.Fatalf("%.200q: %d items, want %d", in, len(items), len(want))
		}
		for j, it := range items {
			if !bytes.Equal(it.raw, want[j]) {
				t.Fatalf("%.200q: item %d %q, want %q", in, j, it.raw, want[j])
			}
			var links []byte
			var linksOK bool
			if len(it.raw) > 0 && it.raw[0] == '{' {
				links, linksOK = linksMember(it.raw)
			}
			if !bytes.Equal(it.links, links) || it.ok != linksOK {
				t.Fatalf("%.200q: item %d links %q %v, linksMember %q %v", in, j, it.links, it.ok, links, linksOK)
			}
		}
	}
}

// queryHas answers as url.ParseQuery(raw).Has(key).
func TestQueryHas(t *testing.T) {
	tests := []struct{ raw, key string }{
		{"post=5&context=embed&per_page=100", "context"},
		{"post=5&context=embed", "per_page"},
		{"", "context"},
		{"context", "context"},
		{"context=", "context"},
		{"&&context=view&", "context"},
		{"contexts=1", "context"},
		{"cont%65xt=view", "context"},
		{"cont%6=view", "context"},
		{"context=%zz", "context"},
		{"context=a+b", "context"},
		{"context;x=1", "context"},
		{"a=1;context=view", "context"},
		{"per+page=1", "per page"},
		{"per_page=1", "per_page"},
		{"=1", ""},
	}
	for _, tc := range tests {
		q, _ := url.ParseQuery(tc.raw)
		if got, want := queryHas(tc.raw, tc.key), q.Has(tc.key); got != want {
			t.Errorf("%q has %q: %v, url.ParseQuery %v", tc.raw, tc.key, got, want)
		}
	}
}

// plainWord says of eight bytes what plainByte says of each: every byte
// value at every position, among plain bytes and beside another byte.
func TestPlainWord(t *testing.T) {
	for _, fill := range []byte{'a', 0x20, 0x7f, 0xff, 0x80, '!', '#', '[', ']'} {
		for pos := range 8 {
			for c := range 256 {
				w := bytes.Repeat([]byte{fill}, 8)
				w[pos] = byte(c)
				want := true
				for _, b := range w {
					want = want && plainByte[b]
				}
				if got := plainWord(binary.LittleEndian.Uint64(w)); got != want {
					t.Fatalf("%q: plainWord %v, want %v", w, got, want)
				}
			}
		}
	}
}

// writeKey quotes a key as json.Marshal does.
func TestWriteKey(t *testing.T) {
	for _, k := range []string{"author", "wp:term", "", "a\"b", `a\b`, "<x>&", "é", "\x01", "~", "https://api.w.org/items"} {
		var out bytes.Buffer
		writeKey(&out, k)
		want, _ := json.Marshal(k)
		if !bytes.Equal(out.Bytes(), want) {
			t.Errorf("%q: %s, want %s", k, out.Bytes(), want)
		}
	}
}

// routeOfURL's plain reading agrees with url.Parse's on every href it
// takes, and leaves the others to it.
func TestPlainRouteOfURL(t *testing.T) {
	for _, site := range []string{"http://example.test", "http://Example.test:8080/blog"} {
		u, _ := url.Parse(site)
		g := &Gateway{site: u}
		base := site + RESTPrefix
		if _, _, _, sure := g.plainRouteOfURL(base + "/cms/v2/categories?post=5"); !sure {
			t.Fatalf("%s: a plain link left to url.Parse", site)
		}
		for _, href := range []string{
			base + "/cms/v2/categories?post=5", base + "/cms/v2/users/1", base + "/cms/v2/tags?post=5&context=view",
			base, base + "/", base + "//cms/v2/posts/", base + "/cms/v2/posts?", base + "?rest_route=/cms/v2/posts",
			site + "/?rest_route=/cms/v2/posts/5&x=1", site + "/index.php?rest_route=%2Fcms%2Fv2%2Fposts",
			strings.ToUpper(base[:20]) + base[20:] + "/cms/v2/posts", "https" + base[4:] + "/cms/v2/posts",
			"http://other.test" + RESTPrefix + "/cms/v2/posts", base + "/cms/v2/a%20b", base + "/cms/v2/posts#x",
			"http://user@" + base[7:] + "/cms/v2/posts", base + "/cms/v2/p\\q", base + "/cms/v2/p q", base + "x/cms/v2/posts",
			site + "/cms-jsonx/cms/v2/posts", "ftp" + base[4:], "http://", "http://?x", "/cms-json/cms/v2/posts", "",
			base + "/cms/v2/posts?a=%zz", base + "/cms/v2/é",
		} {
			r1, q1, ok1 := g.routeOfURL(href)
			r2, q2, ok2 := g.parsedRouteOfURL(href)
			if r1 != r2 || q1 != q2 || ok1 != ok2 {
				t.Errorf("%q: %q %q %v, url.Parse's %q %q %v", href, r1, q1, ok1, r2, q2, ok2)
			}
		}
	}
}
