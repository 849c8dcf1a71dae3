package content

import "siteplane.dev/services/internal/platform/identity"

// S is the JSON-schema subset this service declares its arguments and item
// fields with. It maps one to one onto the route kit's rest.Schema (kit.go),
// which validates with WordPress's messages.
type S struct {
	Type        string
	Types       []string // multi-type, e.g. string,null
	Format      string   // date-time
	Description string
	Enum        []any
	Default     any
	Minimum     *float64
	Maximum     *float64
	Items       *S
	Properties  []P
	// NoAdditional is additionalProperties: false.
	NoAdditional bool
	UniqueItems  bool
	OneOf        []*S
	Title        string
	Required     bool
	Context      []string
	Readonly     bool
	// Raw skips validation and sanitisation (WordPress's null callbacks on
	// title, content and excerpt, which accept a string or {raw}).
	Raw bool
	// Meta is WordPress's meta argument: validated only as "an array"
	// (check_meta_is_array) and not sanitised; its properties are checked
	// when the values are written (applyMeta).
	Meta bool
	// Guard runs after validation with the caller (a sanitize_callback that
	// needs permissions, like the status filter); an issue fails the argument.
	Guard func(who identity.Identity, v any) *issue
}

// issue is an argument failure: an inner error of rest_invalid_param.
type issue struct {
	code, message string
	data          any
}

// P is a named schema (an argument or an object property).
type P struct {
	Name string
	S    *S
}

func num(f float64) *float64 { return &f }

func strEnum(values ...string) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = v
	}
	return out
}

var (
	ctxView = []string{"view", "edit"}
	ctxAll  = []string{"view", "edit", "embed"}
	ctxEdit = []string{"edit"}
)

func contextArg() P {
	return P{"context", &S{Type: "string", Enum: strEnum("view", "embed", "edit"), Default: "view",
		Description: "Scope under which the request is made; determines fields present in response."}}
}

func intArray() *S { return &S{Type: "array", Items: &S{Type: "integer"}, Default: []any{}} }

// termQuery is prepare_taxonomy_limit_schema: a list of ids or an object
// {terms, include_children, operator}.
func termQuery(tax *Taxonomy, include bool) *S {
	props := []P{{"terms", &S{Type: "array", Items: &S{Type: "integer"}, Default: []any{}}}}
	if tax.Hierarchical {
		props = append(props, P{"include_children", &S{Type: "boolean", Default: false}})
	}
	if include {
		props = append(props, P{"operator", &S{Type: "string", Enum: strEnum("AND", "OR"), Default: "OR"}})
	}
	return &S{Types: []string{"object", "array"}, OneOf: []*S{
		{Title: "Term ID List", Type: "array", Items: &S{Type: "integer"}},
		{Title: "Term ID Taxonomy Query", Type: "object", Properties: props, NoAdditional: true},
	}}
}

// collectionArgs is get_collection_params for a post type (§4.7).
func collectionArgs(pt *PostType) []P {
	orderby := []string{"author", "date", "id", "include", "modified", "parent", "relevance", "slug", "include_slugs", "title"}
	if pt.PageAttributes {
		orderby = append(orderby, "menu_order")
	}
	args := []P{
		contextArg(),
		{"page", &S{Type: "integer", Default: 1, Minimum: num(1)}},
		{"per_page", &S{Type: "integer", Default: 10, Minimum: num(1), Maximum: num(100)}},
		{"search", &S{Type: "string"}},
		{"after", &S{Type: "string", Format: "date-time"}},
		{"modified_after", &S{Type: "string", Format: "date-time"}},
	}
	if pt.Author {
		args = append(args, P{"author", intArray()}, P{"author_exclude", intArray()})
	}
	args = append(args,
		P{"before", &S{Type: "string", Format: "date-time"}},
		P{"modified_before", &S{Type: "string", Format: "date-time"}},
		P{"exclude", intArray()},
		P{"include", intArray()})
	if pt.PageAttributes {
		args = append(args, P{"menu_order", &S{Type: "integer"}})
	}
	args = append(args,
		P{"search_semantics", &S{Type: "string", Enum: strEnum("exact")}},
		P{"offset", &S{Type: "integer"}},
		P{"order", &S{Type: "string", Enum: strEnum("asc", "desc"), Default: "desc"}},
		P{"orderby", &S{Type: "string", Enum: strEnum(orderby...), Default: "date"}})
	if pt.Hierarchical {
		args = append(args, P{"parent", intArray()}, P{"parent_exclude", intArray()})
	}
	args = append(args,
		P{"search_columns", &S{Type: "array", Items: &S{Type: "string", Enum: strEnum("post_title", "post_content", "post_excerpt")}, Default: []any{}}},
		P{"slug", &S{Type: "array", Items: &S{Type: "string"}}},
		P{"status", &S{Type: "array", Items: &S{Type: "string", Enum: strEnum(filterStatuses...)}, Default: "publish", Guard: statusGuard(pt)}})
	if len(pt.Taxonomies) > 0 {
		args = append(args, P{"tax_relation", &S{Type: "string", Enum: strEnum("AND", "OR")}})
		for _, tax := range pt.Taxonomies {
			args = append(args, P{tax.Base, termQuery(tax, true)}, P{tax.Base + "_exclude", termQuery(tax, false)})
		}
	}
	if pt.Sticky {
		args = append(args, P{"sticky", &S{Type: "boolean"}}, P{"ignore_sticky", &S{Type: "boolean", Default: true}})
	}
	if pt.Formats {
		args = append(args, P{"format", &S{Type: "array", UniqueItems: true, Items: &S{Type: "string", Enum: strEnum(formats...)}}})
	}
	return args
}

// textArg is title/content/excerpt input: a string or {raw}.
func textArg() *S { return &S{Type: "object", Raw: true} }

// writeArgs are the schema-derived args of create and update (§3.5). None
// has a default, so the two share one list; a default added here would have
// to apply on create only.
func writeArgs(pt *PostType) []P {
	dateS := func() *S { return &S{Types: []string{"string", "null"}, Format: "date-time"} }
	args := []P{{"date", dateS()}, {"date_gmt", dateS()}, {"slug", &S{Type: "string"}}}
	args = append(args, P{"status", &S{Type: "string", Enum: strEnum(writeStatuses...)}})
	args = append(args, P{"password", &S{Type: "string"}})
	if pt.Hierarchical {
		args = append(args, P{"parent", &S{Type: "integer"}})
	}
	args = append(args, P{"title", textArg()}, P{"content", textArg()})
	if pt.Author {
		args = append(args, P{"author", &S{Type: "integer"}})
	}
	if pt.Excerpt {
		args = append(args, P{"excerpt", textArg()})
	}
	if pt.Thumbnail {
		args = append(args, P{"featured_media", &S{Type: "integer"}})
	}
	if pt.Comments {
		args = append(args, P{"comment_status", &S{Type: "string", Enum: strEnum("open", "closed")}},
			P{"ping_status", &S{Type: "string", Enum: strEnum("open", "closed")}})
	}
	if pt.PageAttributes {
		args = append(args, P{"menu_order", &S{Type: "integer"}})
	}
	if pt.Formats {
		args = append(args, P{"format", &S{Type: "string", Enum: strEnum(formats...)}})
	}
	if props := metaFields(pt); props != nil {
		args = append(args, P{"meta", &S{Type: "object", Properties: props, Meta: true}})
	}
	if pt.Sticky {
		args = append(args, P{"sticky", &S{Type: "boolean"}})
	}
	args = append(args, P{"template", &S{Type: "string"}})
	for _, tax := range pt.Taxonomies {
		args = append(args, P{tax.Base, &S{Type: "array", Items: &S{Type: "integer"}}})
	}
	return args
}

func itemArgs(pt *PostType) []P {
	args := []P{{"id", &S{Type: "integer"}}, contextArg()}
	if pt.Excerpt {
		args = append(args, P{"excerpt_length", &S{Type: "integer"}})
	}
	args = append(args, P{"password", &S{Type: "string"}})
	return args
}

func deleteArgs() []P {
	return []P{{"id", &S{Type: "integer"}}, {"force", &S{Type: "boolean", Default: false}}}
}

// metaFields are the registered, REST-visible meta keys of pt, in
// registration order (the pattern sync status with the post types, the
// footnotes with the blocks).
func metaFields(pt *PostType) []P {
	var props []P
	if pt.SyncStatus {
		props = append(props, P{"cms_pattern_sync_status", &S{Type: "string", Enum: strEnum("partial", "unsynced")}})
	}
	if pt.Footnotes || pt.SyncStatus {
		props = append(props, P{"footnotes", &S{Type: "string"}})
	}
	return props
}
