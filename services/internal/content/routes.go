package content

// HandlerFunc serves one validated request.
type HandlerFunc func(*Call) (*Result, error)

// Endpoint is one method set of a route: its arguments and handler.
// Permission checks live in the handlers, after validation, in WordPress's
// order; Allow is the methods whose Allowed check passes.
type Endpoint struct {
	Methods    []string
	Args       []P
	AllowBatch bool
	// Permission is the permission_callback: it runs after validation and
	// before the handler, and decides the Allow header. Nil allows.
	Permission func(*Call) error
	Handler    HandlerFunc
}

// Route is one route declared as data: the pattern after the namespace
// (WordPress regex syntax with named groups) and its endpoints.
type Route struct {
	Path      string
	Endpoints []Endpoint
	// Schema is the item schema (OPTIONS, route descriptions).
	Schema *S
}

// Namespace is the REST namespace of every route of this service.
const Namespace = "cms/v2"

var (
	readable  = []string{"GET"}
	creatable = []string{"POST"}
	editable  = []string{"POST", "PUT", "PATCH"}
	deletable = []string{"DELETE"}
)

// Routes declares every route of the service, once.
func (s *Service) Routes() []Route {
	var routes []Route
	for _, pt := range PostTypes {
		base := "/" + pt.Base
		routes = append(routes,
			Route{Path: base, Schema: postSchema(pt), Endpoints: []Endpoint{
				{Methods: readable, Args: collectionArgs(pt), Permission: listPostsPermission(pt), Handler: s.listPosts(pt)},
				{Methods: creatable, Args: writeArgs(pt), AllowBatch: true, Permission: createPostPermission(pt), Handler: s.createPost(pt)},
			}},
			Route{Path: base + `/(?P<id>[\d]+)`, Schema: postSchema(pt), Endpoints: []Endpoint{
				{Methods: readable, Args: itemArgs(pt), AllowBatch: true, Permission: s.getPostPermission(pt), Handler: s.getPostItem(pt)},
				{Methods: editable, Args: append([]P{{"id", &S{Type: "integer"}}}, writeArgs(pt)...), AllowBatch: true, Permission: s.updatePostPermission(pt), Handler: s.updatePostItem(pt)},
				{Methods: deletable, Args: deleteArgs(), AllowBatch: true, Permission: s.deletePostPermission(pt), Handler: s.deletePostItem(pt)},
			}},
			Route{Path: base + `/(?P<parent>[\d]+)/revisions`, Schema: revisionSchema(pt, false), Endpoints: []Endpoint{
				{Methods: readable, Args: revisionsArgs(), Permission: s.revisionsPermission(pt, "parent", "revisions"), Handler: s.listRevisions(pt)},
			}},
			Route{Path: base + `/(?P<parent>[\d]+)/revisions/(?P<id>[\d]+)`, Schema: revisionSchema(pt, false), Endpoints: []Endpoint{
				{Methods: readable, Args: []P{{"parent", &S{Type: "integer"}}, {"id", &S{Type: "integer"}}, contextArg()}, Permission: s.revisionsPermission(pt, "parent", "revisions"), Handler: s.getRevision(pt)},
				{Methods: deletable, Args: []P{{"parent", &S{Type: "integer"}}, {"id", &S{Type: "integer"}}, {"force", &S{Type: "boolean", Default: false}}}, Permission: s.deleteRevisionPermission(pt), Handler: s.deleteRevision(pt)},
			}},
			Route{Path: base + `/(?P<id>[\d]+)/autosaves`, Schema: revisionSchema(pt, true), Endpoints: []Endpoint{
				{Methods: readable, Args: []P{{"id", &S{Type: "integer"}}, contextArg()}, Permission: s.revisionsPermission(pt, "id", "autosaves"), Handler: s.listAutosaves(pt)},
				{Methods: creatable, Args: append([]P{{"id", &S{Type: "integer"}}}, writeArgs(pt)...), Permission: s.createAutosavePermission(pt), Handler: s.createAutosave(pt)},
			}},
			Route{Path: base + `/(?P<parent>[\d]+)/autosaves/(?P<id>[\d]+)`, Schema: revisionSchema(pt, true), Endpoints: []Endpoint{
				{Methods: readable, Args: []P{{"parent", &S{Type: "integer"}}, {"id", &S{Type: "integer"}}, contextArg()}, Permission: s.revisionsPermission(pt, "parent", "revisions"), Handler: s.getAutosave(pt)}, // the revisions controller's check
			}},
		)
	}
	for _, tax := range Taxonomies {
		base := "/" + tax.Base
		routes = append(routes,
			Route{Path: base, Schema: termSchema(tax), Endpoints: []Endpoint{
				{Methods: readable, Args: termCollectionArgs(tax), Permission: listTermsPermission(tax), Handler: s.listTerms(tax)},
				{Methods: creatable, Args: termWriteArgs(tax, true), AllowBatch: true, Permission: createTermPermission(tax), Handler: s.createTerm(tax)},
			}},
			Route{Path: base + `/(?P<id>[\d]+)`, Schema: termSchema(tax), Endpoints: []Endpoint{
				{Methods: readable, Args: []P{{"id", &S{Type: "integer"}}, contextArg()}, AllowBatch: true, Permission: s.getTermPermission(tax), Handler: s.getTermItem(tax)},
				{Methods: editable, Args: append([]P{{"id", &S{Type: "integer"}}}, termWriteArgs(tax, false)...), AllowBatch: true,
					Permission: s.termWritePermission(tax, tax.EditCap, "rest_cannot_update", "Sorry, you are not allowed to edit this term."), Handler: s.updateTerm(tax)},
				{Methods: deletable, Args: []P{{"id", &S{Type: "integer"}}, {"force", &S{Type: "boolean", Default: false}}}, AllowBatch: true,
					Permission: s.termWritePermission(tax, tax.DeleteCap, "rest_cannot_delete", "Sorry, you are not allowed to delete this term."), Handler: s.deleteTerm(tax)},
			}},
		)
	}
	return routes
}
