package website

import (
	"html"
	"net/url"
	"strconv"
	"strings"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/store"
)

// A post split into pages with <!--nextpage--> (the Page Break block,
// core/nextpage), as WordPress shows it: /{post}/{n}/ is page n of the
// post (the rewrite rules' "page" query var; /page/{n}/ on a static front
// page), page 1 is the post's own URL (/{post}/1/ redirects there, as
// redirect_canonical does), a page past the last, or any page of a post
// that is not split, is a 404 (WP::handle_404), and the post-content block
// ends with wp_link_pages()'s links when the content has the block.

// nextpageMarker separates a post's pages.
const nextpageMarker = "<!--nextpage-->"

// contentPages splits content as WP_Query::generate_postdata does: the
// marker's surrounding line breaks and the block's delimiters go, a marker
// at the very start is ignored.
func contentPages(content string) []string {
	if !strings.Contains(content, nextpageMarker) {
		return []string{content}
	}
	c := strings.NewReplacer("\n"+nextpageMarker+"\n", nextpageMarker, "\n"+nextpageMarker, nextpageMarker,
		nextpageMarker+"\n", nextpageMarker).Replace(content)
	c = strings.ReplaceAll(c, "<!-- wp:nextpage -->", "")
	c = strings.ReplaceAll(c, "<!-- /wp:nextpage -->", "")
	c = strings.TrimPrefix(c, nextpageMarker)
	return strings.Split(c, nextpageMarker)
}

// postPageCount is how many pages WP::handle_404 lets a post have: one
// more than its markers (counted in the stored content, as WordPress does).
func postPageCount(content string) int {
	return strings.Count(content, nextpageMarker) + 1
}

// pageNumber takes a trailing page number off a singular path's segments
// (/{post}/{n}/): n, and the segments without it; 0 when there is none.
// WordPress gives no post or page a slug of digits only (they would be
// taken for page numbers and dates), so the number is never a slug.
func pageNumber(segs []string) ([]string, int) {
	if len(segs) < 2 {
		return segs, 0
	}
	last := segs[len(segs)-1]
	for i := 0; i < len(last); i++ {
		if last[i] < '0' || last[i] > '9' {
			return segs, 0
		}
	}
	n, err := strconv.Atoi(last)
	if err != nil || len(last) > 9 {
		n = 1 << 30 // past any post's last page: the 404
	}
	return segs[:len(segs)-1], max(n, 1)
}

// postPage checks the requested page of p: done when the answer (a 404, or
// the redirect of page 1 to the post) has been written.
func (s *Handler) postPage(req *siteReq, pt *store.PostType, p *store.Post) (done bool, err error) {
	if req.page == 0 {
		return false, nil
	}
	if !strings.Contains(p.Content, nextpageMarker) || req.page > postPageCount(p.Content) {
		return true, s.notFound(req)
	}
	if req.page == 1 && req.query.Get("page") == "" {
		return true, s.redirect(req, s.permalinks.Post(pt, p)+rawQuery(req.r))
	}
	return false, nil
}

// splitPage adds page n's title part, canonical URL and body classes to
// the page of a split post.
func (s *Handler) splitPage(req *siteReq, sp *sitePage) {
	if req.page < 2 {
		return
	}
	n := strconv.Itoa(req.page)
	if sp.title != "" { // the front page's title is the site's
		sp.title += " – Page " + n
	}
	sp.canonical = s.postPageURL(sp.pt, sp.post, req.page)
	if sp.pt == store.TypePage {
		sp.bodyClass += " paged-" + n + " page-paged-" + n
	} else {
		sp.bodyClass += " paged-" + n + " single-paged-" + n
	}
}

// postPageURL is _wp_link_page's URL of page n of p.
func (s *Handler) postPageURL(pt *store.PostType, p *store.Post, n int) string {
	link := s.permalinks.Post(pt, p)
	if pt == store.TypePage && s.Site().ShowOnFront == "page" && s.Site().PageOnFront == p.ID && p.Status == "publish" {
		// the front page's permalink is the site's (get_page_link)
		if n <= 1 {
			return s.Site().URL + "/"
		}
		return s.Site().URL + "/page/" + strconv.Itoa(n) + "/"
	}
	switch {
	case n <= 1:
		return link
	case strings.Contains(link, "?"):
		// a draft's ?p= link: the page as a query argument
		return link + "&page=" + strconv.Itoa(n)
	}
	return strings.TrimSuffix(link, "/") + "/" + strconv.Itoa(n) + "/"
}

// pagedContent renders the requested page of p's content, with the page
// links when the content has the Page Break block (the post-content block's
// has_block check); the whole content when it is not split.
func (c *postConverter) pagedContent(pt *store.PostType, p *store.Post, unfiltered bool, env *blocks.Env, keep bool) string {
	pages := contentPages(p.Content)
	if len(pages) == 1 {
		return c.sn.renderContent(p, unfiltered, env, keep)
	}
	n := min(max(c.req.page, 1), len(pages))
	out := c.sn.renderKeyed(contentKey{id: p.ID, unfiltered: unfiltered, part: n}, pages[n-1], env, keep)
	if strings.Contains(p.Content, "<!-- wp:nextpage") {
		out += c.s.linkPages(pt, p, n, len(pages))
	}
	return out
}

// linkPages is wp_link_pages() with its defaults: the page numbers, the
// current one a span.
func (s *Handler) linkPages(pt *store.PostType, p *store.Post, current, count int) string {
	var sb strings.Builder
	sb.WriteString(`<p class="post-nav-links">Pages:`)
	for i := 1; i <= count; i++ {
		sb.WriteByte(' ')
		n := strconv.Itoa(i)
		if i == current {
			sb.WriteString(`<span class="post-page-numbers current" aria-current="page">` + n + `</span>`)
			continue
		}
		sb.WriteString(`<a href="` + html.EscapeString(s.postPageURL(pt, p, i)) + `" class="post-page-numbers">` + n + `</a>`)
	}
	sb.WriteString(`</p>`)
	return sb.String()
}

// queryPage is the page a ?p=/?page_id= URL asks for (?page=n), 0 when
// none or not a number.
func queryPage(q url.Values) int {
	n, err := strconv.Atoi(q.Get("page"))
	if err != nil || n < 1 {
		return 0
	}
	return n
}
