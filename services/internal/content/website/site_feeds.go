package website

import (
	"context"
	"encoding/xml"
	"html"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/store"
)

// Feeds (RSS 2.0 and Atom), the XML sitemaps, robots.txt and the oEmbed
// embed page: the website's machine-readable answers.

func (s *Handler) robots(req *siteReq) error {
	body := "User-agent: *\nDisallow: /cms-admin/\n\nSitemap: " + s.Site().URL + "/cms-sitemap.xml\n"
	return writeText(req, http.StatusOK, "text/plain; charset=utf-8", body)
}

func writeText(req *siteReq, status int, ctype, body string) error {
	h := req.w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	req.w.WriteHeader(status)
	if req.r.Method != http.MethodHead {
		_, _ = req.w.Write([]byte(body))
	}
	return nil
}

func xmlEsc(s string) string {
	var sb strings.Builder
	_ = xml.EscapeText(&sb, []byte(s))
	return sb.String()
}

// feed writes the RSS 2.0 or Atom feed of the latest posts, or of one
// category or tag (rest is the listing's path: "/", "/category/news/").
func (s *Handler) feed(req *siteReq, rest, kind string) error {
	if done, err := s.feedOwner(req, rest, kind); done {
		return err
	}
	ctx := req.r.Context()
	lq := postsFeedQuery()
	title, link := s.Site().Title, s.Site().URL+"/"
	if rest != "/" {
		segs := strings.Split(strings.Trim(rest, "/"), "/")
		if len(segs) != 2 || (segs[0] != "category" && segs[0] != "tag") {
			return s.notFound(req)
		}
		tax := store.Category
		if segs[0] == "tag" {
			tax = store.Tag
		}
		t, err := store.TermBySlug(ctx, s.db(ctx), tax, segs[1])
		if err != nil {
			return err
		}
		if t == nil {
			return s.notFound(req)
		}
		lq.Tax = []store.TaxClause{{Tax: tax, Terms: []int64{t.ID}, IncludeChildren: tax.Hierarchical && t.HasChildren, Operator: "IN"}}
		title, link = s.Site().Title+" - "+t.Name, s.permalinks.Term(tax, t)
	}
	return s.postsFeed(req, kind, lq, title, link, link+"feed/")
}

// postsFeedQuery is the query of a posts feed: the newest published posts.
func postsFeedQuery() *store.ListQuery {
	return &store.ListQuery{Type: store.TypePost, Page: 1, PerPage: sitePostsPerPage, Statuses: []string{"publish"}, Order: "desc", OrderBy: "date"}
}

// postsFeed writes the feed of lq's posts: the channel's title, link and
// own URL (its RSS form; Atom's adds atom/).
func (s *Handler) postsFeed(req *siteReq, kind string, lq *store.ListQuery, title, link, self string) error {
	ctx := req.r.Context()
	posts, _, err := store.ListPosts(ctx, s.db(ctx), lq)
	if err != nil {
		return err
	}
	conv := &postConverter{s: s, req: req, users: map[int64]store.User{}}
	updated := time.Unix(0, 0).UTC()
	for _, p := range posts {
		if p.ModifiedGMT.After(updated) {
			updated = p.ModifiedGMT
		}
	}
	var sb strings.Builder
	sb.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	if kind == "atom" {
		self += "atom/"
		sb.WriteString(`<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">` + "\n")
		sb.WriteString("<title type=\"text\">" + xmlEsc(title) + "</title>\n<subtitle type=\"text\">" + xmlEsc(s.Site().Description) + "</subtitle>\n")
		sb.WriteString("<updated>" + updated.Format(time.RFC3339) + "</updated>\n<id>" + xmlEsc(self) + "</id>\n")
		sb.WriteString(`<link rel="alternate" type="text/html" href="` + xmlEsc(link) + `"/>` + "\n")
		sb.WriteString(`<link rel="self" type="application/atom+xml" href="` + xmlEsc(self) + `"/>` + "\n")
	} else {
		sb.WriteString(`<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">` + "\n<channel>\n")
		sb.WriteString("<title>" + xmlEsc(title) + "</title>\n")
		sb.WriteString(`<atom:link href="` + xmlEsc(self) + `" rel="self" type="application/rss+xml"/>` + "\n")
		sb.WriteString("<link>" + xmlEsc(link) + "</link>\n<description>" + xmlEsc(s.Site().Description) + "</description>\n")
		sb.WriteString("<lastBuildDate>" + updated.Format(time.RFC1123Z) + "</lastBuildDate>\n<language>en</language>\n")
	}
	for _, p := range posts {
		u, err := conv.user(ctx, p.Author)
		if err != nil {
			return err
		}
		link := s.permalinks.Post(store.TypePost, p)
		excerpt := plainExcerpt(p, store.DefaultExcerptWords)
		content := ""
		if p.Password == "" {
			content = s.renderPostContent(p.Content, mayPostUnfiltered(u), &blocks.Env{SiteTitle: s.Site().Title, Tagline: s.Site().Description, HomeURL: s.Site().URL})
		} else {
			excerpt = "There is no excerpt because this is a protected post."
		}
		author := u.Name
		if author == "" {
			author = "Unknown author"
		}
		if kind == "atom" {
			sb.WriteString("<entry>\n<author><name>" + xmlEsc(author) + "</name></author>\n")
			sb.WriteString("<title type=\"html\">" + xmlEsc(html.EscapeString(p.Title)) + "</title>\n")
			sb.WriteString(`<link rel="alternate" type="text/html" href="` + xmlEsc(link) + `"/>` + "\n")
			sb.WriteString("<id>" + xmlEsc(s.permalinks.GUID(store.TypePost, p)) + "</id>\n")
			sb.WriteString("<updated>" + p.ModifiedGMT.UTC().Format(time.RFC3339) + "</updated>\n<published>" + p.DateGMT.UTC().Format(time.RFC3339) + "</published>\n")
			sb.WriteString("<summary type=\"text\">" + xmlEsc(excerpt) + "</summary>\n")
			if content != "" {
				sb.WriteString("<content type=\"html\">" + xmlEsc(content) + "</content>\n")
			}
			sb.WriteString("</entry>\n")
			continue
		}
		sb.WriteString("<item>\n<title>" + xmlEsc(p.Title) + "</title>\n<link>" + xmlEsc(link) + "</link>\n")
		sb.WriteString("<dc:creator>" + xmlEsc(author) + "</dc:creator>\n<pubDate>" + p.DateGMT.UTC().Format(time.RFC1123Z) + "</pubDate>\n")
		sb.WriteString(`<guid isPermaLink="false">` + xmlEsc(s.permalinks.GUID(store.TypePost, p)) + "</guid>\n")
		sb.WriteString("<description>" + xmlEsc(excerpt) + "</description>\n")
		if content != "" {
			sb.WriteString("<content:encoded>" + xmlEsc(content) + "</content:encoded>\n")
		}
		sb.WriteString("</item>\n")
	}
	if kind == "atom" {
		sb.WriteString("</feed>\n")
		return writeText(req, http.StatusOK, "application/atom+xml; charset=UTF-8", sb.String())
	}
	sb.WriteString("</channel>\n</rss>\n")
	return writeText(req, http.StatusOK, "application/rss+xml; charset=UTF-8", sb.String())
}

// sitemapMax is the number of URLs per sitemap page (wp_sitemaps_get_max_urls).
const sitemapMax = 2000

var sitemapRe = regexp.MustCompile(`^/cms-sitemap-(posts|taxonomies)-([a-z_]+)-([0-9]+)\.xml$`)

// sitemap writes the index (/cms-sitemap.xml) or one of its sitemaps:
// /cms-sitemap-posts-{post,page}-N.xml, /cms-sitemap-taxonomies-{category,post_tag}-N.xml.
// As WordPress does, the index lists only sitemaps that have entries (every
// page of them), and a sitemap without entries (a kind with none, a page
// past the end) is a 404: sitemaps.org's schema requires at least one url
// in a urlset.
func (s *Handler) sitemap(req *siteReq) error {
	if req.path == "/cms-sitemap.xml" {
		return s.sitemapIndex(req)
	}
	m := sitemapRe.FindStringSubmatch(req.path)
	if m == nil {
		return s.notFound(req)
	}
	page, _ := strconv.Atoi(m[3])
	if page < 1 {
		return s.notFound(req)
	}
	var locs []string
	var err error
	switch {
	case m[1] == "posts" && (m[2] == "post" || m[2] == "page"):
		locs, _, err = s.sitemapPosts(req.r.Context(), store.TypeByName(m[2]), page)
	case m[1] == "taxonomies" && (m[2] == "category" || m[2] == "post_tag") && page == 1:
		locs, err = s.sitemapTerms(req.r.Context(), m[2])
	default:
		return s.notFound(req)
	}
	if err != nil {
		return err
	}
	if len(locs) == 0 {
		return s.notFound(req)
	}
	var sb strings.Builder
	sb.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	sb.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		sb.WriteString(l)
	}
	sb.WriteString("</urlset>\n")
	return writeText(req, http.StatusOK, "application/xml; charset=UTF-8", sb.String())
}

// sitemapIndex lists every page of every sitemap that has entries.
func (s *Handler) sitemapIndex(req *siteReq) error {
	ctx := req.r.Context()
	var sb strings.Builder
	sb.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	sb.WriteString(`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	entry := func(name string, page int) {
		sb.WriteString("<sitemap><loc>" + xmlEsc(s.Site().URL+"/cms-sitemap-"+name+"-"+strconv.Itoa(page)+".xml") + "</loc></sitemap>\n")
	}
	for _, pt := range []*store.PostType{store.TypePost, store.TypePage} {
		locs, pages, err := s.sitemapPosts(ctx, pt, 1)
		if err != nil {
			return err
		}
		if len(locs) == 0 {
			continue
		}
		for n := 1; n <= pages; n++ {
			entry("posts-"+pt.Name, n)
		}
	}
	for _, tax := range []string{"category", "post_tag"} {
		locs, err := s.sitemapTerms(ctx, tax)
		if err != nil {
			return err
		}
		if len(locs) > 0 {
			entry("taxonomies-"+tax, 1)
		}
	}
	sb.WriteString("</sitemapindex>\n")
	return writeText(req, http.StatusOK, "application/xml; charset=UTF-8", sb.String())
}

// sitemapPosts returns the <url> entries of page n of pt's sitemap (the
// front page first on page 1 of pages when it shows the latest posts),
// and how many pages there are.
func (s *Handler) sitemapPosts(ctx context.Context, pt *store.PostType, page int) (urls []string, pages int, err error) {
	posts, total, err := store.ListPosts(ctx, s.db(ctx), &store.ListQuery{Type: pt, Page: page, PerPage: sitemapMax, Statuses: []string{"publish"}, Order: "asc", OrderBy: "id"})
	if err != nil {
		return nil, 0, err
	}
	pages = max((total+sitemapMax-1)/sitemapMax, 1)
	if pt == store.TypePage && page == 1 && s.Site().ShowOnFront == "posts" {
		urls = append(urls, "<url><loc>"+xmlEsc(s.Site().URL+"/")+"</loc></url>\n")
	}
	for _, p := range posts {
		if p.Password != "" {
			continue
		}
		loc := s.permalinks.Post(pt, p)
		if pt == store.TypePage && p.ID == s.Site().PageOnFront && s.Site().ShowOnFront == "page" {
			loc = s.Site().URL + "/"
		}
		urls = append(urls, "<url><loc>"+xmlEsc(loc)+"</loc><lastmod>"+p.ModifiedGMT.UTC().Format(time.RFC3339)+"</lastmod></url>\n")
	}
	return urls, pages, nil
}

// sitemapTerms returns the <url> entries of a taxonomy's sitemap: its
// terms that have published posts.
func (s *Handler) sitemapTerms(ctx context.Context, taxName string) ([]string, error) {
	tax := store.Category
	if taxName == "post_tag" {
		tax = store.Tag
	}
	terms, err := store.PublicTerms(ctx, s.db(ctx), tax)
	if err != nil {
		return nil, err
	}
	urls := make([]string, 0, len(terms))
	for _, t := range terms {
		urls = append(urls, "<url><loc>"+xmlEsc(s.permalinks.Term(tax, t))+"</loc></url>\n")
	}
	return urls, nil
}

// embed writes /{path}/embed/, the page the oEmbed iframe shows: the
// post's title, excerpt and site, framable.
func (s *Handler) embed(req *siteReq, segs []string) error {
	ctx := req.r.Context()
	q := s.db(ctx)
	slug := segs[len(segs)-1]
	p, pt := (*store.Post)(nil), store.TypePage
	page, err := store.PageByPath(ctx, q, strings.Join(segs[:len(segs)-1], "/"), slug)
	if err != nil {
		return err
	}
	if page != nil && page.Status == "publish" {
		p = page
	} else if len(segs) == 1 {
		post, err := store.PostBySlug(ctx, q, slug)
		if err != nil {
			return err
		}
		if post != nil && post.Status == "publish" {
			p, pt = post, store.TypePost
		}
	}
	e := html.EscapeString
	if p == nil {
		body := "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Page not found – " + e(s.Site().Title) +
			"</title>\n<meta name=\"robots\" content=\"noindex, follow\">\n</head>\n<body class=\"wp-embed-responsive\">\n<div class=\"wp-embed\"><p class=\"wp-embed-heading\">Oops! That embed cannot be found.</p></div>\n</body>\n</html>\n"
		req.w.Header().Add("Link", "<"+s.restRoot+`/>; rel="https://api.w.org/"`)
		return writeText(req, http.StatusNotFound, "text/html; charset=utf-8", body)
	}
	link := s.permalinks.Post(pt, p)
	excerpt := plainExcerpt(p, 35)
	if p.Password != "" {
		excerpt = "There is no excerpt because this is a protected post."
	}
	body := "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + e(p.Title+" – "+s.Site().Title) + "</title>\n" +
		"<meta name=\"robots\" content=\"noindex, follow\">\n<link rel=\"canonical\" href=\"" + e(link) + "\">\n" +
		"<style>body{margin:0;font-family:system-ui,sans-serif}.wp-embed{padding:25px;border:1px solid #dcdcde;background:#fff;color:#50575e}.wp-embed-heading{font-size:22px;margin:0 0 12px}.wp-embed-heading a{color:#2c3338;text-decoration:none}.wp-embed-footer{margin-top:20px;font-size:14px}</style>\n" +
		"</head>\n<body class=\"wp-embed-responsive\">\n<div class=\"wp-embed post-" + store.Itoa(p.ID) + "\">\n" +
		"<p class=\"wp-embed-heading\"><a href=\"" + e(link) + "\" target=\"_top\">" + e(p.Title) + "</a></p>\n" +
		"<div class=\"wp-embed-excerpt\"><p>" + e(excerpt) + "</p></div>\n" +
		"<div class=\"wp-embed-footer\"><a href=\"" + e(s.Site().URL+"/") + "\" target=\"_top\">" + e(s.Site().Title) + "</a></div>\n</div>\n</body>\n</html>\n"
	req.w.Header().Add("Link", "<"+s.restRoot+`/>; rel="https://api.w.org/"`)
	return writeText(req, http.StatusOK, "text/html; charset=utf-8", body)
}
