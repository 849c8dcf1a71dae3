package content

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/kses"
	"siteplane.dev/services/internal/platform/rest"
)

// Comment writes: create, update and delete, the fields a request may set
// (applyComment), and the comment as a response (prepareComment).

func (s *Service) createCommentPermission(c *rest.Request) error {
	who := caller(c)
	if !who.LoggedIn() {
		return rest.Denied(c, "rest_comment_login_required", "Sorry, you must be logged in to comment.")
	}
	if a := c.Int("author"); c.Has("author") && a != who.UserID && !who.Can("moderate_comments") {
		return rest.Denied(c, "rest_comment_invalid_author", "Sorry, you are not allowed to edit 'author' for comments.")
	}
	if c.Has("author_ip") && !who.Can("moderate_comments") {
		return rest.Denied(c, "rest_comment_invalid_author_ip", "Sorry, you are not allowed to set author_ip for comments.")
	}
	if c.Has("status") && !who.Can("moderate_comments") {
		return rest.Denied(c, "rest_comment_invalid_status", "Sorry, you are not allowed to edit 'status' for comments.")
	}
	if c.Int("post") == 0 {
		return rest.NewError("rest_comment_invalid_post_id", "Sorry, you are not allowed to create this comment without a post.", http.StatusForbidden)
	}
	p, pt, err := s.postOfComment(c, s.db(c.Context()), c.Int("post"))
	if err != nil {
		return err
	}
	if p == nil || pt == nil {
		return rest.NewError("rest_comment_invalid_post_id", "Sorry, you are not allowed to create this comment without a post.", http.StatusForbidden)
	}
	switch p.Status {
	case "draft":
		return rest.NewError("rest_comment_draft_post", "Sorry, you are not allowed to create a comment on this post.", http.StatusForbidden)
	case "trash":
		return rest.NewError("rest_comment_trash_post", "Sorry, you are not allowed to create a comment on this post.", http.StatusForbidden)
	}
	if !canReadPostOf(c, p, pt) {
		return rest.Denied(c, "rest_cannot_read_post", "Sorry, you are not allowed to read the post for this comment.")
	}
	if !pt.Comments || p.CommentStatus != "open" {
		return rest.NewError("rest_comment_closed", "Sorry, comments are closed for this item.", http.StatusForbidden)
	}
	return nil
}

func (s *Service) commentWritePermission(code, message string) rest.PermissionFunc {
	return func(c *rest.Request) error {
		m, err := s.cachedComment(c)
		if err != nil {
			return err
		}
		p, pt, err := s.postOfComment(c, s.db(c.Context()), m.Post)
		if err != nil {
			return err
		}
		if !canEditComment(c, p, pt) {
			return rest.Denied(c, code, message)
		}
		return nil
	}
}

// applyComment sets the request's fields on m; moderators only change
// status, author and author_ip (the permission checks refuse the others).
func (s *Service) applyComment(c *rest.Request, tx pgx.Tx, m *store.Comment) error {
	if v, ok := textValue(c, "content"); ok {
		// pre_comment_content: kses's data allowlist unless unfiltered_html.
		m.Content = kses.ForCaller(caller(c), v, kses.Data)
	}
	for _, f := range []struct {
		name string
		dst  *string
	}{{"author_name", &m.AuthorName}, {"author_email", &m.AuthorEmail}, {"author_url", &m.AuthorURL},
		{"author_ip", &m.AuthorIP}, {"author_user_agent", &m.AuthorUserAgent}} {
		if c.Has(f.name) {
			*f.dst = c.String(f.name)
		}
	}
	if c.Has("author") {
		m.Author = c.Int("author")
		if m.Author != 0 {
			ok, err := s.users.Exists(c.Context(), m.Author)
			if err != nil {
				return err
			}
			if !ok {
				return rest.NewError("rest_comment_author_invalid", "Invalid comment author ID.", http.StatusBadRequest)
			}
		}
	}
	if c.Has("date_gmt") {
		if t, ok := store.ParseDate(c.String("date_gmt"), time.UTC); ok {
			m.DateGMT = t
		}
	} else if c.Has("date") {
		if t, ok := store.ParseDate(c.String("date"), s.location()); ok {
			m.DateGMT = t
		}
	}
	if c.Has("status") {
		st, ok := commentStatuses[c.String("status")]
		if !ok {
			return rest.NewError("rest_comment_failed_edit", "Updating comment status failed.", http.StatusInternalServerError)
		}
		m.Status = st
	}
	if c.Has("parent") && c.Int("parent") != m.Parent {
		if pid := c.Int("parent"); pid != 0 {
			parent, err := store.GetComment(c.Context(), tx, pid)
			if err != nil {
				return err
			}
			if parent == nil || parent.Post != m.Post || pid == m.ID {
				return rest.NewError("rest_comment_invalid_parent", "Invalid comment parent.", http.StatusBadRequest)
			}
		}
		m.Parent = c.Int("parent")
	}
	if strings.TrimSpace(m.Content) == "" {
		return rest.NewError("rest_comment_content_invalid", "Invalid comment content.", http.StatusBadRequest)
	}
	return nil
}

// createComment is POST /cms/v2/comments.
func (s *Service) createComment(c *rest.Request) (*rest.Response, error) {
	who := caller(c)
	m := &store.Comment{Post: c.Int("post"), Author: who.UserID, DateGMT: s.now(), Type: "comment", Status: "hold"}
	var out *store.Comment
	var post *store.Post
	err := s.inTx(c.Context(), func(tx pgx.Tx) error {
		p, err := store.GetPostAs(c.Context(), tx, m.Post, true, nil)
		if err != nil {
			return err
		}
		if p == nil {
			return rest.NewError("rest_comment_invalid_post_id", "Sorry, you are not allowed to create this comment without a post.", http.StatusForbidden)
		}
		post = p
		if err := s.applyComment(c, tx, m); err != nil {
			return err
		}
		if !c.Has("author_name") {
			m.AuthorName = s.commentAuthorName(c.Context(), m.Author)
		}
		if !c.Has("status") {
			// check_comment: the post's author and moderators are approved;
			// others once they have an approved comment
			if who.Can("moderate_comments") || p.Author == who.UserID {
				m.Status = "approved"
			} else {
				prior, err := store.HasApprovedComment(c.Context(), tx, who.UserID)
				if err != nil {
					return err
				}
				if prior {
					m.Status = "approved"
				}
			}
		}
		dup, err := store.IsDuplicateComment(c.Context(), tx, m)
		if err != nil {
			return err
		}
		if dup {
			return rest.NewError("comment_duplicate", "Duplicate comment detected; it looks as though you&#8217;ve already said that!", http.StatusConflict)
		}
		if err := store.InsertComment(c.Context(), tx, m); err != nil {
			return err
		}
		out, err = store.GetComment(c.Context(), tx, m.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	res := &rest.Response{Status: http.StatusCreated, Data: s.prepareComment(out, post, "edit"), Header: http.Header{}}
	res.Header.Set("Location", s.restRoot+"/cms/v2/comments/"+strconv.FormatInt(out.ID, 10))
	return res, nil
}

// updateComment is POST/PUT/PATCH /cms/v2/comments/{id}.
func (s *Service) updateComment(c *rest.Request) (*rest.Response, error) {
	var out *store.Comment
	var post *store.Post
	err := s.inTx(c.Context(), func(tx pgx.Tx) error {
		m, err := loadComment(c, tx)
		if err != nil {
			return err
		}
		if c.Has("post") && c.Int("post") != m.Post {
			return rest.NewError("rest_comment_invalid_post_id", "Sorry, you are not allowed to create this comment without a post.", http.StatusForbidden)
		}
		if err := s.applyComment(c, tx, m); err != nil {
			return err
		}
		if err := store.SaveComment(c.Context(), tx, m); err != nil {
			return err
		}
		if post, err = store.GetPost(c.Context(), tx, m.Post); err != nil {
			return err
		}
		out, err = store.GetComment(c.Context(), tx, m.ID)
		return err
	})
	if err != nil {
		return nil, err
	}
	return rest.OK(s.prepareComment(out, post, "edit")), nil
}

// deleteComment is DELETE /cms/v2/comments/{id}: to the trash, or gone
// with force (its replies move up to its parent).
func (s *Service) deleteComment(c *rest.Request) (*rest.Response, error) {
	var body any
	return s.answerInTx(c, &body, func(tx pgx.Tx) error {
		m, err := loadComment(c, tx)
		if err != nil {
			return err
		}
		post, err := store.GetPost(c.Context(), tx, m.Post)
		if err != nil {
			return err
		}
		if !c.Bool("force") {
			if m.Status == "trash" {
				return rest.NewError("rest_already_trashed", "The comment has already been trashed.", http.StatusGone)
			}
			m.TrashStatus, m.Status = m.Status, "trash"
			if err := store.SaveComment(c.Context(), tx, m); err != nil {
				return err
			}
			body = s.prepareComment(m, post, "edit")
			return nil
		}
		previous := s.prepareComment(m, post, "edit")
		if err := store.DeleteComment(c.Context(), tx, m); err != nil {
			return err
		}
		body = rest.Object{{Key: "deleted", Value: true}, {Key: "previous", Value: previous}}
		return nil
	})
}

// prepareComment renders a comment for context, in WordPress's order.
func (s *Service) prepareComment(m *store.Comment, p *store.Post, viewCtx string) rest.Object {
	edit, embed := viewCtx == "edit", viewCtx == "embed"
	out := make(rest.Object, 0, 20)
	add := func(k string, v any) { out = append(out, rest.Member{Key: k, Value: v}) }
	add("id", m.ID)
	if !embed {
		add("post", m.Post)
	}
	add("parent", m.Parent)
	add("author", m.Author)
	add("author_name", m.AuthorName)
	if edit {
		add("author_email", m.AuthorEmail)
	}
	add("author_url", m.AuthorURL)
	if edit {
		add("author_ip", m.AuthorIP)
		add("author_user_agent", m.AuthorUserAgent)
	}
	add("date", store.FormatLocal(m.DateGMT, s.location()))
	if !embed {
		add("date_gmt", store.FormatGMT(m.DateGMT))
	}
	content := rest.Object{}
	if edit {
		content = append(content, rest.Member{Key: "raw", Value: m.Content})
	}
	add("content", append(content, rest.Member{Key: "rendered", Value: store.RenderContent(m.Content)}))
	link := s.site.URL + "/?p=" + strconv.FormatInt(m.Post, 10)
	if p != nil {
		if pt := store.TypeByName(p.Type); pt != nil {
			link = s.permalinks.Post(pt, p)
		}
	}
	add("link", link+"#comment-"+strconv.FormatInt(m.ID, 10))
	if !embed {
		add("status", m.Status)
	}
	add("type", m.Type)
	sum := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(m.AuthorEmail))))
	hash := hex.EncodeToString(sum[:])
	avatars := rest.Object{}
	for _, size := range []string{"24", "48", "96"} {
		avatars = append(avatars, rest.Member{Key: size, Value: "https://secure.gravatar.com/avatar/" + hash + "?s=" + size + "&d=mm&r=g"})
	}
	add("author_avatar_urls", avatars)
	if !embed {
		add("meta", []any{})
	}
	id := strconv.FormatInt(m.ID, 10)
	links := rest.Object{
		{Key: "self", Value: []any{href(s.restRoot + "/cms/v2/comments/" + id)}},
		{Key: "collection", Value: []any{href(s.restRoot + "/cms/v2/comments")}},
	}
	if m.Author != 0 {
		links = append(links, rest.Member{Key: "author", Value: []any{href(s.restRoot+"/cms/v2/users/"+strconv.FormatInt(m.Author, 10), "embeddable", true)}})
	}
	if p != nil {
		if pt := store.TypeByName(p.Type); pt != nil {
			links = append(links, rest.Member{Key: "up", Value: []any{href(s.permalinks.PostREST(pt, p.ID), "embeddable", true, "post_type", p.Type)}})
		}
	}
	if m.Parent != 0 {
		links = append(links, rest.Member{Key: "in-reply-to", Value: []any{href(s.restRoot+"/cms/v2/comments/"+strconv.FormatInt(m.Parent, 10), "embeddable", true)}})
	}
	if m.Children {
		links = append(links, rest.Member{Key: "children", Value: []any{href(s.restRoot + "/cms/v2/comments?parent=" + id)}})
	}
	add("_links", links)
	return out
}

// loadComment reads the comment the URL names, in tx; rest_comment_invalid_id
// when there is none.
func loadComment(c *rest.Request, tx pgx.Tx) (*store.Comment, error) {
	m, err := store.GetComment(c.Context(), tx, c.Int("id"))
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nil, errInvalidComment()
	}
	return m, nil
}
