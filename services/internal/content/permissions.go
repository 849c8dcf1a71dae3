package content

import "net/http"

// Permission checks (WordPress's *_permissions_check), run after argument
// validation and before the handler. Item checks load the post once per
// request through Call.once; the handler and the Allow header reuse it.

// cachedPost returns the post of the "id" parameter, of type pt.
func (s *Service) cachedPost(c *Call, pt *PostType) (*Post, error) {
	v, err := c.once("post", func() (any, error) { return s.loadPost(c, s.db(c.Ctx), pt, false) })
	if err != nil {
		return nil, err
	}
	return v.(*Post), nil
}

func listPostsPermission(pt *PostType) func(*Call) error {
	return func(c *Call) error {
		if c.Str("context") == "edit" && !c.Who.Can(pt.Caps.EditPosts) {
			return forbidden(c.Who, "rest_forbidden_context", msgForbiddenCtxList)
		}
		return nil
	}
}

func createPostPermission(pt *PostType) func(*Call) error {
	return func(c *Call) error {
		// template is validated with the arguments (its validate_callback),
		// so before every permission check
		if err := checkTemplate(c, ""); err != nil {
			return err
		}
		if c.Int("id") != 0 {
			return apiErr(http.StatusBadRequest, "rest_post_exists", "Cannot create existing post.")
		}
		if err := writePermission(c, pt, true); err != nil {
			return err
		}
		if !c.Who.Can(pt.Caps.Create) {
			return forbidden(c.Who, "rest_cannot_create", msgCannotCreate)
		}
		if !assignTermsAllowed(c, pt) {
			return forbidden(c.Who, "rest_cannot_assign_term", "Sorry, you are not allowed to assign the provided terms.")
		}
		return nil
	}
}

func (s *Service) getPostPermission(pt *PostType) func(*Call) error {
	return func(c *Call) error {
		p, err := s.cachedPost(c, pt)
		if err != nil {
			return err
		}
		if c.Str("context") == "edit" && !canEdit(c.Who, pt, p) {
			return forbidden(c.Who, "rest_forbidden_context", msgForbiddenCtxItem)
		}
		// only a password in the query string is checked (and refused when
		// wrong); one from elsewhere merely fails to unlock the content
		if c.query != nil {
			if pw, _ := c.query()["password"].(string); pw != "" && p.Password != pw {
				return apiErr(http.StatusForbidden, "rest_post_incorrect_password", "Incorrect post password.")
			}
		}
		if !canRead(c.Who, pt, p) {
			return forbidden(c.Who, "rest_forbidden", msgForbidden)
		}
		return nil
	}
}

func (s *Service) updatePostPermission(pt *PostType) func(*Call) error {
	return func(c *Call) error {
		p, err := s.cachedPost(c, pt)
		if err != nil {
			return err
		}
		// the template argument is validated before the permission checks
		if err := checkTemplate(c, p.Template); err != nil {
			return err
		}
		if !canEdit(c.Who, pt, p) {
			return forbidden(c.Who, "rest_cannot_edit", msgCannotEdit)
		}
		if err := writePermission(c, pt, false); err != nil {
			return err
		}
		if !assignTermsAllowed(c, pt) {
			return forbidden(c.Who, "rest_cannot_assign_term", "Sorry, you are not allowed to assign the provided terms.")
		}
		return nil
	}
}

// createAutosavePermission is the autosaves controller's check: an empty id
// is refused first, then the parent controller's update check applies.
func (s *Service) createAutosavePermission(pt *PostType) func(*Call) error {
	update := s.updatePostPermission(pt)
	return func(c *Call) error {
		if c.Int("id") == 0 {
			return apiErr(http.StatusNotFound, "rest_post_invalid_id", "Invalid item ID.")
		}
		return update(c)
	}
}

func (s *Service) deletePostPermission(pt *PostType) func(*Call) error {
	return func(c *Call) error {
		p, err := s.cachedPost(c, pt)
		if err != nil {
			return err
		}
		if !canDelete(c.Who, pt, p) {
			return forbidden(c.Who, "rest_cannot_delete", msgCannotDelete)
		}
		return nil
	}
}

// cachedParent is the revisions controller's parent check: the parent must
// exist with type pt, and the caller must be able to edit it.
func (s *Service) cachedParent(c *Call, pt *PostType, param, noun string) (*Post, error) {
	v, err := c.once("parent", func() (any, error) { return s.loadParent(c, s.db(c.Ctx), pt, param, noun) })
	if err != nil {
		return nil, err
	}
	return v.(*Post), nil
}

func (s *Service) revisionsPermission(pt *PostType, param, noun string) func(*Call) error {
	return func(c *Call) error {
		_, err := s.cachedParent(c, pt, param, noun)
		return err
	}
}

func (s *Service) deleteRevisionPermission(pt *PostType) func(*Call) error {
	return func(c *Call) error {
		parent, err := s.cachedParent(c, pt, "parent", "revisions")
		if err != nil {
			return err
		}
		if !canDelete(c.Who, pt, parent) {
			return forbidden(c.Who, "rest_cannot_delete", "Sorry, you are not allowed to delete revisions of this post.")
		}
		return nil
	}
}

func listTermsPermission(tax *Taxonomy) func(*Call) error {
	return func(c *Call) error {
		if err := canReadTerms(c, tax); err != nil {
			return err
		}
		if c.Str("context") == "edit" && !c.Who.Can(tax.EditCap) {
			return forbidden(c.Who, "rest_forbidden_context", "Sorry, you are not allowed to edit terms in this taxonomy.")
		}
		return nil
	}
}

func createTermPermission(tax *Taxonomy) func(*Call) error {
	return func(c *Call) error {
		need := tax.EditCap
		if !tax.Hierarchical {
			need = tax.AssignCap // flat taxonomies: whoever may assign may create
		}
		if !c.Who.Can(need) {
			return forbidden(c.Who, "rest_cannot_create", "Sorry, you are not allowed to create terms in this taxonomy.")
		}
		return nil
	}
}

func (s *Service) cachedTerm(c *Call, tax *Taxonomy) (*Term, error) {
	v, err := c.once("term", func() (any, error) { return s.loadTerm(c, s.db(c.Ctx), tax) })
	if err != nil {
		return nil, err
	}
	return v.(*Term), nil
}

func (s *Service) getTermPermission(tax *Taxonomy) func(*Call) error {
	return func(c *Call) error {
		if err := canReadTerms(c, tax); err != nil {
			return err
		}
		if _, err := s.cachedTerm(c, tax); err != nil {
			return err
		}
		if c.Str("context") == "edit" && !c.Who.Can(tax.EditCap) {
			return forbidden(c.Who, "rest_forbidden_context", "Sorry, you are not allowed to edit this term.")
		}
		return nil
	}
}

func (s *Service) termWritePermission(tax *Taxonomy, cap, code, message string) func(*Call) error {
	return func(c *Call) error {
		if _, err := s.cachedTerm(c, tax); err != nil {
			return err
		}
		if !c.Who.Can(cap) {
			return forbidden(c.Who, code, message)
		}
		return nil
	}
}
