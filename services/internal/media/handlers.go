package media

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/kses"
	"siteplane.dev/services/internal/platform/rest"
)

// statusItems is the status argument's item schema, for ParseArg.
var statusArg = &rest.Schema{Type: "array", Items: &rest.Schema{Type: "string", Enum: str("inherit", "private", "trash")}}

// sanitizeStatuses is sanitize_post_statuses: a status other than the
// default needs edit_posts (private: read_private_posts will do).
func sanitizeStatuses(r *rest.Request, v any, param string) (any, error) {
	parsed, perr := rest.ParseArg(v, statusArg, param)
	if perr != nil {
		return nil, perr
	}
	c := caller(r)
	list, _ := parsed.([]any)
	for _, st := range list {
		s, _ := st.(string)
		if s == "inherit" || c.Can("edit_posts") || (s == "private" && c.Can("read_private_posts")) {
			continue
		}
		return nil, rest.Denied(r, "rest_forbidden_status", "Status is forbidden.")
	}
	return parsed, nil
}

func (s *Service) canList(r *rest.Request) error {
	if r.ViewContext() == "edit" && !caller(r).Can("edit_posts") {
		return rest.Denied(r, "rest_forbidden_context", "Sorry, you are not allowed to edit posts in this post type.")
	}
	return nil
}

func (s *Service) list(r *rest.Request) (*rest.Response, error) {
	q, err := listQueryOf(r)
	if err != nil {
		return nil, err
	}
	rows, total, lerr := s.query(r.Context(), q)
	if lerr != nil {
		s.logger.ErrorContext(r.Context(), "list attachments", "error", lerr.Error())
		return nil, rest.StoreError(lerr, errDB())
	}
	c := caller(r)
	edit := r.ViewContext() == "edit"
	items := make([]rest.Item, 0, len(rows))
	rd := s.readers(c)
	rd.list(r.Context(), rows)
	for _, a := range rows {
		// unreadable items are dropped without fixing the counts (§4.7)
		if !rd.can(r.Context(), a) || (edit && !canEdit(c, a)) {
			continue
		}
		items = append(items, s.item(r, a))
	}
	resp := rest.OK(items)
	pages := rest.Paginate(r, resp, total, q.page, q.perPage)
	if q.page > pages && total > 0 {
		return nil, rest.NewError("rest_post_invalid_page_number", "The page number requested is larger than the number of pages available.", http.StatusBadRequest)
	}
	return resp, nil
}

func (s *Service) canGet(r *rest.Request) error {
	a, err := s.target(r)
	if err != nil {
		return err
	}
	c := caller(r)
	if r.ViewContext() == "edit" && !canEdit(c, a) {
		return rest.Denied(r, "rest_forbidden_context", "Sorry, you are not allowed to edit this post.")
	}
	if !s.readers(c).can(r.Context(), a) {
		return rest.Forbidden(r)
	}
	return nil
}

func (s *Service) get(r *rest.Request) (*rest.Response, error) {
	a, err := s.target(r)
	if err != nil {
		return nil, err
	}
	return rest.OK(s.item(r, a)), nil
}

func (s *Service) canUpdate(r *rest.Request) error {
	a, err := s.target(r)
	if err != nil {
		return err
	}
	c := caller(r)
	if !canEdit(c, a) {
		return rest.Denied(r, "rest_cannot_edit", "Sorry, you are not allowed to edit this post.")
	}
	if r.Has("author") && r.Int("author") != a.Author && r.Int("author") != c.UserID && !c.Can("edit_others_posts") {
		return rest.Denied(r, "rest_cannot_edit_others", "Sorry, you are not allowed to update posts as this user.")
	}
	if r.Has("post") && r.Int("post") != a.Post {
		return s.mayAttach(r, r.Int("post"))
	}
	return nil
}

// applyFields copies the writable fields present in the request onto a.
func (s *Service) applyFields(r *rest.Request, a *Attachment) error {
	text := func(name string) (string, bool) {
		if !r.Has(name) {
			return "", false
		}
		switch v := r.Param(name).(type) {
		case string:
			return v, true
		case map[string]any: // {"raw": "..."} form of rendered fields
			raw, _ := v["raw"].(string)
			return raw, true
		}
		return r.String(name), true
	}
	// An attachment is a post: its title, caption (excerpt) and description
	// (content) are filtered as a post's are for callers without
	// unfiltered_html.
	if v, ok := text("title"); ok {
		a.Title = kses.ForCaller(r.Caller, v, kses.Data)
	}
	if v, ok := text("caption"); ok {
		a.Caption = kses.ForCaller(r.Caller, v, kses.Post)
	}
	if v, ok := text("description"); ok {
		a.Description = kses.ForCaller(r.Caller, v, kses.Post)
	}
	if v, ok := text("alt_text"); ok {
		a.AltText = strings.TrimSpace(v)
	}
	if r.Has("post") {
		if p := r.Int("post"); p < 0 {
			return rest.NewError("rest_invalid_param", "Invalid parent type.", http.StatusBadRequest)
		} else {
			a.Post = p
		}
	}
	if r.Has("author") {
		a.Author = r.Int("author")
	}
	if r.Has("featured_media") {
		a.FeaturedMedia = r.Int("featured_media")
	}
	if r.Has("comment_status") {
		a.CommentStatus = r.String("comment_status")
	}
	if r.Has("ping_status") {
		a.PingStatus = r.String("ping_status")
	}
	if r.Has("template") {
		a.Template = r.String("template")
	}
	if r.Has("status") {
		if r.String("status") == "private" {
			a.Status = "private"
		} else {
			a.Status = "inherit"
		}
	}
	if r.Has("meta") {
		// no meta keys are registered for attachments: nothing is stored
		_ = r.Map("meta")
	}
	if d, ok, err := s.dateParam(r, "date", "date_gmt"); err != nil {
		return err
	} else if ok {
		a.Date = d
	}
	return nil
}

// dateParam reads date (site time unless it carries an offset) or date_gmt
// (UTC unless it carries an offset); the later one wins, as in WordPress.
func (s *Service) dateParam(r *rest.Request, local, gmt string) (time.Time, bool, error) {
	parse := func(name string, loc *time.Location) (time.Time, bool, error) {
		if !r.Has(name) {
			return time.Time{}, false, nil
		}
		v := r.String(name)
		for _, layout := range []string{time.RFC3339, wpDate} {
			var t time.Time
			var err error
			if layout == wpDate {
				t, err = time.ParseInLocation(layout, v, loc)
			} else {
				t, err = time.Parse(layout, v)
			}
			if err == nil {
				return t.UTC(), true, nil
			}
		}
		return time.Time{}, false, rest.NewError("rest_invalid_date", "Invalid date.", http.StatusBadRequest)
	}
	if t, ok, err := parse(gmt, time.UTC); err != nil || ok {
		return t, ok, err
	}
	return parse(local, s.loc)
}

func (s *Service) update(r *rest.Request) (*rest.Response, error) {
	var out *Attachment
	err := s.inTx(r.Context(), func(tx pgx.Tx) error {
		a, err := getAttachment(r.Context(), tx, nil, r.Int("id"))
		if errors.Is(err, errNotFound) {
			return errInvalidID()
		}
		if err != nil {
			return err
		}
		if err := s.applyFields(r, a); err != nil {
			return err
		}
		if r.Has("slug") {
			if err := lockNames(r.Context(), tx); err != nil {
				return err
			}
			slug, err := uniqueSlug(r.Context(), tx, sanitizeTitle(r.String("slug")), a.ID)
			if err != nil {
				return err
			}
			a.Slug = slug
		}
		a.Modified = s.now()
		if err := updateAttachment(r.Context(), tx, a); err != nil {
			return err
		}
		out = a
		return nil
	})
	if err != nil {
		return nil, s.writeError(r.Context(), "update attachment", err)
	}
	r.Set("context", "edit")
	return rest.OK(s.item(r, out)), nil
}

// writeError passes WordPress errors through and hides the others.
func (s *Service) writeError(ctx context.Context, what string, err error) error {
	var re *rest.Error
	if errors.As(err, &re) {
		return re
	}
	s.logger.ErrorContext(ctx, what, "error", err.Error())
	return rest.StoreError(err, errDB())
}

func (s *Service) canDeleteItem(r *rest.Request) error {
	a, err := s.target(r)
	if err != nil {
		return err
	}
	if !canDelete(caller(r), a) {
		return rest.Denied(r, "rest_cannot_delete", "Sorry, you are not allowed to delete this post.")
	}
	return nil
}

// delete removes the attachment and, once the row is gone, its files: media
// has no trash (501 without force, §6.4).
func (s *Service) delete(r *rest.Request) (*rest.Response, error) {
	if !r.Bool("force") {
		return nil, rest.NewError("rest_trash_not_supported", "The post does not support trashing. Set 'force=true' to delete.", http.StatusNotImplemented)
	}
	a, err := s.target(r)
	if err != nil {
		return nil, err
	}
	r.Set("context", "edit")
	previous := s.item(r, a)
	if err := s.inTx(r.Context(), func(tx pgx.Tx) error { return deleteAttachment(r.Context(), tx, a.ID) }); err != nil {
		return nil, s.writeError(r.Context(), "delete attachment", err)
	}
	s.afterCommit(r.Context(), func() { s.removeBlobs(context.WithoutCancel(r.Context()), a.keys()) })
	return rest.OK(rest.Object{{Key: "deleted", Value: true}, {Key: "previous", Value: previous}}), nil
}

// removeBlobs deletes files; a failure is logged (the row is already gone,
// so the file is unreachable: the log names it for cleanup).
func (s *Service) removeBlobs(ctx context.Context, keys []string) {
	for _, k := range keys {
		if err := s.blobs.Delete(ctx, k); err != nil {
			s.logger.ErrorContext(ctx, "delete file", "key", k, "error", err.Error())
		}
	}
}

// postProcess is action=create-image-subsizes: generate the sizes that
// apply to the image and are missing (§6.5).
func (s *Service) postProcess(r *rest.Request) (*rest.Response, error) {
	a, err := s.target(r)
	if err != nil {
		return nil, err
	}
	missing := a.missingSizes()
	if len(missing) > 0 {
		if a, err = s.fillSizes(r.Context(), a, missing); err != nil {
			return nil, err
		}
	}
	r.Set("context", "edit")
	return rest.OK(s.item(r, a)), nil
}

// fillSizes generates the named sizes of a from its stored original.
func (s *Service) fillSizes(ctx context.Context, a *Attachment, names []string) (*Attachment, error) {
	original, size, err := s.spoolBlob(ctx, a.File)
	if err != nil {
		return nil, s.writeError(ctx, "read original", err)
	}
	defer original.Close()
	var want []imageSize
	for _, n := range names {
		if sz, ok := sizeByName(n); ok {
			want = append(want, sz)
		}
	}
	orientation := 1
	if a.Details.ImageMeta != nil {
		orientation = a.Details.ImageMeta.orientation()
	}
	sizes, err := s.img.GenerateSizes(ctx, original, size, a.Mime, orientation, want)
	if err != nil {
		return nil, imageError(err)
	}
	var out *Attachment
	var written []string
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		written = written[:0]
		cur, err := getAttachment(ctx, tx, nil, a.ID)
		if err != nil {
			return err
		}
		if err := lockNames(ctx, tx); err != nil {
			return err
		}
		if cur.Details.Sizes == nil {
			cur.Details.Sizes = map[string]SizeInfo{}
		}
		base := stem(baseName(cur.File))
		for _, sz := range sizes {
			name := fmt.Sprintf("%s-%dx%d.%s", base, sz.Width, sz.Height, sz.Ext)
			key := cur.dir() + "/" + name
			var owner int64
			err := tx.QueryRow(ctx, `SELECT attachment_id FROM files WHERE key = $1`, key).Scan(&owner)
			if err == nil && owner != cur.ID {
				return fmt.Errorf("size file %s belongs to attachment %d", key, owner)
			}
			if err := s.putBlob(ctx, key, sz.Data, sz.Mime); err != nil {
				return err
			}
			written = append(written, key)
			cur.Details.Sizes[sz.Name] = SizeInfo{File: name, Width: sz.Width, Height: sz.Height, Filesize: int64(len(sz.Data)), Mime: sz.Mime}
		}
		cur.Modified = s.now()
		if err := updateAttachment(ctx, tx, cur); err != nil {
			return err
		}
		out = cur
		return nil
	})
	if err != nil {
		s.removeBlobs(context.WithoutCancel(ctx), written)
		return nil, s.writeError(ctx, "store sizes", err)
	}
	return out, nil
}
