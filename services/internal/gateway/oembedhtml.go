package gateway

import (
	"bytes"
	"html"
	"net/url"
	"strings"

	xhtml "golang.org/x/net/html"
)

// The HTML of the oEmbed proxy: finding discovery links in a page, and
// reducing a provider's "html" to elements that cannot run script in the
// editor that shows it (WordPress filters it the same way, with kses).

type discoveryLink struct{ typ, href string }

// discoveryLinks returns the <link rel="alternate" type=... href=...> of a
// page's head.
func discoveryLinks(page []byte) []discoveryLink {
	var out []discoveryLink
	z := xhtml.NewTokenizer(bytes.NewReader(page))
	for {
		switch z.Next() {
		case xhtml.ErrorToken:
			return out
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			t := z.Token()
			switch t.Data {
			case "body":
				return out
			case "link":
				var rel, typ, href string
				for _, a := range t.Attr {
					switch a.Key {
					case "rel":
						rel = strings.ToLower(a.Val)
					case "type":
						typ = strings.ToLower(strings.TrimSpace(a.Val))
					case "href":
						href = strings.TrimSpace(a.Val)
					}
				}
				if href != "" && hasToken(rel, "alternate") && strings.HasSuffix(typ, "+oembed") {
					out = append(out, discoveryLink{typ: typ, href: href})
				}
			}
		case xhtml.EndTagToken:
			if z.Token().Data == "head" {
				return out
			}
		}
	}
}

func hasToken(list, tok string) bool {
	for _, f := range strings.Fields(list) {
		if f == tok {
			return true
		}
	}
	return false
}

// embedElements are the elements kept in a provider's html, with their
// allowed attributes ("url" marks attributes that must be http(s) URLs).
var embedElements = map[string]map[string]string{
	"a":          {"href": "url", "title": "", "class": ""},
	"blockquote": {"class": "", "cite": "url", "lang": ""},
	"p":          {"class": "", "lang": ""},
	"span":       {"class": ""},
	"br":         {},
	"em":         {},
	"strong":     {},
	"img":        {"src": "url", "alt": "", "width": "", "height": "", "title": ""},
	"iframe": {"src": "url", "width": "", "height": "", "frameborder": "", "marginwidth": "", "marginheight": "",
		"scrolling": "", "title": "", "class": "", "allow": "", "allowfullscreen": "", "referrerpolicy": "", "loading": ""},
}

// droppedWithContent are elements whose content goes with them.
var droppedWithContent = map[string]bool{"script": true, "style": true, "noscript": true, "template": true, "object": true, "embed": true, "svg": true, "math": true}

// sanitizeEmbedHTML keeps only embedElements with their allowed attributes;
// other tags are removed (their text stays, escaped), script and the like
// are removed with their content.
func sanitizeEmbedHTML(s string) string {
	var b strings.Builder
	z := xhtml.NewTokenizer(strings.NewReader(s))
	skip := 0 // depth inside droppedWithContent elements
	for {
		tt := z.Next()
		if tt == xhtml.ErrorToken {
			return b.String()
		}
		t := z.Token()
		switch tt {
		case xhtml.TextToken:
			if skip == 0 {
				b.WriteString(html.EscapeString(t.Data))
			}
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			if droppedWithContent[t.Data] {
				if tt == xhtml.StartTagToken {
					skip++
				}
				continue
			}
			allowed, ok := embedElements[t.Data]
			if !ok || skip > 0 {
				continue
			}
			b.WriteString("<" + t.Data)
			for _, a := range t.Attr {
				kind, ok := allowed[a.Key]
				if !ok || a.Namespace != "" {
					continue
				}
				if kind == "url" && !safeEmbedURL(a.Val) {
					continue
				}
				b.WriteString(" " + a.Key + `="` + html.EscapeString(a.Val) + `"`)
			}
			b.WriteString(">")
		case xhtml.EndTagToken:
			if droppedWithContent[t.Data] {
				if skip > 0 {
					skip--
				}
				continue
			}
			if _, ok := embedElements[t.Data]; ok && skip == 0 && t.Data != "br" && t.Data != "img" {
				b.WriteString("</" + t.Data + ">")
			}
		}
	}
}

func safeEmbedURL(raw string) bool {
	u, err := url.Parse(strings.TrimSpace(raw))
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != ""
}
