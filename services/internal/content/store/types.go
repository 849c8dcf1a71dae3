package store

// PostType describes one WordPress post type served by this service: what it
// supports decides its fields, its query parameters and its capabilities.
type PostType struct {
	Name string // WordPress type name: post, page, wp_block, wp_navigation
	Base string // REST base: posts, pages, blocks, navigation

	Hierarchical   bool // parent field and parent filters (pages)
	PageAttributes bool // menu_order
	Author         bool
	Excerpt        bool
	Comments       bool // comment_status, ping_status
	Thumbnail      bool // featured_media
	Formats        bool
	Sticky         bool
	Public         bool // permalink_template, generated_slug, class_list
	Footnotes      bool // meta.footnotes
	SyncStatus     bool // wp_block: meta cms_pattern_sync_status, top-level copy
	RenderedText   bool // title.rendered and content.rendered exist (not for blocks)
	EmbedContent   bool // navigation exposes status, content and title.raw in embed

	DefaultCommentStatus string
	Taxonomies           []*Taxonomy
	Caps                 Caps
}

// Caps are the primitive capabilities a post type's meta capabilities map
// to (WordPress's $post_type->cap).
type Caps struct {
	Read, Create, EditPosts, EditOthers, EditPublished, EditPrivate  string
	Publish, ReadPrivate, DeletePosts, DeleteOthers, DeletePublished string
	DeletePrivate                                                    string
}

var PostCaps = Caps{Read: "read", Create: "edit_posts", EditPosts: "edit_posts", EditOthers: "edit_others_posts",
	EditPublished: "edit_published_posts", EditPrivate: "edit_private_posts", Publish: "publish_posts",
	ReadPrivate: "read_private_posts", DeletePosts: "delete_posts", DeleteOthers: "delete_others_posts",
	DeletePublished: "delete_published_posts", DeletePrivate: "delete_private_posts"}

var PageCaps = Caps{Read: "read", Create: "edit_pages", EditPosts: "edit_pages", EditOthers: "edit_others_pages",
	EditPublished: "edit_published_pages", EditPrivate: "edit_private_pages", Publish: "publish_pages",
	ReadPrivate: "read_private_pages", DeletePosts: "delete_pages", DeleteOthers: "delete_others_pages",
	DeletePublished: "delete_published_pages", DeletePrivate: "delete_private_pages"}

// wp_block: post capabilities, but reading needs edit_posts and creating
// needs publish_posts (create_initial_post_types).
var BlockCaps = func() Caps {
	c := PostCaps
	c.Read = "edit_posts"
	c.Create = "publish_posts"
	return c
}()

// wp_navigation: every capability is edit_theme_options except read.
var NavigationCaps = Caps{Read: "read", Create: "edit_theme_options", EditPosts: "edit_theme_options",
	EditOthers: "edit_theme_options", EditPublished: "edit_theme_options", EditPrivate: "edit_theme_options",
	Publish: "edit_theme_options", ReadPrivate: "edit_theme_options", DeletePosts: "edit_theme_options",
	DeleteOthers: "edit_theme_options", DeletePublished: "edit_theme_options", DeletePrivate: "edit_theme_options"}

// Taxonomy describes one of the four term collections.
type Taxonomy struct {
	Name         string // category, post_tag, nav_menu, cms_pattern_category
	Base         string // categories, tags, menus, cms_pattern_category
	Hierarchical bool
	Public       bool // has a link
	// Capabilities: manage/edit/delete terms and assign them to posts.
	ManageCap, EditCap, DeleteCap, AssignCap string
}

// The taxonomies. WordPress's wp_pattern_category is cms_pattern_category here
// (the seed's naming note), as taxonomy name, field and route alike.
var (
	Category = &Taxonomy{Name: "category", Base: "categories", Hierarchical: true, Public: true,
		ManageCap: "manage_categories", EditCap: "manage_categories", DeleteCap: "manage_categories", AssignCap: "edit_posts"}
	Tag = &Taxonomy{Name: "post_tag", Base: "tags", Public: true,
		ManageCap: "manage_categories", EditCap: "manage_categories", DeleteCap: "manage_categories", AssignCap: "edit_posts"}
	Menu = &Taxonomy{Name: "nav_menu", Base: "menus",
		ManageCap: "edit_theme_options", EditCap: "edit_theme_options", DeleteCap: "edit_theme_options", AssignCap: "edit_theme_options"}
	PatternCategory = &Taxonomy{Name: "cms_pattern_category", Base: "cms_pattern_category", Public: false,
		ManageCap: "manage_categories", EditCap: "manage_categories", DeleteCap: "manage_categories", AssignCap: "edit_posts"}
)

// Taxonomies lists the term collections in route order.
var Taxonomies = []*Taxonomy{Category, Tag, Menu, PatternCategory}

// The post types.
var (
	TypePost = &PostType{Name: "post", Base: "posts", Author: true, Excerpt: true, Comments: true, Thumbnail: true,
		Formats: true, Sticky: true, Public: true, Footnotes: true, RenderedText: true, DefaultCommentStatus: "open",
		Taxonomies: []*Taxonomy{Category, Tag}, Caps: PostCaps}
	TypePage = &PostType{Name: "page", Base: "pages", Hierarchical: true, PageAttributes: true, Author: true,
		Excerpt: true, Comments: true, Thumbnail: true, Public: true, Footnotes: true, RenderedText: true,
		DefaultCommentStatus: "closed", Caps: PageCaps}
	TypeBlock = &PostType{Name: "wp_block", Base: "blocks", Excerpt: true, Footnotes: true, SyncStatus: true,
		DefaultCommentStatus: "closed", Taxonomies: []*Taxonomy{PatternCategory}, Caps: BlockCaps}
	TypeNavigation = &PostType{Name: "wp_navigation", Base: "navigation", RenderedText: true, EmbedContent: true,
		DefaultCommentStatus: "closed", Caps: NavigationCaps}
)

// PostTypes lists the served types in route order.
var PostTypes = []*PostType{TypePost, TypePage, TypeBlock, TypeNavigation}

// Statuses a post can be written with.
var WriteStatuses = []string{"publish", "future", "draft", "pending", "private"}

// Statuses accepted by the collection status filter (seed §3).
var FilterStatuses = []string{"publish", "future", "draft", "pending", "private", "trash", "auto-draft", "inherit",
	"request-pending", "request-confirmed", "request-failed", "request-completed", "any"}

// Post formats (seed §2.2).
var Formats = []string{"standard", "aside", "chat", "gallery", "link", "image", "quote", "status", "video", "audio"}

// MenuItemType is nav_menu_item. It is not in PostTypes: its routes, fields
// and writes are this file's; the collection query, the autosaves and the
// capability checks are the posts'.
var MenuItemType = &PostType{Name: "nav_menu_item", Base: "menu-items", PageAttributes: true,
	DefaultCommentStatus: "closed", Taxonomies: []*Taxonomy{Menu}, Caps: NavigationCaps}

// DefaultCategoryID is WordPress's default_category option: the
// "Uncategorized" category the schema is installed with.
const DefaultCategoryID = 1

// TypeByName is the post type named name; nil for none.
func TypeByName(name string) *PostType {
	for _, pt := range PostTypes {
		if pt.Name == name {
			return pt
		}
	}
	return nil
}
