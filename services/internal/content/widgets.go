package content

import (
	"net/http"

	"siteplane.dev/services/internal/platform/rest"
)

// cms/v2/sidebars, widgets and widget-types (WordPress's wp/v2 ones),
// answered as WordPress 6.9.7 answers for a block theme with no widget
// types registered: the theme has no widget areas, so the only sidebar is
// WordPress's "Inactive widgets" one, inactive and empty; there are no
// widgets and no widget types, so each id is not found and a widget cannot
// be created or changed. The routes, arguments, permission order (every
// route needs edit_theme_options), codes and messages are WordPress's.
// One deliberate difference: updating a widget id that does not exist
// answers 404 rest_widget_not_found where WordPress assigns the unknown id
// and then fails to render it (500 rest_invalid_widget).

// inactiveSidebar is wp_get_sidebar's sidebar for unplaced widgets.
const inactiveSidebar = "wp_inactive_widgets"

const (
	msgManageWidgets  = "Sorry, you are not allowed to manage widgets on this site."
	msgWidgetNotFound = "No widget was found with that id."
)

func (s *Service) widgetRoutes() []rest.Route {
	widgetTypeID := rest.Prop{Name: "id", Schema: &rest.Schema{Type: "string", Description: "The widget type id.", Required: true}}
	instanceArg := rest.Prop{Name: "instance", Schema: &rest.Schema{Type: "object", Description: "Current instance settings of the widget."}}
	sidebars, widgets, types := sidebarSchema(), widgetSchema(), widgetTypeSchema()
	notFoundType := widgetTypePermission(true)
	return []rest.Route{
		{Namespace: Namespace, Path: "/sidebars", Schema: sidebars, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{contextArg()}, Permission: manageWidgets, Handler: s.listSidebars}}},
		{Namespace: Namespace, Path: `/sidebars/(?P<id>[\w-]+)`, Schema: sidebars, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{{Name: "id", Schema: &rest.Schema{Type: "string", Description: "The id of a registered sidebar"}}, contextArg()},
				Permission: manageWidgets, Handler: s.getSidebar},
			{Methods: rest.Editable, Args: rest.Props{{Name: "widgets", Schema: &rest.Schema{Type: "array", Description: "Nested widgets.",
				Items: &rest.Schema{Types: []string{"object", "string"}}}}}, Permission: manageWidgets, Handler: s.getSidebar}}},
		{Namespace: Namespace, Path: "/widgets", Schema: widgets, AllowBatch: batchV1, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{contextArg(), {Name: "sidebar", Schema: &rest.Schema{Type: "string", Description: "The sidebar to return widgets for."}}},
				Permission: manageWidgets, Handler: func(*rest.Request) (*rest.Response, error) { return rest.OK([]any{}), nil }},
			{Methods: rest.Creatable, Args: widgetWriteArgs(true), Permission: manageWidgets, Handler: saveWidget}}},
		{Namespace: Namespace, Path: `/widgets/(?P<id>[\w\-]+)`, Schema: widgets, AllowBatch: batchV1, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{contextArg()}, Permission: manageWidgets, Handler: widgetNotFound},
			{Methods: rest.Editable, Args: widgetWriteArgs(false), Permission: manageWidgets, Handler: updateWidget},
			{Methods: rest.Deletable, Args: rest.Props{{Name: "force", Schema: &rest.Schema{Type: "boolean",
				Description: "Whether to force removal of the widget, or move it to the inactive sidebar."}}}, Permission: manageWidgets, Handler: widgetNotFound}}},
		{Namespace: Namespace, Path: "/widget-types", Schema: types, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{contextArg()}, Permission: widgetTypePermission(false),
				Handler: func(*rest.Request) (*rest.Response, error) { return rest.OK([]any{}), nil }}}},
		{Namespace: Namespace, Path: `/widget-types/(?P<id>[a-zA-Z0-9_-]+)`, Schema: types, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{{Name: "id", Schema: &rest.Schema{Type: "string", Description: "The widget type id."}}, contextArg()},
				Permission: notFoundType, Handler: widgetTypeNotFound}}},
		{Namespace: Namespace, Path: `/widget-types/(?P<id>[a-zA-Z0-9_-]+)/encode`, Endpoints: []rest.Endpoint{
			{Methods: rest.Creatable, Args: rest.Props{widgetTypeID, instanceArg,
				{Name: "form_data", Schema: &rest.Schema{Type: "string", Description: "Serialized widget form data to encode into instance settings."}}},
				Permission: notFoundType, Handler: widgetTypeNotFound}}},
		{Namespace: Namespace, Path: `/widget-types/(?P<id>[a-zA-Z0-9_-]+)/render`, Endpoints: []rest.Endpoint{
			{Methods: rest.Creatable, Args: rest.Props{widgetTypeID, instanceArg}, Permission: notFoundType, Handler: widgetTypeNotFound}}},
	}
}

// manageWidgets is the controllers' edit_theme_options check.
func manageWidgets(r *rest.Request) error {
	if caller(r).Can("edit_theme_options") {
		return nil
	}
	return rest.Denied(r, "rest_cannot_manage_widgets", msgManageWidgets)
}

// widgetTypePermission: edit_theme_options, then (for an item) the type
// must exist, and none does.
func widgetTypePermission(item bool) func(*rest.Request) error {
	return func(r *rest.Request) error {
		if err := manageWidgets(r); err != nil || !item {
			return err
		}
		return rest.NewError("rest_widget_type_invalid", "Invalid widget type.", http.StatusNotFound)
	}
}

func widgetTypeNotFound(*rest.Request) (*rest.Response, error) {
	return nil, rest.NewError("rest_widget_type_invalid", "Invalid widget type.", http.StatusNotFound)
}

func widgetNotFound(*rest.Request) (*rest.Response, error) {
	return nil, rest.NewError("rest_widget_not_found", msgWidgetNotFound, http.StatusNotFound)
}

// saveWidget is save_widget with no widget type registered: a type is
// required, and none can be saved.
func saveWidget(r *rest.Request) (*rest.Response, error) {
	if r.String("id") == "" && r.String("id_base") == "" {
		return nil, rest.NewError("rest_invalid_widget", "Widget type (id_base) is required.", http.StatusBadRequest)
	}
	return nil, rest.NewError("rest_invalid_widget", "The provided widget type (id_base) cannot be updated.", http.StatusBadRequest)
}

// updateWidget saves new settings as WordPress does (refused: no type can
// be updated); anything else is the deliberate 404 described above.
func updateWidget(r *rest.Request) (*rest.Response, error) {
	if r.Has("instance") || r.Has("form_data") {
		return saveWidget(r)
	}
	return widgetNotFound(r)
}

func (s *Service) listSidebars(*rest.Request) (*rest.Response, error) {
	return rest.OK([]any{s.inactiveSidebarItem()}), nil
}

// getSidebar answers the inactive sidebar (a read, or an update: its
// widgets can only be ones that are not registered, which a sidebar never
// lists) and rest_sidebar_not_found for any other id.
func (s *Service) getSidebar(r *rest.Request) (*rest.Response, error) {
	if r.String("id") != inactiveSidebar {
		return nil, rest.NewError("rest_sidebar_not_found", "No sidebar exists with that id.", http.StatusNotFound)
	}
	return rest.OK(s.inactiveSidebarItem()), nil
}

func (s *Service) inactiveSidebarItem() rest.Item {
	base := s.restRoot + "/" + Namespace
	return rest.Item{Data: rest.Object{
		{Key: "id", Value: inactiveSidebar}, {Key: "name", Value: "Inactive widgets"}, {Key: "description", Value: ""},
		{Key: "class", Value: ""}, {Key: "before_widget", Value: ""}, {Key: "after_widget", Value: ""},
		{Key: "before_title", Value: ""}, {Key: "after_title", Value: ""}, {Key: "status", Value: "inactive"},
		{Key: "widgets", Value: []any{}},
	}, Links: rest.Links{
		{Rel: "collection", Href: base + "/sidebars"},
		{Rel: "self", Href: base + "/sidebars/" + inactiveSidebar},
		rest.EmbeddableLink(rest.APIRelPrefix+"widget", base+"/widgets?sidebar="+inactiveSidebar),
	}}
}

// widgetWriteArgs are the schema's writable fields; sidebar is required
// (with its default) on create only.
func widgetWriteArgs(create bool) rest.Props {
	sidebar := &rest.Schema{Type: "string", Description: "The sidebar the widget belongs to."}
	instance := &rest.Schema{Type: "object", Description: "Instance settings of the widget, if supported."}
	if create {
		sidebar.Default, sidebar.Required = inactiveSidebar, true
	}
	return rest.Props{
		{Name: "id", Schema: &rest.Schema{Type: "string", Description: "Unique identifier for the widget."}},
		{Name: "id_base", Schema: &rest.Schema{Type: "string", Description: "The type of the widget. Corresponds to ID in widget-types endpoint."}},
		{Name: "sidebar", Schema: sidebar},
		{Name: "instance", Schema: instance},
		{Name: "form_data", Schema: &rest.Schema{Type: "string", Description: "URL-encoded form data from the widget admin form. Used to update a widget that does not support instance. Write only."}},
	}
}

func sidebarSchema() *rest.Schema {
	sch := readonlyItemSchema("sidebar", ctxAllOrdered,
		[3]string{"id", "ID of sidebar.", "string"},
		[3]string{"name", "Unique name identifying the sidebar.", "string"},
		[3]string{"description", "Description of sidebar.", "string"},
		[3]string{"class", "Extra CSS class to assign to the sidebar in the Widgets interface.", "string"},
		[3]string{"before_widget", "HTML content to prepend to each widget's HTML output when assigned to this sidebar. Default is an opening list item element.", "string"},
		[3]string{"after_widget", "HTML content to append to each widget's HTML output when assigned to this sidebar. Default is a closing list item element.", "string"},
		[3]string{"before_title", "HTML content to prepend to the sidebar title when displayed. Default is an opening h2 element.", "string"},
		[3]string{"after_title", "HTML content to append to the sidebar title when displayed. Default is a closing h2 element.", "string"},
		[3]string{"status", "Status of sidebar.", "string"},
		[3]string{"widgets", "Nested widgets.", "array"})
	for i := 4; i < 8; i++ {
		sch.Properties[i].Schema.Default = ""
	}
	sch.Properties[8].Schema.Enum = strEnum("active", "inactive")
	w := sch.Properties[9].Schema
	w.Readonly, w.Default, w.Items = false, []any{}, &rest.Schema{Types: []string{"object", "string"}}
	return sch
}

func widgetSchema() *rest.Schema {
	// field: writable unless readonly; context ctx
	field := func(typ, desc string, ctx []string, readonly bool) *rest.Schema {
		return &rest.Schema{Type: typ, Description: desc, Context: ctx, Readonly: readonly}
	}
	sidebar := field("string", "The sidebar the widget belongs to.", ctxAll, false)
	sidebar.Default, sidebar.Required = inactiveSidebar, true
	instance := field("object", "Instance settings of the widget, if supported.", ctxEdit, false)
	instance.Properties = rest.Props{
		{Name: "encoded", Schema: field("string", "Base64 encoded representation of the instance settings.", ctxEdit, false)},
		{Name: "hash", Schema: field("string", "Cryptographic hash of the instance settings.", ctxEdit, false)},
		{Name: "raw", Schema: field("object", "Unencoded instance settings, if supported.", ctxEdit, false)},
	}
	return &rest.Schema{SchemaURI: "http://json-schema.org/draft-04/schema#", Title: "widget", Type: "object", Properties: rest.Props{
		{Name: "id", Schema: field("string", "Unique identifier for the widget.", ctxAll, false)},
		{Name: "id_base", Schema: field("string", "The type of the widget. Corresponds to ID in widget-types endpoint.", ctxAll, false)},
		{Name: "sidebar", Schema: sidebar},
		{Name: "rendered", Schema: field("string", "HTML representation of the widget.", ctxAll, true)},
		{Name: "rendered_form", Schema: field("string", "HTML representation of the widget admin form.", ctxEdit, true)},
		{Name: "instance", Schema: instance},
		{Name: "form_data", Schema: field("string", "URL-encoded form data from the widget admin form. Used to update a widget that does not support instance. Write only.", []string{}, false)},
	}}
}

func widgetTypeSchema() *rest.Schema {
	sch := readonlyItemSchema("widget-type", ctxAllOrdered,
		[3]string{"id", "Unique slug identifying the widget type.", "string"},
		[3]string{"name", "Human-readable name identifying the widget type.", "string"},
		[3]string{"description", "Description of the widget.", "string"},
		[3]string{"is_multi", "Whether the widget supports multiple instances", "boolean"},
		[3]string{"classname", "Class name", "string"})
	for _, i := range []int{1, 2, 4} {
		sch.Properties[i].Schema.Default = ""
	}
	sch.Properties[2].Schema.Readonly = false
	return sch
}
