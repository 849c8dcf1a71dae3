package website

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/store"
)

// A post's comments on its page (docs/website.md "Comments"): approved
// comments, threaded and paged by the discussion settings, plus the
// signed-in viewer's own held ones; the form's settings.

// commentFormPath is the comment form's action (WordPress's
// wp-comments-post.php).
const commentFormPath = "/cms-comments-post.php"

// discussion is the generation's discussion settings.
func (sn *siteSnapshot) discussion(ctx context.Context, s *Handler) (store.Discussion, error) {
	if d := sn.disc.Load(); d != nil {
		return *d, nil
	}
	d, err := store.ReadDiscussion(ctx, s.db(ctx))
	if err != nil {
		return d, err
	}
	sn.disc.Store(&d)
	return d, nil
}

// postComments are the comments a page of p shows, their content rendered:
// the approved ones from the snapshot (one statement per post and
// generation), or, for a signed-in viewer, read with their held ones.
func (sn *siteSnapshot) postComments(ctx context.Context, s *Handler, p *store.Post, viewer int64, preview url.Values) ([]*store.SiteComment, error) {
	held := queryID(preview.Get("unapproved"))
	shared := viewer == 0 && held == 0
	if shared {
		if v, ok := sn.comments.Load(p.ID); ok {
			return v.([]*store.SiteComment), nil
		}
	}
	list, err := store.PostComments(ctx, s.db(ctx), p.ID, viewer, held)
	if err != nil {
		return nil, err
	}
	if held != 0 {
		if list, err = s.checkPreview(ctx, list, held, viewer, preview.Get("moderation-hash")); err != nil {
			return nil, err
		}
	}
	cost := 0
	for _, c := range list {
		// comment_text: formatted as the REST API renders it; the content
		// was filtered for its author's role when it was written
		c.Content = store.RenderContent(c.Content)
		cost += len(c.Content) + len(c.AuthorName) + len(c.AuthorURL) + 64
	}
	if shared {
		sn.keep(&sn.comments, p.ID, list, entryCost(cost))
	}
	return list, nil
}

// previewTime is how long the moderation hash shows a held comment to the
// anonymous reader who wrote it (WordPress: ten minutes).
const previewTime = 10 * time.Minute

// moderationHash is the hash of the link that shows held comment id to
// its anonymous author (wp_hash of its date in WordPress): an HMAC of the
// id with the site's key, so that nobody else can make it; the comment's
// date bounds how long it shows (previewTime).
func (s *Handler) moderationHash(ctx context.Context, id int64) (string, error) {
	key := s.previewKey.Load()
	if key == nil {
		k, err := store.CommentPreviewKey(ctx, s.db(ctx))
		if err != nil {
			return "", err
		}
		key = &k
		s.previewKey.Store(key)
	}
	mac := hmac.New(sha256.New, *key)
	mac.Write([]byte("comment-preview:" + store.Itoa(id)))
	return hex.EncodeToString(mac.Sum(nil))[:32], nil
}

// checkPreview drops held comment id from list unless its hash is right
// and its preview time has not passed (a signed-in viewer's own held
// comments stay).
func (s *Handler) checkPreview(ctx context.Context, list []*store.SiteComment, id, viewer int64, hash string) ([]*store.SiteComment, error) {
	out := list[:0]
	for _, c := range list {
		if c.Held && c.ID == id && (viewer == 0 || c.Author != viewer) {
			want, err := s.moderationHash(ctx, c.ID)
			if err != nil {
				return nil, err
			}
			if !hmac.Equal([]byte(want), []byte(hash)) || s.now().After(c.DateGMT.Add(previewTime)) {
				continue
			}
			c.Preview = true
		}
		out = append(out, c)
	}
	return out, nil
}

// errNoCommentPage is a comment page (comment-page-N) the post does not
// have: the 404 page.
var errNoCommentPage = errors.New("no such comment page")

// commentsEnv builds what the comments blocks show for p (nil: none).
func (s *Handler) commentsEnv(req *siteReq, sn *siteSnapshot, pt *store.PostType, p *store.Post, conv *postConverter) (*blocks.Comments, error) {
	ctx := req.r.Context()
	if !pt.Comments || !unlocked(req, pt, p) {
		return nil, nil
	}
	d, err := sn.discussion(ctx, s)
	if err != nil {
		return nil, err
	}
	list, err := sn.postComments(ctx, s, p, req.caller.UserID, req.query)
	if err != nil {
		return nil, err
	}
	postURL := s.permalinks.Post(pt, p)
	cs := &blocks.Comments{PostID: p.ID, PostTitle: p.Title, PostURL: postURL, Open: p.CommentStatus == "open", MaxDepth: 1}
	if d.ThreadComments {
		cs.MaxDepth = d.ThreadDepth
	}
	for _, c := range list {
		if !c.Held {
			cs.Count++
		}
	}
	byID := make(map[int64]*blocks.Comment, len(list))
	top := s.threadComments(list, d, p, cs.MaxDepth, byID)
	page, pages := req.cpage, 1
	if d.PageComments && len(top) > 0 {
		pages = (len(top) + d.PerPage - 1) / d.PerPage
	}
	if page > pages || (page > 0 && !d.PageComments) {
		return nil, errNoCommentPage
	}
	if page == 0 {
		page = 1
		if d.PageComments && d.DefaultPage == "newest" {
			page = pages
		}
	}
	if d.PageComments {
		top = top[min(len(top), (page-1)*d.PerPage):min(len(top), page*d.PerPage)]
	}
	cs.Threads, cs.Page, cs.Pages = top, page, pages
	cs.PageURL = func(n int) string {
		if (d.DefaultPage == "newest" && n == pages) || (d.DefaultPage != "newest" && n == 1) {
			return postURL
		}
		return postURL + "comment-page-" + strconv.Itoa(n) + "/"
	}
	numberComments(top, 0, new(int))
	cs.Form = blocks.CommentForm{Action: s.site.URL + commentFormPath, RequireNameEmail: d.RequireNameEmail}
	if req.caller.LoggedIn() {
		u, err := conv.user(ctx, req.caller.UserID)
		if err != nil {
			return nil, err
		}
		cs.Form.User, cs.Form.ProfileURL = u.Name, s.site.URL+"/cms-admin/profile.php"
		if cs.Form.User == "" {
			cs.Form.User = "user " + store.Itoa(req.caller.UserID)
		}
	} else if d.Registration {
		cs.Form.LoginURL = s.site.URL + "/cms-login.php?redirect_to=" + url.QueryEscape(postURL)
	}
	if id := queryID(req.query.Get("replytocom")); id > 0 {
		if c := byID[id]; c != nil && !c.Held {
			cs.Form.ReplyTo = c
		}
	}
	return cs, nil
}

// threadComments arranges list (oldest first) as the comment template
// shows it: top-level comments in comment_order, replies under their parent
// oldest first down to maxDepth, deeper replies beside their parent at the
// last level (Walker_Comment), replies to comments not shown left out.
// Unthreaded (maxDepth 1), every comment is top-level.
func (s *Handler) threadComments(list []*store.SiteComment, d store.Discussion, p *store.Post, maxDepth int, byID map[int64]*blocks.Comment) []*blocks.Comment {
	zone := s.location()
	children := map[int64][]*blocks.Comment{}
	var top []*blocks.Comment
	for _, c := range list {
		local := c.DateGMT.In(zone)
		bc := &blocks.Comment{ID: c.ID, AuthorName: c.AuthorName, AuthorURL: c.AuthorURL, ContentHTML: c.Content, Held: c.Held, Preview: c.Preview,
			DateISO: local.Format(time.RFC3339), DateText: local.Format("January 2, 2006")}
		bc.Classes = "comment"
		if c.Author != 0 {
			bc.Classes += " byuser"
			if c.Author == p.Author {
				bc.Classes += " bypostauthor"
			}
		}
		byID[c.ID] = bc
		if maxDepth > 1 && c.Parent != 0 {
			children[c.Parent] = append(children[c.Parent], bc)
			continue
		}
		top = append(top, bc)
	}
	var place func(into []*blocks.Comment, c *blocks.Comment, depth int) []*blocks.Comment
	place = func(into []*blocks.Comment, c *blocks.Comment, depth int) []*blocks.Comment {
		c.Depth = depth
		into = append(into, c)
		for _, k := range children[c.ID] {
			if depth < maxDepth {
				c.Replies = place(c.Replies, k, depth+1)
			} else {
				into = place(into, k, depth)
			}
		}
		return into
	}
	var out []*blocks.Comment
	for _, c := range top {
		out = place(out, c, 1)
	}
	if d.Order == "desc" {
		slices.Reverse(out)
	}
	return out
}

// numberComments adds comment_class's alternation: even/odd (alt) over
// every comment in display order, thread-even/thread-odd over the
// top-level ones, and depth-N.
func numberComments(list []*blocks.Comment, depth int, n *int) {
	for i, c := range list {
		if *n%2 == 1 {
			c.Classes += " odd alt"
		} else {
			c.Classes += " even"
		}
		*n++
		if depth == 0 {
			if i%2 == 1 {
				c.Classes += " thread-odd thread-alt"
			} else {
				c.Classes += " thread-even"
			}
		}
		c.Classes += " depth-" + strconv.Itoa(c.Depth)
		numberComments(c.Replies, depth+1, n)
	}
}

// commentsCacheControl: a page showing a held comment is its author's
// alone (the edge cache and shared caches never keep it).
func commentsCacheControl(h http.Header, cs *blocks.Comments) {
	if cs == nil {
		return
	}
	var held func([]*blocks.Comment) bool
	held = func(list []*blocks.Comment) bool {
		for _, c := range list {
			if c.Held || held(c.Replies) {
				return true
			}
		}
		return false
	}
	if held(cs.Threads) {
		h.Set("Cache-Control", "no-cache, must-revalidate, max-age=0, no-store, private")
	}
}
