package gateway

import (
	"strings"
	"testing"
)

func TestOEmbed(t *testing.T) {
	f := newKitFixture(t)
	if rec, _ := f.do(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "hello"}, "admin", f.adminPW); rec.Code != 201 {
		t.Fatalf("create: %d", rec.Code)
	}
	tests := []struct {
		query         string
		status        int
		width, height float64
		code          string
	}{
		{"url=http://site.test/?p=1", 200, 600, 338, ""},
		{"url=http://site.test/?p=1&maxwidth=400", 200, 400, 225, ""},
		{"url=http://site.test/?p=1&maxwidth=100", 200, 200, 200, ""},
		{"url=http://site.test/?p=1&maxwidth=9000&format=garbage", 200, 600, 338, ""},
		{"url=http://site.test/?p=42", 404, 0, 0, "oembed_invalid_url"},
		{"url=https://elsewhere.example/?p=1", 404, 0, 0, "oembed_invalid_url"},
		{"", 400, 0, 0, "rest_missing_callback_param"},
	}
	for _, tt := range tests {
		rec, v := f.do(t, "GET", "/cms-json/oembed/1.0/embed?"+tt.query, nil)
		o, _ := v.(map[string]any)
		if rec.Code != tt.status {
			t.Fatalf("%s: %d %s", tt.query, rec.Code, rec.Body)
		}
		if tt.code != "" {
			if o["code"] != tt.code {
				t.Fatalf("%s: %s", tt.query, rec.Body)
			}
			continue
		}
		if o["version"] != "1.0" || o["provider_name"] != "Test Site" || o["type"] != "rich" || o["width"] != tt.width || o["height"] != tt.height ||
			o["author_name"] != "admin" || !strings.Contains(o["html"].(string), `class="wp-embedded-content"`) {
			t.Fatalf("%s: %v", tt.query, o)
		}
	}
	// format=xml, errors included, keep the status.
	rec, _ := f.do(t, "GET", "/cms-json/oembed/1.0/embed?url=http://site.test/?p=42&format=xml", nil)
	if rec.Code != 404 || rec.Header().Get("Content-Type") != "text/xml; charset=UTF-8" ||
		rec.Body.String() != "<?xml version=\"1.0\"?>\n<oembed><code>oembed_invalid_url</code><message>Not Found</message><data><status>404</status></data></oembed>\n" {
		t.Fatalf("xml error: %d %q", rec.Code, rec.Body)
	}
	rec, _ = f.do(t, "GET", "/cms-json/oembed/1.0/embed?url=http://site.test/?p=1&format=xml", nil)
	if rec.Code != 200 || !strings.HasPrefix(rec.Body.String(), "<?xml version=\"1.0\"?>\n<oembed><version>1.0</version><provider_name>Test Site</provider_name>") {
		t.Fatalf("xml: %d %q", rec.Code, rec.Body)
	}
	// The XML is written after the pipeline's headers: Allow (the route
	// matched), Vary for an anonymous GET, the discovery Link.
	if h := rec.Header(); h.Get("Allow") != "GET" || h.Get("Vary") != "Origin" || h.Get("X-Robots-Tag") != "noindex" || h.Get("Content-Length") != "" {
		t.Fatalf("xml headers %v", h)
	}
	// The proxy needs edit_posts; missing parameters are reported first.
	if rec, v := f.do(t, "GET", "/cms-json/oembed/1.0/proxy", nil); rec.Code != 400 || v.(map[string]any)["code"] != "rest_missing_callback_param" {
		t.Fatalf("proxy without url: %d %s", rec.Code, rec.Body)
	}
	if rec, v := f.do(t, "GET", "/cms-json/oembed/1.0/proxy?url=http://site.test/?p=1", nil); rec.Code != 401 || v.(map[string]any)["code"] != "rest_forbidden" {
		t.Fatalf("proxy anonymous: %d %s", rec.Code, rec.Body)
	}
	if rec, _ := f.do(t, "GET", "/cms-json/oembed/1.0/proxy?url=http://site.test/?p=1", nil, "admin", f.adminPW); rec.Code != 200 {
		t.Fatalf("proxy admin: %d %s", rec.Code, rec.Body)
	}
}

func TestPHPXMLText(t *testing.T) {
	for in, want := range map[string]string{
		"plain":                        "plain",
		"A &#038; B":                   "A &amp; B",
		"&#8220;Quoted&#8221; &#8212;": "&#x201C;Quoted&#x201D; &#x2014;",
		"“real” é":                     "&#x201C;real&#x201D; &#xE9;",
		`<a href="x">it's</a>`:         `&lt;a href="x"&gt;it's&lt;/a&gt;`,
		"&lt;b&gt; &quot;q&quot;":      `&lt;b&gt; "q"`,
		"a & b &nbsp; &#; &#xZZ; &":    "a &amp; b &amp;nbsp; &amp;#; &amp;#xZZ; &amp;",
		"line\r\nnext":                 "line&#13;\nnext",
	} {
		if got := phpXMLText(in); got != want {
			t.Errorf("phpXMLText(%q) = %q, want %q", in, got, want)
		}
	}
}

// The embed html is pasted into other sites: the title in its blockquote
// keeps only kses's data allowlist (even an administrator's raw title), and
// in the iframe's title attribute it is escaped.
func TestOEmbedHTMLEscapesTheTitle(t *testing.T) {
	f := newKitFixture(t)
	title := `T <script>alert(1)</script><b onclick="x">b</b>"`
	if rec, _ := f.do(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": title}, "admin", f.adminPW); rec.Code != 201 {
		t.Fatalf("create: %d", rec.Code)
	}
	rec, v := f.do(t, "GET", "/cms-json/oembed/1.0/embed?url=http://site.test/?p=1", nil)
	if rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	h := v.(map[string]any)["html"].(string)
	quote, _, _ := strings.Cut(h, "</blockquote>")
	if strings.Contains(h, "<script") || strings.Contains(quote, "onclick") || !strings.Contains(h, `>T <b>b</b>&#34;</a></blockquote>`) ||
		!strings.Contains(h, `title="&#8220;T &lt;script&gt;alert(1)&lt;/script&gt;&lt;b onclick=&#34;x&#34;&gt;b&lt;/b&gt;&#34;&#8221;`) {
		t.Fatalf("html %s", h)
	}
}
