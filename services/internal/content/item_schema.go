package content

import "slices"

// Item schemas (get_item_schema) of the post types, revisions and terms:
// served by OPTIONS and in the route descriptions. The handlers render the
// same fields per context (response.go).

func rendered(raw []string, renderedCtx []string, extra ...P) *S {
	props := []P{}
	if raw != nil {
		props = append(props, P{"raw", &S{Type: "string", Context: raw}})
	}
	if renderedCtx != nil {
		props = append(props, P{"rendered", &S{Type: "string", Context: renderedCtx, Readonly: true}})
	}
	props = append(props, extra...)
	ctx := union(raw, renderedCtx)
	for _, e := range extra {
		ctx = union(ctx, e.S.Context)
	}
	return &S{Type: "object", Context: ctx, Properties: props}
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
func postSchema(pt *PostType) *S {
	dateS := func(ctx []string, ro bool) *S {
		return &S{Types: []string{"string", "null"}, Format: "date-time", Context: ctx, Readonly: ro}
	}
	props := []P{
		{"date", dateS(ctxAll, false)},
		{"date_gmt", dateS(ctxView, false)},
		{"guid", rendered(ctxEdit, ctxView)},
		{"id", &S{Type: "integer", Context: ctxAll, Readonly: true}},
		{"link", &S{Type: "string", Format: "uri", Context: ctxAll, Readonly: true}},
		{"modified", dateS(ctxView, true)},
		{"modified_gmt", dateS(ctxView, true)},
		{"slug", &S{Type: "string", Context: ctxAll}},
	}
	statusCtx := ctxView
	if pt.EmbedContent {
		statusCtx = ctxAll
	}
	props = append(props,
		P{"status", &S{Type: "string", Enum: strEnum(writeStatuses...), Context: statusCtx}},
		P{"type", &S{Type: "string", Context: ctxAll, Readonly: true}},
		P{"password", &S{Type: "string", Context: ctxEdit}})
	if pt.Public {
		props = append(props, P{"permalink_template", &S{Type: "string", Context: ctxEdit, Readonly: true}},
			P{"generated_slug", &S{Type: "string", Context: ctxEdit, Readonly: true}},
			P{"class_list", &S{Type: "array", Items: &S{Type: "string"}, Context: ctxView, Readonly: true}})
	}
	if pt.Hierarchical {
		props = append(props, P{"parent", &S{Type: "integer", Context: ctxView}})
	}
	switch {
	case pt.EmbedContent:
		props = append(props, P{"title", rendered(ctxAll, ctxAll)},
			P{"content", rendered(ctxAll, ctxAll, P{"block_version", &S{Type: "integer", Context: ctxAll, Readonly: true}},
				P{"protected", &S{Type: "boolean", Context: ctxAll, Readonly: true}})})
	case pt.RenderedText:
		props = append(props, P{"title", rendered(ctxEdit, ctxAll)},
			P{"content", rendered(ctxEdit, ctxView, P{"block_version", &S{Type: "integer", Context: ctxEdit, Readonly: true}},
				P{"protected", &S{Type: "boolean", Context: ctxAll, Readonly: true}})})
	default: // blocks: raw only
		props = append(props, P{"title", rendered(ctxView, nil)},
			P{"content", rendered(ctxView, nil, P{"block_version", &S{Type: "integer", Context: ctxEdit, Readonly: true}},
				P{"protected", &S{Type: "boolean", Context: ctxAll, Readonly: true}})})
	}
	if pt.Author {
		props = append(props, P{"author", &S{Type: "integer", Context: ctxAll}})
	}
	if pt.Excerpt {
		props = append(props, P{"excerpt", rendered(ctxEdit, ctxAll, P{"protected", &S{Type: "boolean", Context: ctxAll, Readonly: true}})})
	}
	if pt.Thumbnail {
		props = append(props, P{"featured_media", &S{Type: "integer", Context: ctxAll}})
	}
	if pt.Comments {
		props = append(props, P{"comment_status", &S{Type: "string", Enum: strEnum("open", "closed"), Context: ctxView}},
			P{"ping_status", &S{Type: "string", Enum: strEnum("open", "closed"), Context: ctxView}})
	}
	if pt.PageAttributes {
		props = append(props, P{"menu_order", &S{Type: "integer", Context: ctxView}})
	}
	if pt.Footnotes || pt.SyncStatus {
		meta := []P{{"footnotes", &S{Type: "string", Default: "", Context: ctxView}}}
		if pt.SyncStatus {
			meta = append([]P{{"cms_pattern_sync_status", &S{Type: "string", Enum: strEnum("partial", "unsynced"), Default: "", Context: ctxView}}}, meta...)
		}
		props = append(props, P{"meta", &S{Type: "object", Context: ctxView, Properties: meta}})
	}
	if pt.SyncStatus {
		props = append(props, P{"cms_pattern_sync_status", &S{Type: "string", Enum: strEnum("partial", "unsynced"), Context: ctxView, Readonly: true}})
	}
	if pt.Sticky {
		props = append(props, P{"sticky", &S{Type: "boolean", Context: ctxView}})
	}
	props = append(props, P{"template", &S{Type: "string", Context: ctxView}})
	if pt.Formats {
		props = append(props, P{"format", &S{Type: "string", Enum: strEnum(formats...), Context: ctxView}})
	}
	for _, tax := range pt.Taxonomies {
		props = append(props, P{tax.Base, &S{Type: "array", Items: &S{Type: "integer"}, Context: ctxView}})
	}
	return &S{Title: pt.Name, Type: "object", Properties: props}
}

// revisionSchema is the revisions (and autosaves) item schema.
func revisionSchema(pt *PostType, autosave bool) *S {
	title := "revision"
	if autosave {
		title = pt.Name + "-revision"
	}
	props := []P{
		{"author", &S{Type: "integer", Context: ctxAll}},
		{"date", &S{Type: "string", Format: "date-time", Context: ctxAll}},
		{"date_gmt", &S{Type: "string", Format: "date-time", Context: ctxView}},
		{"guid", rendered(ctxEdit, ctxView)},
		{"id", &S{Type: "integer", Context: ctxAll}},
		{"modified", &S{Type: "string", Format: "date-time", Context: ctxView}},
		{"modified_gmt", &S{Type: "string", Format: "date-time", Context: ctxView}},
		{"parent", &S{Type: "integer", Context: ctxAll}},
		{"slug", &S{Type: "string", Context: ctxAll}},
		{"title", rendered(ctxEdit, ctxAll)},
		{"content", rendered(ctxEdit, ctxView)},
	}
	if pt.Excerpt {
		props = append(props, P{"excerpt", rendered(ctxEdit, ctxAll)})
	}
	if pt.Footnotes {
		props = append(props, P{"meta", &S{Type: "object", Context: ctxView, Properties: []P{{"footnotes", &S{Type: "string", Context: ctxView}}}}})
	}
	if autosave {
		props = append(props, P{"preview_link", &S{Type: "string", Format: "uri", Context: ctxEdit, Readonly: true}})
	}
	return &S{Title: title, Type: "object", Properties: props}
}

// termSchema is the item schema of a taxonomy's terms.
func termSchema(tax *Taxonomy) *S {
	props := []P{
		{"id", &S{Type: "integer", Context: ctxAll, Readonly: true}},
	}
	if tax != Menu {
		props = append(props, P{"count", &S{Type: "integer", Context: ctxView, Readonly: true}})
	}
	props = append(props, P{"description", &S{Type: "string", Context: ctxView}})
	if tax != Menu {
		props = append(props, P{"link", &S{Type: "string", Format: "uri", Context: ctxAll, Readonly: true}})
	}
	props = append(props, P{"name", &S{Type: "string", Context: ctxAll, Required: true}},
		P{"slug", &S{Type: "string", Context: ctxAll}})
	if tax != Menu {
		props = append(props, P{"taxonomy", &S{Type: "string", Enum: strEnum(tax.Name), Context: ctxAll, Readonly: true}})
	}
	if tax.Hierarchical {
		props = append(props, P{"parent", &S{Type: "integer", Context: ctxView}})
	}
	props = append(props, P{"meta", &S{Type: "object", Context: ctxView}})
	if tax == Menu {
		props = append(props, P{"locations", &S{Type: "array", Items: &S{Type: "string"}, Context: ctxView}},
			P{"auto_add", &S{Type: "boolean", Context: ctxView}})
	}
	return &S{Title: tax.Name, Type: "object", Properties: props}
}
