package content

import (
	"net/http"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/content/theme"
	"siteplane.dev/services/internal/platform/rest"
)

// Template and template part writes: create, update (a customised theme
// file becomes a stored template) and delete.

func (s *Service) checkAuthor(r *rest.Request) (int64, error) {
	if !r.Has("author") {
		return caller(r).UserID, nil
	}
	id := r.Int("author")
	ok, err := s.users.Exists(r.Context(), id)
	if err != nil {
		return 0, err
	}
	if !ok && id != caller(r).UserID {
		return 0, rest.NewError("rest_invalid_author", "Invalid author ID.", http.StatusBadRequest)
	}
	return id, nil
}

// applyTmplFields copies the supplied writable fields onto row.
func applyTmplFields(r *rest.Request, k *tmplKind, row *store.TmplRow) {
	if r.Has("content") {
		row.Content = rawOf(r.Param("content"))
	}
	if r.Has("title") {
		row.Title = rawOf(r.Param("title"))
	}
	if r.Has("description") {
		row.Description = r.String("description")
	}
	if k.Parts && r.Has("area") {
		row.Area = theme.NormalizeArea(r.String("area"))
	}
}

func (s *Service) createTemplate(k *tmplKind) rest.HandlerFunc {
	return func(r *rest.Request) (*rest.Response, error) {
		th := s.activeTheme()
		author, err := s.checkAuthor(r)
		if err != nil {
			return nil, err
		}
		ss := th.Stylesheet
		if v := r.String("theme"); v != "" {
			ss = v
		}
		row := &store.TmplRow{Type: k.PostType, Theme: ss, Status: "publish", Author: author, ModifiedGMT: s.now()}
		if k.Parts {
			row.Area = theme.AreaUncategorized
		}
		applyTmplFields(r, k, row)
		if phpEmpty(row.Content) && phpEmpty(row.Title) && phpEmpty(row.Description) {
			// wp_insert_post refuses a post whose type supports title,
			// editor and excerpt (templates and parts do) when all three
			// are empty, and the controller makes its error a 400.
			return nil, rest.NewError("empty_content", "Content, title, and excerpt are empty.", http.StatusBadRequest)
		}
		ctx := r.Context()
		err = s.inTx(ctx, func(tx pgx.Tx) error { return insertTemplate(r, tx, row) })
		if err != nil {
			return nil, err
		}
		stored, err := store.GetTmplRowByID(ctx, s.db(ctx), k.PostType, row.ID)
		if err != nil {
			return nil, err
		}
		t := k.fromRow(th, stored)
		resp := &rest.Response{Status: http.StatusCreated, Data: s.tmplItem(r.Context(), t),
			Header: http.Header{"Location": {s.tmplURL(k, theme.ID(t.Theme, t.Slug))}}}
		return resp, nil
	}
}

// insertTemplate stores a new template under a slug WordPress would give
// it: wp_insert_post's sanitize_title of the slug ("bad slug" becomes
// "bad-slug", so the id stays addressable), else of the title, else the
// new post's id, made unique per theme.
func insertTemplate(r *rest.Request, tx pgx.Tx, row *store.TmplRow) error {
	ctx := r.Context()
	base := store.SanitizeTitle(r.String("slug"))
	if base == "" {
		base = store.SanitizeTitle(row.Title)
	}
	if base != "" {
		slug, err := store.UniqueTmplSlug(ctx, tx, row.Type, row.Theme, base)
		if err != nil {
			return err
		}
		row.Slug = slug
		return store.InsertTmplRow(ctx, tx, row)
	}
	if err := store.InsertTmplRow(ctx, tx, row); err != nil {
		return err
	}
	slug, err := store.UniqueTmplSlug(ctx, tx, row.Type, row.Theme, store.Itoa(row.ID))
	if err != nil {
		return err
	}
	row.Slug = slug
	return store.SetTmplSlug(ctx, tx, row.ID, slug)
}

// updateTemplate edits a stored template, or stores a customisation of a
// theme file (the id stays the same; source becomes custom). ?source=theme
// reverts: the customisation is removed and the file answered.
func (s *Service) updateTemplate(k *tmplKind) rest.HandlerFunc {
	return func(r *rest.Request) (*rest.Response, error) {
		ctx := r.Context()
		var out *tmpl
		err := s.inTx(ctx, func(tx pgx.Tx) error {
			t, row, err := s.findTemplate(r, tx, k, r.String("id"), false)
			if err != nil {
				return err
			}
			if t == nil {
				return errTemplateNotFound()
			}
			if r.String("source") == "theme" { // revert to the theme's file
				if row != nil {
					if err := store.DeleteTmplRow(ctx, tx, row.ID); err != nil {
						return err
					}
				}
				if out = s.themeFile(k, r.String("id")); out == nil {
					return errTemplateNotFound()
				}
				return nil
			}
			if row == nil { // a theme file: its first customisation
				row = &store.TmplRow{Type: k.PostType, Theme: t.Theme, Slug: t.Slug, Status: "publish", Title: t.Title, Content: t.Content,
					Description: t.Description, Origin: t.Source, Area: t.Area, Author: caller(r).UserID, ModifiedGMT: s.now()}
				applyTmplFields(r, k, row)
				if r.Has("author") {
					if row.Author, err = s.checkAuthor(r); err != nil {
						return err
					}
				}
				if err := store.InsertTmplRow(ctx, tx, row); err != nil {
					return err
				}
			} else {
				applyTmplFields(r, k, row)
				if r.Has("author") {
					if row.Author, err = s.checkAuthor(r); err != nil {
						return err
					}
				}
				row.ModifiedGMT = s.now()
				if err := store.UpdateTmplRow(ctx, tx, row); err != nil {
					return err
				}
				if err := store.SaveTmplRevision(ctx, tx, row); err != nil {
					return err
				}
			}
			stored, err := store.GetTmplRowByID(ctx, tx, k.PostType, row.ID)
			if err != nil {
				return err
			}
			out = k.fromRow(s.activeTheme(), stored)
			return nil
		})
		if err != nil {
			return nil, err
		}
		r.Set("context", "edit")
		return rest.OK(s.tmplItem(r.Context(), out)), nil
	}
}

// deleteTemplate trashes or removes a stored template; theme files cannot
// be deleted. Removing the customisation of a theme template reverts it.
func (s *Service) deleteTemplate(k *tmplKind) rest.HandlerFunc {
	return func(r *rest.Request) (*rest.Response, error) {
		ctx := r.Context()
		force := r.Bool("force")
		var out rest.Item
		var trashed bool
		err := s.inTx(ctx, func(tx pgx.Tx) error {
			t, row, err := s.findTemplate(r, tx, k, r.String("id"), true)
			if err != nil {
				return err
			}
			if t == nil {
				return errTemplateNotFound()
			}
			if row == nil {
				return rest.NewError("rest_invalid_template", "Templates based on theme files can't be removed.", http.StatusBadRequest)
			}
			if force {
				out = s.tmplItem(r.Context(), t)
				return store.DeleteTmplRow(ctx, tx, row.ID)
			}
			if row.Status == "trash" {
				return rest.NewError("rest_template_already_trashed", "The template has already been deleted.", http.StatusGone)
			}
			row.TrashStatus, row.Status, row.ModifiedGMT = row.Status, "trash", s.now()
			if err := store.UpdateTmplRow(ctx, tx, row); err != nil {
				return err
			}
			trashed = true
			out = s.tmplItem(r.Context(), k.fromRow(s.activeTheme(), row))
			return nil
		})
		if err != nil {
			return nil, err
		}
		r.Set("context", "edit")
		if trashed {
			return rest.OK(out), nil
		}
		return rest.OK(rest.Object{{Key: "deleted", Value: true}, {Key: "previous", Value: out}}), nil
	}
}

// phpEmpty is PHP's !$s for a string: "" and "0" are false.
func phpEmpty(s string) bool { return s == "" || s == "0" }
