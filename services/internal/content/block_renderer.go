package content

import (
	"encoding/json"
	"net/http"
	"slices"

	"siteplane.dev/services/internal/content/blocktypes"
	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// The block renderer: the editor's ServerSideRender previews of dynamic
// blocks, rendered by the website's renderer (content/blocks). A dynamic
// block Siteplane's renderer does not draw (archives, calendar, ...)
// renders as "", as on the website.

func (s *Service) blockRendererRoutes() []rest.Route {
	sch := &rest.Schema{SchemaURI: "http://json-schema.org/schema#", Title: "rendered-block", Type: "object", Properties: rest.Props{
		{Name: "rendered", Schema: &rest.Schema{Description: "The rendered block.", Type: "string", Required: true, Context: ctxEdit}},
	}}
	return []rest.Route{{Namespace: Namespace, Path: `/block-renderer/(?P<name>[a-z0-9-]+/[a-z0-9-]+)`, Schema: sch, Endpoints: []rest.Endpoint{{
		Methods: []string{http.MethodGet, http.MethodPost},
		Args: rest.Props{
			{Name: "name", Schema: &rest.Schema{Type: "string", Description: "Unique registered name for the block."}},
			{Name: "context", Schema: &rest.Schema{Type: "string", Enum: strEnum("edit"), Default: "view",
				Description: "Scope under which the request is made; determines fields present in response."}},
			{Name: "attributes", Schema: &rest.Schema{Type: "object", Default: []any{}, Description: "Attributes for the block.",
				Validate: validateBlockAttributes, Sanitize: sanitizeBlockAttributes}},
			{Name: "post_id", Schema: &rest.Schema{Type: "integer", Description: "ID of the post context."}},
		},
		Permission: s.blockRendererPermission, Handler: s.renderBlock,
	}}}}
}

// attributesSchema is the attributes argument's schema for the block
// named in the URL: its registered attributes, nothing else. An attribute
// whose type is not a JSON-schema type ("rich-text") is not checked, as
// WordPress only warns about it. An unknown block takes anything: the
// handler refuses it.
func attributesSchema(r *rest.Request) (*rest.Schema, bool) {
	bt, ok := blocktypes.Lookup(r.String("name"))
	if !ok {
		return nil, false
	}
	props := make(rest.Props, 0, len(bt.Attributes))
	for name, raw := range bt.Attributes {
		var a struct {
			Type any   `json:"type"`
			Enum []any `json:"enum"`
		}
		_ = json.Unmarshal(raw, &a) // generated data: each attribute is an object
		ps := &rest.Schema{Enum: a.Enum}
		switch t := a.Type.(type) {
		case string:
			if slices.Contains(jsonTypes, t) {
				ps.Type = t
			}
		case []any:
			for _, v := range t {
				if s, ok := v.(string); ok && slices.Contains(jsonTypes, s) {
					ps.Types = append(ps.Types, s)
				}
			}
		}
		props = append(props, rest.Prop{Name: name, Schema: ps})
	}
	sch := &rest.Schema{Type: "object", Properties: props, AdditionalProperties: false}
	if err := sch.Compile(); err != nil {
		return nil, false
	}
	return sch, true
}

var jsonTypes = []string{"array", "object", "string", "number", "integer", "boolean", "null"}

// emptyToObject reads PHP's empty array (the default) as an empty object.
func emptyToObject(v any) any {
	if l, ok := v.([]any); ok && len(l) == 0 {
		return map[string]any{}
	}
	return v
}

// validateBlockAttributes is WordPress's validate_callback: the value
// against the block's attributes, named without the argument's name
// ("[level] is not of type number.").
func validateBlockAttributes(r *rest.Request, v any, _ string) error {
	sch, ok := attributesSchema(r)
	if !ok {
		return nil
	}
	if _, err := rest.ParseArg(emptyToObject(v), sch, ""); err != nil {
		return err
	}
	return nil
}

func sanitizeBlockAttributes(r *rest.Request, v any, _ string) (any, error) {
	sch, ok := attributesSchema(r)
	if !ok {
		return v, nil
	}
	clean, err := rest.ParseArg(emptyToObject(v), sch, "")
	if err != nil {
		return nil, err
	}
	return clean, nil
}

// blockRendererPermission: with a post_id, the caller must be able to edit
// that post; without, edit_posts.
func (s *Service) blockRendererPermission(r *rest.Request) error {
	who := caller(r)
	if id := r.Int("post_id"); id > 0 {
		p, err := store.GetPost(r.Context(), s.db(r.Context()), id)
		if err != nil {
			return err
		}
		if p == nil || store.TypeByName(p.Type) == nil || !store.CanEdit(who, store.TypeByName(p.Type), p) {
			return rest.Denied(r, "block_cannot_read", "Sorry, you are not allowed to read blocks of this post.")
		}
		return nil
	}
	if !who.Can("edit_posts") {
		return rest.Denied(r, "block_cannot_read", "Sorry, you are not allowed to read blocks as this user.")
	}
	return nil
}

func (s *Service) renderBlock(r *rest.Request) (*rest.Response, error) {
	name := r.String("name")
	bt, ok := blocktypes.Lookup(name)
	if !ok || !bt.Dynamic {
		return nil, rest.NewError("block_invalid", "Invalid block.", http.StatusNotFound)
	}
	var (
		pt   *store.PostType
		post *store.Post
	)
	if id := r.Int("post_id"); id > 0 {
		p, err := store.GetPost(r.Context(), s.db(r.Context()), id)
		if err != nil {
			return nil, err
		}
		if p != nil { // the permission check read it; a delete since renders without
			pt, post = store.TypeByName(p.Type), p
		}
	}
	attrs, _ := emptyToObject(r.Param("attributes")).(map[string]any)
	html, err := s.web.RenderBlock(r.Context(), name, attrs, pt, post)
	if err != nil {
		return nil, err
	}
	return rest.OK(rest.Object{{Key: "rendered", Value: html}}), nil
}
