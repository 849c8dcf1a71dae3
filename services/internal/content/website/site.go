package website

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// The public website (docs/website.md): the gateway forwards every public
// path no other route owns to contract.SitePath + path, with the caller's
// signed identity. This file maps a request to what it shows (WordPress's
// rewrite rules and query vars); site_page.go renders it from the theme,
// site_feeds.go writes the feeds, sitemaps and robots.txt.

// sitePostsPerPage is posts_per_page.
const sitePostsPerPage = 10

// postPassCookie carries a hash of the password typed into a protected
// post's form (the gateway passes only this cookie through).
const postPassCookie = "cms-postpass"

// SiteHandler serves the website.
func (s *Handler) SiteHandler(logger *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setPageHeaders(w.Header(), strings.TrimPrefix(r.URL.Path, contract.SitePath))
		if err := s.serveSite(w, r); err != nil {
			status := http.StatusInternalServerError
			if postgres.Unavailable(err) {
				// not now rather than broken (the server adds Retry-After)
				status = http.StatusServiceUnavailable
			}
			logging.FromContext(r.Context(), logger).Error("render page", "path", r.URL.Path, "status", status, "error", err.Error())
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(status)
			_, _ = w.Write([]byte("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Error</title></head><body><p>The page could not be rendered.</p></body></html>"))
		}
	})
}

var (
	pagedRe = regexp.MustCompile(`^(.*/)page/([0-9]+)/$`)
	cpageRe = regexp.MustCompile(`^(.*/)comment-page-([0-9]+)/$`)
	dateRe  = regexp.MustCompile(`^/([0-9]{4})/(?:([0-9]{2})/(?:([0-9]{2})/)?)?$`)
)

// siteReq is one page request.
type siteReq struct {
	w      http.ResponseWriter
	r      *http.Request
	path   string // below SitePath, "/" at least
	query  url.Values
	paged  int
	cpage  int // comment-page-N (0: none)
	page   int // page n of a post split with <!--nextpage--> (nextpage.go), 0: none
	caller identity.Identity
	// preview is the post whose caller's autosave this page shows
	// (site_preview.go), 0 when none: its content is not kept
	preview int64
	// found is what the URL's statement read (singular), with the post's
	// neighbours and whether it has approved comments: a post's first page
	// then runs one statement, not three (the snapshot may keep them too,
	// but it is full when many posts are read once each)
	found *store.Singular
}

// neighbours returns the links to post id's neighbours read with it
// (found), ok false when they were not.
func (req *siteReq) neighbours(s *Handler, id int64) (prev, next *blocks.Link, ok bool) {
	f := req.found
	if f == nil || f.Post == nil || f.Post.ID != id || f.Post.Status != "publish" {
		return nil, nil, false
	}
	prev, next = neighbourLinks(s, f.Prev, f.Next)
	return prev, next, true
}

// uncommented reports whether post (or page) id was read with no approved
// comments (found).
func (req *siteReq) uncommented(id int64) bool {
	f := req.found
	return f != nil && (f.Page != nil && f.Page.ID == id && !f.PageComments || f.Post != nil && f.Post.ID == id && !f.PostComments)
}

func (s *Handler) serveSite(w http.ResponseWriter, r *http.Request) error {
	path := strings.TrimPrefix(r.URL.Path, contract.SitePath)
	if path == "" {
		path = "/"
	}
	req := &siteReq{w: w, r: r, path: path, query: r.URL.Query(), paged: 1, caller: identity.FromContext(r.Context())}
	if path == commentFormPath {
		return s.commentPost(req)
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
	case http.MethodPost:
		if r.URL.Query().Get("action") == "postpass" {
			return s.postPass(req)
		}
		fallthrough
	default:
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		return nil
	}
	// NUL and invalid UTF-8 match nothing PostgreSQL can store or compare:
	// no page has them (a 404, never a failed query).
	if !validText(path) || !validQuery(req.query) {
		return s.notFound(req)
	}
	// files first: they have no trailing slash
	switch {
	case path == "/robots.txt":
		return s.robots(req)
	case path == "/cms-sitemap.xml" || strings.HasPrefix(path, "/cms-sitemap-"):
		return s.sitemap(req)
	}
	if last := path[strings.LastIndexByte(path, '/')+1:]; strings.Contains(last, ".") {
		// a file name (favicon.ico, …): no page has one
		return s.notFound(req)
	}
	if !strings.HasSuffix(path, "/") {
		// redirect_canonical: permalinks end with a slash
		// the path as the visitor sent it (still escaped), plus the slash
		return s.redirect(req, s.Site().URL+strings.TrimPrefix(r.URL.EscapedPath(), contract.SitePath)+"/"+rawQuery(r))
	}
	if m := pagedRe.FindStringSubmatch(path); m != nil {
		n, err := strconv.Atoi(m[2])
		if err != nil || n < 1 {
			return s.notFound(req)
		}
		req.path, req.paged = m[1], n
	} else if m := cpageRe.FindStringSubmatch(path); m != nil {
		n, err := strconv.Atoi(m[2])
		if err != nil || n < 1 {
			return s.notFound(req)
		}
		req.path, req.cpage = m[1], n
	}
	if id := req.query.Get("p"); id != "" {
		return s.byID(req, id, nil)
	}
	if id := req.query.Get("page_id"); id != "" {
		return s.byID(req, id, store.TypePage)
	}
	if id := req.query.Get("attachment_id"); id != "" {
		return s.attachment(req, id)
	}
	if to, ok, err := s.queryFormRedirect(req); err != nil || ok {
		if err != nil {
			return err
		}
		if to == "" {
			return s.notFound(req)
		}
		return s.redirect(req, to)
	}
	if _, ok := req.query["s"]; ok && req.path == "/" {
		return s.searchPage(req)
	}
	segs := strings.Split(strings.Trim(req.path, "/"), "/")
	if req.path == "/" {
		return s.front(req)
	}
	if feed, base, ok := feedPath(req.path); ok {
		return s.feed(req, base, feed)
	}
	if segs[len(segs)-1] == "embed" && len(segs) > 1 {
		return s.embed(req, segs[:len(segs)-1])
	}
	if m := dateRe.FindStringSubmatch(req.path); m != nil {
		return s.dateArchive(req, m[1], m[2], m[3])
	}
	if len(segs) == 2 {
		switch segs[0] {
		case "category":
			return s.termArchive(req, store.Category, segs[1])
		case "tag":
			return s.termArchive(req, store.Tag, segs[1])
		case "author":
			return s.authorArchive(req, segs[1])
		}
	}
	segs, req.page = pageNumber(segs)
	return s.singular(req, segs)
}

func rawQuery(r *http.Request) string {
	if r.URL.RawQuery == "" {
		return ""
	}
	return "?" + r.URL.RawQuery
}

// feedPath splits ".../feed/" and ".../feed/{rss2,atom}/" into the feed
// kind and the listing it belongs to.
func feedPath(p string) (kind, base string, ok bool) {
	for _, suffix := range []struct{ s, kind string }{{"feed/", "rss2"}, {"feed/rss2/", "rss2"}, {"feed/atom/", "atom"}} {
		if r, ok := strings.CutSuffix(p, "/"+suffix.s); ok {
			return suffix.kind, r + "/", true
		}
	}
	return "", "", false
}

func (s *Handler) redirect(req *siteReq, to string) error {
	req.w.Header().Set("Location", to)
	req.w.Header().Set("Content-Type", "text/html; charset=utf-8")
	req.w.WriteHeader(http.StatusMovedPermanently)
	return nil
}

// visible reports whether the caller may see p at its permalink: anyone a
// published post, private ones and drafts only callers who may read them.
func visible(who identity.Identity, pt *store.PostType, p *store.Post) bool {
	if pt == nil || !pt.Public || p.Type == "revision" {
		return false
	}
	if p.Status == "trash" || p.Status == "auto-draft" {
		return false
	}
	return store.CanRead(who, pt, p)
}

// byID serves ?p= and ?page_id=: a published post redirects to its
// permalink, a draft the caller may read is shown (its preview).
func (s *Handler) byID(req *siteReq, idText string, want *store.PostType) error {
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil || id <= 0 {
		return s.notFound(req)
	}
	p, err := store.GetPostAs(req.r.Context(), s.db(req.r.Context()), id, false, nil)
	if err != nil {
		return err
	}
	if p == nil {
		return s.notFound(req)
	}
	pt := store.TypeByName(p.Type)
	if want != nil && pt != want {
		return s.notFound(req)
	}
	if !visible(req.caller, pt, p) {
		return s.notFound(req)
	}
	req.page = queryPage(req.query)
	if link := s.permalinks.Post(pt, p); !strings.Contains(link, "?") {
		return s.redirect(req, s.postPageURL(pt, p, req.page))
	}
	return s.previewSingular(req, pt, p)
}

// singular serves a page at its (nested) path or a post at /{slug}/.
func (s *Handler) singular(req *siteReq, segs []string) error {
	// a page at that path wins over a post of that slug
	found, err := s.singularRows(req.r.Context(), strings.Join(segs[:len(segs)-1], "/"), segs[len(segs)-1], len(segs) == 1)
	if err != nil {
		return err
	}
	req.found = &found
	if page := found.Page; page != nil && visible(req.caller, store.TypePage, page) {
		if page.ID == s.Site().PageForPosts {
			return s.postsListing(req, page)
		}
		return s.previewSingular(req, store.TypePage, page)
	}
	if post := found.Post; post != nil && visible(req.caller, store.TypePost, post) {
		return s.previewSingular(req, store.TypePost, post)
	}
	return s.notFound(req)
}

// singularKey names a SingularBySlug lookup in the snapshot.
type singularKey struct {
	ancestors, slug string
	withPost        bool
}

// singularRows is store.SingularBySlug kept for the change generation
// (siteSnapshot.singular): the page and the post at a path are the same
// for every caller — whether this one may see them is decided after — until
// the next committed write, so a post's page read again in the generation
// runs no statement (before: one a page, most of PostgreSQL's 0.2–0.3 ms of
// CPU for a post's page, docs/performance.md).
func (s *Handler) singularRows(ctx context.Context, ancestors, slug string, withPost bool) (store.Singular, error) {
	if !s.siteGen.online.Load() {
		// no snapshot is kept (a write could go unheard): the render loads
		// its own, this would be a second
		return store.SingularBySlug(ctx, s.db(ctx), ancestors, slug, withPost)
	}
	sn, err := s.snapshot(ctx)
	if err != nil {
		return store.Singular{}, err
	}
	key := singularKey{ancestors: ancestors, slug: slug, withPost: withPost}
	if v, ok := sn.singular.Load(key); ok {
		return v.(store.Singular), nil
	}
	found, err := store.SingularBySlug(ctx, s.db(ctx), ancestors, slug, withPost)
	if err != nil {
		return store.Singular{}, err
	}
	sn.keep(&sn.singular, key, found, entryCost(len(ancestors)+len(slug)+postSize(found.Page)+postSize(found.Post)))
	return found, nil
}

// postSize is about what a post read whole holds (its texts, nil: none).
func postSize(p *store.Post) int {
	if p == nil {
		return 0
	}
	return 512 + len(p.Title) + len(p.Content) + len(p.Excerpt) + len(p.Footnotes)
}

// front serves the site URL: the static front page or the latest posts.
func (s *Handler) front(req *siteReq) error {
	if s.Site().ShowOnFront == "page" && s.Site().PageOnFront > 0 {
		p, err := store.GetPostAs(req.r.Context(), s.db(req.r.Context()), s.Site().PageOnFront, false, store.TypePage)
		if err != nil {
			return err
		}
		if p != nil && p.Type == "page" && visible(req.caller, store.TypePage, p) {
			if p, err = s.withPreview(req, store.TypePage, p); err != nil {
				return err
			}
			return s.renderFront(req, p)
		}
	}
	return s.postsListing(req, nil)
}

// postPass stores the password of a protected post's form in a cookie
// and sends the visitor back (wp-login.php?action=postpass).
func (s *Handler) postPass(req *siteReq) error {
	if err := req.r.ParseForm(); err != nil {
		// a malformed form is the visitor's error, answered here
		return writeText(req, http.StatusBadRequest, "text/plain; charset=utf-8", "Bad Request\n")
	}
	http.SetCookie(req.w, &http.Cookie{Name: postPassCookie, Value: passHash(req.r.PostForm.Get("post_password")),
		Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode, Expires: time.Now().Add(10 * 24 * time.Hour)})
	back := s.Site().URL + "/"
	if ref := req.r.PostForm.Get("redirect_to"); strings.HasPrefix(ref, s.Site().URL+"/") {
		back = ref
	}
	req.w.Header().Set("Location", back)
	req.w.WriteHeader(http.StatusSeeOther)
	return nil
}

func passHash(p string) string {
	h := sha256.Sum256([]byte("cms-postpass:" + p))
	return hex.EncodeToString(h[:])
}

// unlocked reports whether the visitor may read a protected post's
// content: no password, the right password cookie, or an editor.
func unlocked(req *siteReq, pt *store.PostType, p *store.Post) bool {
	if p.Password == "" || store.CanEdit(req.caller, pt, p) {
		return true
	}
	c, err := req.r.Cookie(postPassCookie)
	return err == nil && c.Value == passHash(p.Password)
}

// queryFormRedirect maps the query forms of archives (?cat={id},
// ?tag={slug}, ?author={id}) to their pretty URLs, as redirect_canonical
// does; ok with an empty URL means the archive does not exist.
func (s *Handler) queryFormRedirect(req *siteReq) (to string, ok bool, err error) {
	ctx := req.r.Context()
	switch {
	case req.query.Get("cat") != "":
		id := queryID(req.query.Get("cat"))
		t, err := store.TermSlugByID(ctx, s.db(ctx), store.Category, id)
		if err != nil || t == nil {
			return "", true, err
		}
		return s.permalinks.Term(store.Category, t), true, nil
	case req.query.Get("tag") != "":
		t, err := store.TermBySlug(ctx, s.db(ctx), store.Tag, req.query.Get("tag"))
		if err != nil || t == nil {
			return "", true, err
		}
		return s.permalinks.Term(store.Tag, t), true, nil
	case req.query.Get("author") != "":
		id := queryID(req.query.Get("author"))
		if id == 0 {
			return "", true, nil
		}
		// a user without published posts is not revealed (not even
		// whether the id exists): the 404, as WordPress
		if has, err := store.HasPublishedPosts(ctx, s.db(ctx), id); err != nil || !has {
			return "", true, err
		}
		u, found, err := s.users.User(ctx, id)
		if err != nil || !found || u.Slug == "" {
			return "", true, err
		}
		return s.Site().URL + "/author/" + u.Slug + "/", true, nil
	}
	return "", false, nil
}

// queryID reads an id from a query parameter; 0 when it is not one (a
// visitor's typo finds nothing rather than failing).
func queryID(v string) int64 {
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil || id < 0 {
		return 0
	}
	return id
}

// validQuery reports whether every name and value of q is rest.ValidText.
func validQuery(q url.Values) bool {
	for k, vs := range q {
		if !validText(k) {
			return false
		}
		for _, v := range vs {
			if !validText(v) {
				return false
			}
		}
	}
	return true
}
