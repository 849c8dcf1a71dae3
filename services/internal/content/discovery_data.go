package content

import "siteplane.dev/services/internal/content/store"
import "strings"

// The data behind /types, /taxonomies and /statuses: what WordPress's
// register_post_type, register_taxonomy and register_post_status calls
// declare for the types, taxonomies and statuses the site serves.

// typeInfo describes one post type as /types shows it.
type typeInfo struct {
	name, base, singular, plural, description, icon string
	capType                                         string // meta capability stem: edit_<capType>
	hierarchical, viewable, showInNav, showUI       bool
	supports                                        []string
	notes                                           bool // supports.editor is [{"notes": true}] (6.9's notes on posts and pages)
	taxonomies                                      []string
	caps                                            store.Caps
}

var attachmentCaps = func() store.Caps {
	c := store.PostCaps
	c.Create = "upload_files"
	return c
}()

var themeCaps = store.Caps{Read: "edit_theme_options", Create: "edit_theme_options", EditPosts: "edit_theme_options",
	EditOthers: "edit_theme_options", EditPublished: "edit_theme_options", EditPrivate: "edit_theme_options",
	Publish: "edit_theme_options", ReadPrivate: "edit_theme_options", DeletePosts: "edit_theme_options",
	DeleteOthers: "edit_theme_options", DeletePublished: "edit_theme_options", DeletePrivate: "edit_theme_options"}

// typeInfos are the served post types in registration order.
var typeInfos = []typeInfo{
	{name: "post", base: "posts", singular: "Post", plural: "Posts", icon: "dashicons-admin-post", capType: "post",
		viewable: true, showInNav: true, showUI: true,
		supports: []string{"title", "editor", "author", "thumbnail", "excerpt", "trackbacks", "custom-fields", "comments", "revisions", "post-formats", "autosave"}, notes: true,
		taxonomies: []string{"category", "post_tag"}, caps: store.PostCaps},
	{name: "page", base: "pages", singular: "Page", plural: "Pages", icon: "dashicons-admin-page", capType: "page",
		hierarchical: true, viewable: true, showInNav: true, showUI: true,
		supports: []string{"title", "editor", "author", "thumbnail", "page-attributes", "custom-fields", "comments", "revisions", "autosave"}, notes: true,
		taxonomies: []string{}, caps: store.PageCaps},
	{name: "attachment", base: "media", singular: "Media", plural: "Media", icon: "dashicons-admin-media", capType: "post",
		viewable: true, showInNav: true, showUI: true,
		supports:   []string{"title", "author", "comments"},
		taxonomies: []string{}, caps: attachmentCaps},
	{name: "nav_menu_item", base: "menu-items", singular: "Navigation Menu Item", plural: "Navigation Menu Items", capType: "post",
		taxonomies: []string{"nav_menu"}, supports: []string{"title", "editor", "autosave"}, caps: store.NavigationCaps},
	{name: "wp_block", base: "blocks", singular: "Pattern", plural: "Patterns", capType: "block", showUI: true,
		supports:   []string{"title", "excerpt", "editor", "revisions", "custom-fields", "autosave"},
		taxonomies: []string{"cms_pattern_category"}, caps: store.BlockCaps},
	{name: "wp_template", base: "templates", singular: "Template", plural: "Templates", description: "Templates to include in your theme.", capType: "post",
		showUI: true, supports: []string{"title", "slug", "excerpt", "editor", "revisions", "author", "autosave"},
		taxonomies: []string{}, caps: themeCaps},
	{name: "wp_template_part", base: "template-parts", singular: "Template Part", plural: "Template Parts", description: "Template parts to include in your templates.", capType: "post",
		showUI: true, supports: []string{"title", "slug", "excerpt", "editor", "revisions", "author", "autosave"},
		taxonomies: []string{}, caps: themeCaps},
	{name: "wp_navigation", base: "navigation", singular: "Navigation Menu", plural: "Navigation Menus", description: "Navigation menus that can be inserted into your site.", capType: "post",
		showUI: true, supports: []string{"title", "editor", "revisions", "autosave"},
		taxonomies: []string{}, caps: store.NavigationCaps},
	// Registered by WordPress 6.9 with REST routes this site does not serve
	// (the font library is absent: docs/api.md); /types lists them as
	// WordPress does. wp_global_styles is served (global_styles.go).
	{name: "wp_global_styles", base: "global-styles", singular: "Global Styles", plural: "Global Styles", description: "Global styles to include in themes.", capType: "post",
		supports: []string{"title", "editor", "revisions"}, taxonomies: []string{}, caps: globalStylesCaps},
	{name: "wp_font_family", base: "font-families", singular: "Font Family", plural: "Font Families", capType: "post",
		supports: []string{"title"}, taxonomies: []string{}, caps: fontCaps},
	{name: "wp_font_face", base: "font-families/(?P<font_family_id>[\\d]+)/font-faces", singular: "Font Face", plural: "Font Faces", capType: "post",
		supports: []string{"title"}, taxonomies: []string{}, caps: fontCaps},
}

// globalStylesCaps and fontCaps are what register_post_type gives those
// types in WordPress 6.9 (the capabilities its /types answer lists).
var globalStylesCaps = store.Caps{Read: "edit_posts", Create: "edit_theme_options", EditPosts: "edit_theme_options",
	EditOthers: "edit_theme_options", EditPublished: "edit_theme_options", EditPrivate: "edit_private_posts",
	Publish: "publish_posts", ReadPrivate: "read_private_posts", DeletePosts: "delete_posts",
	DeleteOthers: "edit_theme_options", DeletePublished: "edit_theme_options", DeletePrivate: "delete_private_posts"}

var fontCaps = store.Caps{Read: "edit_theme_options", Create: "edit_theme_options", EditPosts: "edit_theme_options",
	EditOthers: "edit_theme_options", EditPublished: "edit_theme_options", EditPrivate: "edit_private_posts",
	Publish: "edit_theme_options", ReadPrivate: "edit_theme_options", DeletePosts: "edit_theme_options",
	DeleteOthers: "edit_theme_options", DeletePublished: "edit_theme_options", DeletePrivate: "delete_private_posts"}

func typeInfoByName(name string) *typeInfo {
	for i := range typeInfos {
		if strings.EqualFold(typeInfos[i].name, name) {
			return &typeInfos[i]
		}
	}
	return nil
}

// taxInfo describes a taxonomy as /taxonomies shows it.
type taxInfo struct {
	tax                             *store.Taxonomy
	singular, plural, description   string
	types                           []string
	showCloud, public, showInNav    bool
	manage, edit, delete, assignCap string
}

var taxInfos = []taxInfo{
	{tax: store.Category, singular: "Category", plural: "Categories", types: []string{"post"}, showCloud: true, public: true, showInNav: true,
		manage: "manage_categories", edit: "edit_categories", delete: "delete_categories", assignCap: "assign_categories"},
	{tax: store.Tag, singular: "Tag", plural: "Tags", types: []string{"post"}, showCloud: true, public: true, showInNav: true,
		manage: "manage_post_tags", edit: "edit_post_tags", delete: "delete_post_tags", assignCap: "assign_post_tags"},
	{tax: store.Menu, singular: "Navigation Menu", plural: "Navigation Menus", types: []string{"nav_menu_item"},
		manage: "edit_theme_options", edit: "edit_theme_options", delete: "edit_theme_options", assignCap: "edit_theme_options"},
	{tax: store.PatternCategory, singular: "Pattern Category", plural: "Pattern Categories", types: []string{"wp_block"},
		manage: "manage_categories", edit: "manage_categories", delete: "manage_categories", assignCap: "edit_posts"},
}

func taxInfoByName(name string) *taxInfo {
	for i := range taxInfos {
		if strings.EqualFold(taxInfos[i].tax.Name, name) {
			return &taxInfos[i]
		}
	}
	return nil
}

// statusInfo is one post status as /statuses shows it.
type statusInfo struct {
	slug, name                                        string
	private, protected, public, queryable, showInList bool
	dateFloating                                      bool
}

// statusInfos: the non-internal statuses and trash, as the statuses
// controller lists them.
var statusInfos = []statusInfo{
	{slug: "publish", name: "Published", public: true, queryable: true, showInList: true},
	{slug: "future", name: "Scheduled", protected: true, showInList: true},
	{slug: "draft", name: "Draft", protected: true, showInList: true, dateFloating: true},
	{slug: "pending", name: "Pending", protected: true, showInList: true, dateFloating: true},
	{slug: "private", name: "Private", private: true, showInList: true},
	{slug: "trash", name: "Trash", showInList: true},
}

// postTypeLabels builds a post type's labels the way get_post_type_labels
// fills them from the singular and plural names.
func postTypeLabels(t *typeInfo) []labelPair {
	s, p := t.singular, t.plural
	ls, lp := strings.ToLower(s), strings.ToLower(p)
	var parent any
	if t.hierarchical {
		parent = "Parent " + s + ":"
	}
	// the site editor's types register one although they are flat
	switch t.name {
	case "wp_template", "wp_template_part", "wp_navigation":
		parent = "Parent " + s + ":"
	}
	out := []labelPair{
		{"name", p}, {"singular_name", s}, {"add_new", "Add New " + s}, {"add_new_item", "Add New " + s},
		{"edit_item", "Edit " + s}, {"new_item", "New " + s}, {"view_item", "View " + s}, {"view_items", "View " + p},
		{"search_items", "Search " + p}, {"not_found", "No " + lp + " found."}, {"not_found_in_trash", "No " + lp + " found in Trash."},
		{"parent_item_colon", parent}, {"all_items", "All " + p}, {"archives", s + " Archives"}, {"attributes", s + " Attributes"},
		{"insert_into_item", "Insert into " + ls}, {"uploaded_to_this_item", "Uploaded to this " + ls},
		{"featured_image", "Featured image"}, {"set_featured_image", "Set featured image"},
		{"remove_featured_image", "Remove featured image"}, {"use_featured_image", "Use as featured image"},
		{"filter_items_list", "Filter " + lp + " list"}, {"filter_by_date", "Filter by date"},
		{"items_list_navigation", p + " list navigation"}, {"items_list", p + " list"},
		{"item_published", s + " published."}, {"item_published_privately", s + " published privately."},
		{"item_reverted_to_draft", s + " reverted to draft."}, {"item_trashed", s + " trashed."},
		{"item_scheduled", s + " scheduled."}, {"item_updated", s + " updated."},
		{"item_link", s + " Link"}, {"item_link_description", "A link to a " + ls + "."},
		{"menu_name", p}, {"name_admin_bar", s},
	}
	// get_post_type_labels adds it (WordPress 6.6 and later), but not to
	// post and page, which WordPress 6.9.7 answers without it
	if t.name != "post" && t.name != "page" {
		out = append(out, labelPair{"template_name", "Single item: " + s})
	}
	return out
}

// taxLabels builds a taxonomy's labels as get_taxonomy_labels does.
type labelPair struct {
	key   string
	value any
}
