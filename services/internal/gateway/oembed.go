package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/kses"
	"siteplane.dev/services/internal/platform/rest"
)

// oEmbed (reference §12). The gateway composes the answer from the content
// service's public data: it resolves the URL with anonymous sub-requests, so
// only publicly viewable posts and pages can be embedded.

func oembedArgs(proxy bool) rest.Props {
	urlArg := &rest.Schema{Description: "The URL of the resource for which to fetch oEmbed data.", Type: "string", Format: "uri", Required: true}
	if !proxy {
		// Anything other than json or xml silently becomes json (no error).
		format := &rest.Schema{Default: "json", Sanitize: func(_ *rest.Request, v any, _ string) (any, error) {
			if s, _ := v.(string); s == "xml" {
				return "xml", nil
			}
			return "json", nil
		}}
		maxwidth := &rest.Schema{Default: 600, Sanitize: func(_ *rest.Request, v any, _ string) (any, error) {
			n, _ := strconv.ParseFloat(fmt.Sprint(v), 64)
			return int64(math.Abs(n)), nil
		}}
		return rest.Props{{Name: "url", Schema: urlArg}, {Name: "format", Schema: format}, {Name: "maxwidth", Schema: maxwidth}}
	}
	return rest.Props{
		{Name: "url", Schema: urlArg},
		{Name: "format", Schema: &rest.Schema{Description: "The oEmbed format to use.", Type: "string", Default: "json", Enum: []any{"json", "xml"}}},
		{Name: "maxwidth", Schema: &rest.Schema{Description: "The maximum width of the embed frame in pixels.", Type: "integer", Default: 600}},
		{Name: "maxheight", Schema: &rest.Schema{Description: "The maximum height of the embed frame in pixels.", Type: "integer"}},
		{Name: "discover", Schema: &rest.Schema{Description: "Whether to perform an oEmbed discovery request for unsanctioned providers.", Type: "boolean", Default: true}},
	}
}

func (g *Gateway) oembedRoutes() []rest.Route {
	return []rest.Route{
		{Namespace: oembedNamespace, Path: "/embed", Endpoints: []rest.Endpoint{{Methods: rest.Readable, Args: oembedArgs(false), Handler: g.serveOEmbed}}},
		{Namespace: oembedNamespace, Path: "/proxy", Endpoints: []rest.Endpoint{{Methods: rest.Readable, Args: oembedArgs(true),
			Permission: func(r *rest.Request) error {
				if !callerID(r).Can("edit_posts") {
					return rest.Denied(r, "rest_forbidden", "Sorry, you are not allowed to make proxied oEmbed requests.")
				}
				return nil
			}, Handler: g.serveOEmbedProxy}}},
	}
}

func errOEmbedNotFound() *rest.Error {
	return rest.NewError("oembed_invalid_url", "Not Found", http.StatusNotFound)
}

// serveOEmbed answers for URLs of this site (the embed route, and the proxy
// for the site's own URLs); other URLs get 404 oembed_invalid_url here (the
// proxy fetches them: oembedproxy.go).
func (g *Gateway) serveOEmbed(r *rest.Request) (*rest.Response, error) {
	post, err := g.resolvePermalink(r.Context(), r.String("url"))
	if err != nil {
		return nil, err
	}
	width := r.Int("maxwidth")
	if width < 200 {
		width = 200
	}
	if width > 600 {
		width = 600
	}
	height := int64(math.Max(math.Ceil(float64(width)*9/16), 200))
	site := g.cfg.Site
	title := post.title()
	authorName, authorURL := site.Title, site.URL
	if post.Author > 0 {
		if u, err := g.cfg.Store.UserByID(r.Context(), post.Author); err == nil {
			authorName, authorURL = u.DisplayName, site.URL+"/author/"+u.Slug+"/"
		}
	}
	secret := strconv.FormatInt(post.ID, 36) + "x" + strconv.FormatInt(int64(len(title)), 36)
	embedURL := strings.TrimSuffix(post.Link, "/") + "/embed/#?secret=" + secret
	htmlSnippet := fmt.Sprintf(`<blockquote class="wp-embedded-content" data-secret="%s"><a href="%s">%s</a></blockquote>`+
		`<iframe sandbox="allow-scripts" security="restricted" src="%s" width="%d" height="%d" title="&#8220;%s&#8221; &#8212; %s" data-secret="%s" frameborder="0" marginwidth="0" marginheight="0" scrolling="no" class="wp-embedded-content"></iframe>`,
		secret, html.EscapeString(post.Link), kses.Filter(title, kses.Data), html.EscapeString(embedURL), width, height, html.EscapeString(title), html.EscapeString(site.Title), secret)
	data := rest.Object{
		{Key: "version", Value: "1.0"},
		{Key: "provider_name", Value: site.Title},
		{Key: "provider_url", Value: site.URL},
		{Key: "author_name", Value: authorName},
		{Key: "author_url", Value: authorURL},
		{Key: "title", Value: title},
		{Key: "type", Value: "rich"},
		{Key: "width", Value: width},
		{Key: "height", Value: height},
		{Key: "html", Value: htmlSnippet},
	}
	if post.FeaturedMedia > 0 {
		if src, w, h, ok := g.thumbnail(r.Context(), post.FeaturedMedia); ok {
			data = append(data, rest.Member{Key: "thumbnail_url", Value: src},
				rest.Member{Key: "thumbnail_width", Value: w}, rest.Member{Key: "thumbnail_height", Value: h})
		}
	}
	return rest.OK(data), nil
}

// embedPost is what oEmbed needs of a post or page.
type embedPost struct {
	ID            int64           `json:"id"`
	Link          string          `json:"link"`
	Author        int64           `json:"author"`
	Title         json.RawMessage `json:"title"`
	FeaturedMedia int64           `json:"featured_media"`
}

// thumbnail is the featured image of an embedded post (public media only).
func (g *Gateway) thumbnail(ctx context.Context, mediaID int64) (src string, width, height int64, ok bool) {
	anon := identity.NewContext(ctx, identity.Identity{})
	res := g.do(anon, g.cfg.Routes.Current(), subRequest{Method: http.MethodGet, Route: fmt.Sprintf("/cms/v2/media/%d", mediaID)})
	if res.Status != http.StatusOK {
		return "", 0, 0, false
	}
	var m struct {
		SourceURL    string `json:"source_url"`
		MediaDetails struct {
			Width  int64 `json:"width"`
			Height int64 `json:"height"`
		} `json:"media_details"`
	}
	if json.Unmarshal(res.Body, &m) != nil || m.SourceURL == "" {
		return "", 0, 0, false
	}
	return m.SourceURL, m.MediaDetails.Width, m.MediaDetails.Height, true
}

func (p embedPost) title() string {
	var t struct {
		Rendered string `json:"rendered"`
	}
	if json.Unmarshal(p.Title, &t) == nil {
		return t.Rendered
	}
	var plain string
	_ = json.Unmarshal(p.Title, &plain)
	return plain
}

// resolvePermalink maps a URL of this site to a published post or page
// (url_to_postid): ?p=ID, ?page_id=ID, or a pretty /slug/ link.
func (g *Gateway) resolvePermalink(ctx context.Context, raw string) (embedPost, error) {
	u, err := url.Parse(raw)
	site := g.site
	if err != nil || site == nil || !strings.EqualFold(u.Host, site.Host) {
		return embedPost{}, errOEmbedNotFound()
	}
	// Anonymous on purpose: only what the public may read can be embedded.
	anon := identity.NewContext(ctx, identity.Identity{})
	t := g.cfg.Routes.Current()
	get := func(route, query string) (json.RawMessage, bool) {
		res := g.do(anon, t, subRequest{Method: http.MethodGet, Route: route, Query: query})
		return res.Body, res.Status == http.StatusOK
	}
	one := func(route string) (embedPost, bool) {
		body, ok := get(route, "")
		var p embedPost
		return p, ok && json.Unmarshal(body, &p) == nil && p.ID > 0
	}
	first := func(route, query string) (embedPost, bool) {
		body, ok := get(route, query)
		var list []embedPost
		if !ok || json.Unmarshal(body, &list) != nil || len(list) == 0 {
			return embedPost{}, false
		}
		return list[0], true
	}
	q := u.Query()
	if id, err := strconv.ParseInt(q.Get("p"), 10, 64); err == nil && id > 0 {
		if p, ok := one(fmt.Sprintf("/cms/v2/posts/%d", id)); ok {
			return p, nil
		}
	}
	if id, err := strconv.ParseInt(q.Get("page_id"), 10, 64); err == nil && id > 0 {
		if p, ok := one(fmt.Sprintf("/cms/v2/pages/%d", id)); ok {
			return p, nil
		}
	}
	path := strings.Trim(strings.TrimPrefix(u.Path, site.Path), "/")
	if path != "" {
		slug := path[strings.LastIndex(path, "/")+1:]
		for _, route := range []string{"/cms/v2/posts", "/cms/v2/pages"} {
			if p, ok := first(route, "slug="+url.QueryEscape(slug)); ok {
				return p, nil
			}
		}
	}
	return embedPost{}, errOEmbedNotFound()
}

// writeOEmbedXML renders an oEmbed JSON answer (or error) as WordPress's
// XML form (_oembed_create_xml), keeping the status.
func writeOEmbedXML(w http.ResponseWriter, res rest.Result) {
	dec := json.NewDecoder(bytes.NewReader(res.Body))
	dec.UseNumber()
	var content string
	if tok, err := dec.Token(); err == nil && tok == json.Delim('{') {
		// The outer object's members are written inside <oembed>.
		content, _ = xmlMembers(dec, '{')
	}
	w.Header().Set("Content-Type", "text/xml; charset=UTF-8")
	w.Header().Del("Content-Length")
	w.WriteHeader(res.Status)
	_, _ = io.WriteString(w, "<?xml version=\"1.0\"?>\n"+xmlElement("oembed", content)+"\n")
}

// xmlMembers writes the members of the object or list just opened: object
// members as elements named by their key, list items as <oembed>.
func xmlMembers(dec *json.Decoder, delim json.Delim) (string, error) {
	var b strings.Builder
	for dec.More() {
		name := "oembed"
		if delim == '{' {
			k, err := dec.Token()
			if err != nil {
				return b.String(), err
			}
			name = fmt.Sprint(k)
		}
		v, err := xmlValue(dec)
		b.WriteString(xmlElement(name, v))
		if err != nil {
			return b.String(), err
		}
	}
	_, err := dec.Token()
	return b.String(), err
}

func xmlValue(dec *json.Decoder) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return "", err
	}
	switch v := tok.(type) {
	case json.Delim:
		return xmlMembers(dec, v)
	case string:
		return phpXMLText(v), nil
	case bool:
		if v {
			return "1", nil // PHP's (string) true
		}
		return "", nil
	case nil:
		return "", nil
	default:
		return phpXMLText(fmt.Sprint(v)), nil
	}
}

// xmlElement is <name>content</name>, or <name/> when empty (libxml).
func xmlElement(name, content string) string {
	if content == "" {
		return "<" + name + "/>"
	}
	return "<" + name + ">" + content + "</" + name + ">"
}

// phpXMLText is what WordPress's XML holds for a value: esc_html() (which
// leaves existing entities alone), parsed back into text by SimpleXML's
// addChild (predefined and numeric entities), then serialised by libxml in
// a document without a declared encoding: &, <, > and CR escaped, every
// non-ASCII character as a hexadecimal reference. So "&#8220;A&#8221;"
// reads as the quotes themselves, not as the entity text.
func phpXMLText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if s[i] == '&' {
			if dr, n := xmlEntity(s[i:]); n > 0 {
				r, size = dr, n
			}
		} else if s[i] >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		i += size
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '\r':
			b.WriteString("&#13;")
		case r >= utf8.RuneSelf:
			fmt.Fprintf(&b, "&#x%X;", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// xmlEntity decodes an entity at the start of s that survives esc_html and
// that XML knows (&amp; &lt; &gt; &quot; &apos; &#039; and numeric ones):
// the character and the entity's length, or 0.
func xmlEntity(s string) (rune, int) {
	end := strings.IndexByte(s, ';')
	if end < 2 || end > 12 {
		return 0, 0
	}
	name := s[1:end]
	switch name {
	case "amp":
		return '&', end + 1
	case "lt":
		return '<', end + 1
	case "gt":
		return '>', end + 1
	case "quot":
		return '"', end + 1
	case "apos":
		return '\'', end + 1
	}
	if len(name) < 2 || name[0] != '#' {
		return 0, 0
	}
	var n int64
	var err error
	if name[1] == 'x' || name[1] == 'X' {
		n, err = strconv.ParseInt(name[2:], 16, 32)
	} else {
		n, err = strconv.ParseInt(name[1:], 10, 32)
	}
	if err != nil || n <= 0 || n > utf8.MaxRune {
		return 0, 0
	}
	return rune(n), end + 1
}

// bufferedAnswer keeps a REST answer's status and body for rewriting; its
// headers are the real response's.
type bufferedAnswer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (b *bufferedAnswer) Header() http.Header { return b.header }

func (b *bufferedAnswer) WriteHeader(code int) {
	if b.status == 0 {
		b.status = code
	}
}

func (b *bufferedAnswer) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}
