package content

import (
	"encoding/json"
	"net/http"
	"sync"

	"siteplane.dev/services/internal/content/blocktypes"
	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
)

// The block-types routes: the block library's types (blocktypes.json,
// generated from WordPress's block.json files), as WordPress's
// WP_REST_Block_Types_Controller lists them.

// blockTypeSchema is WordPress's item schema, decoded once.
var blockTypeSchema = func() *rest.Schema {
	var s rest.Schema
	if err := json.Unmarshal(blocktypes.SchemaJSON, &s); err != nil {
		panic("content: the block-type schema does not decode: " + err.Error())
	}
	return &s
}()

func (s *Service) blockTypeRoutes() []rest.Route {
	nsArg := rest.Prop{Name: "namespace", Schema: &rest.Schema{Type: "string", Description: "Block namespace."}}
	list := rest.Endpoint{Methods: rest.Readable, Args: rest.Props{contextArg(), nsArg}, Permission: blockTypesPermission, Handler: s.listBlockTypes}
	return []rest.Route{
		{Namespace: Namespace, Path: "/block-types", Schema: blockTypeSchema, Endpoints: []rest.Endpoint{list}},
		{Namespace: Namespace, Path: `/block-types/(?P<namespace>[a-zA-Z0-9_-]+)`, Schema: blockTypeSchema, Endpoints: []rest.Endpoint{list}},
		{Namespace: Namespace, Path: `/block-types/(?P<namespace>[a-zA-Z0-9_-]+)/(?P<name>[a-zA-Z0-9_-]+)`, Schema: blockTypeSchema, Endpoints: []rest.Endpoint{{
			Methods: rest.Readable, Args: rest.Props{{Name: "name", Schema: &rest.Schema{Type: "string", Description: "Block name."}}, nsArg, contextArg()},
			Permission: blockTypesPermission, Handler: s.getBlockType}}},
	}
}

// canEditSomething is check_read_permission of the block-types (and
// block-patterns) controllers: edit_posts, or the edit capability of any
// post type shown in REST.
func canEditSomething(who identity.Identity) bool {
	if who.Can("edit_posts") {
		return true
	}
	for _, pt := range store.PostTypes {
		if who.Can(pt.Caps.EditPosts) {
			return true
		}
	}
	return false
}

func blockTypesPermission(r *rest.Request) error {
	if canEditSomething(caller(r)) {
		return nil
	}
	return rest.Denied(r, "rest_block_type_cannot_view", "Sorry, you are not allowed to manage block types.")
}

func (s *Service) listBlockTypes(r *rest.Request) (*rest.Response, error) {
	ns := r.String("namespace")
	items := []any{}
	for _, t := range blocktypes.All() {
		if ns != "" && t.Namespace != ns {
			continue
		}
		it, err := s.blockTypeItem(r, t)
		if err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	return rest.OK(items), nil
}

func (s *Service) getBlockType(r *rest.Request) (*rest.Response, error) {
	t, ok := blocktypes.Lookup(r.String("namespace") + "/" + r.String("name"))
	if !ok {
		return nil, rest.NewError("rest_block_type_invalid", "Invalid block type.", http.StatusNotFound)
	}
	it, err := s.blockTypeItem(r, t)
	if err != nil {
		return nil, err
	}
	return rest.OK(it), nil
}

// blockTypeItem is one block type with its links; a dynamic block links
// to its server-side renderer.
func (s *Service) blockTypeItem(r *rest.Request, t *blocktypes.Type) (rest.Item, error) {
	data, err := s.withSiteVariations(r, t.Name, blockTypeData(t))
	if err != nil {
		return rest.Item{}, err
	}
	base := s.restRoot + "/" + Namespace
	links := rest.Links{
		{Rel: "collection", Href: base + "/block-types"},
		{Rel: "self", Href: base + "/block-types/" + t.Name},
		{Rel: "up", Href: base + "/block-types/" + t.Namespace},
	}
	if t.Dynamic {
		links = append(links, rest.Link{Rel: rest.APIRelPrefix + "render-block", Href: base + "/block-renderer/" + t.Name + "?context=edit"})
	}
	return rest.Item{Data: data, Links: links}, nil
}

// blockTypeObjects caches each block type's fields decoded into the kit's
// ordered values, so that _fields can pick nested keys
// (attributes.content) as WordPress does.
var (
	blockTypeObjectsOnce sync.Once
	blockTypeObjects     map[*blocktypes.Type]rest.Object
)

func blockTypeData(t *blocktypes.Type) rest.Object {
	blockTypeObjectsOnce.Do(func() {
		blockTypeObjects = map[*blocktypes.Type]rest.Object{}
		for _, bt := range blocktypes.All() {
			o := make(rest.Object, 0, len(bt.Fields))
			for _, f := range bt.Fields {
				v, err := blocktypes.DecodeOrdered(f.Value)
				if err != nil {
					panic("content: block type " + bt.Name + " does not decode: " + err.Error())
				}
				o = append(o, rest.Member{Key: f.Key, Value: v})
			}
			blockTypeObjects[bt] = o
		}
	})
	return blockTypeObjects[t]
}
