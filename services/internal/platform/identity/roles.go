package identity

// Role is a WordPress role name.
type Role string

// The WordPress core roles.
const (
	Administrator Role = "administrator"
	Editor        Role = "editor"
	Author        Role = "author"
	Contributor   Role = "contributor"
	Subscriber    Role = "subscriber"
)

// Roles lists the roles from most to least privileged.
var Roles = []Role{Administrator, Editor, Author, Contributor, Subscriber}

// Valid reports whether r is a known role.
func (r Role) Valid() bool {
	_, ok := capabilities[r]
	return ok
}

// Can reports whether the role grants the primitive capability.
func (r Role) Can(capability string) bool {
	return capabilities[r][capability]
}

func set(caps ...string) map[string]bool {
	m := make(map[string]bool, len(caps))
	for _, c := range caps {
		m[c] = true
	}
	return m
}

func union(sets ...map[string]bool) map[string]bool {
	m := map[string]bool{}
	for _, s := range sets {
		for k := range s {
			m[k] = true
		}
	}
	return m
}

// The primitive capabilities of WordPress's default roles (wp-admin/includes/schema.php,
// populate_roles), limited to those the REST routes check. Post types that map
// meta capabilities (pages, blocks, navigation, templates) use the same
// primitives with their own plural: edit_pages, publish_pages and so on.
var (
	subscriberCaps  = set("read")
	contributorCaps = union(subscriberCaps, set("edit_posts", "delete_posts"))
	authorCaps      = union(contributorCaps, set("upload_files", "edit_published_posts", "publish_posts",
		"delete_published_posts"))
	editorCaps = union(authorCaps, set("moderate_comments", "manage_categories", "manage_links",
		"unfiltered_html", "edit_others_posts", "edit_pages", "edit_others_pages", "edit_published_pages",
		"publish_pages", "delete_pages", "delete_others_pages", "delete_published_pages", "delete_others_posts",
		"delete_private_posts", "edit_private_posts", "read_private_posts", "delete_private_pages",
		"edit_private_pages", "read_private_pages"))
	administratorCaps = union(editorCaps, set("switch_themes", "edit_themes", "activate_plugins", "edit_plugins",
		"edit_users", "edit_files", "manage_options", "import", "unfiltered_upload", "edit_dashboard",
		"update_plugins", "delete_plugins", "install_plugins", "update_themes", "install_themes",
		"update_core", "list_users", "remove_users", "promote_users", "edit_theme_options", "delete_themes",
		"export", "create_users", "delete_users"))

	capabilities = map[Role]map[string]bool{
		Administrator: administratorCaps,
		Editor:        editorCaps,
		Author:        authorCaps,
		Contributor:   contributorCaps,
		Subscriber:    subscriberCaps,
	}
)
