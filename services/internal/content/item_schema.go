package content

import (
	"siteplane.dev/services/internal/content/store"
	"slices"

	"siteplane.dev/services/internal/platform/rest"
)

// Item schemas (get_item_schema) of the post types, revisions and terms:
// served by OPTIONS and in the route descriptions. The handlers render the
// same fields per context (response.go).

func rendered(raw []string, renderedCtx []string, extra ...rest.Prop) *rest.Schema {
	props := rest.Props{}
	if raw != nil {
		props = append(props, rest.Prop{Name: "raw", Schema: &rest.Schema{Type: "string", Context: raw}})
	}
	if renderedCtx != nil {
		props = append(props, rest.Prop{Name: "rendered", Schema: &rest.Schema{Type: "string", Context: renderedCtx, Readonly: true}})
	}
	props = append(props, extra...)
	ctx := union(raw, renderedCtx)
	for _, e := range extra {
		ctx = union(ctx, e.Schema.Context)
	}
	return &rest.Schema{Type: "object", Context: ctx, Properties: props}
}

func union(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// postSchema is the item schema of a post type.
func postSchema(pt *store.PostType) *rest.Schema {
	dateS := func(ctx []string, ro bool) *rest.Schema {
		return &rest.Schema{Types: []string{"string", "null"}, Format: "date-time", Context: ctx, Readonly: ro}
	}
	props := rest.Props{
		{Name: "date", Schema: dateS(ctxAll, false)},
		{Name: "date_gmt", Schema: dateS(ctxView, false)},
		{Name: "guid", Schema: rendered(ctxEdit, ctxView)},
		{Name: "id", Schema: &rest.Schema{Type: "integer", Context: ctxAll, Readonly: true}},
		{Name: "link", Schema: &rest.Schema{Type: "string", Format: "uri", Context: ctxAll, Readonly: true}},
		{Name: "modified", Schema: dateS(ctxView, true)},
		{Name: "modified_gmt", Schema: dateS(ctxView, true)},
		{Name: "slug", Schema: &rest.Schema{Type: "string", Context: ctxAll}},
	}
	statusCtx := ctxView
	if pt.EmbedContent {
		statusCtx = ctxAll
	}
	props = append(props,
		rest.Prop{Name: "status", Schema: &rest.Schema{Type: "string", Enum: strEnum(store.WriteStatuses...), Context: statusCtx}},
		rest.Prop{Name: "type", Schema: &rest.Schema{Type: "string", Context: ctxAll, Readonly: true}},
		rest.Prop{Name: "password", Schema: &rest.Schema{Type: "string", Context: ctxEdit}})
	if pt.Public {
		props = append(props, rest.Prop{Name: "permalink_template", Schema: &rest.Schema{Type: "string", Context: ctxEdit, Readonly: true}},
			rest.Prop{Name: "generated_slug", Schema: &rest.Schema{Type: "string", Context: ctxEdit, Readonly: true}},
			rest.Prop{Name: "class_list", Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "string"}, Context: ctxView, Readonly: true}})
	}
	if pt.Hierarchical {
		props = append(props, rest.Prop{Name: "parent", Schema: &rest.Schema{Type: "integer", Context: ctxView}})
	}
	switch {
	case pt.EmbedContent:
		// navigation adds embed to status, content and the raw parts (as
		// WordPress's navigation fallback widens the posts schema)
		props = append(props, rest.Prop{Name: "title", Schema: rendered(ctxEditEmbed, ctxAll)},
			rest.Prop{Name: "content", Schema: rendered(ctxEditEmbed, ctxAll, contentFlags(ctxEditEmbed)...)})
	case pt.RenderedText:
		// content is view+edit although its protected flag lists embed too
		content := rendered(ctxEdit, ctxView, contentFlags(ctxEdit)...)
		content.Context = ctxView
		props = append(props, rest.Prop{Name: "title", Schema: rendered(ctxEdit, ctxAll)}, rest.Prop{Name: "content", Schema: content})
	default: // blocks: raw only; title stays in embed (as the empty [])
		title := rendered(ctxView, nil)
		title.Context = ctxAll
		content := rendered(ctxView, nil, contentFlags(ctxEdit)...)
		content.Context = ctxView
		props = append(props, rest.Prop{Name: "title", Schema: title}, rest.Prop{Name: "content", Schema: content})
	}
	if pt.Author {
		props = append(props, rest.Prop{Name: "author", Schema: &rest.Schema{Type: "integer", Context: ctxAll}})
	}
	if pt.Excerpt {
		props = append(props, rest.Prop{Name: "excerpt", Schema: rendered(ctxEdit, ctxAll, rest.Prop{Name: "protected", Schema: &rest.Schema{Type: "boolean", Context: ctxAll, Readonly: true}})})
	}
	if pt.Thumbnail {
		props = append(props, rest.Prop{Name: "featured_media", Schema: &rest.Schema{Type: "integer", Context: ctxAll}})
	}
	if pt.Comments {
		props = append(props, rest.Prop{Name: "comment_status", Schema: &rest.Schema{Type: "string", Enum: strEnum("open", "closed"), Context: ctxView}},
			rest.Prop{Name: "ping_status", Schema: &rest.Schema{Type: "string", Enum: strEnum("open", "closed"), Context: ctxView}})
	}
	if pt.PageAttributes {
		props = append(props, rest.Prop{Name: "menu_order", Schema: &rest.Schema{Type: "integer", Context: ctxView}})
	}
	if pt.Footnotes || pt.SyncStatus {
		meta := rest.Props{{Name: "footnotes", Schema: &rest.Schema{Type: "string", Default: "", Context: ctxView}}}
		if pt.SyncStatus {
			meta = append(rest.Props{{Name: "cms_pattern_sync_status", Schema: &rest.Schema{Type: "string", Enum: strEnum("partial", "unsynced"), Default: "", Context: ctxView}}}, meta...)
		}
		props = append(props, rest.Prop{Name: "meta", Schema: &rest.Schema{Description: "Meta fields.", Type: "object", Context: ctxView, Properties: meta}})
	}
	if pt.SyncStatus {
		// in every context: the blocks controller adds it after filtering
		// by context (prepare renders "" in embed)
		props = append(props, rest.Prop{Name: "cms_pattern_sync_status", Schema: &rest.Schema{Type: "string", Enum: strEnum("partial", "unsynced"), Context: ctxAll, Readonly: true}})
	}
	if pt.Sticky {
		props = append(props, rest.Prop{Name: "sticky", Schema: &rest.Schema{Type: "boolean", Context: ctxView}})
	}
	props = append(props, rest.Prop{Name: "template", Schema: &rest.Schema{Type: "string", Context: ctxView}})
	if pt.Formats {
		props = append(props, rest.Prop{Name: "format", Schema: &rest.Schema{Type: "string", Enum: strEnum(store.Formats...), Context: ctxView}})
	}
	for _, tax := range pt.Taxonomies {
		props = append(props, rest.Prop{Name: tax.Base, Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "integer"}, Context: ctxView}})
	}
	return &rest.Schema{Title: pt.Name, Type: "object", Properties: props}
}

// revisionSchema is the revisions (and autosaves) item schema.
func revisionSchema(pt *store.PostType, autosave bool) *rest.Schema {
	title := "revision"
	if autosave {
		title = pt.Name + "-revision"
	}
	props := rest.Props{
		{Name: "author", Schema: &rest.Schema{Type: "integer", Context: ctxAll}},
		{Name: "date", Schema: &rest.Schema{Type: "string", Format: "date-time", Context: ctxAll}},
		{Name: "date_gmt", Schema: &rest.Schema{Type: "string", Format: "date-time", Context: ctxView}},
		{Name: "guid", Schema: rendered(ctxEdit, ctxView)},
		{Name: "id", Schema: &rest.Schema{Type: "integer", Context: ctxAll}},
		{Name: "modified", Schema: &rest.Schema{Type: "string", Format: "date-time", Context: ctxView}},
		{Name: "modified_gmt", Schema: &rest.Schema{Type: "string", Format: "date-time", Context: ctxView}},
		{Name: "parent", Schema: &rest.Schema{Type: "integer", Context: ctxAll}},
		{Name: "slug", Schema: &rest.Schema{Type: "string", Context: ctxAll}},
		{Name: "title", Schema: rendered(ctxEdit, ctxAll)},
	}
	if pt != store.MenuItemType {
		props = append(props, rest.Prop{Name: "content", Schema: rendered(ctxEdit, ctxView)})
	}
	if pt.Excerpt {
		props = append(props, rest.Prop{Name: "excerpt", Schema: rendered(ctxEdit, ctxAll)})
	}
	// Every revision has meta (revisionMeta), as in WordPress 6.9.
	var meta rest.Props
	if pt.SyncStatus {
		meta = append(meta, rest.Prop{Name: "wp_pattern_sync_status", Schema: &rest.Schema{Type: "string", Context: ctxView, Enum: []any{"partial", "unsynced"}}})
	}
	if pt.Footnotes {
		meta = append(meta, rest.Prop{Name: "footnotes", Schema: &rest.Schema{Type: "string", Context: ctxView}})
	}
	props = append(props, rest.Prop{Name: "meta", Schema: &rest.Schema{Description: "Meta fields.", Type: "object", Context: ctxView, Properties: meta}})
	if autosave {
		props = append(props, rest.Prop{Name: "preview_link", Schema: &rest.Schema{Type: "string", Format: "uri", Context: ctxEdit, Readonly: true}})
	}
	return &rest.Schema{Title: title, Type: "object", Properties: props}
}

// termSchema is the item schema of a taxonomy's terms.
func termSchema(tax *store.Taxonomy) *rest.Schema {
	props := rest.Props{
		{Name: "id", Schema: &rest.Schema{Type: "integer", Context: ctxAll, Readonly: true}},
	}
	if tax != store.Menu {
		props = append(props, rest.Prop{Name: "count", Schema: &rest.Schema{Type: "integer", Context: ctxView, Readonly: true}})
	}
	props = append(props, rest.Prop{Name: "description", Schema: &rest.Schema{Type: "string", Context: ctxView}})
	if tax != store.Menu {
		props = append(props, rest.Prop{Name: "link", Schema: &rest.Schema{Type: "string", Format: "uri", Context: ctxAll, Readonly: true}})
	}
	props = append(props, rest.Prop{Name: "name", Schema: &rest.Schema{Type: "string", Context: ctxAll, Required: true}},
		rest.Prop{Name: "slug", Schema: &rest.Schema{Type: "string", Context: ctxAll}})
	if tax != store.Menu {
		props = append(props, rest.Prop{Name: "taxonomy", Schema: &rest.Schema{Type: "string", Enum: strEnum(tax.Name), Context: ctxAll, Readonly: true}})
	}
	if tax.Hierarchical {
		props = append(props, rest.Prop{Name: "parent", Schema: &rest.Schema{Type: "integer", Context: ctxView}})
	}
	props = append(props, rest.Prop{Name: "meta", Schema: &rest.Schema{Type: "object", Context: ctxView}})
	if tax == store.Menu {
		props = append(props, rest.Prop{Name: "locations", Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "string"}, Context: ctxView}},
			rest.Prop{Name: "auto_add", Schema: &rest.Schema{Type: "boolean", Context: ctxView}})
	}
	return &rest.Schema{Title: tax.Name, Type: "object", Properties: props}
}

// contentFlags are content's block_version (shown in the contexts bv) and
// protected members.
func contentFlags(bv []string) rest.Props {
	return rest.Props{{Name: "block_version", Schema: &rest.Schema{Type: "integer", Context: bv, Readonly: true}},
		{Name: "protected", Schema: &rest.Schema{Type: "boolean", Context: ctxAll, Readonly: true}}}
}
