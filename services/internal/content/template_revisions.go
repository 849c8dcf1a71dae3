package content

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// Revisions and autosaves of templates and template parts. Their parent is
// the template id (theme//slug); the revisions belong to its stored post, so
// a template that is still only a theme file has none.

func tmplRevisionSchema(k *tmplKind, autosave bool) *rest.Schema {
	sch := tmplSchema(k)
	sch.Title = k.PostType + "-revision"
	if autosave {
		sch.Title = k.PostType + "-autosave"
	}
	sch.Properties = append(sch.Properties, rest.Prop{Name: "parent", Schema: &rest.Schema{Type: "integer", Context: ctxAll, Readonly: true,
		Description: "The ID for the parent of the revision."}})
	return sch
}

// tmplParent resolves the template of a revisions URL (memoised).
func (s *Service) tmplParent(r *rest.Request, k *tmplKind, param string) (*tmpl, error) {
	v, err := r.Memo(tmplParentKey{k, param}, func() (any, error) {
		t, _, err := s.findTemplate(r, s.db(r.Context()), k, r.String(param), false)
		if err != nil {
			return nil, err
		}
		if t == nil {
			return nil, rest.NewError("rest_post_invalid_parent", "Invalid template parent ID.", http.StatusNotFound)
		}
		return t, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*tmpl), nil
}

type tmplParentKey struct {
	k     *tmplKind
	param string
}

func (s *Service) tmplRevisionsPermission(k *tmplKind, param string) rest.PermissionFunc {
	return func(r *rest.Request) error {
		if _, err := s.tmplParent(r, k, param); err != nil {
			return err
		}
		if !caller(r).Can("edit_theme_options") {
			noun := "revisions"
			if param == "id" {
				noun = "autosaves"
			}
			return rest.Denied(r, "rest_cannot_read", "Sorry, you are not allowed to view "+noun+" of this post.")
		}
		return nil
	}
}

func (s *Service) tmplRevisionsDeletePermission(k *tmplKind) rest.PermissionFunc {
	return func(r *rest.Request) error {
		if _, err := s.tmplParent(r, k, "parent"); err != nil {
			return err
		}
		if !caller(r).Can("edit_theme_options") {
			return rest.Denied(r, "rest_cannot_delete", "Sorry, you are not allowed to delete revisions of this post.")
		}
		return nil
	}
}

// tmplRevisionItem renders a revision like its template, plus parent.
func (s *Service) tmplRevisionItem(ctx context.Context, k *tmplKind, parent *tmpl, rev *store.TmplRevision) rest.Item {
	t := *parent
	t.Content, t.Title, t.Description = rev.Content, rev.Title, rev.Description
	t.CMSID, t.Author, t.Revisions = rev.ID, rev.Author, 0
	mod := rev.ModifiedGMT
	t.Modified = &mod
	it := s.tmplItem(ctx, &t)
	it.Data = append(it.Data, rest.Member{Key: "parent", Value: parent.CMSID})
	it.Links = rest.Links{{Rel: "parent", Href: s.tmplURL(k, it.Data[0].Value.(string))}}
	return it
}

// paginate applies page, per_page (default: all) and offset to total items.
func paginate(r *rest.Request, total int) (start, end, maxPages int, err error) {
	page, offset := int(r.Int("page")), int(r.Int("offset"))
	if page < 1 {
		page = 1
	}
	perPage := total
	if r.Has("per_page") {
		perPage = int(r.Int("per_page"))
	}
	if perPage > 0 {
		maxPages = int(math.Ceil(float64(total) / float64(perPage)))
	} else if total > 0 {
		maxPages = 1
	}
	if total > 0 {
		if offset >= total {
			return 0, 0, 0, rest.NewError("rest_revision_invalid_offset_number", "The offset number requested is larger than or equal to the number of available revisions.", http.StatusBadRequest)
		}
		if offset == 0 && page > maxPages {
			return 0, 0, 0, rest.NewError("rest_revision_invalid_page_number", "The page number requested is larger than the number of pages available.", http.StatusBadRequest)
		}
	}
	start = offset
	if offset == 0 && perPage > 0 {
		start = rest.Offset(page, perPage)
	}
	start = min(start, total)
	return start, min(total, start+perPage), maxPages, nil
}

// filterRevisions applies include, exclude, search (title and content) and
// order to revisions listed newest first.
func filterRevisions(r *rest.Request, revs []*store.TmplRevision) []*store.TmplRevision {
	include, exclude := r.Ints("include"), r.Ints("exclude")
	search := strings.ToLower(r.String("search"))
	out := revs[:0:0]
	for _, rev := range revs {
		if len(include) > 0 && !slices.Contains(include, rev.ID) || slices.Contains(exclude, rev.ID) {
			continue
		}
		if search != "" && !strings.Contains(strings.ToLower(rev.Title), search) && !strings.Contains(strings.ToLower(rev.Content), search) {
			continue
		}
		out = append(out, rev)
	}
	if r.String("order") == "asc" {
		slices.Reverse(out)
	}
	return out
}

func (s *Service) listTmplRevisions(k *tmplKind) rest.HandlerFunc {
	return func(r *rest.Request) (*rest.Response, error) {
		parent, revs, err := s.tmplRevisionsOf(r, k, false)
		if err != nil {
			return nil, err
		}
		revs = filterRevisions(r, revs)
		start, end, maxPages, err := paginate(r, len(revs))
		if err != nil {
			return nil, err
		}
		items := []any{}
		for _, rev := range revs[start:end] {
			items = append(items, s.tmplRevisionItem(r.Context(), k, parent, rev))
		}
		resp := rest.OK(items)
		resp.Header = http.Header{"X-Wp-Total": {strconv.Itoa(len(revs))}, "X-Wp-Totalpages": {strconv.Itoa(maxPages)}}
		return resp, nil
	}
}

// revisionOf loads revision id and checks it belongs to parent.
func (s *Service) revisionOf(r *rest.Request, parent *tmpl, autosave bool) (*store.TmplRevision, error) {
	rev, err := store.GetTmplRevision(r.Context(), s.db(r.Context()), r.Int("id"))
	if err != nil {
		return nil, err
	}
	if rev == nil || rev.Autosave != autosave {
		return nil, rest.NewError("rest_post_invalid_id", "Invalid revision ID.", http.StatusNotFound)
	}
	if rev.Parent != parent.CMSID {
		return nil, rest.NewError("rest_revision_parent_id_mismatch",
			fmt.Sprintf("The revision does not belong to the specified parent with id of \"%d\"", parent.CMSID), http.StatusNotFound)
	}
	return rev, nil
}

func (s *Service) getTmplRevision(k *tmplKind) rest.HandlerFunc {
	return func(r *rest.Request) (*rest.Response, error) {
		parent, rev, err := s.tmplRevisionOfURL(r, k)
		if err != nil {
			return nil, err
		}
		return rest.OK(s.tmplRevisionItem(r.Context(), k, parent, rev)), nil
	}
}

func (s *Service) deleteTmplRevision(k *tmplKind) rest.HandlerFunc {
	return func(r *rest.Request) (*rest.Response, error) {
		parent, rev, err := s.tmplRevisionOfURL(r, k)
		if err != nil {
			return nil, err
		}
		if !r.Bool("force") {
			return nil, rest.NewError("rest_trash_not_supported", "Revisions do not support trashing. Set 'force=true' to delete.", http.StatusNotImplemented)
		}
		previous := s.tmplRevisionItem(r.Context(), k, parent, rev)
		if err := store.DeleteRevision(r.Context(), s.db(r.Context()), rev.ID); err != nil {
			return nil, err
		}
		return rest.OK(rest.Object{{Key: "deleted", Value: true}, {Key: "previous", Value: previous}}), nil
	}
}

func (s *Service) listTmplAutosaves(k *tmplKind) rest.HandlerFunc {
	return func(r *rest.Request) (*rest.Response, error) {
		parent, err := s.tmplParent(r, k, "id")
		if err != nil {
			return nil, err
		}
		items := []any{}
		if parent.CMSID > 0 {
			revs, err := store.ListTmplRevisions(r.Context(), s.db(r.Context()), parent.CMSID, true)
			if err != nil {
				return nil, err
			}
			for _, rev := range revs {
				items = append(items, s.tmplRevisionItem(r.Context(), k, parent, rev))
			}
		}
		return rest.OK(items), nil
	}
}

// getTmplAutosave answers the latest autosave of the template, whatever id
// the URL names (as WordPress does).
func (s *Service) getTmplAutosave(k *tmplKind) rest.HandlerFunc {
	return func(r *rest.Request) (*rest.Response, error) {
		parent, revs, err := s.tmplRevisionsOf(r, k, true)
		if err != nil {
			return nil, err
		}
		if len(revs) == 0 {
			return nil, rest.NewError("rest_post_no_autosave", "There is no autosave revision for this post.", http.StatusNotFound)
		}
		return rest.OK(s.tmplRevisionItem(r.Context(), k, parent, revs[0])), nil
	}
}

// createTmplAutosave stores the caller's autosave of a stored template (one
// per user, replaced on each save). A template that is only a theme file has
// no post to hang an autosave on: it must be saved (customised) first.
func (s *Service) createTmplAutosave(k *tmplKind) rest.HandlerFunc {
	return func(r *rest.Request) (*rest.Response, error) {
		ctx := r.Context()
		var out rest.Item
		err := s.inTx(ctx, func(tx pgx.Tx) error {
			parent, row, err := s.findTemplate(r, tx, k, r.String("id"), false)
			if err != nil {
				return err
			}
			if parent == nil || row == nil {
				return rest.NewError("rest_post_invalid_parent", "Invalid template parent ID.", http.StatusNotFound)
			}
			draft := *row
			applyTmplFields(r, k, &draft)
			draft.ModifiedGMT = s.now()
			me := caller(r).UserID
			if err := store.DeleteAutosaves(ctx, tx, row.ID, me); err != nil {
				return err
			}
			if err := store.InsertTmplRevision(ctx, tx, &draft, me, true); err != nil {
				return err
			}
			revs, err := store.ListTmplRevisions(ctx, tx, row.ID, true)
			if err != nil {
				return err
			}
			for _, rev := range revs {
				if rev.Author == me {
					out = s.tmplRevisionItem(r.Context(), k, parent, rev)
					break
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		r.Set("context", "edit")
		return rest.OK(out), nil
	}
}

// tmplRevisionsOf reads the template the URL's parent names and its
// revisions (autosaves when autosave): none for a theme file never stored.
func (s *Service) tmplRevisionsOf(r *rest.Request, k *tmplKind, autosave bool) (*tmpl, []*store.TmplRevision, error) {
	parent, err := s.tmplParent(r, k, "parent")
	if err != nil {
		return nil, nil, err
	}
	if parent.CMSID == 0 {
		return parent, nil, nil
	}
	revs, err := store.ListTmplRevisions(r.Context(), s.db(r.Context()), parent.CMSID, autosave)
	return parent, revs, err
}

// tmplRevisionOfURL reads the template the URL's parent names and its
// revision the URL's id names.
func (s *Service) tmplRevisionOfURL(r *rest.Request, k *tmplKind) (*tmpl, *store.TmplRevision, error) {
	parent, err := s.tmplParent(r, k, "parent")
	if err != nil {
		return nil, nil, err
	}
	rev, err := s.revisionOf(r, parent, false)
	return parent, rev, err
}
