package content

import (
	"context"
	"net/http"
	"time"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/content/theme"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
)

// Templates and template parts are a view over the active theme's files
// merged with the site's stored customisations: a stored item of the same
// theme and slug overrides the file. Editing a theme template stores a
// customisation (source "custom", origin "theme"); deleting that
// customisation makes the file visible again.

// tmplKind is one of the two controllers: templates or template parts.
type tmplKind struct {
	PostType string // wp_template, wp_template_part
	Base     string // templates, template-parts
	Parts    bool
}

var (
	kindTemplate = &tmplKind{PostType: "wp_template", Base: "templates"}
	kindPart     = &tmplKind{PostType: "wp_template_part", Base: "template-parts", Parts: true}
)

// tmpl is one template as clients see it.
type tmpl struct {
	Kind         *tmplKind
	Theme, Slug  string
	Source       string // theme, custom
	Origin       string // "" is null
	Content      string
	Title        string
	Description  string
	Status       string
	CMSID        int64
	HasThemeFile bool
	Author       int64
	Modified     *time.Time // GMT; nil for files
	Area         string
	IsCustom     bool
	PostTypes    []string
	Revisions    int64
	LastRev      int64
}

func (k *tmplKind) files(th *theme.Theme) []theme.File {
	if k.Parts {
		return th.Parts
	}
	return th.Templates
}

func (k *tmplKind) file(th *theme.Theme, slug string) (theme.File, bool) {
	if k.Parts {
		return th.Part(slug)
	}
	return th.Template(slug)
}

// fromFile is a theme file as a template.
func (k *tmplKind) fromFile(th *theme.Theme, f theme.File) *tmpl {
	t := &tmpl{Kind: k, Theme: th.Stylesheet, Slug: f.Slug, Source: "theme", Content: f.Content, Title: f.Title,
		Status: "publish", HasThemeFile: true, Area: f.Area, PostTypes: f.PostTypes}
	if !k.Parts {
		t.IsCustom = theme.IsCustomSlug(f.Slug)
	}
	return t
}

// fromRow is a stored item as a template; th is the active theme.
func (k *tmplKind) fromRow(th *theme.Theme, row *store.TmplRow) *tmpl {
	mod := row.ModifiedGMT
	t := &tmpl{Kind: k, Theme: row.Theme, Slug: row.Slug, Source: "custom", Origin: row.Origin, Content: row.Content,
		Title: row.Title, Description: row.Description, Status: row.Status, CMSID: row.ID, Author: row.Author,
		Modified: &mod, Area: row.Area, Revisions: row.Revisions, LastRev: row.LastRev}
	if row.Theme == th.Stylesheet {
		if f, ok := k.file(th, row.Slug); ok {
			t.HasThemeFile = true
			t.PostTypes = f.PostTypes
		}
	}
	if k.Parts {
		t.Area = theme.NormalizeArea(t.Area)
	} else {
		t.IsCustom = theme.IsCustomSlug(row.Slug)
	}
	return t
}

// originalSource says where a template came from: the theme, the site
// (stored without an author) or a user.
func (t *tmpl) originalSource() string {
	if t.Origin == "theme" || (t.Origin == "" && t.Source == "theme") {
		return "theme"
	}
	if t.Source == "custom" && t.Origin == "" && t.Author == 0 {
		return "site"
	}
	return "user"
}

func (s *Service) authorText(ctx context.Context, t *tmpl, th *theme.Theme) string {
	switch t.originalSource() {
	case "theme":
		if t.Theme == th.Stylesheet {
			return th.Name
		}
		return t.Theme
	case "site":
		return s.web.Site().Title // the site title setting, as pages show it
	}
	if t.Author > 0 {
		if u, _, err := s.users.User(ctx, t.Author); err == nil && u.Name != "" {
			return u.Name
		}
	}
	return "Unknown author"
}

func (s *Service) tmplURL(k *tmplKind, id string) string {
	return s.restRoot + "/" + Namespace + "/" + k.Base + "/" + id
}

// tmplItem renders a template with every field of every context.
func (s *Service) tmplItem(ctx context.Context, t *tmpl) rest.Item {
	th := s.activeTheme()
	id := theme.ID(t.Theme, t.Slug)
	// A theme file has no modified date: WordPress's template object says
	// false there (not null), as 6.9.7 answers.
	var origin, modified any = nil, false
	if t.Origin != "" {
		origin = t.Origin
	}
	if t.Modified != nil {
		modified = store.FormatLocal(*t.Modified, s.location())
	}
	blockVersion := 0
	if store.HasBlocks(t.Content) {
		blockVersion = 1
	}
	data := rest.Object{
		{Key: "id", Value: id},
		{Key: "theme", Value: t.Theme},
		{Key: "content", Value: rest.Object{{Key: "raw", Value: t.Content}, {Key: "block_version", Value: blockVersion}}},
		{Key: "slug", Value: t.Slug},
		{Key: "source", Value: t.Source},
		{Key: "origin", Value: origin},
		{Key: "type", Value: t.Kind.PostType},
		{Key: "description", Value: t.Description},
		{Key: "title", Value: rawRendered(t.Title)},
		{Key: "status", Value: t.Status},
		{Key: "cms_id", Value: t.CMSID},
		{Key: "has_theme_file", Value: t.HasThemeFile},
	}
	if !t.Kind.Parts {
		data = append(data, rest.Member{Key: "is_custom", Value: t.IsCustom})
	}
	data = append(data, rest.Member{Key: "author", Value: t.Author})
	if t.Kind.Parts {
		data = append(data, rest.Member{Key: "area", Value: t.Area})
	}
	data = append(data,
		rest.Member{Key: "modified", Value: modified},
		rest.Member{Key: "author_text", Value: s.authorText(ctx, t, th)},
		rest.Member{Key: "original_source", Value: t.originalSource()})
	self := s.tmplURL(t.Kind, id)
	links := rest.Links{
		{Rel: "self", Href: self},
		{Rel: "collection", Href: s.restRoot + "/" + Namespace + "/" + t.Kind.Base},
		{Rel: "about", Href: s.restRoot + "/" + Namespace + "/types/" + t.Kind.PostType},
	}
	links = themeActionLinks(ctx, links, self, "action-unfiltered-html")
	if t.CMSID > 0 {
		links = append(links, rest.Link{Rel: "version-history", Href: self + "/revisions", Attrs: rest.Object{{Key: "count", Value: t.Revisions}}})
		if t.Revisions > 0 {
			links = append(links, rest.Link{Rel: "predecessor-version", Href: self + "/revisions/" + store.Itoa(t.LastRev), Attrs: rest.Object{{Key: "id", Value: t.LastRev}}})
		}
	}
	return rest.Item{Data: data, Links: links}
}

// ---- schema and routes

func tmplSchema(k *tmplKind) *rest.Schema {
	str := func(ctx []string, ro bool) *rest.Schema {
		return &rest.Schema{Type: "string", Context: ctx, Readonly: ro}
	}
	props := rest.Props{
		{Name: "id", Schema: &rest.Schema{Type: "string", Context: ctxAll, Readonly: true, Description: "ID of template."}},
		{Name: "slug", Schema: &rest.Schema{Type: "string", Context: ctxAll, Required: true, MinLength: iptr(1), Pattern: `[a-zA-Z0-9_\%-]+`, Description: "Unique slug identifying the template."}},
		{Name: "theme", Schema: &rest.Schema{Type: "string", Context: ctxAll, Description: "Theme identifier for the template."}},
		{Name: "type", Schema: &rest.Schema{Type: "string", Context: ctxAll, Description: "Type of template."}},
		{Name: "source", Schema: str(ctxAll, true)},
		{Name: "origin", Schema: str(ctxAll, true)},
		{Name: "content", Schema: tmplText("Content of template.", ctxView,
			rest.Prop{Name: "block_version", Schema: &rest.Schema{Type: "integer", Context: ctxEdit, Readonly: true}})},
		{Name: "title", Schema: tmplText("Title of template.", ctxAll,
			rest.Prop{Name: "rendered", Schema: &rest.Schema{Type: "string", Context: ctxAll, Readonly: true}})},
		{Name: "description", Schema: &rest.Schema{Type: "string", Default: "", Context: ctxAll, Description: "Description of template."}},
		{Name: "status", Schema: &rest.Schema{Type: "string", Enum: strEnum("publish", "future", "draft", "pending", "private"), Default: "publish", Context: ctxAll, Description: "Status of template."}},
		{Name: "cms_id", Schema: &rest.Schema{Type: "integer", Context: ctxAll, Readonly: true, Description: "Post ID."}},
		{Name: "has_theme_file", Schema: &rest.Schema{Type: "boolean", Context: ctxAll, Readonly: true}},
		{Name: "author", Schema: &rest.Schema{Type: "integer", Context: ctxAll, Description: "The ID for the author of the template."}},
		{Name: "modified", Schema: &rest.Schema{Description: "The date the template was last modified, in the site's timezone.", Type: "string", Format: "date-time", Context: ctxView, Readonly: true}},
		{Name: "author_text", Schema: str(ctxAll, true)},
		{Name: "original_source", Schema: &rest.Schema{Type: "string", Enum: strEnum("theme", "plugin", "site", "user"), Context: ctxAll, Readonly: true}},
	}
	if k.Parts {
		props = append(props, rest.Prop{Name: "area", Schema: &rest.Schema{Type: "string", Context: ctxAll, Description: "Where the template part is intended for use (header, footer, etc.)"}})
	} else {
		props = append(props, rest.Prop{Name: "is_custom", Schema: &rest.Schema{Type: "boolean", Context: ctxAll, Readonly: true}})
	}
	return &rest.Schema{SchemaURI: "http://json-schema.org/draft-04/schema#", Title: k.PostType, Type: "object", Properties: props}
}

func iptr(n int) *int { return &n }

// tmplWriteArgs are the writable fields; create requires slug.
func tmplWriteArgs(k *tmplKind, create bool) rest.Props {
	var out rest.Props
	for _, p := range tmplSchema(k).Properties {
		if p.Schema.Readonly || p.Name == "id" {
			continue
		}
		sch := *p.Schema
		sch.Context = nil
		sch.Required = create && p.Name == "slug"
		if !create {
			sch.Default = nil
		}
		if p.Name == "content" || p.Name == "title" {
			sch.Properties = rest.Props{{Name: "raw", Schema: &rest.Schema{Type: "string"}}}
		}
		out = append(out, rest.Prop{Name: p.Name, Schema: &sch})
	}
	return out
}

// tmplIDPattern is a theme part (which may hold one slash) and a slug.
const tmplIDPattern = `([^\/:<>\*\?"\|]+(?:\/[^\/:<>\*\?"\|]+)?)[\/\w%-]+`

func (s *Service) templateRoutes() []rest.Route {
	var routes []rest.Route
	for _, k := range []*tmplKind{kindTemplate, kindPart} {
		base := "/" + k.Base
		sch := tmplSchema(k)
		idArg := rest.Prop{Name: "id", Schema: &rest.Schema{Type: "string", Description: "The id of a template"}}
		parentArg := rest.Prop{Name: "parent", Schema: &rest.Schema{Type: "string", Description: "The id of a template"}}
		listArgs := rest.Props{contextArg(),
			{Name: "cms_id", Schema: &rest.Schema{Type: "integer", Description: "Limit to the specified post id."}},
			{Name: "area", Schema: &rest.Schema{Type: "string", Description: "Limit to the specified template part area."}},
			{Name: "post_type", Schema: &rest.Schema{Type: "string", Description: "Post type to get the templates for."}}}
		routes = append(routes,
			rest.Route{Namespace: Namespace, Path: base, Schema: sch, Endpoints: []rest.Endpoint{
				{Methods: rest.Readable, Args: listArgs, Permission: readTemplatesPermission, Handler: s.listTemplates(k)},
				{Methods: rest.Creatable, Args: tmplWriteArgs(k, true), Permission: writeTemplatesPermission, Handler: s.createTemplate(k)},
			}},
			rest.Route{Namespace: Namespace, Path: base + "/lookup", Endpoints: []rest.Endpoint{
				{Methods: rest.Readable, Args: rest.Props{
					{Name: "slug", Schema: &rest.Schema{Type: "string", Required: true, Description: "The slug of the template to get the fallback for"}},
					{Name: "is_custom", Schema: &rest.Schema{Type: "boolean", Description: "Indicates if a template is custom or part of the template hierarchy"}},
					{Name: "template_prefix", Schema: &rest.Schema{Type: "string", Description: "The template prefix for the created template. This is used to extract the main template type, e.g. in `taxonomy-books` extracts the `taxonomy`"}},
				}, Permission: readTemplatesPermission, Handler: s.lookupTemplate(k)},
			}},
			rest.Route{Namespace: Namespace, Path: base + `/(?P<parent>` + tmplIDPattern + `)/revisions`, Schema: tmplRevisionSchema(k, false), Endpoints: []rest.Endpoint{
				{Methods: rest.Readable, Args: append(rest.Props{parentArg}, revisionsArgs()[1:]...), Permission: s.tmplRevisionsPermission(k, "parent"), Handler: s.listTmplRevisions(k)},
			}},
			rest.Route{Namespace: Namespace, Path: base + `/(?P<parent>` + tmplIDPattern + `)/revisions/(?P<id>[\d]+)`, Schema: tmplRevisionSchema(k, false), Endpoints: []rest.Endpoint{
				{Methods: rest.Readable, Args: rest.Props{parentArg, {Name: "id", Schema: &rest.Schema{Type: "integer"}}, contextArg()}, Permission: s.tmplRevisionsPermission(k, "parent"), Handler: s.getTmplRevision(k)},
				{Methods: rest.Deletable, Args: rest.Props{parentArg, {Name: "id", Schema: &rest.Schema{Type: "integer"}}, {Name: "force", Schema: &rest.Schema{Type: "boolean", Default: false}}},
					Permission: s.tmplRevisionsDeletePermission(k), Handler: s.deleteTmplRevision(k)},
			}},
			rest.Route{Namespace: Namespace, Path: base + `/(?P<id>` + tmplIDPattern + `)/autosaves`, Schema: tmplRevisionSchema(k, true), Endpoints: []rest.Endpoint{
				{Methods: rest.Readable, Args: rest.Props{idArg, contextArg()}, Permission: s.tmplRevisionsPermission(k, "id"), Handler: s.listTmplAutosaves(k)},
				{Methods: rest.Creatable, Args: append(rest.Props{idArg}, tmplWriteArgs(k, false)...), Permission: writeTemplatesPermission, Handler: s.createTmplAutosave(k)},
			}},
			rest.Route{Namespace: Namespace, Path: base + `/(?P<parent>` + tmplIDPattern + `)/autosaves/(?P<id>[\d]+)`, Schema: tmplRevisionSchema(k, true), Endpoints: []rest.Endpoint{
				{Methods: rest.Readable, Args: rest.Props{parentArg, {Name: "id", Schema: &rest.Schema{Type: "integer"}}, contextArg()}, Permission: s.tmplRevisionsPermission(k, "parent"), Handler: s.getTmplAutosave(k)},
			}},
			rest.Route{Namespace: Namespace, Path: base + `/(?P<id>` + tmplIDPattern + `)`, Schema: sch, Endpoints: []rest.Endpoint{
				{Methods: rest.Readable, Args: rest.Props{idArg, contextArg()}, Permission: readTemplatesPermission, Handler: s.getTemplate(k)},
				{Methods: rest.Editable, Args: append(rest.Props{idArg}, tmplWriteArgs(k, false)...), Permission: writeTemplatesPermission, Handler: s.updateTemplate(k)},
				{Methods: rest.Deletable, Args: rest.Props{idArg, {Name: "force", Schema: &rest.Schema{Type: "boolean", Default: false, Description: "Whether to bypass Trash and force deletion."}}},
					Permission: writeTemplatesPermission, Handler: s.deleteTemplate(k)},
			}},
		)
	}
	return routes
}

// ---- permissions

func canReadTemplates(who identity.Identity) bool {
	return who.Can("edit_posts") || who.Can("edit_pages") || who.Can("edit_theme_options")
}

func errTemplatesDenied(r *rest.Request) *rest.Error {
	return rest.Denied(r, "rest_cannot_manage_templates", "Sorry, you are not allowed to access the templates on this site.")
}

func readTemplatesPermission(r *rest.Request) error {
	if canReadTemplates(caller(r)) {
		return nil
	}
	return errTemplatesDenied(r)
}

func writeTemplatesPermission(r *rest.Request) error {
	if caller(r).Can("edit_theme_options") {
		return nil
	}
	return errTemplatesDenied(r)
}

// ---- reading

func errTemplateNotFound() *rest.Error {
	return rest.NewError("rest_template_not_found", "No templates exist with that id.", http.StatusNotFound)
}

// findTemplate resolves an id: the stored item first (trash too when
// withTrash), then the active theme's file.
func (s *Service) findTemplate(r *rest.Request, q store.Querier, k *tmplKind, rawID string, withTrash bool) (*tmpl, *store.TmplRow, error) {
	ss, slug, ok := theme.ParseID(theme.SanitizeID(rawID))
	if !ok {
		return nil, nil, nil
	}
	th := s.activeTheme()
	row, err := store.GetTmplRow(r.Context(), q, k.PostType, ss, slug, withTrash)
	if err != nil {
		return nil, nil, err
	}
	stored := func(string) (*tmpl, bool) {
		if row == nil {
			return nil, false
		}
		return k.fromRow(th, row), true
	}
	file := func(slug string) (*tmpl, bool) { return k.themeFile(th, ss, slug) }
	if t, ok := theme.Resolve(slug, stored, file); ok {
		return t, row, nil
	}
	return nil, nil, nil
}

// themeFile is the theme's file of slug as a template, when stylesheet is
// the active theme's th.
func (k *tmplKind) themeFile(th *theme.Theme, stylesheet, slug string) (*tmpl, bool) {
	if stylesheet != th.Stylesheet {
		return nil, false
	}
	f, ok := k.file(th, slug)
	if !ok {
		return nil, false
	}
	return k.fromFile(th, f), true
}

// allTemplates is the merged list for the active theme, files in name
// order followed by stored additions.
func (s *Service) allTemplates(r *rest.Request, k *tmplKind) ([]*tmpl, error) {
	th := s.activeTheme()
	rows, err := store.ListTmplRows(r.Context(), s.db(r.Context()), k.PostType, th.Stylesheet)
	if err != nil {
		return nil, err
	}
	stored := map[string]*store.TmplRow{}
	for _, row := range rows {
		stored[row.Slug] = row // the newest of a slug wins
	}
	var out []*tmpl
	fromRow := func(slug string) (*tmpl, bool) {
		row := stored[slug]
		if row == nil {
			return nil, false
		}
		delete(stored, slug) // listed here, not among the additions
		return k.fromRow(th, row), true
	}
	for _, f := range k.files(th) {
		t, _ := theme.Resolve(f.Slug, fromRow, func(string) (*tmpl, bool) { return k.fromFile(th, f), true })
		out = append(out, t)
	}
	for _, row := range rows {
		if stored[row.Slug] == row {
			out = append(out, k.fromRow(th, row))
		}
	}
	return out, nil
}

func (s *Service) listTemplates(k *tmplKind) rest.HandlerFunc {
	return func(r *rest.Request) (*rest.Response, error) {
		all, err := s.allTemplates(r, k)
		if err != nil {
			return nil, err
		}
		items := []any{}
		for _, t := range all {
			if r.Has("cms_id") && t.CMSID != r.Int("cms_id") {
				continue
			}
			if r.Has("area") && t.Area != r.String("area") {
				continue
			}
			if pt := r.String("post_type"); pt != "" && len(t.PostTypes) > 0 && !contains(t.PostTypes, pt) {
				continue
			}
			items = append(items, s.tmplItem(r.Context(), t))
		}
		return rest.OK(items), nil
	}
}

// themeFile returns the active theme's file version of an id, bypassing a
// stored customisation (nil when the theme has no such file).
func (s *Service) themeFile(k *tmplKind, rawID string) *tmpl {
	ss, slug, ok := theme.ParseID(theme.SanitizeID(rawID))
	if !ok {
		return nil
	}
	t, _ := k.themeFile(s.activeTheme(), ss, slug)
	return t
}

// getTemplate answers a template; ?source=theme answers the theme's file
// even when the site has customised it.
func (s *Service) getTemplate(k *tmplKind) rest.HandlerFunc {
	return func(r *rest.Request) (*rest.Response, error) {
		var t *tmpl
		var err error
		if r.String("source") == "theme" {
			t = s.themeFile(k, r.String("id"))
		} else if t, _, err = s.findTemplate(r, s.db(r.Context()), k, r.String("id"), false); err != nil {
			return nil, err
		}
		if t == nil {
			return nil, errTemplateNotFound()
		}
		return rest.OK(s.tmplItem(r.Context(), t)), nil
	}
}

// lookupTemplate walks the template hierarchy of slug and answers the first
// template that has content; {} when none does.
func (s *Service) lookupTemplate(k *tmplKind) rest.HandlerFunc {
	return func(r *rest.Request) (*rest.Response, error) {
		all, err := s.allTemplates(r, k)
		if err != nil {
			return nil, err
		}
		bySlug := map[string]*tmpl{}
		for _, t := range all {
			bySlug[t.Slug] = t
		}
		for _, slug := range theme.Hierarchy(r.String("slug"), r.Bool("is_custom"), r.String("template_prefix")) {
			if t := bySlug[slug]; t != nil && t.Content != "" {
				return rest.OK(s.tmplItem(r.Context(), t)), nil
			}
		}
		return rest.OK(rest.Object{}), nil
	}
}

// themeActionLinks adds to links the actions on a theme object at self the
// caller may take (what the site editor shows): publishing with
// edit_theme_options, and the unfiltered-HTML action (named per route)
// with unfiltered_html too.
func themeActionLinks(ctx context.Context, links rest.Links, self, unfiltered string) rest.Links {
	if who := identity.FromContext(ctx); who.Can("edit_theme_options") {
		links = append(links, rest.Link{Rel: rest.APIRelPrefix + "action-publish", Href: self})
		if who.Can("unfiltered_html") {
			links = append(links, rest.Link{Rel: rest.APIRelPrefix + unfiltered, Href: self})
		}
	}
	return links
}

// tmplText is the schema of a template's content or title: an object (or
// a plain string on write) of raw (shown in rawCtx) and one more member.
func tmplText(desc string, rawCtx []string, more rest.Prop) *rest.Schema {
	return &rest.Schema{Types: []string{"object", "string"}, Default: "", Context: ctxAll, Description: desc,
		Properties: rest.Props{{Name: "raw", Schema: &rest.Schema{Type: "string", Context: rawCtx}}, more}}
}
