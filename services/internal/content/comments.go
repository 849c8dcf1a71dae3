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
	"siteplane.dev/services/internal/platform/postgres"
	"siteplane.dev/services/internal/platform/rest"
)

// Comments (WP_REST_Comments_Controller). Anonymous posting is refused, as
// WordPress's REST default (rest_allow_anonymous_comments) does; editors
// and administrators (moderate_comments) moderate. A post's comment count
// is rewritten in the transaction of every comment write.

// commentStatuses maps the REST status words to the stored ones.
var commentStatuses = map[string]string{"approve": "approved", "approved": "approved", "1": "approved",
	"hold": "hold", "0": "hold", "spam": "spam", "trash": "trash"}

func errInvalidComment() *rest.Error {
	return rest.NewError("rest_comment_invalid_id", "Invalid comment ID.", http.StatusNotFound)
}

func (s *Service) commentRoutes() []rest.Route {
	idArg := rest.Prop{Name: "id", Schema: &rest.Schema{Type: "integer"}}
	return []rest.Route{
		{Namespace: Namespace, Path: "/comments", Schema: commentSchema(), Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: commentCollectionArgs(), Permission: s.listCommentsPermission, Handler: s.listComments},
			{Methods: rest.Creatable, Args: commentWriteArgs(true), Permission: s.createCommentPermission, Handler: s.createComment},
		}},
		{Namespace: Namespace, Path: `/comments/(?P<id>[\d]+)`, Schema: commentSchema(), Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{idArg, contextArg(), {Name: "password", Schema: &rest.Schema{Type: "string"}}}, Permission: s.getCommentPermission, Handler: s.getCommentItem},
			{Methods: rest.Editable, Args: append(rest.Props{idArg}, commentWriteArgs(false)...), Permission: s.commentWritePermission("rest_cannot_edit", "Sorry, you are not allowed to edit this comment."), Handler: s.updateComment},
			{Methods: rest.Deletable, Args: rest.Props{idArg, {Name: "force", Schema: &rest.Schema{Type: "boolean", Default: false}}, {Name: "password", Schema: &rest.Schema{Type: "string"}}},
				Permission: s.commentWritePermission("rest_cannot_delete", "Sorry, you are not allowed to delete this comment."), Handler: s.deleteComment},
		}},
	}
}

func commentSchema() *rest.Schema {
	p := func(name string, sc *rest.Schema) rest.Prop { return rest.Prop{Name: name, Schema: sc} }
	return &rest.Schema{Title: "comment", Type: "object", Properties: rest.Props{
		p("id", &rest.Schema{Type: "integer", Context: ctxAll, Readonly: true}),
		p("author", &rest.Schema{Type: "integer", Context: ctxAll}),
		p("author_email", &rest.Schema{Type: "string", Format: "email", Context: ctxEdit}),
		p("author_ip", &rest.Schema{Type: "string", Format: "ip", Context: ctxEdit}),
		p("author_name", &rest.Schema{Type: "string", Context: ctxAll}),
		p("author_url", &rest.Schema{Type: "string", Format: "uri", Context: ctxAll}),
		p("author_user_agent", &rest.Schema{Type: "string", Context: ctxEdit}),
		p("content", rendered(ctxEdit, ctxAll)),
		p("date", &rest.Schema{Type: "string", Format: "date-time", Context: ctxAll}),
		p("date_gmt", &rest.Schema{Type: "string", Format: "date-time", Context: ctxView}),
		p("link", &rest.Schema{Type: "string", Format: "uri", Context: ctxAll, Readonly: true}),
		p("parent", &rest.Schema{Type: "integer", Context: ctxAll, Default: 0}),
		p("post", &rest.Schema{Type: "integer", Context: ctxView, Default: 0}),
		p("status", &rest.Schema{Type: "string", Context: ctxView}),
		p("type", &rest.Schema{Type: "string", Context: ctxAll, Readonly: true}),
		p("author_avatar_urls", &rest.Schema{Type: "object", Context: ctxAll, Readonly: true}),
		p("meta", &rest.Schema{Type: "object", Context: ctxView}),
	}}
}

func commentCollectionArgs() rest.Props {
	dt := func() *rest.Schema { return &rest.Schema{Type: "string", Format: "date-time"} }
	return rest.Props{
		contextArg(),
		{Name: "page", Schema: &rest.Schema{Type: "integer", Default: 1, Minimum: rest.Ptr(1.0)}},
		{Name: "per_page", Schema: &rest.Schema{Type: "integer", Default: 10, Minimum: rest.Ptr(1.0), Maximum: rest.Ptr(100.0)}},
		{Name: "search", Schema: &rest.Schema{Type: "string"}},
		{Name: "after", Schema: dt()},
		{Name: "author", Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "integer"}}},
		{Name: "author_exclude", Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "integer"}}},
		{Name: "author_email", Schema: &rest.Schema{Type: "string", Format: "email"}},
		{Name: "before", Schema: dt()},
		{Name: "exclude", Schema: intArray()},
		{Name: "include", Schema: intArray()},
		{Name: "offset", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(0.0)}},
		{Name: "order", Schema: &rest.Schema{Type: "string", Enum: strEnum("asc", "desc"), Default: "desc"}},
		{Name: "orderby", Schema: &rest.Schema{Type: "string", Enum: strEnum("date", "date_gmt", "id", "include", "post", "parent", "type"), Default: "date_gmt"}},
		{Name: "parent", Schema: intArray()},
		{Name: "parent_exclude", Schema: intArray()},
		{Name: "post", Schema: intArray()},
		{Name: "status", Schema: &rest.Schema{Type: "string", Default: "approve"}},
		{Name: "type", Schema: &rest.Schema{Type: "string", Default: "comment"}},
		{Name: "password", Schema: &rest.Schema{Type: "string"}},
	}
}

func commentWriteArgs(create bool) rest.Props {
	def := func(v any) any {
		if create {
			return v
		}
		return nil
	}
	return rest.Props{
		{Name: "author", Schema: &rest.Schema{Type: "integer"}},
		{Name: "author_email", Schema: &rest.Schema{Type: "string", Format: "email"}},
		{Name: "author_ip", Schema: &rest.Schema{Type: "string", Format: "ip"}},
		{Name: "author_name", Schema: &rest.Schema{Type: "string"}},
		{Name: "author_url", Schema: &rest.Schema{Type: "string", Format: "uri"}},
		{Name: "author_user_agent", Schema: &rest.Schema{Type: "string"}},
		{Name: "content", Schema: textArg()},
		{Name: "date", Schema: &rest.Schema{Type: "string", Format: "date-time"}},
		{Name: "date_gmt", Schema: &rest.Schema{Type: "string", Format: "date-time"}},
		{Name: "parent", Schema: &rest.Schema{Type: "integer", Default: def(0)}},
		{Name: "post", Schema: &rest.Schema{Type: "integer", Default: def(0)}},
		{Name: "status", Schema: &rest.Schema{Type: "string"}},
		{Name: "meta", Schema: metaArg(nil)},
	}
}

// postOfComment loads the comment's post with its type; nil when gone.
func (s *Service) postOfComment(c *rest.Request, q store.Querier, id int64) (*store.Post, *store.PostType, error) {
	p, err := store.GetPost(c.Context(), q, id)
	if err != nil || p == nil {
		return nil, nil, err
	}
	return p, store.TypeByName(p.Type), nil
}

// canReadPostOf is check_read_post_permission.
func canReadPostOf(c *rest.Request, p *store.Post, pt *store.PostType) bool {
	if pt == nil {
		return false
	}
	if p.Password != "" && !store.CanEdit(caller(c), pt, p) && c.String("password") != p.Password {
		return false
	}
	return store.CanRead(caller(c), pt, p)
}

// canEditComment is edit_comment: moderators, or whoever can edit the post.
func canEditComment(c *rest.Request, p *store.Post, pt *store.PostType) bool {
	if caller(c).Can("moderate_comments") {
		return true
	}
	return p != nil && pt != nil && store.CanEdit(caller(c), pt, p)
}

func (s *Service) listCommentsPermission(c *rest.Request) error {
	for _, id := range c.Ints("post") {
		p, pt, err := s.postOfComment(c, s.db(c.Context()), id)
		if err != nil {
			return err
		}
		if p != nil && !canReadPostOf(c, p, pt) {
			return rest.Denied(c, "rest_cannot_read_post", "Sorry, you are not allowed to read the post for this comment.")
		}
	}
	if c.String("context") == "edit" && !caller(c).Can("moderate_comments") {
		return rest.Denied(c, "rest_forbidden_context", "Sorry, you are not allowed to edit comments.")
	}
	if !caller(c).Can("edit_posts") {
		var forbidden []string
		for _, name := range []string{"author", "author_exclude", "author_email", "type", "status"} {
			switch name {
			case "status":
				if c.String(name) != "approve" {
					forbidden = append(forbidden, name)
				}
			case "type":
				if c.String(name) != "comment" {
					forbidden = append(forbidden, name)
				}
			case "author_email":
				if c.String(name) != "" {
					forbidden = append(forbidden, name)
				}
			default:
				if len(c.Ints(name)) > 0 {
					forbidden = append(forbidden, name)
				}
			}
		}
		if len(forbidden) > 0 {
			return rest.Denied(c, "rest_forbidden_param", "Query parameter not permitted: "+strings.Join(forbidden, ", "))
		}
	}
	return nil
}

// listComments is GET /cms/v2/comments.
func (s *Service) listComments(c *rest.Request) (*rest.Response, error) {
	page, perPage := int(c.Int("page")), int(c.Int("per_page"))
	if page < 1 {
		page = 1
	}
	if perPage < 1 {
		perPage = 10
	}
	cq := &store.CommentQuery{Type: c.String("type"), Post: c.Ints("post"), Parent: c.Ints("parent"),
		ParentExclude: c.Ints("parent_exclude"), Include: c.Ints("include"), Exclude: c.Ints("exclude"),
		Author: c.Ints("author"), AuthorExclude: c.Ints("author_exclude"), AuthorEmail: c.String("author_email"),
		Search: strings.TrimSpace(c.String("search")), After: timeParam(c, "after", s.location()),
		Before: timeParam(c, "before", s.location()), Desc: c.String("order") != "asc", OrderBy: c.String("orderby"),
		PerPage: perPage, Offset: postgres.Offset(page, perPage), Page: page}
	switch st := c.String("status"); st {
	case "all", "any":
		cq.Statuses = []string{"approved", "hold"}
	default:
		stored, ok := commentStatuses[st]
		if !ok {
			stored = st
		}
		cq.Statuses = []string{stored}
	}
	if c.Has("offset") {
		cq.Offset = int(c.Int("offset"))
	}
	ctx := c.Context()
	list, total, err := store.ListComments(ctx, s.db(ctx), cq)
	if err != nil {
		return nil, err
	}
	if pages := (total + perPage - 1) / perPage; page > pages && total > 0 {
		return nil, rest.NewError("rest_comment_invalid_page_number", "The page number requested is larger than the number of pages available.", http.StatusBadRequest)
	}
	viewCtx := c.String("context")
	posts := map[int64]*store.Post{}
	items := make([]any, 0, len(list))
	for _, m := range list {
		p, ok := posts[m.Post]
		if !ok {
			if p, err = store.GetPost(ctx, s.db(ctx), m.Post); err != nil {
				return nil, err
			}
			posts[m.Post] = p
		}
		if !s.canReadComment(c, m, p) {
			continue // dropped without adjusting the counts, as WordPress does
		}
		items = append(items, s.prepareComment(m, p, viewCtx))
	}
	res := rest.OK(items)
	rest.Paginate(c, res, int64(total), page, perPage)
	return res, nil
}

// canReadComment is the controller's check_read_permission.
func (s *Service) canReadComment(c *rest.Request, m *store.Comment, p *store.Post) bool {
	var pt *store.PostType
	if p != nil {
		pt = store.TypeByName(p.Type)
	}
	if p != nil && !canReadPostOf(c, p, pt) {
		return false
	}
	if m.Status == "approved" && p != nil {
		return true
	}
	if !caller(c).LoggedIn() {
		return false
	}
	if m.Author != 0 && m.Author == caller(c).UserID {
		return true
	}
	return canEditComment(c, p, pt)
}

func (s *Service) cachedComment(c *rest.Request) (*store.Comment, error) {
	v, err := c.Memo(memoKey("comment"), func() (any, error) {
		id := c.Int("id")
		if id <= 0 {
			return nil, errInvalidComment()
		}
		m, err := store.GetComment(c.Context(), s.db(c.Context()), id)
		if err != nil {
			return nil, err
		}
		if m == nil {
			return nil, errInvalidComment()
		}
		return m, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*store.Comment), nil
}

func (s *Service) getCommentPermission(c *rest.Request) error {
	m, err := s.cachedComment(c)
	if err != nil {
		return err
	}
	if c.String("context") == "edit" && !caller(c).Can("moderate_comments") {
		return rest.Denied(c, "rest_forbidden_context", "Sorry, you are not allowed to edit comments.")
	}
	p, pt, err := s.postOfComment(c, s.db(c.Context()), m.Post)
	if err != nil {
		return err
	}
	if p != nil && !canReadPostOf(c, p, pt) {
		return rest.Denied(c, "rest_cannot_read_post", "Sorry, you are not allowed to read the post for this comment.")
	}
	if !s.canReadComment(c, m, p) {
		return rest.Denied(c, "rest_cannot_read", "Sorry, you are not allowed to read this comment.")
	}
	return nil
}

func (s *Service) getCommentItem(c *rest.Request) (*rest.Response, error) {
	m, err := s.cachedComment(c)
	if err != nil {
		return nil, err
	}
	p, err := store.GetPost(c.Context(), s.db(c.Context()), m.Post)
	if err != nil {
		return nil, err
	}
	return rest.OK(s.prepareComment(m, p, c.String("context"))), nil
}

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
		m, err := store.GetComment(c.Context(), tx, c.Int("id"))
		if err != nil {
			return err
		}
		if m == nil {
			return errInvalidComment()
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
	err := s.inTx(c.Context(), func(tx pgx.Tx) error {
		m, err := store.GetComment(c.Context(), tx, c.Int("id"))
		if err != nil {
			return err
		}
		if m == nil {
			return errInvalidComment()
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
	if err != nil {
		return nil, err
	}
	return rest.OK(body), nil
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
