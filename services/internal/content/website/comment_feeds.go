package website

import (
	"net/http"
	"strings"
	"time"

	"siteplane.dev/services/internal/content/store"
)

// Comment feeds (RSS 2.0 and Atom) as WordPress shapes them
// (feed-rss2-comments.php, feed-atom-comments.php): the site's newest
// approved comments at /comments/feed/, a post's at /{post path}/feed/.

// commentFeedSize is how many comments a feed shows (posts_per_rss).
const commentFeedSize = 10

// commentFeed writes the comment feed of post (nil: the whole site).
func (s *Handler) commentFeed(req *siteReq, pt *store.PostType, post *store.Post, kind string) error {
	ctx := req.r.Context()
	var postID int64
	title, link, self := "Comments for "+s.Site().Title, s.Site().URL+"/", s.Site().URL+"/comments/feed/"
	if post != nil {
		postID = post.ID
		link = s.permalinks.Post(pt, post)
		title, self = "Comments on: "+post.Title, link+"feed/"
	}
	list, err := store.RecentComments(ctx, s.db(ctx), postID, commentFeedSize)
	if err != nil {
		return err
	}
	// each comment's post, for its link (a feed shows at most ten)
	posts := map[int64]*store.Post{}
	if post != nil {
		posts[post.ID] = post
	}
	for _, c := range list {
		if _, ok := posts[c.Post]; !ok {
			p, err := store.GetPostAs(ctx, s.db(ctx), c.Post, false, nil)
			if err != nil {
				return err
			}
			posts[c.Post] = p
		}
	}
	commentLink := func(c *store.FeedComment, id int64) string {
		p := posts[c.Post]
		if p == nil {
			return s.Site().URL + "/?p=" + store.Itoa(c.Post) + "#comment-" + store.Itoa(id)
		}
		return s.permalinks.Post(store.TypeByName(p.Type), p) + "#comment-" + store.Itoa(id)
	}
	updated := time.Unix(0, 0).UTC()
	if len(list) > 0 {
		updated = list[0].DateGMT
	}
	var sb strings.Builder
	sb.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	if kind == "atom" {
		self += "atom/"
		sb.WriteString(`<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en" xmlns:thr="http://purl.org/syndication/thread/1.0">` + "\n")
		sb.WriteString("<title type=\"text\">" + xmlEsc(title) + "</title>\n<subtitle type=\"text\">" + xmlEsc(s.Site().Description) + "</subtitle>\n")
		sb.WriteString("<updated>" + updated.UTC().Format(time.RFC3339) + "</updated>\n")
		sb.WriteString(`<link rel="alternate" type="text/html" href="` + xmlEsc(link) + `"/>` + "\n")
		sb.WriteString(`<link rel="self" type="application/atom+xml" href="` + xmlEsc(self) + `"/>` + "\n<id>" + xmlEsc(self) + "</id>\n")
	} else {
		sb.WriteString(`<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:atom="http://www.w3.org/2005/Atom">` + "\n<channel>\n")
		sb.WriteString("<title>" + xmlEsc(title) + "</title>\n")
		sb.WriteString(`<atom:link href="` + xmlEsc(self) + `" rel="self" type="application/rss+xml"/>` + "\n")
		sb.WriteString("<link>" + xmlEsc(link) + "</link>\n<description>" + xmlEsc(s.Site().Description) + "</description>\n")
		sb.WriteString("<lastBuildDate>" + updated.UTC().Format(time.RFC1123Z) + "</lastBuildDate>\n")
	}
	for _, c := range list {
		s.writeFeedComment(&sb, c, post == nil, kind, commentLink)
	}
	if kind == "atom" {
		sb.WriteString("</feed>\n")
		return writeText(req, http.StatusOK, "application/atom+xml; charset=UTF-8", sb.String())
	}
	sb.WriteString("</channel>\n</rss>\n")
	return writeText(req, http.StatusOK, "application/rss+xml; charset=UTF-8", sb.String())
}

// writeFeedComment writes one comment's item or entry: a reply starts
// with "In reply to" its parent's author, as WordPress's comment_text_rss
// and the feed templates show it.
func (s *Handler) writeFeedComment(sb *strings.Builder, c *store.FeedComment, siteWide bool, kind string, link func(*store.FeedComment, int64) string) {
	author := c.AuthorName
	if author == "" {
		author = "Anonymous"
	}
	self := link(c, c.ID)
	content := store.RenderContent(c.Content)
	inReplyTo := link(c, 0)
	inReplyTo = strings.TrimSuffix(inReplyTo, "#comment-0")
	if c.Parent != 0 {
		inReplyTo = link(c, c.Parent)
		content = `<p>In reply to <a href="` + xmlEscAttr(inReplyTo) + `">` + xmlEsc(c.ParentName) + "</a>.</p>\n" + content
	}
	if kind == "atom" {
		title := "By: " + author
		if siteWide {
			title = "Comment on " + c.PostTitle + " by " + author
		}
		sb.WriteString("<entry>\n<title>" + xmlEsc(title) + "</title>\n")
		sb.WriteString(`<link rel="alternate" href="` + xmlEsc(self) + `" type="text/html"/>` + "\n")
		sb.WriteString("<author><name>" + xmlEsc(author) + "</name>")
		if c.AuthorURL != "" {
			sb.WriteString("<uri>" + xmlEsc(c.AuthorURL) + "</uri>")
		}
		sb.WriteString("</author>\n<id>" + xmlEsc(self) + "</id>\n")
		date := c.DateGMT.UTC().Format(time.RFC3339)
		sb.WriteString("<updated>" + date + "</updated>\n<published>" + date + "</published>\n")
		sb.WriteString(`<content type="html" xml:base="` + xmlEsc(self) + `">` + xmlEsc(content) + "</content>\n")
		sb.WriteString(`<thr:in-reply-to ref="` + xmlEsc(inReplyTo) + `" href="` + xmlEsc(inReplyTo) + `" type="text/html"/>` + "\n</entry>\n")
		return
	}
	title := "By: " + author
	if siteWide {
		title = "Comment on " + c.PostTitle + " by " + author
	}
	sb.WriteString("<item>\n<title>" + xmlEsc(title) + "</title>\n<link>" + xmlEsc(self) + "</link>\n")
	sb.WriteString("<dc:creator>" + xmlEsc(author) + "</dc:creator>\n<pubDate>" + c.DateGMT.UTC().Format(time.RFC1123Z) + "</pubDate>\n")
	sb.WriteString(`<guid isPermaLink="false">` + xmlEsc(self) + "</guid>\n")
	sb.WriteString("<description>" + xmlEsc(plainText(content)) + "</description>\n")
	sb.WriteString("<content:encoded>" + xmlEsc(content) + "</content:encoded>\n</item>\n")
}

// xmlEscAttr escapes a value for an HTML attribute inside the comment's
// HTML (escaped again as XML text around it).
func xmlEscAttr(s string) string {
	return strings.NewReplacer("&", "&amp;", `"`, "&quot;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// plainText is the comment's text without its tags (the RSS description).
func plainText(h string) string {
	var sb strings.Builder
	in := false
	for _, r := range h {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			sb.WriteRune(r)
		}
	}
	return strings.TrimSpace(sb.String())
}

// feedOwner maps a feed's listing path to what it belongs to: the site's
// comments (/comments/), an author (/author/{slug}/) or a post's comments
// (its path); ok is false for the other listings (the post feeds).
func (s *Handler) feedOwner(req *siteReq, rest, kind string) (bool, error) {
	segs := strings.Split(strings.Trim(rest, "/"), "/")
	switch {
	case rest == "/comments/":
		return true, s.commentFeed(req, nil, nil, kind)
	case rest == "/" || (len(segs) == 2 && (segs[0] == "category" || segs[0] == "tag")):
		return false, nil
	case len(segs) == 2 && segs[0] == "author":
		u, found, err := s.users.UserBySlug(req.r.Context(), segs[1])
		if err != nil || !found {
			if err == nil {
				err = s.notFound(req)
			}
			return true, err
		}
		lq := postsFeedQuery()
		lq.Author = []int64{u.ID}
		return true, s.postsFeed(req, kind, lq, u.Name+" – "+s.Site().Title, s.Site().URL+"/", s.Site().URL+"/author/"+u.Slug+"/feed/")
	}
	ctx := req.r.Context()
	found, err := store.SingularBySlug(ctx, s.db(ctx), strings.Join(segs[:len(segs)-1], "/"), segs[len(segs)-1], len(segs) == 1)
	if err != nil {
		return true, err
	}
	// a post's comment feed: published and not protected, as anyone reads it
	for _, c := range []struct {
		pt *store.PostType
		p  *store.Post
	}{{store.TypePage, found.Page}, {store.TypePost, found.Post}} {
		if c.p != nil && c.p.Status == "publish" && c.p.Password == "" {
			return true, s.commentFeed(req, c.pt, c.p, kind)
		}
	}
	return true, s.notFound(req)
}
