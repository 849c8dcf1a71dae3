package website

import (
	"bytes"
	"html"
	"net/url"
	"strings"

	"siteplane.dev/services/internal/content/store"
)

// The HTML the website writes itself — the page shell (the document head,
// the body's opening, the skip link) and the password form — goes through
// one escaping writer, htmlWriter: markup is written as elements with
// attributes, and every value (text or attribute) is escaped by it, never
// concatenated into markup by a caller. The body between is the blocks'
// output (blocks.Render escapes what it writes), written after it as it is.
//
// It is not html/template (the gateway's sign-in pages use that): the shell
// is written on every page, and html/template's reflection cost four times
// the time and seven times the allocations of this writer (about 30 µs a
// page), for a shell whose contexts are all fixed: text and double-quoted
// attribute values, escaped as html.EscapeString does.

// htmlWriter writes HTML into a buffer (for the shell, the pooled one a
// page is assembled in: site_page.go's pageBuffers).
type htmlWriter struct{ sb *bytes.Buffer }

// open writes a start tag with attributes given as name, value pairs; the
// values are escaped.
func (w htmlWriter) open(name string, attrs ...string) {
	w.sb.WriteByte('<')
	w.sb.WriteString(name)
	for i := 0; i+1 < len(attrs); i += 2 {
		w.sb.WriteByte(' ')
		w.sb.WriteString(attrs[i])
		w.sb.WriteString(`="`)
		w.sb.WriteString(html.EscapeString(attrs[i+1]))
		w.sb.WriteByte('"')
	}
	w.sb.WriteByte('>')
}

// line is open of a void element, then a line break.
func (w htmlWriter) line(name string, attrs ...string) {
	w.open(name, attrs...)
	w.sb.WriteByte('\n')
}

// text writes escaped text.
func (w htmlWriter) text(s string) { w.sb.WriteString(html.EscapeString(s)) }

// close writes an end tag.
func (w htmlWriter) close(name string) {
	w.sb.WriteString("</")
	w.sb.WriteString(name)
	w.sb.WriteByte('>')
}

// markup writes trusted markup: literals of this package, and the global
// styles stylesheet (made by the theme code from theme.json data, the
// theme's and an administrator's).
func (w htmlWriter) markup(s string) { w.sb.WriteString(s) }

// writeShell writes the page shell of sp, up to the blocks' output.
func (s *Handler) writeShell(sb *bytes.Buffer, sp *sitePage, css, stylesheet string) {
	w := htmlWriter{sb}
	title := s.Site().Title
	if sp.title != "" {
		title = sp.title + " – " + s.Site().Title
	} else if s.Site().Description != "" {
		title = s.Site().Title + " – " + s.Site().Description
	}
	w.markup("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	w.line("meta", "name", "viewport", "content", "width=device-width, initial-scale=1")
	w.open("title")
	w.text(title)
	w.close("title")
	w.markup("\n")
	if sp.icon != "" {
		w.markup(sp.icon) // made by site_icon.go, its URLs escaped
	} else {
		// no site icon: an empty one keeps browsers from asking for /favicon.ico
		w.line("link", "rel", "icon", "href", "data:,")
	}
	if sp.noindex {
		w.line("meta", "name", "robots", "content", "noindex, follow")
	}
	if sp.description != "" {
		w.line("meta", "name", "description", "content", sp.description)
	}
	if sp.canonical != "" {
		w.line("link", "rel", "canonical", "href", sp.canonical)
	}
	for _, og := range [...][2]string{{"type", sp.ogType}, {"title", title}, {"url", sp.canonical},
		{"site_name", s.Site().Title}, {"description", sp.description}} {
		if og[1] != "" {
			w.line("meta", "property", "og:"+og[0], "content", og[1])
		}
	}
	w.line("link", "rel", "https://api.w.org/", "href", s.restRoot+"/")
	w.line("link", "rel", "alternate", "type", "application/rss+xml", "title", s.Site().Title+" » Feed", "href", s.Site().URL+"/feed/")
	w.line("link", "rel", "alternate", "type", "application/rss+xml", "title", s.Site().Title+" » Comments Feed", "href", s.Site().URL+"/comments/feed/")
	if sp.feedURL != "" {
		w.line("link", "rel", "alternate", "type", "application/rss+xml", "title", s.Site().Title+" » "+sp.feedTitle, "href", sp.feedURL)
	}
	if p := sp.post; p != nil {
		w.line("link", "rel", "alternate", "title", "JSON", "type", "application/json", "href", s.permalinks.PostREST(sp.pt, p.ID))
		w.line("link", "rel", "shortlink", "href", s.permalinks.GUID(sp.pt, p))
		if p.Status == "publish" {
			u := s.restRoot + "/oembed/1.0/embed?url=" + url.QueryEscape(s.permalinks.Post(sp.pt, p))
			w.line("link", "rel", "alternate", "title", "oEmbed (JSON)", "type", "application/json+oembed", "href", u)
			w.line("link", "rel", "alternate", "title", "oEmbed (XML)", "type", "text/xml+oembed", "href", u+"&format=xml")
		}
	}
	w.open("style", "id", "global-styles-inline-css")
	w.markup(css)
	w.markup("</style>\n</head>\n")
	w.line("body", "class", strings.TrimSpace(sp.bodyClass+" wp-theme-"+stylesheet))
	w.open("a", "class", "skip-link screen-reader-text", "href", "#wp--skip-link--target")
	w.markup("Skip to content</a>\n")
	w.line("div", "class", "wp-site-blocks")
}

// passwordForm is the form a protected post shows instead of its content.
func (s *Handler) passwordForm(p *store.Post, back string) string {
	var sb bytes.Buffer
	w := htmlWriter{&sb}
	id := "pwbox-" + store.Itoa(p.ID)
	w.open("form", "action", s.Site().URL+"/?action=postpass", "class", "post-password-form", "method", "post")
	w.markup(`<p>This content is password protected. To view it please enter your password below:</p><p>`)
	w.open("label", "for", id)
	w.markup("Password: ")
	w.open("input", "name", "post_password", "id", id, "type", "password", "spellcheck", "false", "size", "20")
	w.markup(`</label> <input type="submit" name="Submit" value="Enter"></p>`)
	w.open("input", "type", "hidden", "name", "redirect_to", "value", back)
	w.close("form")
	return sb.String()
}
