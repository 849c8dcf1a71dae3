package kses

import (
	"strings"
	"testing"

	"siteplane.dev/services/internal/platform/identity"
)

// The payloads of issue 15.
var payloads = []string{
	`<script>alert(1)</script>`,
	`<img src=x onerror=alert(1)>`,
	`<svg onload=alert(1)>x</svg>`,
	`<b onclick="alert(1)">bold</b>`,
	`<a href="javascript:alert(1)">link</a>`,
	`<p style="color:red;background:url(javascript:alert(1))">p</p>`,
	`<iframe src="https://evil.example/"></iframe>`,
	`<<script>script>alert(1)<</script>/script>`,
	`<scr<script>ipt>alert(1)</script>`,
	`<a href="jav&#x09;ascript:alert(1)">x</a>`,
	`<object data="javascript:alert(1)"></object>`,
	`<video poster="javascript:alert(1)"></video>`,
	`<object data="JaVaScRiPt:alert(1)"></object>`,
	`<div onmouseover="alert(1)" data-x="1">d</div>`,
}

func dangerous(s string) bool {
	l := strings.ToLower(s)
	for _, bad := range []string{"<script", "onerror", "onload", "onclick", "onmouseover", "javascript:", "<svg", "<iframe", "url("} {
		if strings.Contains(l, bad) {
			return true
		}
	}
	return false
}

func TestPayloadsAreDefused(t *testing.T) {
	for _, ctx := range []Context{Post, Data} {
		for _, p := range payloads {
			if out := Filter(p, ctx); dangerous(out) {
				t.Errorf("%s: %q → %q", ctx, p, out)
			}
		}
	}
	for _, p := range payloads {
		if out := Text(p); strings.Contains(out, "<") {
			t.Errorf("Text(%q) = %q", p, out)
		}
	}
}

func TestAllowedMarkupIsKept(t *testing.T) {
	tests := []struct {
		in   string
		ctx  Context
		want string
	}{
		{`Plain "quoted" & <b>bold</b>`, Data, `Plain &#34;quoted&#34; &amp; <b>bold</b>`},
		{`No tags: "quotes" & ampersands`, Data, `No tags: "quotes" & ampersands`},
		{`<a href="https://example.com/" title="t">x</a>`, Data, `<a href="https://example.com/" title="t">x</a>`},
		{`<p class="c">x</p>`, Data, `x`},
		{`<p class="c" align="center">x</p>`, Post, `<p class="c" align="center">x</p>`},
		{`<!-- wp:paragraph --><p>x</p><!-- /wp:paragraph -->`, Post, `<!-- wp:paragraph --><p>x</p><!-- /wp:paragraph -->`},
		{`<img src="/a.png" alt="a" width="10" onerror="x">`, Post, `<img src="/a.png" alt="a" width="10">`},
		{`<a href="mailto:a@example.com">m</a>`, Post, `<a href="mailto:a@example.com">m</a>`},
		{`<span style="color: red">r</span>`, Post, `<span style="color: red">r</span>`},
		{`<div data-id="7">d</div>`, Post, `<div data-id="7">d</div>`},
		{`<table><tr><td colspan="2">c</td></tr></table>`, Post, `<table><tr><td colspan="2">c</td></tr></table>`},
	}
	for _, tc := range tests {
		if got := Filter(tc.in, tc.ctx); got != tc.want {
			t.Errorf("Filter(%q, %s) = %q, want %q", tc.in, tc.ctx, got, tc.want)
		}
	}
	if got := Text(`<b onclick="x">Jane</b> "J" <script>alert(1)</script>`); got != `Jane "J"` {
		t.Errorf("Text = %q", got)
	}
	if got := Text(`Tom & Jerry`); got != `Tom & Jerry` {
		t.Errorf("Text without tags = %q", got)
	}
}

// Administrators and editors hold unfiltered_html (capabilities.json);
// everyone else is filtered.
func TestForCallerByRole(t *testing.T) {
	const in = `<p onclick="x">hi</p><script>alert(1)</script>`
	for _, tc := range []struct {
		role identity.Role
		raw  bool
	}{
		{identity.Administrator, true}, {identity.Editor, true}, {identity.Author, false},
		{identity.Contributor, false}, {identity.Subscriber, false}, {"", false},
	} {
		id := identity.Identity{UserID: 1, Role: tc.role}
		if tc.role == "" {
			id = identity.Identity{}
		}
		got := ForCaller(id, in, Post)
		if (got == in) != tc.raw {
			t.Errorf("%q: %q", tc.role, got)
		}
		if !tc.raw && got != "<p>hi</p>" {
			t.Errorf("%q: %q", tc.role, got)
		}
	}
}

func TestObjectDataIsAURL(t *testing.T) {
	if got := Filter(`<object data="/movie.swf" type="x"></object>`, Post); got != `<object data="/movie.swf" type="x"></object>` {
		t.Errorf("got %q", got)
	}
}

func TestURLAttributes(t *testing.T) {
	for in, want := range map[string]string{
		`<blockquote cite="https://example.com/q">q</blockquote>`: `<blockquote cite="https://example.com/q">q</blockquote>`,
		`<blockquote cite="javascript:alert(1)">q</blockquote>`:   `<blockquote>q</blockquote>`,
		`<img src="/a.png" usemap="#m">`:                          `<img src="/a.png" usemap="#m">`,
		`<video poster="/p.jpg"></video>`:                         `<video poster="/p.jpg"></video>`,
		`<video poster="data:image/png;base64,xx"></video>`:       `<video></video>`,
	} {
		if got := Filter(in, Post); got != want {
			t.Errorf("Filter(%q) = %q, want %q", in, got, want)
		}
	}
}
