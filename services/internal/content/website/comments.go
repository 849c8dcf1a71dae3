package website

import (
	"cmp"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"sync"
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

// approvedComments are p's approved comments, their content rendered,
// oldest first: one statement per post and generation.
func (sn *siteSnapshot) approvedComments(ctx context.Context, s *Handler, p *store.Post) ([]commentRow, error) {
	if v, ok := sn.comments.Load(p.ID); ok {
		return v.([]commentRow), nil
	}
	list, err := store.PostComments(ctx, s.db(ctx), p.ID, 0, 0, "")
	if err != nil {
		return nil, err
	}
	cost := 0
	for _, c := range list {
		cost += len(c.Content) + len(c.AuthorName) + len(c.AuthorURL) + 128
	}
	rows := s.commentRows(list)
	sn.keep(&sn.comments, p.ID, rows, entryCost(cost))
	return rows, nil
}

// heldComments are the held comments of p the request may see: a
// signed-in viewer's own, an anonymous commenter's (by the e-mail of
// their cookie), and the one a preview link names (one statement; none
// for an anonymous reader without either).
func (s *Handler) heldComments(req *siteReq, p *store.Post, who commenter) ([]commentRow, error) {
	ctx := req.r.Context()
	viewer, held := req.caller.UserID, queryID(req.query.Get("unapproved"))
	if viewer == 0 && held == 0 && who.email == "" {
		return nil, nil
	}
	list, err := store.PostComments(ctx, s.db(ctx), p.ID, viewer, held, who.email)
	if err != nil {
		return nil, err
	}
	if held != 0 {
		if list, err = s.checkPreview(ctx, list, held, viewer, req.query.Get("moderation-hash")); err != nil {
			return nil, err
		}
	}
	return s.commentRows(list), nil
}

// mergeComments is approved and held together, oldest first.
func mergeComments(approved, held []commentRow) []commentRow {
	if len(held) == 0 {
		return approved
	}
	all := append(append(make([]commentRow, 0, len(approved)+len(held)), approved...), held...)
	slices.SortStableFunc(all, func(a, b commentRow) int {
		if c := a.DateGMT.Compare(b.DateGMT); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return all
}

// commentRows renders the comments' content (comment_text, as the REST
// API renders it; it was filtered for its author's role when it was
// written) and formats their dates.
func (s *Handler) commentRows(list []*store.SiteComment) []commentRow {
	zone := s.location()
	rows := make([]commentRow, len(list))
	for i, c := range list {
		c.Content = store.RenderContent(c.Content)
		local := c.DateGMT.In(zone)
		rows[i] = commentRow{SiteComment: c, dateISO: local.Format(time.RFC3339), dateText: local.Format("January 2, 2006")}
	}
	return rows
}

// commentRow is a comment as the snapshot keeps it: its content rendered,
// its dates formatted.
type commentRow struct {
	*store.SiteComment
	dateISO, dateText string
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
	if !pt.Comments || !unlocked(req, pt, p) {
		return nil, nil
	}
	ctx := req.r.Context()
	d, err := sn.discussion(ctx, s)
	if err != nil {
		return nil, err
	}
	var approved []commentRow
	if !req.uncommented(p.ID) {
		if approved, err = sn.approvedComments(ctx, s, p); err != nil {
			return nil, err
		}
	}
	who := s.currentCommenter(req)
	held, err := s.heldComments(req, p, who)
	if err != nil {
		return nil, err
	}
	// a comment page is the same for every reader who sees no held
	// comment, no reply form and no edit links until the next write:
	// arranged and rendered once per generation (signed-in readers and
	// guests apart: their reply links differ when registration is required)
	moderator := req.caller.Can("moderate_comments")
	shared := len(held) == 0 && !req.query.Has("replytocom") && !moderator
	key := commentPageKey{post: p.ID, page: req.cpage, signedIn: req.caller.LoggedIn()}
	var cs *blocks.Comments
	if v, ok := sn.commentPages.Load(key); ok && shared {
		cs = v.(*blocks.Comments)
	} else {
		if cs, err = s.arrangeComments(req, d, pt, p, mergeComments(approved, held), moderator); err != nil {
			return nil, err
		}
		if shared {
			// the rendered list is kept too (its text is counted with the
			// comments already)
			cs.Memo = &sync.Map{}
			sn.keep(&sn.commentPages, key, cs, entryCost(64*cs.Count))
		}
	}
	if !req.caller.LoggedIn() {
		if who == (commenter{}) {
			return cs, nil
		}
		// the commenter's cookies fill the form (the page is theirs alone:
		// commentsCacheControl)
		own := *cs
		own.Form.Author, own.Form.Email, own.Form.URL = who.name, who.email, who.url
		return &own, nil
	}
	// the form names its reader
	u, err := conv.user(ctx, req.caller.UserID)
	if err != nil {
		return nil, err
	}
	own := *cs
	own.Form.User, own.Form.ProfileURL = u.Name, s.Site().URL+"/cms-admin/profile.php"
	own.Form.LogoutURL = s.Site().URL + "/cms-login.php?action=logout"
	if own.Form.User == "" {
		own.Form.User = "user " + store.Itoa(req.caller.UserID)
	}
	return &own, nil
}

// commentPageURL is get_comments_pagenum_link: comment page n of pages of
// the post at postURL (the default page is the post's own URL).
func commentPageURL(d store.Discussion, postURL string, n, pages int) string {
	if (d.DefaultPage == "newest" && n == pages) || (d.DefaultPage != "newest" && n == 1) {
		return postURL
	}
	return postURL + "comment-page-" + strconv.Itoa(n) + "/"
}

// commentPageKey names a post's comment page in the snapshot (page 0: the
// default page).
type commentPageKey struct {
	post     int64
	page     int
	signedIn bool
}

// arrangeComments threads and pages list for the request's comment page.
func (s *Handler) arrangeComments(req *siteReq, d store.Discussion, pt *store.PostType, p *store.Post, list []commentRow, moderator bool) (*blocks.Comments, error) {
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
	top := threadComments(list, d, p, cs.MaxDepth, byID)
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
	cs.PageURL = func(n int) string { return commentPageURL(d, postURL, n, pages) }
	numberComments(top, 0, new(int))
	if moderator {
		for id, c := range byID {
			c.EditURL = s.Site().URL + "/cms-admin/comment.php?action=editcomment&c=" + store.Itoa(id)
		}
	}
	cs.Form = blocks.CommentForm{Action: s.Site().URL + commentFormPath, RequireNameEmail: d.RequireNameEmail, CookiesOptIn: d.CookiesOptIn}
	if !req.caller.LoggedIn() && d.Registration {
		cs.Form.LoginURL = s.Site().URL + "/cms-login.php?redirect_to=" + url.QueryEscape(postURL)
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
func threadComments(list []commentRow, d store.Discussion, p *store.Post, maxDepth int, byID map[int64]*blocks.Comment) []*blocks.Comment {
	children := map[int64][]*blocks.Comment{}
	var top []*blocks.Comment
	all := make([]blocks.Comment, len(list))
	for i, c := range list {
		bc := &all[i]
		*bc = blocks.Comment{ID: c.ID, AuthorName: c.AuthorName, AuthorURL: c.AuthorURL, ContentHTML: c.Content, Held: c.Held, Preview: c.Preview,
			DateISO: c.dateISO, DateText: c.dateText, AvatarHash: c.AvatarHash}
		if c.Author != 0 {
			bc.Kind = 1
			if c.Author == p.Author {
				bc.Kind = 2
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
		thread := 0 // not top-level
		if depth == 0 {
			thread = 1 + i%2
		}
		c.Classes = commentClass(c.Kind, *n%2, thread, c.Depth)
		*n++
		numberComments(c.Replies, depth+1, n)
	}
}

// commentsCacheControl: a page showing a held comment, or a form filled
// from the commenter's cookies, is its reader's alone (the edge cache and
// shared caches never keep it).
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
	if held(cs.Threads) || cs.Form.Author != "" || cs.Form.Email != "" || cs.Form.URL != "" {
		h.Set("Cache-Control", "no-cache, must-revalidate, max-age=0, no-store, private")
	}
}

// commentClasses are comment_class's values, made once: by kind (0 a
// guest, 1 a user, 2 the post's author), parity, thread (0 a reply, 1
// thread-even, 2 thread-odd) and depth (1–10).
var commentClasses = sync.OnceValue(func() [3][2][3][11]string {
	var out [3][2][3][11]string
	kinds := []string{"comment", "comment byuser", "comment byuser bypostauthor"}
	parity := []string{" even", " odd alt"}
	threads := []string{"", " thread-even", " thread-odd thread-alt"}
	for k := range out {
		for p := range out[k] {
			for t := range out[k][p] {
				for d := 1; d <= 10; d++ {
					out[k][p][t][d] = kinds[k] + parity[p] + threads[t] + " depth-" + strconv.Itoa(d)
				}
			}
		}
	}
	return out
})

func commentClass(kind, parity, thread, depth int) string {
	return commentClasses()[kind][parity][thread][min(max(depth, 1), 10)]
}
