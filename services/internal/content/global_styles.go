package content

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// Global styles: the user's customisations of the active theme's theme.json
// live in one wp_global_styles post per theme, created on first use; the
// theme's own styles and its style variations are read from its files.

const (

	// themeJSONVersion is the theme.json schema version user data is stored with.
	themeJSONVersion = 3
)

// gsNoBatch is allow_batch {"v1": false}, which the index shows for every
// global-styles route.
var gsNoBatch = &rest.Batch{V1: false}

// userGlobalStylesID returns the id of the theme's global styles post,
// creating it (once, under a lock) when the theme has none yet.
func (s *Service) userGlobalStylesID(ctx context.Context, stylesheet string) (int64, error) {
	find := func(q store.Querier) (int64, error) { return store.GlobalStylesID(ctx, q, stylesheet) }
	id, err := find(s.db(ctx))
	if err != nil || id != 0 {
		return id, wrapErr("find global styles", err)
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		if err := store.LockGlobalStyles(ctx, tx, stylesheet); err != nil {
			return err
		}
		if id, err = find(tx); err != nil || id != 0 {
			return err
		}
		row := &store.TmplRow{Type: store.GlobalStylesType, Status: "publish", Theme: stylesheet, Slug: "wp-global-styles-" + url.QueryEscape(stylesheet),
			Title: "Custom Styles", Content: userThemeJSON(nil, nil), ModifiedGMT: s.now()}
		if err := store.InsertTmplRow(ctx, tx, row); err != nil {
			return err
		}
		id = row.ID
		return nil
	})
	return id, wrapErr("create global styles", err)
}

func wrapErr(what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", what, err)
}

// userThemeJSON encodes user global styles as WordPress stores them.
func userThemeJSON(settings, styles map[string]any) string {
	m := map[string]any{"version": themeJSONVersion, "isGlobalStylesUserThemeJSON": true}
	if len(settings) > 0 {
		m["settings"] = settings
	}
	if len(styles) > 0 {
		m["styles"] = styles
	}
	b, _ := json.Marshal(m) // maps of decoded JSON always encode
	return string(b)
}

func (s *Service) globalStylesRoutes() []rest.Route {
	idArg := rest.Prop{Name: "id", Schema: &rest.Schema{Type: "string", Description: "The id of a template"}}
	ssArg := rest.Prop{Name: "stylesheet", Schema: &rest.Schema{Type: "string", Description: "The theme identifier"}}
	parentArg := rest.Prop{Name: "parent", Schema: &rest.Schema{Type: "integer", Description: "The ID for the parent of the revision."}}
	itemSch, revSch, themeSch := gsSchema(), gsRevisionSchema(), gsThemeSchema()
	return []rest.Route{
		{Namespace: Namespace, Path: `/global-styles/(?P<parent>[\d]+)/revisions`, Schema: revSch, AllowBatch: gsNoBatch, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{parentArg, {Name: "context", Schema: &rest.Schema{Default: "view"}},
				{Name: "page", Schema: &rest.Schema{Type: "integer", Default: 1, Minimum: rest.Ptr(1.0), Description: "Current page of the collection."}},
				{Name: "per_page", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(1.0), Maximum: rest.Ptr(100.0), Description: "Maximum number of items to be returned in result set."}},
				{Name: "offset", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(0.0), Description: "Offset the result set by a specific number of items."}}},
				Permission: s.gsRevisionsPermission, Handler: s.listGSRevisions}}},
		{Namespace: Namespace, Path: `/global-styles/(?P<parent>[\d]+)/revisions/(?P<id>[\d]+)`, Schema: revSch, AllowBatch: gsNoBatch, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{parentArg, {Name: "id", Schema: &rest.Schema{Type: "integer", Description: "Unique identifier for the global styles revision."}}, contextArg()},
				Permission: s.gsRevisionsPermission, Handler: s.getGSRevision}}},
		{Namespace: Namespace, Path: `/global-styles/themes/(?P<stylesheet>[\/\s%\w\.\(\)\[\]\@_\-]+)/variations`, AllowBatch: gsNoBatch, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{ssArg}, Permission: gsThemePermission, Handler: s.getThemeVariations}}},
		{Namespace: Namespace, Path: `/global-styles/themes/(?P<stylesheet>` + themePattern + `)`, Schema: themeSch, AllowBatch: gsNoBatch, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{ssArg}, Permission: gsThemePermission, Handler: s.getThemeGlobalStyles}}},
		{Namespace: Namespace, Path: `/global-styles/(?P<id>[\/\w-]+)`, Schema: itemSch, AllowBatch: gsNoBatch, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{idArg}, Permission: s.getGSPermission, Handler: s.getGlobalStyles},
			// No id argument, as in WordPress (the schema's id is read-only,
			// so get_endpoint_args_for_item_schema leaves it out): the site
			// editor sends the post's id as a number in the body.
			{Methods: rest.Editable, Args: gsWriteArgs(), Permission: s.updateGSPermission, Handler: s.updateGlobalStyles},
		}},
	}
}

func gsWriteArgs() rest.Props {
	return rest.Props{
		{Name: "styles", Schema: &rest.Schema{Type: "object", Description: "Global styles."}},
		{Name: "settings", Schema: &rest.Schema{Type: "object", Description: "Global settings."}},
		{Name: "title", Schema: &rest.Schema{Types: []string{"object", "string"}, Description: "Title of the global styles variation.",
			Properties: rest.Props{{Name: "raw", Schema: &rest.Schema{Type: "string"}}}}},
	}
}

func gsSchema() *rest.Schema {
	return &rest.Schema{SchemaURI: "http://json-schema.org/draft-04/schema#", Title: store.GlobalStylesType, Type: "object", Properties: rest.Props{
		{Name: "id", Schema: &rest.Schema{Type: "string", Context: ctxAll, Readonly: true, Description: "ID of global styles config."}},
		{Name: "styles", Schema: &rest.Schema{Type: "object", Context: ctxView, Description: "Global styles."}},
		{Name: "settings", Schema: &rest.Schema{Type: "object", Context: ctxView, Description: "Global settings."}},
		{Name: "title", Schema: &rest.Schema{Types: []string{"object", "string"}, Context: ctxAll, Description: "Title of the global styles variation.",
			Properties: rest.Props{{Name: "raw", Schema: &rest.Schema{Type: "string", Context: ctxView}},
				{Name: "rendered", Schema: &rest.Schema{Type: "string", Context: ctxView, Readonly: true}}}}},
	}}
}

func gsThemeSchema() *rest.Schema {
	return &rest.Schema{SchemaURI: "http://json-schema.org/draft-04/schema#", Title: store.GlobalStylesType, Type: "object", Properties: rest.Props{
		{Name: "styles", Schema: &rest.Schema{Type: "object", Context: ctxView, Description: "Global styles."}},
		{Name: "settings", Schema: &rest.Schema{Type: "object", Context: ctxView, Description: "Global settings."}},
	}}
}

func gsRevisionSchema() *rest.Schema {
	date := func(ctx []string) *rest.Schema {
		return &rest.Schema{Type: "string", Format: "date-time", Context: ctx}
	}
	return &rest.Schema{SchemaURI: "http://json-schema.org/draft-04/schema#", Title: store.GlobalStylesType + "-revision", Type: "object", Properties: rest.Props{
		{Name: "author", Schema: &rest.Schema{Type: "integer", Context: ctxAll}},
		{Name: "date", Schema: date(ctxAll)},
		{Name: "date_gmt", Schema: date(ctxView)},
		{Name: "id", Schema: &rest.Schema{Type: "integer", Context: ctxAll}},
		{Name: "modified", Schema: date(ctxView)},
		{Name: "modified_gmt", Schema: date(ctxView)},
		{Name: "parent", Schema: &rest.Schema{Type: "integer", Context: ctxAll}},
		{Name: "styles", Schema: &rest.Schema{Types: []string{"object"}, Context: ctxView}},
		{Name: "settings", Schema: &rest.Schema{Types: []string{"object"}, Context: ctxView}},
	}}
}

func errGSNotFound() *rest.Error {
	return rest.NewError("rest_global_styles_not_found", "No global styles config exist with that id.", http.StatusNotFound)
}

// loadGS returns the global styles post the URL names (memoised per request).
func (s *Service) loadGS(r *rest.Request) (*store.TmplRow, error) {
	v, err := r.Memo(gsMemoKey{}, func() (any, error) {
		id, err := strconv.ParseInt(r.String("id"), 10, 64)
		if err != nil || id <= 0 {
			return nil, errGSNotFound()
		}
		row, err := store.GetTmplRowByID(r.Context(), s.db(r.Context()), store.GlobalStylesType, id)
		if err != nil {
			return nil, err
		}
		if row == nil {
			return nil, errGSNotFound()
		}
		return row, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*store.TmplRow), nil
}

type gsMemoKey struct{}

func (s *Service) getGSPermission(r *rest.Request) error {
	if _, err := s.loadGS(r); err != nil {
		return err
	}
	who := caller(r)
	if r.String("context") == "edit" && !who.Can("edit_theme_options") {
		return rest.Denied(r, "rest_forbidden_context", "Sorry, you are not allowed to edit this global style.")
	}
	if !canReadActiveTheme(who) {
		return rest.Denied(r, "rest_cannot_view", "Sorry, you are not allowed to view this global style.")
	}
	return nil
}

func (s *Service) updateGSPermission(r *rest.Request) error {
	return themeEditorOf(r, func() error { _, err := s.loadGS(r); return err },
		"rest_cannot_edit", "Sorry, you are not allowed to edit this global style.")
}

// themeEditorOf runs load first (the item's 404 comes before any denial),
// then lets only users with edit_theme_options through.
func themeEditorOf(r *rest.Request, load func() error, code, message string) error {
	if err := load(); err != nil {
		return err
	}
	if !caller(r).Can("edit_theme_options") {
		return rest.Denied(r, code, message)
	}
	return nil
}

func gsThemePermission(r *rest.Request) error {
	if canReadActiveTheme(caller(r)) {
		return nil
	}
	return rest.Denied(r, "rest_cannot_read_global_styles", "Sorry, you are not allowed to access the global styles on this site.")
}

func (s *Service) getGlobalStyles(r *rest.Request) (*rest.Response, error) {
	row, err := s.loadGS(r)
	if err != nil {
		return nil, err
	}
	return rest.OK(s.gsItem(r.Context(), row)), nil
}

// gsItem is a global styles post as the controller shows it.
func (s *Service) gsItem(ctx context.Context, row *store.TmplRow) rest.Item {
	settings, styles, _ := store.DecodeUserThemeJSON(row.Content)
	self := s.restRoot + "/" + Namespace + "/global-styles/" + store.Itoa(row.ID)
	links := rest.Links{{Rel: "self", Href: self}, {Rel: "about", Href: s.restRoot + "/" + Namespace + "/types/" + store.GlobalStylesType}}
	if row.Revisions > 0 {
		links = append(links,
			rest.Link{Rel: "version-history", Href: self + "/revisions", Attrs: rest.Object{{Key: "count", Value: row.Revisions}}},
			rest.Link{Rel: "predecessor-version", Href: self + "/revisions/" + store.Itoa(row.LastRev), Attrs: rest.Object{{Key: "id", Value: row.LastRev}}})
	}
	// edit_css is unfiltered_html on a single site
	links = themeActionLinks(ctx, links, self, "action-edit-css")
	return rest.Item{Data: rest.Object{
		{Key: "id", Value: row.ID},
		{Key: "title", Value: rawRendered(row.Title)},
		{Key: "settings", Value: settings},
		{Key: "styles", Value: styles},
	}, Links: links}
}

// illegalCSS finds markup ("<tag" or "</tag") in custom CSS.
var illegalCSS = regexp.MustCompile(`</?\w+`)

func (s *Service) updateGlobalStyles(r *rest.Request) (*rest.Response, error) {
	row, err := s.loadGS(r)
	if err != nil {
		return nil, err
	}
	settings, styles, _ := store.DecodeUserThemeJSON(row.Content)
	if r.Supplied("styles") {
		styles = r.Map("styles")
		if css, ok := styles["css"].(string); ok && illegalCSS.MatchString(css) {
			return nil, rest.NewError("rest_custom_css_illegal_markup", "Markup is not allowed in CSS.", http.StatusBadRequest)
		}
	}
	if r.Supplied("settings") {
		settings = r.Map("settings")
	}
	if r.Supplied("title") {
		row.Title = rawOf(r.Param("title"))
	}
	row.Content = userThemeJSON(settings, styles)
	row.ModifiedGMT = s.now()
	ctx := r.Context()
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		if err := store.UpdateTmplRow(ctx, tx, row); err != nil {
			return err
		}
		// The revision is the saver's, as WordPress's (wp_insert_post
		// gives a revision the current user): the site editor's revisions
		// panel names who saved each one.
		rev := *row
		rev.Author = caller(r).UserID
		return store.SaveTmplRevision(ctx, tx, &rev)
	})
	if err != nil {
		return nil, err
	}
	if row, err = store.GetTmplRowByID(ctx, s.db(ctx), store.GlobalStylesType, row.ID); err != nil {
		return nil, err
	}
	r.Set("context", "edit")
	return rest.OK(s.gsItem(r.Context(), row)), nil
}

// rawOf reads a text field given as a string or as {"raw": ...}.
func rawOf(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case map[string]any:
		s, _ := x["raw"].(string)
		return s
	}
	return ""
}

func (s *Service) getThemeGlobalStyles(r *rest.Request) (*rest.Response, error) {
	th := s.activeTheme()
	ss := stylesheetParam(r)
	if ss != th.Stylesheet {
		return nil, rest.NewError("rest_theme_not_found", "Theme not found.", http.StatusNotFound)
	}
	return rest.OK(rest.Item{Data: rest.Object{{Key: "settings", Value: themeRESTSettings(th.Settings)}, {Key: "styles", Value: blocks.WithCoreStyles(th.Styles)}},
		Links: rest.Links{{Rel: "self", Href: s.restRoot + "/" + Namespace + "/global-styles/themes/" + ss}}}), nil
}

func (s *Service) getThemeVariations(r *rest.Request) (*rest.Response, error) {
	th := s.activeTheme()
	if stylesheetParam(r) != th.Stylesheet {
		return nil, rest.NewError("rest_theme_not_found", "Theme not found.", http.StatusNotFound)
	}
	out := make([]any, 0, len(th.Variations))
	for _, v := range th.Variations {
		out = append(out, themeRESTVariation(v.Data))
	}
	return rest.OK(out), nil
}

// gsParent is the global styles post of a revisions URL.
func (s *Service) gsParent(r *rest.Request) (*store.TmplRow, error) {
	v, err := r.Memo(gsParentKey{}, func() (any, error) {
		invalid := rest.NewError("rest_post_invalid_parent", "Invalid post parent ID.", http.StatusNotFound)
		if r.Int("parent") <= 0 {
			return nil, invalid
		}
		row, err := store.GetTmplRowByID(r.Context(), s.db(r.Context()), store.GlobalStylesType, r.Int("parent"))
		if err != nil {
			return nil, err
		}
		if row == nil {
			return nil, invalid
		}
		return row, nil
	})
	if err != nil {
		return nil, err
	}
	return v.(*store.TmplRow), nil
}

type gsParentKey struct{}

// gsRevisionsPermission: WordPress 6.9's global styles revisions use the
// revisions controller's check, edit_post on the parent, which
// wp_global_styles maps to edit_theme_options (administrators).
func (s *Service) gsRevisionsPermission(r *rest.Request) error {
	return themeEditorOf(r, func() error { _, err := s.gsParent(r); return err },
		"rest_cannot_read", "Sorry, you are not allowed to view revisions of this post.")
}

func errGSRevisionsNotFound() *rest.Error {
	return rest.NewError("rest_global_styles_not_found", "Cannot find user global styles revisions.", http.StatusNotFound)
}

func (s *Service) gsRevisionItem(rev *store.TmplRevision) (rest.Item, bool) {
	settings, styles, ok := store.DecodeUserThemeJSON(rev.Content)
	if !ok {
		return rest.Item{}, false
	}
	return rest.Item{Data: rest.Object{
		{Key: "author", Value: rev.Author},
		{Key: "date", Value: store.FormatLocal(rev.DateGMT, s.location())},
		{Key: "date_gmt", Value: store.FormatGMT(rev.DateGMT)},
		{Key: "id", Value: rev.ID},
		{Key: "modified", Value: store.FormatLocal(rev.ModifiedGMT, s.location())},
		{Key: "modified_gmt", Value: store.FormatGMT(rev.ModifiedGMT)},
		{Key: "parent", Value: rev.Parent},
		{Key: "settings", Value: settings},
		{Key: "styles", Value: styles},
	}}, true
}

func (s *Service) listGSRevisions(r *rest.Request) (*rest.Response, error) {
	parent, err := s.gsParent(r)
	if err != nil {
		return nil, err
	}
	if _, _, ok := store.DecodeUserThemeJSON(parent.Content); !ok {
		return nil, errGSRevisionsNotFound()
	}
	revs, err := store.ListTmplRevisions(r.Context(), s.db(r.Context()), parent.ID, false)
	if err != nil {
		return nil, err
	}
	total := len(revs)
	start, end, maxPages, err := paginate(r, total)
	if err != nil {
		return nil, err
	}
	items := []any{}
	for _, rev := range revs[start:end] {
		if it, ok := s.gsRevisionItem(rev); ok {
			items = append(items, it)
		}
	}
	resp := rest.OK(items)
	resp.Header = http.Header{"X-Wp-Total": {strconv.Itoa(total)}, "X-Wp-Totalpages": {strconv.Itoa(maxPages)}}
	return resp, nil
}

func (s *Service) getGSRevision(r *rest.Request) (*rest.Response, error) {
	parent, err := s.gsParent(r)
	if err != nil {
		return nil, err
	}
	rev, err := store.GetTmplRevision(r.Context(), s.db(r.Context()), r.Int("id"))
	if err != nil {
		return nil, err
	}
	if rev == nil || rev.Autosave {
		return nil, rest.NewError("rest_post_invalid_id", "Invalid revision ID.", http.StatusNotFound)
	}
	if rev.Parent != parent.ID {
		return nil, rest.NewError("rest_revision_parent_id_mismatch",
			fmt.Sprintf("The revision does not belong to the specified parent with id of \"%d\"", parent.ID), http.StatusNotFound)
	}
	it, ok := s.gsRevisionItem(rev)
	if !ok {
		return nil, errGSRevisionsNotFound()
	}
	return rest.OK(it), nil
}
