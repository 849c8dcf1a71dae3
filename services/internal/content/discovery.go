package content

import (
	"net/http"
	"slices"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// The discovery routes clients read first: /types, /taxonomies, /statuses
// (WP_REST_Post_Types_Controller, WP_REST_Taxonomies_Controller,
// WP_REST_Post_Statuses_Controller). Collections are objects keyed by name.

const (
	msgEditPostsOfType = "Sorry, you are not allowed to edit posts in this post type."
	msgManageTerms     = "Sorry, you are not allowed to manage terms in this taxonomy."
)

func (s *Service) discoveryRoutes() []rest.Route {
	str := func(name string) rest.Prop { return rest.Prop{Name: name, Schema: &rest.Schema{Type: "string"}} }
	return []rest.Route{
		{Namespace: Namespace, Path: "/types", Schema: typeSchema(), Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{contextArg()}, Permission: typesPermission, Handler: s.listTypes}}},
		{Namespace: Namespace, Path: `/types/(?P<type>[\w-]+)`, Schema: typeSchema(), Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{str("type"), contextArg()}, Permission: typePermission, Handler: s.getType}}},
		{Namespace: Namespace, Path: "/taxonomies", Schema: taxonomySchema(), Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{contextArg(), str("type")}, Permission: taxonomiesPermission, Handler: s.listTaxonomies}}},
		{Namespace: Namespace, Path: `/taxonomies/(?P<taxonomy>[\w-]+)`, Schema: taxonomySchema(), Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{str("taxonomy"), contextArg()}, Permission: taxonomyPermission, Handler: s.getTaxonomy}}},
		{Namespace: Namespace, Path: "/statuses", Schema: statusSchema(), Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{contextArg()}, Permission: statusesPermission, Handler: s.listStatuses}}},
		{Namespace: Namespace, Path: `/statuses/(?P<status>[\w-]+)`, Schema: statusSchema(), Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{str("status"), contextArg()}, Permission: statusPermission, Handler: s.getStatus}}},
	}
}

func typeSchema() *rest.Schema {
	p := func(name, typ string, ctx []string) rest.Prop {
		return rest.Prop{Name: name, Schema: &rest.Schema{Type: typ, Context: ctx, Readonly: true}}
	}
	return &rest.Schema{Title: "type", Type: "object", Properties: rest.Props{
		p("capabilities", "object", ctxEdit), p("description", "string", ctxView), p("hierarchical", "boolean", ctxView),
		p("viewable", "boolean", ctxEdit), p("labels", "object", ctxEdit), p("name", "string", ctxAll),
		p("slug", "string", ctxAll), p("supports", "object", ctxEdit), p("has_archive", "boolean", ctxView),
		p("taxonomies", "array", ctxView), p("rest_base", "string", ctxAll), p("rest_namespace", "string", ctxAll),
		p("visibility", "object", ctxEdit), p("icon", "string", ctxAll), p("template", "array", ctxAll),
		{Name: "template_lock", Schema: &rest.Schema{Types: []string{"string", "boolean"}, Enum: []any{"all", "insert", "contentOnly", false}, Context: ctxAll, Readonly: true}},
	}}
}

func taxonomySchema() *rest.Schema {
	p := func(name, typ string, ctx []string) rest.Prop {
		return rest.Prop{Name: name, Schema: &rest.Schema{Type: typ, Context: ctx, Readonly: true}}
	}
	return &rest.Schema{Title: "taxonomy", Type: "object", Properties: rest.Props{
		p("capabilities", "object", ctxEdit), p("description", "string", ctxView), p("hierarchical", "boolean", ctxView),
		p("labels", "object", ctxEdit), p("name", "string", ctxAll), p("slug", "string", ctxAll),
		p("show_cloud", "boolean", ctxEdit), p("types", "array", ctxView), p("rest_base", "string", ctxAll),
		p("rest_namespace", "string", ctxAll), p("visibility", "object", ctxEdit),
	}}
}

func statusSchema() *rest.Schema {
	p := func(name, typ string, ctx []string) rest.Prop {
		return rest.Prop{Name: name, Schema: &rest.Schema{Type: typ, Context: ctx, Readonly: true}}
	}
	return &rest.Schema{Title: "status", Type: "object", Properties: rest.Props{
		p("name", "string", ctxAll), p("private", "boolean", ctxEdit), p("protected", "boolean", ctxEdit),
		p("public", "boolean", ctxView), p("queryable", "boolean", ctxView), p("show_in_list", "boolean", ctxEdit),
		p("slug", "string", ctxAll), p("date_floating", "boolean", ctxView),
	}}
}

// canEditAnyType is "can edit_posts of some REST post type".
func canEditAnyType(c *rest.Request) bool {
	for i := range typeInfos {
		if caller(c).Can(typeInfos[i].caps.EditPosts) {
			return true
		}
	}
	return false
}

func typesPermission(c *rest.Request) error {
	if c.String("context") == "edit" && !canEditAnyType(c) {
		return rest.Denied(c, "rest_cannot_view", msgEditPostsOfType)
	}
	return nil
}

func typePermission(c *rest.Request) error {
	t := typeInfoByName(c.String("type"))
	if t == nil {
		return rest.NewError("rest_type_invalid", "Invalid post type.", http.StatusNotFound)
	}
	return editContextPermission(c, t.caps.EditPosts, msgEditPostsOfType)
}

// editContextPermission lets context=edit through only with editCap
// (rest_forbidden_context otherwise, with msg).
func editContextPermission(c *rest.Request, editCap, msg string) error {
	if c.String("context") == "edit" && !caller(c).Can(editCap) {
		return rest.Denied(c, "rest_forbidden_context", msg)
	}
	return nil
}

func boolMap(keys []string) rest.Object {
	o := make(rest.Object, 0, len(keys))
	for _, k := range keys {
		o = append(o, rest.Member{Key: k, Value: true})
	}
	return o
}

func labelsObject(pairs []labelPair) rest.Object {
	o := make(rest.Object, 0, len(pairs))
	for _, l := range pairs {
		o = append(o, rest.Member{Key: l.key, Value: l.value})
	}
	return o
}

// prepareType renders a post type for context, in WordPress's order.
func (s *Service) prepareType(t *typeInfo, context string) rest.Object {
	edit, embed := context == "edit", context == "embed"
	out := make(rest.Object, 0, 18)
	add := func(k string, v any) { out = append(out, rest.Member{Key: k, Value: v}) }
	if edit {
		c := t.caps
		add("capabilities", rest.Object{{Key: "edit_post", Value: "edit_" + t.capType}, {Key: "read_post", Value: "read_" + t.capType},
			{Key: "delete_post", Value: "delete_" + t.capType}, {Key: "edit_posts", Value: c.EditPosts},
			{Key: "edit_others_posts", Value: c.EditOthers}, {Key: "delete_posts", Value: c.DeletePosts},
			{Key: "publish_posts", Value: c.Publish}, {Key: "read_private_posts", Value: c.ReadPrivate},
			{Key: "read", Value: c.Read}, {Key: "delete_private_posts", Value: c.DeletePrivate},
			{Key: "delete_published_posts", Value: c.DeletePublished}, {Key: "delete_others_posts", Value: c.DeleteOthers},
			{Key: "edit_private_posts", Value: c.EditPrivate}, {Key: "edit_published_posts", Value: c.EditPublished},
			{Key: "create_posts", Value: c.Create}})
	}
	if !embed {
		add("description", t.description)
		add("hierarchical", t.hierarchical)
		add("has_archive", false)
	}
	if edit {
		add("visibility", rest.Object{{Key: "show_in_nav_menus", Value: t.showInNav}, {Key: "show_ui", Value: t.showUI}})
		add("viewable", t.viewable)
		add("labels", labelsObject(postTypeLabels(t)))
	}
	add("name", t.plural)
	add("slug", t.name)
	var icon any
	if t.icon != "" {
		icon = t.icon
	}
	add("icon", icon)
	if edit {
		supports := boolMap(t.supports)
		for i := range supports {
			if supports[i].Key == "editor" && t.notes {
				supports[i].Value = []any{rest.Object{{Key: "notes", Value: true}}}
			}
		}
		add("supports", supports)
	}
	if !embed {
		add("taxonomies", t.taxonomies)
	}
	add("rest_base", t.base)
	add("rest_namespace", Namespace)
	// in every context, embed included (the schema's)
	add("template", []any{})
	add("template_lock", false)
	add("_links", rest.Object{
		{Key: "collection", Value: []any{href(s.restRoot + "/cms/v2/types")}},
		{Key: "wp:items", Value: []any{href(s.restRoot + "/cms/v2/" + t.base)}},
		{Key: "curies", Value: curies},
	})
	return out
}

// listTypes is GET /cms/v2/types.
func (s *Service) listTypes(c *rest.Request) (*rest.Response, error) {
	context := c.String("context")
	out := rest.Object{}
	for i := range typeInfos {
		t := &typeInfos[i]
		if context == "edit" && !caller(c).Can(t.caps.EditPosts) {
			continue
		}
		out = append(out, rest.Member{Key: t.name, Value: s.prepareType(t, context)})
	}
	return rest.OK(out), nil
}

// getType is GET /cms/v2/types/{type}.
func (s *Service) getType(c *rest.Request) (*rest.Response, error) {
	return rest.OK(s.prepareType(typeInfoByName(c.String("type")), c.String("context"))), nil
}

func taxonomiesPermission(c *rest.Request) error {
	if c.String("context") != "edit" {
		return nil
	}
	for i := range taxInfos {
		if caller(c).Can(taxInfos[i].tax.AssignCap) {
			return nil
		}
	}
	return rest.Denied(c, "rest_cannot_view", msgManageTerms)
}

func taxonomyPermission(c *rest.Request) error {
	t := taxInfoByName(c.String("taxonomy"))
	if t == nil {
		return rest.NewError("rest_taxonomy_invalid", "Invalid taxonomy.", http.StatusNotFound)
	}
	return editContextPermission(c, t.tax.AssignCap, msgManageTerms)
}

// prepareTaxonomy renders a taxonomy for context, in WordPress's order.
func (s *Service) prepareTaxonomy(t *taxInfo, context string) rest.Object {
	edit, embed := context == "edit", context == "embed"
	out := make(rest.Object, 0, 14)
	add := func(k string, v any) { out = append(out, rest.Member{Key: k, Value: v}) }
	add("name", t.plural)
	add("slug", t.tax.Name)
	if edit {
		add("capabilities", rest.Object{{Key: "manage_terms", Value: t.manage}, {Key: "edit_terms", Value: t.edit},
			{Key: "delete_terms", Value: t.delete}, {Key: "assign_terms", Value: t.assignCap}})
	}
	if !embed {
		add("description", t.description)
	}
	if edit {
		add("labels", labelsObject(taxLabels(t)))
	}
	if !embed {
		add("types", t.types)
	}
	if edit {
		add("show_cloud", t.showCloud)
	}
	if !embed {
		add("hierarchical", t.tax.Hierarchical)
	}
	add("rest_base", t.tax.Base)
	add("rest_namespace", Namespace)
	if edit {
		add("visibility", rest.Object{{Key: "public", Value: t.public}, {Key: "publicly_queryable", Value: t.public},
			{Key: "show_admin_column", Value: t.public}, {Key: "show_in_nav_menus", Value: t.showInNav},
			{Key: "show_in_quick_edit", Value: t.public}, {Key: "show_ui", Value: t.tax != store.Menu}})
	}
	add("_links", rest.Object{
		{Key: "collection", Value: []any{href(s.restRoot + "/cms/v2/taxonomies")}},
		{Key: "wp:items", Value: []any{href(s.restRoot + "/cms/v2/" + t.tax.Base)}},
		{Key: "curies", Value: curies},
	})
	return out
}

// listTaxonomies is GET /cms/v2/taxonomies; type keeps those of a post type.
func (s *Service) listTaxonomies(c *rest.Request) (*rest.Response, error) {
	context, typ := c.String("context"), c.String("type")
	out := rest.Object{}
	for i := range taxInfos {
		t := &taxInfos[i]
		if (typ != "" && !slices.Contains(t.types, typ)) || (context == "edit" && !caller(c).Can(t.tax.AssignCap)) {
			continue
		}
		out = append(out, rest.Member{Key: t.tax.Name, Value: s.prepareTaxonomy(t, context)})
	}
	return rest.OK(out), nil
}

// getTaxonomy is GET /cms/v2/taxonomies/{taxonomy}.
func (s *Service) getTaxonomy(c *rest.Request) (*rest.Response, error) {
	return rest.OK(s.prepareTaxonomy(taxInfoByName(c.String("taxonomy")), c.String("context"))), nil
}

// canReadStatus is the statuses controller's check_read_permission: public
// statuses for everyone, the others for whoever can edit some type.
func canReadStatus(c *rest.Request, st *statusInfo) bool {
	return st.public || (caller(c).LoggedIn() && canEditAnyType(c))
}

func statusesPermission(c *rest.Request) error {
	if c.String("context") == "edit" && !canEditAnyType(c) {
		return rest.Denied(c, "rest_cannot_view", "Sorry, you are not allowed to manage post statuses.")
	}
	return nil
}

func statusByName(name string) *statusInfo {
	for i := range statusInfos {
		if statusInfos[i].slug == name {
			return &statusInfos[i]
		}
	}
	return nil
}

func statusPermission(c *rest.Request) error {
	st := statusByName(c.String("status"))
	if st == nil {
		return rest.NewError("rest_status_invalid", "Invalid status.", http.StatusNotFound)
	}
	if !canReadStatus(c, st) {
		return rest.Denied(c, "rest_cannot_read_status", "Cannot view status.")
	}
	return nil
}

// prepareStatus renders a status for context, in WordPress's order.
func (s *Service) prepareStatus(st *statusInfo, context string) rest.Object {
	edit, embed := context == "edit", context == "embed"
	out := make(rest.Object, 0, 10)
	add := func(k string, v any) { out = append(out, rest.Member{Key: k, Value: v}) }
	add("name", st.name)
	if edit {
		add("private", st.private)
		add("protected", st.protected)
	}
	if !embed {
		add("public", st.public)
		add("queryable", st.queryable)
	}
	if edit {
		add("show_in_list", st.showInList)
	}
	add("slug", st.slug)
	if !embed {
		add("date_floating", st.dateFloating)
	}
	archives := s.restRoot + "/cms/v2/posts"
	if st.slug != "publish" {
		archives += "?status=" + st.slug
	}
	add("_links", rest.Object{{Key: "archives", Value: []any{href(archives)}}})
	return out
}

// listStatuses is GET /cms/v2/statuses.
func (s *Service) listStatuses(c *rest.Request) (*rest.Response, error) {
	context := c.String("context")
	out := rest.Object{}
	for i := range statusInfos {
		if canReadStatus(c, &statusInfos[i]) {
			out = append(out, rest.Member{Key: statusInfos[i].slug, Value: s.prepareStatus(&statusInfos[i], context)})
		}
	}
	return rest.OK(out), nil
}

// getStatus is GET /cms/v2/statuses/{status}.
func (s *Service) getStatus(c *rest.Request) (*rest.Response, error) {
	return rest.OK(s.prepareStatus(statusByName(c.String("status")), c.String("context"))), nil
}
