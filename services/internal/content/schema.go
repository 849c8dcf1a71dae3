package content

import (
	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
)

// Argument schemas of the content routes (get_collection_params and the
// schema-derived write arguments), declared with the route kit's types.

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
	// ctxEditEmbed: navigation's raw title and content (edit, and embed)
	ctxEditEmbed = []string{"edit", "embed"}
)

func contextArg() rest.Prop {
	return rest.Prop{Name: "context", Schema: &rest.Schema{Type: "string", Enum: strEnum("view", "embed", "edit"), Default: "view",
		Description: "Scope under which the request is made; determines fields present in response."}}
}

func intArray() *rest.Schema {
	return &rest.Schema{Type: "array", Items: &rest.Schema{Type: "integer"}, Default: []any{}}
}

// termQuery is prepare_taxonomy_limit_schema: a list of ids or an object
// {terms, include_children, operator}.
func termQuery(tax *store.Taxonomy, include bool) *rest.Schema {
	props := rest.Props{{Name: "terms", Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "integer"}, Default: []any{}}}}
	if tax.Hierarchical {
		props = append(props, rest.Prop{Name: "include_children", Schema: &rest.Schema{Type: "boolean", Default: false}})
	}
	if include {
		props = append(props, rest.Prop{Name: "operator", Schema: &rest.Schema{Type: "string", Enum: strEnum("AND", "OR"), Default: "OR"}})
	}
	return &rest.Schema{Types: []string{"object", "array"}, OneOf: []*rest.Schema{
		{Title: "Term ID List", Type: "array", Items: &rest.Schema{Type: "integer"}},
		{Title: "Term ID Taxonomy Query", Type: "object", Properties: props, AdditionalProperties: false},
	}}
}

// collectionArgs is get_collection_params for a post type (§4.7).
func collectionArgs(pt *store.PostType) rest.Props {
	orderby := []string{"author", "date", "id", "include", "modified", "parent", "relevance", "slug", "include_slugs", "title"}
	if pt.PageAttributes {
		orderby = append(orderby, "menu_order")
	}
	args := rest.Props{
		contextArg(),
		{Name: "page", Schema: &rest.Schema{Type: "integer", Default: 1, Minimum: rest.Ptr(1.0)}},
		{Name: "per_page", Schema: &rest.Schema{Type: "integer", Default: 10, Minimum: rest.Ptr(1.0), Maximum: rest.Ptr(100.0)}},
		{Name: "search", Schema: &rest.Schema{Type: "string"}},
		{Name: "after", Schema: &rest.Schema{Type: "string", Format: "date-time"}},
		{Name: "modified_after", Schema: &rest.Schema{Type: "string", Format: "date-time"}},
	}
	if pt.Author {
		args = append(args, rest.Prop{Name: "author", Schema: intArray()}, rest.Prop{Name: "author_exclude", Schema: intArray()})
	}
	args = append(args,
		rest.Prop{Name: "before", Schema: &rest.Schema{Type: "string", Format: "date-time"}},
		rest.Prop{Name: "modified_before", Schema: &rest.Schema{Type: "string", Format: "date-time"}},
		rest.Prop{Name: "exclude", Schema: intArray()},
		rest.Prop{Name: "include", Schema: intArray()})
	if pt.PageAttributes {
		// a filter, not a value to store: a huge one matches nothing (200)
		args = append(args, rest.Prop{Name: "menu_order", Schema: &rest.Schema{Type: "integer"}})
	}
	args = append(args,
		rest.Prop{Name: "search_semantics", Schema: &rest.Schema{Type: "string", Enum: strEnum("exact")}},
		rest.Prop{Name: "offset", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(0.0)}},
		rest.Prop{Name: "order", Schema: &rest.Schema{Type: "string", Enum: strEnum("asc", "desc"), Default: "desc"}},
		rest.Prop{Name: "orderby", Schema: &rest.Schema{Type: "string", Enum: strEnum(orderby...), Default: "date"}})
	if pt.Hierarchical {
		args = append(args, rest.Prop{Name: "parent", Schema: intArray()}, rest.Prop{Name: "parent_exclude", Schema: intArray()})
	}
	args = append(args,
		rest.Prop{Name: "search_columns", Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "string", Enum: strEnum("post_title", "post_content", "post_excerpt")}, Default: []any{}}},
		rest.Prop{Name: "slug", Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "string"}}},
		rest.Prop{Name: "status", Schema: guarded(&rest.Schema{Type: "array", Items: &rest.Schema{Type: "string", Enum: strEnum(store.FilterStatuses...)}, Default: "publish"}, statusGuard(pt))})
	if len(pt.Taxonomies) > 0 {
		args = append(args, rest.Prop{Name: "tax_relation", Schema: &rest.Schema{Type: "string", Enum: strEnum("AND", "OR")}})
		for _, tax := range pt.Taxonomies {
			args = append(args, rest.Prop{Name: tax.Base, Schema: termQuery(tax, true)}, rest.Prop{Name: tax.Base + "_exclude", Schema: termQuery(tax, false)})
		}
	}
	if pt.Sticky {
		args = append(args, rest.Prop{Name: "sticky", Schema: &rest.Schema{Type: "boolean"}}, rest.Prop{Name: "ignore_sticky", Schema: &rest.Schema{Type: "boolean", Default: true}})
	}
	if pt.Formats {
		args = append(args, rest.Prop{Name: "format", Schema: &rest.Schema{Type: "array", UniqueItems: true, Items: &rest.Schema{Type: "string", Enum: strEnum(store.Formats...)}}})
	}
	return args
}

// textArg is title/content/excerpt input: a string or {raw}. WordPress
// registers null validate and sanitize callbacks for them, so any value is
// accepted and handed over as it is (textValue reads it).
func textArg() *rest.Schema {
	return &rest.Schema{Type: "object", Validate: acceptAny, Sanitize: keepValue}
}

func acceptAny(*rest.Request, any, string) error { return nil }

func keepValue(_ *rest.Request, v any, _ string) (any, error) { return v, nil }

// metaArg is WordPress's meta argument: validated only as "an array"
// (check_meta_is_array: an object or a list) and not sanitised; its
// properties are checked when the values are written (applyMeta).
func metaArg(props rest.Props) *rest.Schema {
	return &rest.Schema{Type: "object", Properties: props, Sanitize: keepValue,
		Validate: func(_ *rest.Request, v any, _ string) error {
			switch v.(type) {
			case map[string]any, []any:
				return nil
			}
			return rest.ErrInvalid
		}}
}

// guarded runs guard after s's own validation and sanitisation, with the
// caller: a sanitize_callback that needs permissions, like the status
// filter's. The guard's error fails the argument (rest_invalid_param).
func guarded(s *rest.Schema, guard func(who identity.Identity, v any) *rest.Error) *rest.Schema {
	plain := *s
	s.Sanitize = func(r *rest.Request, v any, param string) (any, error) {
		clean, err := rest.ParseArg(v, &plain, param)
		if err != nil {
			return nil, err
		}
		if e := guard(caller(r), clean); e != nil {
			return nil, e
		}
		return clean, nil
	}
	return s
}

// writeArgs are the schema-derived args of create and update (§3.5). None
// has a default, so the two share one list; a default added here would have
// to apply on create only.
func writeArgs(pt *store.PostType) rest.Props {
	dateS := func() *rest.Schema { return &rest.Schema{Types: []string{"string", "null"}, Format: "date-time"} }
	args := rest.Props{{Name: "date", Schema: dateS()}, {Name: "date_gmt", Schema: dateS()}, {Name: "slug", Schema: &rest.Schema{Type: "string"}}}
	args = append(args, rest.Prop{Name: "status", Schema: &rest.Schema{Type: "string", Enum: strEnum(store.WriteStatuses...)}})
	args = append(args, rest.Prop{Name: "password", Schema: &rest.Schema{Type: "string"}})
	if pt.Hierarchical {
		args = append(args, rest.Prop{Name: "parent", Schema: &rest.Schema{Type: "integer"}})
	}
	args = append(args, rest.Prop{Name: "title", Schema: textArg()}, rest.Prop{Name: "content", Schema: textArg()})
	if pt.Author {
		args = append(args, rest.Prop{Name: "author", Schema: &rest.Schema{Type: "integer"}})
	}
	if pt.Excerpt {
		args = append(args, rest.Prop{Name: "excerpt", Schema: textArg()})
	}
	if pt.Thumbnail {
		args = append(args, rest.Prop{Name: "featured_media", Schema: &rest.Schema{Type: "integer"}})
	}
	if pt.Comments {
		args = append(args, rest.Prop{Name: "comment_status", Schema: &rest.Schema{Type: "string", Enum: strEnum("open", "closed")}},
			rest.Prop{Name: "ping_status", Schema: &rest.Schema{Type: "string", Enum: strEnum("open", "closed")}})
	}
	if pt.PageAttributes {
		args = append(args, rest.Prop{Name: "menu_order", Schema: &rest.Schema{Type: "integer", Int32: true}})
	}
	if pt.Formats {
		args = append(args, rest.Prop{Name: "format", Schema: &rest.Schema{Type: "string", Enum: strEnum(store.Formats...)}})
	}
	if props := metaFields(pt); props != nil {
		args = append(args, rest.Prop{Name: "meta", Schema: metaArg(props)})
	}
	if pt.Sticky {
		args = append(args, rest.Prop{Name: "sticky", Schema: &rest.Schema{Type: "boolean"}})
	}
	args = append(args, rest.Prop{Name: "template", Schema: &rest.Schema{Type: "string"}})
	for _, tax := range pt.Taxonomies {
		args = append(args, rest.Prop{Name: tax.Base, Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "integer"}}})
	}
	return args
}

func itemArgs(pt *store.PostType) rest.Props {
	args := rest.Props{{Name: "id", Schema: &rest.Schema{Type: "integer"}}, contextArg()}
	if pt.Excerpt {
		args = append(args, rest.Prop{Name: "excerpt_length", Schema: &rest.Schema{Type: "integer"}})
	}
	args = append(args, rest.Prop{Name: "password", Schema: &rest.Schema{Type: "string"}})
	return args
}

func deleteArgs() rest.Props {
	return rest.Props{{Name: "id", Schema: &rest.Schema{Type: "integer"}}, {Name: "force", Schema: &rest.Schema{Type: "boolean", Default: false}}}
}

// metaFields are the registered, REST-visible meta keys of pt, in
// registration order (the pattern sync status with the post types, the
// footnotes with the blocks).
func metaFields(pt *store.PostType) rest.Props {
	var props rest.Props
	if pt.SyncStatus {
		props = append(props, rest.Prop{Name: "cms_pattern_sync_status", Schema: &rest.Schema{Type: "string", Enum: strEnum("partial", "unsynced")}})
	}
	if pt.Footnotes || pt.SyncStatus {
		props = append(props, rest.Prop{Name: "footnotes", Schema: &rest.Schema{Type: "string"}})
	}
	return props
}
