package website

import (
	"fmt"

	"siteplane.dev/services/internal/content/store"
)

// A preview of unsaved changes (docs/website.md#previews): the editor
// autosaves, then opens the autosave's preview_link,
// {permalink}?preview_id={post}&preview_nonce=…&preview=true. As
// WordPress's _set_preview does, the page then shows the post with the
// title, content and excerpt of the caller's own latest autosave of it,
// and only to a caller who may edit the post; anyone else gets the page
// they would get without the query (the published version, or a 404 for a
// draft). Such a page is never kept: it is marked private (a signed-in
// caller's page always is, so neither the gateway's edge cache nor a
// browser shares it) and its content is rendered past the snapshot
// (siteReq.preview), whose entries are keyed by post id and shared.

// withPreview returns p as the caller previews it: a copy carrying their
// latest autosave's text when the request asks for a preview of p and
// they may edit it, else p itself.
func (s *Handler) withPreview(req *siteReq, pt *store.PostType, p *store.Post) (*store.Post, error) {
	if req.query.Get("preview") != "true" || req.query.Get("preview_id") == "" || !req.caller.LoggedIn() {
		return p, nil
	}
	if queryID(req.query.Get("preview_id")) != p.ID || !store.CanEdit(req.caller, pt, p) {
		return p, nil
	}
	ctx := req.r.Context()
	a, err := store.LatestRevision(ctx, s.db(ctx), p.ID, true, req.caller.ID())
	if err != nil {
		return nil, fmt.Errorf("preview of post %d: %w", p.ID, err)
	}
	if a == nil {
		return p, nil
	}
	cp := *p
	cp.Title, cp.Content, cp.Excerpt = a.Title, a.Content, a.Excerpt
	req.preview = cp.ID
	return &cp, nil
}

// previewSingular renders a post or page, previewed when asked.
func (s *Handler) previewSingular(req *siteReq, pt *store.PostType, p *store.Post) error {
	p, err := s.withPreview(req, pt, p)
	if err != nil {
		return err
	}
	return s.renderSingular(req, pt, p)
}
