package website

import (
	"errors"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/kses"
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/pkg/contract"
)

// The comment form's endpoint, POST /cms-comments-post.php (WordPress's
// wp-comments-post.php and wp_handle_comment_submission): the rules are
// WordPress's, in its order, with its messages and status codes; the
// answer is a 302 to the new comment, or a small error page.

// maxCommentForm bounds the form's body: the comment's column holds 64 KB.
const maxCommentForm = 256 << 10

// commentError is a refusal: WordPress's message (HTML) and status.
type commentError struct {
	status  int
	message string
}

func (e *commentError) Error() string { return e.message }

func refuse(status int, message string) error { return &commentError{status: status, message: message} }

// errSilent is WordPress's refusal without a message (a post that does
// not exist, is in the trash or protected): a blank 200.
var errSilent = refuse(http.StatusOK, "")

// phpFile is esc_url's exception to adding http://: a bare "x.php" link.
var phpFile = regexp.MustCompile(`(?i)^[a-z0-9-]+?\.php`)

func (s *Handler) commentPost(req *siteReq) error {
	h := req.w.Header()
	h.Set("Cache-Control", "no-cache, must-revalidate, max-age=0, no-store, private")
	if req.r.Method != http.MethodPost {
		h.Set("Allow", "POST")
		return writeText(req, http.StatusMethodNotAllowed, "text/plain", "")
	}
	if !s.sameOrigin(req.r) {
		return s.commentFailure(req, refuse(http.StatusForbidden, "Sorry, comments cannot be sent from another site."))
	}
	req.r.Body = http.MaxBytesReader(req.w, req.r.Body, maxCommentForm)
	if err := req.r.ParseForm(); err != nil {
		return s.commentFailure(req, refuse(http.StatusBadRequest, "The comment form could not be read."))
	}
	m, post, err := s.submitComment(req)
	if err != nil {
		return s.commentFailure(req, err)
	}
	s.setCommenterCookies(req, m, req.r.PostForm.Has("wp-comment-cookies-consent"))
	pt := store.TypeByName(post.Type)
	link := s.permalinks.Post(pt, post)
	to := link + "#comment-" + strconv.FormatInt(m.ID, 10)
	if m.Status == "approved" {
		if to, err = s.commentLink(req, link, m); err != nil {
			return err
		}
	}
	switch {
	case m.Status == "hold" && !req.caller.LoggedIn() && m.AuthorEmail != "":
		// the anonymous author's preview of the held comment (wp-comments-post.php)
		hash, err := s.moderationHash(req.r.Context(), m.ID)
		if err != nil {
			return err
		}
		to = link + "?unapproved=" + strconv.FormatInt(m.ID, 10) + "&moderation-hash=" + hash + "#comment-" + strconv.FormatInt(m.ID, 10)
	case m.Status != "approved" && m.Status != "hold":
		to = link
	}
	h.Set("Location", to)
	h.Set("X-Redirect-By", "Siteplane")
	req.w.WriteHeader(http.StatusFound)
	return nil
}

// commentLink is get_comment_link of the new approved comment m: the
// post's URL, or its comment page when comments are paged.
func (s *Handler) commentLink(req *siteReq, link string, m *store.Comment) (string, error) {
	ctx := req.r.Context()
	anchor := "#comment-" + strconv.FormatInt(m.ID, 10)
	d, err := store.ReadDiscussion(ctx, s.db(ctx))
	if err != nil || !d.PageComments {
		return link + anchor, err
	}
	before, total, err := store.CommentPosition(ctx, s.db(ctx), m.ID, d.ThreadComments, d.Order == "desc")
	if err != nil {
		return "", err
	}
	return commentPageURL(d, link, before/d.PerPage+1, max((total+d.PerPage-1)/d.PerPage, 1)) + anchor, nil
}

// sameOrigin refuses a form sent by another site's page: browsers name the
// page's origin (Origin, Sec-Fetch-Site) on every POST. A client that
// sends neither (curl with an application password) is not a browser
// carrying a reader's session.
func (s *Handler) sameOrigin(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return false
	}
	o := r.Header.Get("Origin")
	if o == "" {
		return true
	}
	want, err := url.Parse(s.Site().URL)
	if err != nil {
		return false
	}
	return strings.EqualFold(o, want.Scheme+"://"+want.Host)
}

// commentFailure answers a refusal as WordPress's wp_die page does: the
// message and a link back.
func (s *Handler) commentFailure(req *siteReq, err error) error {
	var ce *commentError
	if !errors.As(err, &ce) {
		return err
	}
	if ce.message == "" {
		return writeText(req, ce.status, "text/html; charset=utf-8", "")
	}
	back := s.Site().URL + "/"
	if ref := req.r.Header.Get("Referer"); strings.HasPrefix(ref, s.Site().URL+"/") {
		back = ref
	}
	page := "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1.0\">\n" +
		"<meta name=\"robots\" content=\"noindex, follow\">\n<title>Comment Submission Failure</title>\n</head>\n<body id=\"error-page\">\n" +
		"<main><div class=\"wp-die-message\"><p>" + ce.message + "</p></div>\n<p><a href=\"" + html.EscapeString(back) + "\">&laquo; Back</a></p></main>\n</body>\n</html>\n"
	return writeText(req, ce.status, "text/html; charset=utf-8", page)
}

// submitComment applies the rules and stores the comment.
func (s *Handler) submitComment(req *siteReq) (*store.Comment, *store.Post, error) {
	ctx := req.r.Context()
	f := req.r.PostForm
	postID, _ := strconv.ParseInt(strings.TrimSpace(f.Get("comment_post_ID")), 10, 64)
	parentID, _ := strconv.ParseInt(strings.TrimSpace(f.Get("comment_parent")), 10, 64)
	if parentID < 0 {
		parentID = 0
	}
	if postID <= 0 {
		return nil, nil, errSilent
	}
	post, err := store.GetPostAs(ctx, s.db(ctx), postID, false, nil)
	if err != nil {
		return nil, nil, err
	}
	if err := s.commentablePost(req, post, parentID); err != nil {
		return nil, nil, err
	}
	m := &store.Comment{Post: postID, Parent: parentID, Type: "comment", DateGMT: s.now(),
		AuthorIP: clientAddress(req.r), AuthorUserAgent: truncate(req.r.UserAgent(), 254)}
	if err := s.commenter(req, m); err != nil {
		return nil, nil, err
	}
	// pre_comment_content: kses's comment allowlist, for every role: the
	// form carries no unfiltered-HTML nonce (WordPress then filters an
	// administrator's comment too)
	m.Content = strings.TrimSpace(kses.Filter(f.Get("comment"), kses.Data))
	if m.Content == "" {
		return nil, nil, refuse(http.StatusOK, store.MsgRequireComment)
	}
	for _, c := range []struct {
		n, max int
		msg    string
	}{{len(m.AuthorName), store.MaxCommentAuthor, store.MsgNameTooLong}, {len(m.AuthorEmail), store.MaxCommentEmail, store.MsgEmailTooLong},
		{len(m.AuthorURL), store.MaxCommentURL, store.MsgURLTooLong}, {len(m.Content), store.MaxCommentContent, store.MsgCommentTooLong}} {
		if c.n > c.max {
			return nil, nil, refuse(http.StatusOK, c.msg)
		}
	}
	err = postgres.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		return s.storeComment(req, tx, m, post)
	})
	if s.commits != nil {
		s.commits.Committed()
	}
	if err != nil {
		return nil, nil, err
	}
	return m, post, nil
}

// commentablePost is wp_handle_comment_submission's checks of the post
// and the parent.
func (s *Handler) commentablePost(req *siteReq, post *store.Post, parentID int64) error {
	ctx := req.r.Context()
	if parentID != 0 {
		parent, err := store.GetComment(ctx, s.db(ctx), parentID)
		if err != nil {
			return err
		}
		if parent == nil || parent.Status != "approved" || (post != nil && parent.Post != post.ID) {
			return refuse(http.StatusForbidden, store.MsgReplyUnapproved)
		}
	}
	if post == nil {
		return errSilent
	}
	pt := store.TypeByName(post.Type)
	if pt == nil || post.Status == "trash" || !visible(req.caller, pt, post) {
		return errSilent
	}
	if !pt.Comments || post.CommentStatus != "open" {
		return refuse(http.StatusForbidden, store.MsgCommentClosed)
	}
	if post.Status != "publish" && post.Status != "private" {
		return refuse(http.StatusForbidden, store.MsgCommentDraft)
	}
	if !unlocked(req, pt, post) {
		return errSilent
	}
	return nil
}

// commenter sets the author fields: the signed-in user's, or the form's
// name, e-mail and URL under the discussion settings.
func (s *Handler) commenter(req *siteReq, m *store.Comment) error {
	ctx := req.r.Context()
	if req.caller.LoggedIn() {
		m.Author = req.caller.UserID
		u, _, err := s.users.User(ctx, m.Author)
		if err != nil {
			return err
		}
		m.AuthorName = u.Name
		return nil
	}
	d, err := store.ReadDiscussion(ctx, s.db(ctx))
	if err != nil {
		return err
	}
	if d.Registration {
		return refuse(http.StatusForbidden, store.MsgLoginRequired)
	}
	f := req.r.PostForm
	// pre_comment_author_name, _email, _url: no tags, a bare address, a
	// URL of an allowed scheme
	m.AuthorName = kses.Text(strings.TrimSpace(f.Get("author")))
	m.AuthorEmail = strings.TrimSpace(f.Get("email"))
	if u := strings.TrimSpace(f.Get("url")); u != "" {
		// esc_url's rule: only an address without any scheme (no ":") is
		// taken as http; "javascript:…" keeps its scheme and is dropped
		if !strings.Contains(u, ":") && !strings.ContainsAny(u[:1], "/#?") && !phpFile.MatchString(u) {
			u = "http://" + u
		}
		m.AuthorURL = kses.URL(u)
	}
	if d.RequireNameEmail {
		if m.AuthorName == "" || m.AuthorEmail == "" {
			return refuse(http.StatusOK, store.MsgRequireNameEmail)
		}
		if !store.ValidEmail(m.AuthorEmail) {
			return refuse(http.StatusOK, store.MsgRequireValidEmail)
		}
	}
	return nil
}

// storeComment is wp_allow_comment and wp_new_comment in tx: the
// duplicate, flood and per-address checks, the status, the row.
func (s *Handler) storeComment(req *siteReq, tx pgx.Tx, m *store.Comment, post *store.Post) error {
	ctx := req.r.Context()
	who := req.caller
	if err := store.LockCommenter(ctx, tx, m.Author, m.AuthorIP); err != nil {
		return err
	}
	d, err := store.ReadDiscussion(ctx, tx)
	if err != nil {
		return err
	}
	g, err := store.GateComment(ctx, tx, m)
	if err != nil {
		return err
	}
	if g.Duplicate {
		return refuse(http.StatusConflict, store.MsgDuplicateComment)
	}
	moderator := who.Can("moderate_comments") || who.Can("manage_options")
	if !moderator && (store.Flooded(g.Last, m.DateGMT) || g.FromAddress >= store.AddressHourlyLimit) {
		return refuse(http.StatusTooManyRequests, store.MsgCommentFlood)
	}
	m.Status = "approved"
	if !moderator && (m.Author == 0 || m.Author != post.Author) {
		m.Status = store.CommentApproval(d, m, store.RenderContent(m.Content), g.Approved)
	}
	if err := store.InsertComment(ctx, tx, m); err != nil {
		return err
	}
	return postgres.NotifyChanged(ctx, tx, contract.ServiceContent)
}

// clientAddress is the reader's address as the gateway saw it (it sets
// contract.ClientAddressHeader), else the peer's.
func clientAddress(r *http.Request) string {
	if a := r.Header.Get(contract.ClientAddressHeader); a != "" {
		return truncate(a, 100)
	}
	host := r.RemoteAddr
	if i := strings.LastIndexByte(host, ':'); i > 0 {
		host = host[:i]
	}
	return strings.Trim(host, "[]")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
