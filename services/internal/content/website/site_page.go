package website

import (
	"bytes"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/content/theme"
)

// sitePage is one page to render: which templates may render it (the
// template hierarchy, most specific first) and what its blocks show.
type sitePage struct {
	status      int
	templates   []string
	title       string // the <title>, before " – Site"
	description string
	canonical   string
	ogType      string
	noindex     bool
	bodyClass   string

	post *store.Post // singular pages
	pt   *store.PostType

	list      []*store.Post // listings
	pages     int
	pageURL   func(int) string
	archive   string
	archDesc  string
	feedTitle string
	feedURL   string
	icon      string // the site icon's links (site_icon.go), "" for none
}

// renderSingular renders a post or page.
func (s *Handler) renderSingular(req *siteReq, pt *store.PostType, p *store.Post) error {
	if done, err := s.postPage(req, pt, p); done {
		return err
	}
	sp := s.singularPage(pt, p, nil)
	s.splitPage(req, sp)
	// a reply form's URL is the post's page again: not for search engines
	// (WordPress's wp_robots for replytocom)
	sp.noindex = sp.noindex || req.query.Has("replytocom")
	return s.render(req, sp)
}

func (s *Handler) singularPage(pt *store.PostType, p *store.Post, front []string) *sitePage {
	var tpls []string
	tpls = append(tpls, front...)
	if p.Template != "" && p.Template != "default" {
		tpls = append(tpls, p.Template)
	}
	if pt == store.TypePage {
		tpls = append(tpls, "page-"+p.Slug, "page-"+store.Itoa(p.ID), "page", "singular", "index")
	} else {
		tpls = append(tpls, "single-"+pt.Name+"-"+p.Slug, "single-"+pt.Name, "single", "singular", "index")
	}
	sp := &sitePage{status: http.StatusOK, templates: tpls, title: p.Title, post: p, pt: pt, ogType: "article",
		canonical: s.permalinks.Post(pt, p), noindex: p.Status != "publish",
		bodyClass: "single single-" + pt.Name + " postid-" + store.Itoa(p.ID)}
	if pt == store.TypePage {
		sp.bodyClass = "page page-id-" + store.Itoa(p.ID)
	}
	if p.Password == "" {
		sp.description = plainExcerpt(p, 30)
		if p.Status == "publish" && pt.Comments && p.CommentStatus == "open" {
			sp.feedTitle, sp.feedURL = p.Title+" Comments Feed", sp.canonical+"feed/"
		}
	}
	return sp
}

// renderFront renders the static front page.
func (s *Handler) renderFront(req *siteReq, p *store.Post) error {
	if req.paged > 1 {
		// /page/{n}/ of a static front page is page n of the page
		req.page = req.paged
		if done, err := s.postPage(req, store.TypePage, p); done {
			return err
		}
	}
	sp := s.singularPage(store.TypePage, p, []string{"front-page"})
	sp.canonical = s.Site().URL + "/"
	sp.title = ""
	sp.ogType = "website"
	sp.bodyClass = "home " + sp.bodyClass
	s.splitPage(req, sp)
	return s.render(req, sp)
}

// postsListing renders the latest posts: the front page, or the page for
// posts (page_for_posts) when page is that page.
func (s *Handler) postsListing(req *siteReq, page *store.Post) error {
	base := s.Site().URL + "/"
	sp := &sitePage{templates: []string{"home", "index"}, ogType: "website", bodyClass: "blog"}
	if page == nil {
		sp.templates = []string{"front-page", "home", "index"}
		sp.bodyClass = "home blog"
	} else {
		base = s.permalinks.Post(store.TypePage, page)
		sp.title = page.Title
	}
	lq := s.siteListQuery(req)
	lq.StickyFirst = req.paged == 1
	return s.listing(req, sp, lq, base)
}

func (s *Handler) siteListQuery(req *siteReq) *store.ListQuery {
	statuses := []string{"publish"}
	if req.caller.Can(store.TypePost.Caps.ReadPrivate) {
		statuses = append(statuses, "private")
	}
	return &store.ListQuery{Type: store.TypePost, Page: req.paged, PerPage: sitePostsPerPage, Statuses: statuses, Order: "desc", OrderBy: "date",
		ExcludeProtected: false}
}

// listedRowsMax bounds the rows the listing pages keep (about 1.5 KB
// each): the first pages of the front page and of every term's archive.
const listedRowsMax = 1024

// listing runs lq and renders sp with its results; a page past the end is
// a 404, as WordPress answers it. The page's posts are read by version
// (store.ListPostsCached), as the REST lists read theirs: the rows of
// posts already shown are not read again while they are unchanged; and
// the same query again in the generation is not run (site_listing.go).
func (s *Handler) listing(req *siteReq, sp *sitePage, lq *store.ListQuery, base string) error {
	posts, total, err := s.listedPosts(req.r.Context(), lq)
	if err != nil {
		return err
	}
	return s.showListing(req, sp, lq, posts, total, base)
}

// showListing renders sp with a page of posts of lq (total in all).
func (s *Handler) showListing(req *siteReq, sp *sitePage, lq *store.ListQuery, posts []*store.Post, total int, base string) error {
	sp.pages = (total + lq.PerPage - 1) / lq.PerPage
	if req.paged > 1 && req.paged > sp.pages {
		return s.notFound(req)
	}
	sp.status = http.StatusOK
	sp.list = posts
	query := ""
	if lq.Search != "" {
		query = "?s=" + url.QueryEscape(lq.Search)
	}
	sp.pageURL = func(n int) string {
		if n <= 1 {
			return base + query
		}
		return base + "page/" + strconv.Itoa(n) + "/" + query
	}
	sp.canonical = sp.pageURL(req.paged)
	if req.paged > 1 {
		sp.bodyClass += " paged paged-" + strconv.Itoa(req.paged)
	}
	if sp.description == "" {
		sp.description = s.Site().Description
	}
	return s.render(req, sp)
}

// searchPage is the site search (?s=): published posts and pages matching
// the term (private ones too for a reader who may read them), in the search
// template; two statements (the page of ids, then its posts).
func (s *Handler) searchPage(req *siteReq) error {
	term := strings.TrimSpace(req.query.Get("s"))
	sp := &sitePage{templates: []string{"search", "index"}, ogType: "website", bodyClass: "search", noindex: true,
		title: "Search Results for “" + term + "”", archive: "Search results for: “" + term + "”"}
	lq := s.siteListQuery(req)
	if term == "" {
		return s.listing(req, sp, lq, s.Site().URL+"/")
	}
	// WP_Query searches every searchable type (post_type any): posts and
	// pages together, by relevance, then date
	lq.Search, lq.OrderBy = term, "relevance"
	ctx := req.r.Context()
	ids, total, err := store.SearchPostIDs(ctx, s.db(ctx), store.SearchQuery{Types: []string{store.TypePost.Name, store.TypePage.Name},
		Search: term, ExcludeProtected: !req.caller.LoggedIn(), Statuses: lq.Statuses, Page: lq.Page, PerPage: lq.PerPage})
	if err != nil {
		return err
	}
	found, err := store.GetPosts(ctx, s.db(ctx), ids)
	if err != nil {
		return err
	}
	posts := make([]*store.Post, 0, len(ids))
	for _, id := range ids {
		if p := found[id]; p != nil {
			posts = append(posts, p)
		}
	}
	return s.showListing(req, sp, lq, posts, total, s.Site().URL+"/")
}

func (s *Handler) termArchive(req *siteReq, tax *store.Taxonomy, slug string) error {
	t, err := s.termBySlug(req.r.Context(), tax, slug)
	if err != nil {
		return err
	}
	if t == nil {
		return s.notFound(req)
	}
	kind := "category"
	label := "Category: "
	if tax == store.Tag {
		kind, label = "tag", "Tag: "
	}
	sp := &sitePage{templates: []string{kind + "-" + t.Slug, kind + "-" + store.Itoa(t.ID), kind, "archive", "index"}, ogType: "website",
		title: t.Name, archive: label + t.Name, archDesc: t.Description, description: t.Description,
		bodyClass: "archive " + kind + " " + kind + "-" + t.Slug,
		feedTitle: t.Name + " " + strings.TrimSuffix(label, ": ") + " Feed", feedURL: s.permalinks.Term(tax, t) + "feed/"}
	lq := s.siteListQuery(req)
	lq.Tax = []store.TaxClause{{Tax: tax, Terms: []int64{t.ID}, IncludeChildren: tax.Hierarchical && t.HasChildren, Operator: "IN"}}
	return s.listing(req, sp, lq, s.permalinks.Term(tax, t))
}

func (s *Handler) authorArchive(req *siteReq, slug string) error {
	u, found, err := s.users.UserBySlug(req.r.Context(), slug)
	if err != nil {
		return err
	}
	if !found {
		return s.notFound(req)
	}
	sp := &sitePage{templates: []string{"author-" + u.Slug, "author-" + store.Itoa(u.ID), "author", "archive", "index"}, ogType: "profile",
		title: u.Name, archive: "Author: " + u.Name, bodyClass: "archive author author-" + u.Slug,
		feedTitle: "Posts by " + u.Name + " Feed", feedURL: s.Site().URL + "/author/" + u.Slug + "/feed/"}
	lq := s.siteListQuery(req)
	lq.Author = []int64{u.ID}
	return s.listing(req, sp, lq, s.Site().URL+"/author/"+u.Slug+"/")
}

// dateArchive lists the posts of a year, month or day (site time zone).
func (s *Handler) dateArchive(req *siteReq, y, m, d string) error {
	year, _ := strconv.Atoi(y)
	month, day := 1, 1
	if m != "" {
		month, _ = strconv.Atoi(m)
	}
	if d != "" {
		day, _ = strconv.Atoi(d)
	}
	start := time.Date(year, time.Month(month), day, 0, 0, 0, 0, s.location())
	if start.Month() != time.Month(month) || start.Day() != day || month < 1 || month > 12 {
		return s.notFound(req)
	}
	end, title := start.AddDate(1, 0, 0), "Year: "+y
	switch {
	case d != "":
		end, title = start.AddDate(0, 0, 1), "Day: "+start.Format("January 2, 2006")
	case m != "":
		end, title = start.AddDate(0, 1, 0), "Month: "+start.Format("January 2006")
	}
	after, before := start.Add(-time.Second), end
	sp := &sitePage{templates: []string{"date", "archive", "index"}, ogType: "website", title: strings.SplitN(title, ": ", 2)[1],
		archive: title, bodyClass: "archive date"}
	lq := s.siteListQuery(req)
	lq.After, lq.Before = &after, &before
	return s.listing(req, sp, lq, s.Site().URL+req.path)
}

func (s *Handler) notFound(req *siteReq) error {
	return s.render(req, &sitePage{status: http.StatusNotFound, templates: []string{"404", "index"}, title: "Page not found",
		noindex: true, bodyClass: "error404", ogType: "website"})
}

// render resolves the template, renders its blocks and writes the page.
// The templates, parts and stylesheet come from the generation's snapshot
// (site_cache.go), parsed and compiled once per committed change.
func (s *Handler) render(req *siteReq, sp *sitePage) error {
	ctx := req.r.Context()
	th, _, _, err := s.theme()
	if err != nil {
		return err
	}
	sn, err := s.snapshot(ctx)
	if err != nil {
		return err
	}
	var nodes []blocks.Node
	used := ""
	for _, slug := range sp.templates {
		n, ok, err := sn.compiledNodes(ctx, s, "template", slug)
		if err != nil {
			return err
		}
		if ok {
			nodes, used = n, slug
			break
		}
	}
	env, readErr, err := s.siteEnv(req, sp, sn)
	if errors.Is(err, errNoCommentPage) {
		return s.notFound(req)
	}
	if err != nil {
		return err
	}
	hint := blocks.SizeHint(&sn.sizes, used)
	env.SizeHint = int(hint.Load())
	body := blocks.Render(nodes, env)
	if *readErr != nil {
		return *readErr
	}
	// the next page of this template is made about this one's size: the
	// last size, not the largest (one post with fifty comments would
	// otherwise make every post's page allocate for fifty comments)
	hint.Store(int64(len(body) + len(body)/8))
	// the skip link's target: the page's main element
	bodyHead, bodyTail := body, ""
	if i := strings.Index(body, "<main"); i >= 0 {
		bodyHead, bodyTail = body[:i+5], body[i+5:]
	}
	sp.icon = sn.siteIcon(ctx, s)
	// The page is assembled in a pooled buffer and written at once: the
	// shell with the global stylesheet (tens of KB with a block theme's
	// presets) was a new string per page, and each piece written as a string
	// was copied again into a []byte on its way to the connection — together
	// two thirds of content's allocations on a post page, and its GC share.
	page := pageBuffers.Get().(*bytes.Buffer)
	defer putPageBuffer(page)
	page.Reset()
	s.writeShell(page, sp, sn.css, th.Stylesheet)
	page.WriteString(bodyHead)
	if bodyTail != "" {
		page.WriteString(` id="wp--skip-link--target"`)
		page.WriteString(bodyTail)
	}
	page.WriteString("\n</div>\n</body>\n</html>\n")
	h := req.w.Header()
	s.discoveryHeaders(h, sp)
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("X-Siteplane-Template", used)
	if sp.noindex || req.caller.LoggedIn() {
		h.Set("Cache-Control", "no-cache, must-revalidate, max-age=0, private")
	}
	commentsCacheControl(h, env.Comments)
	h.Set("Content-Length", strconv.Itoa(page.Len()))
	req.w.WriteHeader(sp.status)
	if req.r.Method != http.MethodHead {
		_, _ = req.w.Write(page.Bytes())
	}
	return nil
}

// pageBuffers lends the buffers pages are assembled in (render).
var pageBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// pageBufferMax bounds the buffers kept for the next page: a rare huge page
// (a post of megabytes) is not held by the pool afterwards.
const pageBufferMax = 1 << 20

func putPageBuffer(b *bytes.Buffer) {
	if b.Cap() <= pageBufferMax {
		pageBuffers.Put(b)
	}
}

// cssCache is the stylesheet of the last user global styles seen: they
// change rarely, and the CSS is the same for every page until they do.
type cssCache struct {
	key string
	css string
}

// globalCSS is the page's stylesheet: the theme's settings and styles with
// the user's global styles (the stored post's content) merged over them.
func (s *Handler) globalCSS(th *theme.Theme, userStyles string) string {
	if c, ok := s.siteCSS.Load().(cssCache); ok && c.key == userStyles {
		return c.css
	}
	// The theme's preset lists keyed by origin, as the user's global
	// styles (saved by the site editor) key theirs: a user's "custom"
	// palette then adds to the theme's instead of replacing it. WordPress's
	// own presets are the "default" origin under them, as in WordPress.
	settings, styles := blocks.WithDefaultPresets(blocks.OriginPresets(th.Settings)), th.Styles
	us, ust, ok := store.DecodeUserThemeJSON(userStyles)
	if ok {
		settings, styles = blocks.MergeStyles(settings, us), blocks.MergeStyles(styles, ust)
	}
	css := fontFaceCSS(th, us, s.Site().URL) + blocks.GlobalCSS(settings, styles)
	s.siteCSS.Store(cssCache{key: userStyles, css: css})
	return css
}

// discoveryHeaders are the Link headers every page carries: the REST API
// root and, for a post, its REST resource and short link.
func (s *Handler) discoveryHeaders(h http.Header, sp *sitePage) {
	h.Add("Link", "<"+s.restRoot+`/>; rel="https://api.w.org/"`)
	if sp.post != nil {
		h.Add("Link", "<"+s.permalinks.PostREST(sp.pt, sp.post.ID)+`>; rel="alternate"; title="JSON"; type="application/json"`)
		h.Add("Link", "<"+s.permalinks.GUID(sp.pt, sp.post)+`>; rel=shortlink`)
	}
}

// siteEnv is what the theme's blocks read for sp: the site-wide Env (a
// compiled template has most of it rendered already) with the page's post,
// query and archive.
func (s *Handler) siteEnv(req *siteReq, sp *sitePage, sn *siteSnapshot) (*blocks.Env, *error, error) {
	ctx := req.r.Context()
	// a menu or part that cannot be read fails the page (*readErr, checked
	// after the render), rather than showing it without
	env, readErr := s.siteWideEnv(ctx, sn)
	env.SearchQuery, env.ArchiveTitle, env.ArchiveDescription = req.query.Get("s"), sp.archive, sp.archDesc
	env.Part = func(slug string) ([]blocks.Node, bool) {
		n, ok, err := sn.compiledNodes(ctx, s, "part", slug)
		if err != nil && *readErr == nil {
			*readErr = err
		}
		return n, ok
	}
	conv := &postConverter{s: s, req: req, sn: sn, users: map[int64]store.User{}}
	if sp.post != nil {
		bp, err := conv.convert(ctx, sp.pt, []*store.Post{sp.post}, true, env)
		if err != nil {
			return nil, nil, err
		}
		env.Post = bp[0]
		if sp.pt == attachmentType { // its link is the media's, ?attachment_id=
			env.Post.URL = sp.canonical
		}
		if env.Comments, err = s.commentsEnv(req, sn, sp.pt, sp.post, conv); err != nil {
			return nil, nil, err
		}
	}
	if sp.pageURL != nil {
		bp, err := conv.convert(ctx, store.TypePost, sp.list, false, env)
		if err != nil {
			return nil, nil, err
		}
		env.Query = &blocks.Query{Posts: bp, Page: req.paged, Pages: sp.pages, PageURL: sp.pageURL}
	}
	return env, readErr, nil
}
