package content

import (
	"net/http"

	"siteplane.dev/services/internal/platform/rest"
)

// cms-abilities/v1 (WordPress 6.9's wp-abilities/v1, renamed as the seed
// renames brand stems): the Abilities API's categories, abilities and their
// run route. Siteplane registers no abilities (WordPress's come from PHP:
// core's three and whatever plugins add), so the lists are empty and every
// name is "not found"; the routes, arguments, permission order, pagination
// headers, codes and messages are WordPress 6.9.7's, so a client that
// discovers the namespace gets well-formed answers.

// abilitiesNamespace is WordPress's wp-abilities/v1.
const abilitiesNamespace = "cms-abilities/v1"

// The name and slug patterns of the controllers' routes and arguments.
const (
	abilityNamePattern     = `[a-zA-Z0-9\-\/]+`
	abilityCategoryPattern = `[a-z0-9]+(?:-[a-z0-9]+)*`
)

func (s *Service) abilitiesRoutes() []rest.Route {
	name := rest.Prop{Name: "name", Schema: &rest.Schema{Type: "string", Description: "Unique identifier for the ability.", Pattern: "^" + abilityNamePattern + "$"}}
	slug := rest.Prop{Name: "slug", Schema: &rest.Schema{Type: "string", Description: "Unique identifier for the ability category.", Pattern: "^" + abilityCategoryPattern + "$"}}
	categories, abilities := abilityCategorySchema(), abilitySchema()
	return []rest.Route{
		{Namespace: abilitiesNamespace, Path: "/categories", Schema: categories, Endpoints: []rest.Endpoint{{Methods: rest.Readable,
			Args: abilitiesPageArgs(), Permission: canRead, Handler: emptyPage}}},
		{Namespace: abilitiesNamespace, Path: `/categories/(?P<slug>` + abilityCategoryPattern + `)`, Schema: categories, Endpoints: []rest.Endpoint{{Methods: rest.Readable,
			Args: rest.Props{slug}, Permission: canRead, Handler: abilityNotFound("rest_ability_category_not_found", "Ability category not found.")}}},
		{Namespace: abilitiesNamespace, Path: "/abilities", Schema: abilities, Endpoints: []rest.Endpoint{{Methods: rest.Readable,
			Args:       append(abilitiesPageArgs(), rest.Prop{Name: "category", Schema: &rest.Schema{Type: "string", Description: "Limit results to abilities in specific ability category."}}),
			Permission: canRead, Handler: emptyPage}}},
		// every method, as WordPress registers it: whether an ability takes
		// GET, POST or DELETE depends on its annotations
		{Namespace: abilitiesNamespace, Path: `/abilities/(?P<name>` + abilityNamePattern + `?)/run`, Schema: abilityRunSchema(), Endpoints: []rest.Endpoint{{Methods: rest.AllMethods,
			Args: rest.Props{name, {Name: "input", Schema: &rest.Schema{Types: anyJSONTypes(), Description: "Input parameters for the ability execution."}}},
			// the run controller looks the ability up before any
			// other check, so everyone (anonymous callers too) learns
			// that it does not exist
			Permission: func(*rest.Request) error {
				return rest.NewError("rest_ability_not_found", "Ability not found.", http.StatusNotFound)
			},
			Handler: abilityNotFound("rest_ability_not_found", "Ability not found.")}}},
		// after run: the item pattern also matches ".../run"
		{Namespace: abilitiesNamespace, Path: `/abilities/(?P<name>` + abilityNamePattern + `)`, Schema: abilities, Endpoints: []rest.Endpoint{{Methods: rest.Readable,
			Args: rest.Props{name}, Permission: canRead, Handler: abilityNotFound("rest_ability_not_found", "Ability not found.")}}},
	}
}

func anyJSONTypes() []string {
	return []string{"integer", "number", "boolean", "string", "array", "object", "null"}
}

// canRead is the controllers' current_user_can( 'read' ): a false answer
// becomes WordPress's rest_forbidden.
func canRead(r *rest.Request) error {
	if caller(r).Can("read") {
		return nil
	}
	return rest.Forbidden(r)
}

func abilitiesPageArgs() rest.Props {
	return rest.Props{contextArg(),
		{Name: "page", Schema: &rest.Schema{Type: "integer", Description: "Current page of the collection.", Default: 1, Minimum: rest.Ptr(1.0)}},
		{Name: "per_page", Schema: &rest.Schema{Type: "integer", Description: "Maximum number of items to be returned in result set.", Default: 50,
			Minimum: rest.Ptr(1.0), Maximum: rest.Ptr(100.0)}},
	}
}

// emptyPage is the page of a collection this site never holds items of
// (the abilities registry, the font library): no items, X-WP-Total and
// X-WP-TotalPages 0, and a previous-page link past the first page.
func emptyPage(r *rest.Request) (*rest.Response, error) {
	res := rest.OK([]any{})
	rest.Paginate(r, res, 0, int(r.Int("page")), int(r.Int("per_page")))
	return res, nil
}

func abilityNotFound(code, message string) rest.HandlerFunc {
	return func(*rest.Request) (*rest.Response, error) {
		return nil, rest.NewError(code, message, http.StatusNotFound)
	}
}

func abilityCategorySchema() *rest.Schema {
	sch := readonlyItemSchema("ability-category", ctxAll,
		[3]string{"slug", "Unique identifier for the ability category.", "string"},
		[3]string{"label", "Display label for the category.", "string"},
		[3]string{"description", "Description of the category.", "string"},
		[3]string{"meta", "Meta information about the category.", "object"})
	sch.Properties[2].Schema.Context, sch.Properties[3].Schema.Context = ctxView, ctxView
	return sch
}

func abilitySchema() *rest.Schema {
	sch := readonlyItemSchema("ability", ctxAll,
		[3]string{"name", "Unique identifier for the ability.", "string"},
		[3]string{"label", "Display label for the ability.", "string"},
		[3]string{"description", "Description of the ability.", "string"},
		[3]string{"category", "Ability category this ability belongs to.", "string"},
		[3]string{"input_schema", "JSON Schema for the ability input.", "object"},
		[3]string{"output_schema", "JSON Schema for the ability output.", "object"},
		[3]string{"meta", "Meta information about the ability.", "object"})
	for _, i := range []int{2, 4, 5, 6} {
		sch.Properties[i].Schema.Context = ctxView
	}
	sch.Properties[6].Schema.Properties = rest.Props{{Name: "annotations", Schema: &rest.Schema{Types: []string{"boolean", "null"}, Description: "Annotations for the ability."}}}
	return sch
}

func abilityRunSchema() *rest.Schema {
	return &rest.Schema{SchemaURI: "http://json-schema.org/draft-04/schema#", Title: "ability-execution", Type: "object", Properties: rest.Props{
		{Name: "result", Schema: &rest.Schema{Types: anyJSONTypes(), Description: "The result of the ability execution.", Context: ctxView, Readonly: true}},
	}}
}
