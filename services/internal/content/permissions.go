package content

import (
	"net/http"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// Permission checks (WordPress's *_permissions_check), run after argument
// validation and before the handler. Item checks load the post once per
// request through rest.Request.Memo; the handler and the Allow header
// reuse it.

// cachedPost returns the post of the "id" parameter, of type pt.
func (s *Service) cachedPost(c *rest.Request, pt *store.PostType) (*store.Post, error) {
	v, err := c.Memo(memoKey("post"), func() (any, error) { return s.loadPost(c, s.db(c.Context()), pt, false) })
	if err != nil {
		return nil, err
	}
	return v.(*store.Post), nil
}

func listPostsPermission(pt *store.PostType) rest.PermissionFunc {
	return func(c *rest.Request) error {
		if c.String("context") == "edit" && !caller(c).Can(pt.Caps.EditPosts) {
			return rest.Denied(c, "rest_forbidden_context", msgForbiddenCtxList)
		}
		return nil
	}
}

func (s *Service) createPostPermission(pt *store.PostType) rest.PermissionFunc {
	return func(c *rest.Request) error {
		// template is validated with the arguments (its validate_callback),
		// so before every permission check
		if err := s.checkTemplate(c, pt, ""); err != nil {
			return err
		}
		// only an id sent in the body counts (one in the query string is ignored)
		if c.InBody("id") && c.Int("id") != 0 {
			return rest.NewError("rest_post_exists", "Cannot create existing post.", http.StatusBadRequest)
		}
		if err := writePermission(c, pt, true); err != nil {
			return err
		}
		if !caller(c).Can(pt.Caps.Create) {
			return rest.Denied(c, "rest_cannot_create", msgCannotCreate)
		}
		if !assignTermsAllowed(c, pt) {
			return rest.Denied(c, "rest_cannot_assign_term", "Sorry, you are not allowed to assign the provided terms.")
		}
		return nil
	}
}

func (s *Service) getPostPermission(pt *store.PostType) rest.PermissionFunc {
	return func(c *rest.Request) error {
		p, err := s.cachedPost(c, pt)
		if err != nil {
			return err
		}
		if c.String("context") == "edit" && !store.CanEdit(caller(c), pt, p) {
			return rest.Denied(c, "rest_forbidden_context", msgForbiddenCtxItem)
		}
		// only a password in the query string is checked (and refused when
		// wrong); one from elsewhere merely fails to unlock the content
		if pw, _ := c.QueryParams()["password"].(string); pw != "" && p.Password != pw {
			return rest.NewError("rest_post_incorrect_password", "Incorrect post password.", http.StatusForbidden)
		}
		if !store.CanRead(caller(c), pt, p) {
			return rest.Denied(c, "rest_forbidden", msgForbidden)
		}
		return nil
	}
}

func (s *Service) updatePostPermission(pt *store.PostType) rest.PermissionFunc {
	return func(c *rest.Request) error {
		p, err := s.cachedPost(c, pt)
		if err != nil {
			return err
		}
		// the template argument is validated before the permission checks
		if err := s.checkTemplate(c, pt, p.Template); err != nil {
			return err
		}
		if !store.CanEdit(caller(c), pt, p) {
			return rest.Denied(c, "rest_cannot_edit", msgCannotEdit)
		}
		if err := writePermission(c, pt, false); err != nil {
			return err
		}
		if !assignTermsAllowed(c, pt) {
			return rest.Denied(c, "rest_cannot_assign_term", "Sorry, you are not allowed to assign the provided terms.")
		}
		return nil
	}
}

// createAutosavePermission is the autosaves controller's check: an empty id
// is refused first, then the parent controller's update check applies.
func (s *Service) createAutosavePermission(pt *store.PostType) rest.PermissionFunc {
	update := s.updatePostPermission(pt)
	return func(c *rest.Request) error {
		if c.Int("id") == 0 {
			return rest.NewError("rest_post_invalid_id", "Invalid item ID.", http.StatusNotFound)
		}
		return update(c)
	}
}

func (s *Service) deletePostPermission(pt *store.PostType) rest.PermissionFunc {
	return func(c *rest.Request) error {
		p, err := s.cachedPost(c, pt)
		if err != nil {
			return err
		}
		if !store.CanDelete(caller(c), pt, p) {
			return rest.Denied(c, "rest_cannot_delete", msgCannotDelete)
		}
		return nil
	}
}

// cachedParent is the revisions controller's parent check: the parent must
// exist with type pt, and the caller must be able to edit it.
func (s *Service) cachedParent(c *rest.Request, pt *store.PostType, param, noun string) (*store.Post, error) {
	v, err := c.Memo(memoKey("parent"), func() (any, error) { return s.loadParent(c, s.db(c.Context()), pt, param, noun) })
	if err != nil {
		return nil, err
	}
	return v.(*store.Post), nil
}

func (s *Service) revisionsPermission(pt *store.PostType, param, noun string) rest.PermissionFunc {
	return func(c *rest.Request) error {
		_, err := s.cachedParent(c, pt, param, noun)
		return err
	}
}

// deleteRevisionPermission keeps WordPress's order: the parent, delete_post
// on it (rest_cannot_delete), the revision (404), then the read check
// (rest_cannot_read).
func (s *Service) deleteRevisionPermission(pt *store.PostType) rest.PermissionFunc {
	return func(c *rest.Request) error {
		q := s.db(c.Context())
		parent, err := getParent(c, q, pt, "parent")
		if err != nil {
			return err
		}
		if !store.CanDelete(caller(c), pt, parent) {
			return rest.Denied(c, "rest_cannot_delete", "Sorry, you are not allowed to delete revisions of this post.")
		}
		if _, err := loadRevision(c, q); err != nil {
			return err
		}
		if !store.CanEdit(caller(c), pt, parent) {
			return rest.Denied(c, "rest_cannot_read", "Sorry, you are not allowed to view revisions of this post.")
		}
		return nil
	}
}

// listTermsPermission and getTermPermission keep WordPress's order: the
// terms controller's checks (the term, or the edit context then the post
// filter), then the menus controller's read-only access. The post filter
// is checked here, not in the handler, because WordPress's Allow header
// asks every endpoint's permission check (rest_send_allow_header): a
// missing post, or one the client gave as a non-integer, takes GET out of
// Allow even when the answer is a validation error.
func (s *Service) listTermsPermission(tax *store.Taxonomy) rest.PermissionFunc {
	return func(c *rest.Request) error {
		if c.String("context") == "edit" && !caller(c).Can(tax.EditCap) {
			return rest.Denied(c, "rest_forbidden_context", "Sorry, you are not allowed to edit terms in this taxonomy.")
		}
		if postID, ok := termPostFilter(c); ok {
			if _, err := c.Memo(memoKey("term-post"), func() (any, error) { return nil, s.checkTermPost(c, tax, postID) }); err != nil {
				return err
			}
		}
		return canReadTerms(c, tax)
	}
}

func createTermPermission(tax *store.Taxonomy) rest.PermissionFunc {
	return func(c *rest.Request) error {
		need := tax.EditCap
		if !tax.Hierarchical {
			need = tax.AssignCap // flat taxonomies: whoever may assign may create
		}
		if !caller(c).Can(need) {
			return rest.Denied(c, "rest_cannot_create", "Sorry, you are not allowed to create terms in this taxonomy.")
		}
		return nil
	}
}

func (s *Service) cachedTerm(c *rest.Request, tax *store.Taxonomy) (*store.Term, error) {
	v, err := c.Memo(memoKey("term"), func() (any, error) { return s.loadTerm(c, s.db(c.Context()), tax) })
	if err != nil {
		return nil, err
	}
	return v.(*store.Term), nil
}

func (s *Service) getTermPermission(tax *store.Taxonomy) rest.PermissionFunc {
	return func(c *rest.Request) error {
		if _, err := s.cachedTerm(c, tax); err != nil {
			return err
		}
		if c.String("context") == "edit" && !caller(c).Can(tax.EditCap) {
			return rest.Denied(c, "rest_forbidden_context", "Sorry, you are not allowed to edit this term.")
		}
		return canReadTerms(c, tax)
	}
}

func (s *Service) termWritePermission(tax *store.Taxonomy, capability, code, message string) rest.PermissionFunc {
	return func(c *rest.Request) error {
		if _, err := s.cachedTerm(c, tax); err != nil {
			return err
		}
		if !caller(c).Can(capability) {
			return rest.Denied(c, code, message)
		}
		return nil
	}
}
