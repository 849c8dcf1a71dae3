package content

import (
	"net/http"

	"siteplane.dev/services/internal/platform/rest"
)

// cms/v2/plugins (WordPress's wp/v2/plugins), answered as WordPress answers
// for a site that has no PHP plugins and whose files cannot be changed
// (DISALLOW_FILE_MODS, which takes install_plugins and delete_plugins from
// every role): the list is empty, every plugin is "not found", installs and
// deletes are refused. The routes, arguments, permission order, codes and
// messages are WordPress 6.9.7's, so a client that asks which plugins are
// active gets a well-formed "none" instead of rest_no_route. The block
// directory (block-directory/search, which installs blocks as plugins from
// wordpress.org) needs install_plugins too, so it is refused to everyone,
// as WordPress refuses it on such a site.

// pluginPattern is WP_REST_Plugins_Controller::PATTERN: "dir/file" or
// "file", without ".php".
const pluginPattern = `[^.\/]+(?:\/[^.\/]+)?`

var pluginStatuses = strEnum("inactive", "active")

const msgManagePlugins = "Sorry, you are not allowed to manage plugins for this site."

func (s *Service) pluginRoutes() []rest.Route {
	sch := pluginSchema()
	plugin := rest.Prop{Name: "plugin", Schema: &rest.Schema{Type: "string", Pattern: pluginPattern}}
	itemArgs := func(more ...rest.Prop) rest.Props { return append(rest.Props{contextArg(), plugin}, more...) }
	return []rest.Route{
		{Namespace: Namespace, Path: "/block-directory/search", Schema: blockDirectorySchema(), Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{contextArg(),
				{Name: "page", Schema: &rest.Schema{Type: "integer", Description: "Current page of the collection.", Default: 1, Minimum: rest.Ptr(1.0)}},
				{Name: "per_page", Schema: &rest.Schema{Type: "integer", Description: "Maximum number of items to be returned in result set.", Default: 10, Minimum: rest.Ptr(1.0), Maximum: rest.Ptr(100.0)}},
				{Name: "term", Schema: &rest.Schema{Type: "string", Description: "Limit result set to blocks matching the search term.", Required: true, MinLength: iptr(1)}},
			}, Permission: func(r *rest.Request) error {
				return rest.Denied(r, "rest_block_directory_cannot_view", "Sorry, you are not allowed to browse the block directory.")
			}, Handler: listPlugins}}},
		{Namespace: Namespace, Path: "/plugins", Schema: sch, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{contextArg(),
				{Name: "search", Schema: &rest.Schema{Type: "string", Description: "Limit results to those matching a string."}},
				{Name: "status", Schema: &rest.Schema{Type: "array", Description: "Limits results to plugins with the given status.",
					Items: &rest.Schema{Type: "string", Enum: pluginStatuses}}},
			}, Permission: pluginsPermission("rest_cannot_view_plugins"), Handler: listPlugins},
			{Methods: rest.Creatable, Args: rest.Props{
				{Name: "slug", Schema: &rest.Schema{Type: "string", Required: true, Description: "WordPress.org plugin directory slug.", Pattern: `[\w\-]+`}},
				{Name: "status", Schema: &rest.Schema{Type: "string", Description: "The plugin activation status.", Enum: pluginStatuses, Default: "inactive"}},
			}, Permission: installPluginPermission, Handler: pluginNotFound},
		}},
		{Namespace: Namespace, Path: `/plugins/(?P<plugin>` + pluginPattern + `)`, Schema: sch, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: itemArgs(), Permission: pluginsPermission("rest_cannot_view_plugin"), Handler: pluginNotFound},
			{Methods: rest.Editable, Args: itemArgs(rest.Prop{Name: "status", Schema: &rest.Schema{Type: "string", Description: "The plugin activation status.", Enum: pluginStatuses}}),
				Permission: pluginsPermission("rest_cannot_manage_plugins"), Handler: pluginNotFound},
			{Methods: rest.Deletable, Args: itemArgs(), Permission: deletePluginPermission, Handler: pluginNotFound},
		}},
	}
}

// pluginsPermission is the controller's activate_plugins check (an
// administrator passes); the item is then not found.
func pluginsPermission(code string) func(*rest.Request) error {
	return func(r *rest.Request) error {
		if caller(r).Can("activate_plugins") {
			return nil
		}
		return rest.Denied(r, code, msgManagePlugins)
	}
}

// installPluginPermission: install_plugins, which no one has when files
// cannot be changed.
func installPluginPermission(r *rest.Request) error {
	return rest.Denied(r, "rest_cannot_install_plugin", "Sorry, you are not allowed to install plugins on this site.")
}

// deletePluginPermission: activate_plugins, then delete_plugins, which no
// one has when files cannot be changed.
func deletePluginPermission(r *rest.Request) error {
	if !caller(r).Can("activate_plugins") {
		return rest.Denied(r, "rest_cannot_manage_plugins", msgManagePlugins)
	}
	return rest.Denied(r, "rest_cannot_manage_plugins", "Sorry, you are not allowed to delete plugins for this site.")
}

func listPlugins(*rest.Request) (*rest.Response, error) { return rest.OK([]any{}), nil }

func pluginNotFound(*rest.Request) (*rest.Response, error) {
	return nil, rest.NewError("rest_plugin_not_found", "Plugin not found.", http.StatusNotFound)
}

// pluginSchema is the controller's item schema.
func pluginSchema() *rest.Schema {
	ro := func(desc, typ string, ctx []string) *rest.Schema {
		return &rest.Schema{Description: desc, Type: typ, Readonly: true, Context: ctx}
	}
	uri := func(desc string) *rest.Schema {
		sch := ro(desc, "string", ctxView)
		sch.Format = "uri"
		return sch
	}
	plugin := ro("The plugin file.", "string", ctxAll)
	plugin.Pattern = pluginPattern
	return &rest.Schema{SchemaURI: "http://json-schema.org/draft-04/schema#", Title: "plugin", Type: "object", Properties: rest.Props{
		{Name: "plugin", Schema: plugin},
		{Name: "status", Schema: &rest.Schema{Description: "The plugin activation status.", Type: "string", Enum: pluginStatuses, Context: ctxAll}},
		{Name: "name", Schema: ro("The plugin name.", "string", ctxAll)},
		{Name: "plugin_uri", Schema: uri("The plugin's website address.")},
		{Name: "author", Schema: ro("The plugin author.", "string", ctxView)},
		{Name: "author_uri", Schema: uri("Plugin author's website address.")},
		{Name: "description", Schema: &rest.Schema{Description: "The plugin description.", Type: "object", Readonly: true, Context: ctxView, Properties: rest.Props{
			{Name: "raw", Schema: &rest.Schema{Description: "The raw plugin description.", Type: "string"}},
			{Name: "rendered", Schema: &rest.Schema{Description: "The plugin description formatted for display.", Type: "string"}},
		}}},
		{Name: "version", Schema: ro("The plugin version number.", "string", ctxView)},
		{Name: "network_only", Schema: ro("Whether the plugin can only be activated network-wide.", "boolean", ctxAll)},
		{Name: "requires_wp", Schema: ro("Minimum required version of WordPress.", "string", ctxAll)},
		{Name: "requires_php", Schema: ro("Minimum required version of PHP.", "string", ctxAll)},
		{Name: "textdomain", Schema: ro("The plugin's text domain.", "string", ctxView)},
	}}
}

// blockDirectorySchema is the block directory controller's item schema
// (every field in view context only).
func blockDirectorySchema() *rest.Schema {
	return readonlyItemSchema("block-directory-item", []string{"view"},
		[3]string{"name", "The block name, in namespace/block-name format.", "string"},
		[3]string{"title", "The block title, in human readable format.", "string"},
		[3]string{"description", "A short description of the block, in human readable format.", "string"},
		[3]string{"id", "The block slug.", "string"},
		[3]string{"rating", "The star rating of the block.", "number"},
		[3]string{"rating_count", "The number of ratings.", "integer"},
		[3]string{"active_installs", "The number sites that have activated this block.", "integer"},
		[3]string{"author_block_rating", "The average rating of blocks published by the same author.", "number"},
		[3]string{"author_block_count", "The number of blocks published by the same author.", "integer"},
		[3]string{"author", "The WordPress.org username of the block author.", "string"},
		[3]string{"icon", "The block icon.", "string"},
		[3]string{"last_updated", "The date when the block was last updated.", "string"},
		[3]string{"humanized_updated", "The date when the block was last updated, in human readable format.", "string"})
}
