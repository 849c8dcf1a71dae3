package content

import (
	"context"
	"log/slog"
	"strings"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
)

// Namespace is the REST namespace of every route of this service.
const Namespace = "cms/v2"

// batchV1 is allow_batch {"v1": true}: the endpoints a batch may call.
var batchV1 = &rest.Batch{V1: true}

// NewServer returns the kit server for every content route: the kit does
// parameter gathering, validation, the permission/handler order, Allow,
// OPTIONS/HEAD, _fields, _envelope, headers and the route descriptions.
func (s *Service) NewServer(logger *slog.Logger) (*rest.Server, error) {
	return rest.New(rest.Options{
		RootURL: s.restRoot + "/",
		Caller:  func(ctx context.Context) rest.Caller { return identity.FromContext(ctx) },
		Logger:  logger,
	}, s.Routes()...)
}

// Routes declares every route of the service, once.
func (s *Service) Routes() []rest.Route {
	var routes []rest.Route
	for _, pt := range store.PostTypes {
		base := "/" + pt.Base
		routes = append(routes,
			rest.Route{Namespace: Namespace, Path: base, Schema: postSchema(pt), Endpoints: []rest.Endpoint{
				{Methods: rest.Readable, Args: collectionArgs(pt), AllowBatch: batchV1, Permission: listPostsPermission(pt), Handler: s.listPosts(pt)},
				{Methods: rest.Creatable, Args: writeArgs(pt), AllowBatch: batchV1, Permission: s.createPostPermission(pt), Handler: s.createPost(pt)},
			}},
			rest.Route{Namespace: Namespace, Path: base + `/(?P<id>[\d]+)`, Schema: postSchema(pt), Endpoints: []rest.Endpoint{
				{Methods: rest.Readable, Args: itemArgs(pt), AllowBatch: batchV1, Permission: s.getPostPermission(pt), Handler: s.getPostItem(pt)},
				{Methods: rest.Editable, Args: append(rest.Props{{Name: "id", Schema: &rest.Schema{Type: "integer"}}}, writeArgs(pt)...), AllowBatch: batchV1, Permission: s.updatePostPermission(pt), Handler: s.updatePostItem(pt)},
				{Methods: rest.Deletable, Args: deleteArgs(), AllowBatch: batchV1, Permission: s.deletePostPermission(pt), Handler: s.deletePostItem(pt)},
			}},
			rest.Route{Namespace: Namespace, Path: base + `/(?P<parent>[\d]+)/revisions`, Schema: revisionSchema(pt, false), Endpoints: []rest.Endpoint{
				{Methods: rest.Readable, Args: revisionsArgs(), Permission: s.revisionsPermission(pt, "parent", "revisions"), Handler: s.listRevisions(pt)},
			}},
			rest.Route{Namespace: Namespace, Path: base + `/(?P<parent>[\d]+)/revisions/(?P<id>[\d]+)`, Schema: revisionSchema(pt, false), Endpoints: []rest.Endpoint{
				{Methods: rest.Readable, Args: parentIDArgs(contextArg()), Permission: s.revisionsPermission(pt, "parent", "revisions"), Handler: s.getRevision(pt)},
				{Methods: rest.Deletable, Args: parentIDArgs(rest.Prop{Name: "force", Schema: &rest.Schema{Type: "boolean", Default: false}}), Permission: s.deleteRevisionPermission(pt), Handler: s.deleteRevision(pt)},
			}},
			rest.Route{Namespace: Namespace, Path: base + `/(?P<id>[\d]+)/autosaves`, Schema: revisionSchema(pt, true), Endpoints: []rest.Endpoint{
				{Methods: rest.Readable, Args: rest.Props{autosaveParentArg(), contextArg()}, Permission: s.revisionsPermission(pt, "id", "autosaves"), Handler: s.listAutosaves(pt)},
				{Methods: rest.Creatable, Args: withAutosaveParent(writeArgs(pt)), Permission: s.createAutosavePermission(pt), Handler: s.createAutosave(pt)},
			}},
			rest.Route{Namespace: Namespace, Path: base + `/(?P<parent>[\d]+)/autosaves/(?P<id>[\d]+)`, Schema: revisionSchema(pt, true), Endpoints: []rest.Endpoint{
				{Methods: rest.Readable, Args: parentIDArgs(contextArg()), Permission: s.revisionsPermission(pt, "parent", "revisions"), Handler: s.getAutosave(pt)}, // the revisions controller's check
			}},
		)
	}
	for _, tax := range store.Taxonomies {
		base := "/" + tax.Base
		routes = append(routes,
			rest.Route{Namespace: Namespace, Path: base, Schema: termSchema(tax), Endpoints: []rest.Endpoint{
				{Methods: rest.Readable, Args: termCollectionArgs(tax), Permission: s.listTermsPermission(tax), Handler: s.listTerms(tax)},
				{Methods: rest.Creatable, Args: termWriteArgs(tax, true), AllowBatch: batchV1, Permission: createTermPermission(tax), Handler: s.createTerm(tax)},
			}},
			rest.Route{Namespace: Namespace, Path: base + `/(?P<id>[\d]+)`, Schema: termSchema(tax), Endpoints: []rest.Endpoint{
				{Methods: rest.Readable, Args: rest.Props{{Name: "id", Schema: &rest.Schema{Type: "integer"}}, contextArg()}, AllowBatch: batchV1, Permission: s.getTermPermission(tax), Handler: s.getTermItem(tax)},
				{Methods: rest.Editable, Args: append(rest.Props{{Name: "id", Schema: &rest.Schema{Type: "integer"}}}, termWriteArgs(tax, false)...), AllowBatch: batchV1,
					Permission: s.termWritePermission(tax, tax.EditCap, "rest_cannot_update", "Sorry, you are not allowed to edit this term."), Handler: s.updateTerm(tax)},
				{Methods: rest.Deletable, Args: rest.Props{{Name: "id", Schema: &rest.Schema{Type: "integer"}}, {Name: "force", Schema: &rest.Schema{Type: "boolean", Default: false}}}, AllowBatch: batchV1,
					Permission: s.termWritePermission(tax, tax.DeleteCap, "rest_cannot_delete", "Sorry, you are not allowed to delete this term."), Handler: s.deleteTerm(tax)},
			}},
		)
	}
	routes = append(routes, s.menuItemRoutes()...)
	routes = append(routes, s.settingsRoutes()...)
	routes = append(routes, s.discoveryRoutes()...)
	routes = append(routes, searchRoutes(s)...)
	routes = append(routes, s.commentRoutes()...)
	// themes, templates, template parts, global styles (themes.go,
	// templates.go, template_revisions.go, global_styles.go)
	routes = append(routes, s.themeRoutes()...)
	routes = append(routes, s.templateRoutes()...)
	// the block editor's routes (block_types.go, editor_routes.go,
	// block_renderer.go, navigation_fallback.go)
	routes = append(routes, s.blockTypeRoutes()...)
	routes = append(routes, s.editorRoutes()...)
	routes = append(routes, s.menuLocationRoutes()...)
	routes = append(routes, s.blockRendererRoutes()...)
	routes = append(routes, s.navigationFallbackRoutes()...)
	// routes answered as WordPress answers for a feature this site does
	// not have (plugins.go, widgets.go)
	routes = append(routes, s.pluginRoutes()...)
	routes = append(routes, s.widgetRoutes()...)
	routes = append(routes, s.abilitiesRoutes()...) // abilities.go
	// the site editor's font library (fonts.go)
	routes = append(routes, s.fontRoutes()...)
	return limitSmallBodies(append(routes, s.globalStylesRoutes()...))
}

// maxSmallBody is the body limit of the routes whose writes are a few short
// fields (terms, menus, menu items, settings, comments, a block's
// attributes for the block renderer; WordPress caps a
// comment at 65,525 bytes): an anonymous caller's body is refused at 1 MiB
// rather than read up to the service's 10 MiB. Posts, pages, templates,
// global styles and their revisions keep the default: their content may
// be large.
const maxSmallBody = 1 << 20

// limitSmallBodies gives maxSmallBody to every endpoint of the small
// routes that declares no limit of its own.
func limitSmallBodies(routes []rest.Route) []rest.Route {
	small := []string{"/settings", "/comments", "/search", "/types", "/taxonomies", "/statuses", "/themes", "/" + store.MenuItemType.Base,
		"/block-types", "/block-patterns", "/block-renderer", "/menu-locations", "/navigation-fallback", "/plugins", "/block-directory", "/abilities",
		"/sidebars", "/widgets", "/widget-types"}
	for _, tax := range store.Taxonomies {
		small = append(small, "/"+tax.Base)
	}
	for i := range routes {
		r := &routes[i]
		for _, base := range small {
			if r.Path != base && !strings.HasPrefix(r.Path, base+"/") {
				continue
			}
			for j := range r.Endpoints {
				if r.Endpoints[j].MaxBody == 0 {
					r.Endpoints[j].MaxBody = maxSmallBody
				}
			}
		}
	}
	return routes
}

// parentIDArgs are a revision route's parent and id arguments, then more.
// autosaveParentArg is what WordPress's autosaves controller declares on
// /{id}/autosaves: a "parent" argument (the URL's group is "id"), so a
// ?parent=notanint is refused as a type error, as in WordPress 6.9.7.
func autosaveParentArg() rest.Prop {
	return rest.Prop{Name: "parent", Schema: &rest.Schema{Type: "integer", Description: "The ID for the parent of the autosave."}}
}

// withAutosaveParent adds autosaveParentArg to an endpoint's arguments
// unless they have their own "parent" (pages'), which wins as in
// register_rest_route.
func withAutosaveParent(args rest.Props) rest.Props {
	for _, a := range args {
		if a.Name == "parent" {
			return args
		}
	}
	return append(rest.Props{autosaveParentArg()}, args...)
}

func parentIDArgs(more ...rest.Prop) rest.Props {
	return append(rest.Props{{Name: "parent", Schema: &rest.Schema{Type: "integer"}}, {Name: "id", Schema: &rest.Schema{Type: "integer"}}}, more...)
}
