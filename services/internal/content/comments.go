package content

import (
	"context"
	"net/http"
	"strings"

	"siteplane.dev/services/internal/content/store"
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
	p, ok := aheadPost(c.Context(), id)
	if !ok {
		var err error
		if p, err = store.GetPost(c.Context(), q, id); err != nil {
			return nil, nil, err
		}
	}
	if p == nil {
		return nil, nil, nil
	}
	return p, store.TypeByName(p.Type), nil
}

// postOfList is the post of a listed comment: read ahead for a batch of
// reads, else read.
func (s *Service) postOfList(ctx context.Context, id int64) (*store.Post, error) {
	if p, ok := aheadPost(ctx, id); ok {
		return p, nil
	}
	return store.GetPost(ctx, s.db(ctx), id)
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

// supportsNotes says whether a post type has WordPress 6.9's notes
// (supports.editor [{"notes": true}] in /types).
func supportsNotes(pt *store.PostType) bool {
	for _, ti := range typeInfos {
		if pt != nil && ti.name == pt.Name {
			return ti.notes
		}
	}
	return false
}

// canEditComment is edit_comment: moderators, or whoever can edit the post.
func canEditComment(c *rest.Request, p *store.Post, pt *store.PostType) bool {
	if caller(c).Can("moderate_comments") {
		return true
	}
	return p != nil && pt != nil && store.CanEdit(caller(c), pt, p)
}

func (s *Service) listCommentsPermission(c *rest.Request) error {
	// WordPress 6.9's notes (type "note", the block editor's comments on a
	// post being written): whoever can edit the post may read them in the
	// edit context, without moderate_comments.
	isNote, editable := c.String("type") == "note", len(c.Ints("post")) > 0
	for _, id := range c.Ints("post") {
		p, pt, err := s.postOfComment(c, s.db(c.Context()), id)
		if err != nil {
			return err
		}
		if p != nil && !canReadPostOf(c, p, pt) {
			return rest.Denied(c, "rest_cannot_read_post", "Sorry, you are not allowed to read the post for this comment.")
		}
		if p != nil && isNote && !supportsNotes(pt) && store.CanEdit(caller(c), pt, p) {
			return rest.Denied(c, "rest_comment_not_supported_post_type", "Sorry, this post type does not support notes.")
		}
		editable = editable && p != nil && pt != nil && store.CanEdit(caller(c), pt, p)
	}
	if c.String("context") == "edit" {
		if isNote && len(c.Ints("post")) > 0 {
			if !editable {
				return rest.Denied(c, "rest_forbidden_context", "Sorry, you are not allowed to edit comments.")
			}
		} else if !caller(c).Can("moderate_comments") {
			return rest.Denied(c, "rest_forbidden_context", "Sorry, you are not allowed to edit comments.")
		}
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
	list, total, ok := aheadReplies(c, cq)
	if !ok {
		var err error
		if list, total, err = store.ListComments(ctx, s.db(ctx), cq); err != nil {
			return nil, err
		}
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
			var err error
			if p, err = s.postOfList(ctx, m.Post); err != nil {
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
