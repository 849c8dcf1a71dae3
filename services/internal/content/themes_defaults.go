package content

import "siteplane.dev/services/internal/platform/rest"

// What WordPress 6.9's themes controller adds to every block theme
// (get_default_block_template_types, get_allowed_block_template_part_areas),
// strings as WordPress 6.9.7 answers them; and the theme features a block
// theme has, in WordPress's order, false where Siteplane's theme declares
// nothing.

type templateType struct{ slug, title, description string }

var defaultTemplateTypes = []templateType{
	{"index", "Index",
		"Used as a fallback template for all pages when a more specific template is not defined."},
	{"home", "Blog Home",
		"Displays the latest posts as either the site homepage or as the \"Posts page\" as defined under reading settings. If it exists, the Front Page template overrides this template when posts are shown on the homepage."},
	{"front-page", "Front Page",
		"Displays your site's homepage, whether it is set to display latest posts or a static page. The Front Page template takes precedence over all templates."},
	{"singular", "Single Entries",
		"Displays any single entry, such as a post or a page. This template will serve as a fallback when a more specific template (e.g. Single Post, Page, or Attachment) cannot be found."},
	{"single", "Single Posts",
		"Displays a single post on your website unless a custom template has been applied to that post or a dedicated template exists."},
	{"page", "Pages",
		"Displays a static page unless a custom template has been applied to that page or a dedicated template exists."},
	{"archive", "All Archives",
		"Displays any archive, including posts by a single author, category, tag, taxonomy, custom post type, and date. This template will serve as a fallback when more specific templates (e.g. Category or Tag) cannot be found."},
	{"author", "Author Archives",
		"Displays a single author's post archive. This template will serve as a fallback when a more specific template (e.g. Author: Admin) cannot be found."},
	{"category", "Category Archives",
		"Displays a post category archive. This template will serve as a fallback when a more specific template (e.g. Category: Recipes) cannot be found."},
	{"taxonomy", "Taxonomy",
		"Displays a custom taxonomy archive. Like categories and tags, taxonomies have terms which you use to classify things. For example: a taxonomy named \"Art\" can have multiple terms, such as \"Modern\" and \"18th Century.\" This template will serve as a fallback when a more specific template (e.g. Taxonomy: Art) cannot be found."},
	{"date", "Date Archives",
		"Displays a post archive when a specific date is visited (e.g., example.com/2023/)."},
	{"tag", "Tag Archives",
		"Displays a post tag archive. This template will serve as a fallback when a more specific template (e.g. Tag: Pizza) cannot be found."},
	{"attachment", "Attachment Pages",
		"Displays when a visitor views the dedicated page that exists for any media attachment."},
	{"search", "Search Results",
		"Displays when a visitor performs a search on your website."},
	{"privacy-policy", "Privacy Policy",
		"Displays your site's Privacy Policy page."},
	{"404", "Page: 404",
		"Displays when a visitor views a non-existent page, such as a dead link or a mistyped URL."},
	{"taxonomy-post_format-post-format-standard", "Post Format: Standard",
		"Displays the Standard post format archive."},
	{"taxonomy-post_format-post-format-aside", "Post Format: Aside",
		"Displays the Aside post format archive."},
	{"taxonomy-post_format-post-format-chat", "Post Format: Chat",
		"Displays the Chat post format archive."},
	{"taxonomy-post_format-post-format-gallery", "Post Format: Gallery",
		"Displays the Gallery post format archive."},
	{"taxonomy-post_format-post-format-link", "Post Format: Link",
		"Displays the Link post format archive."},
	{"taxonomy-post_format-post-format-image", "Post Format: Image",
		"Displays the Image post format archive."},
	{"taxonomy-post_format-post-format-quote", "Post Format: Quote",
		"Displays the Quote post format archive."},
	{"taxonomy-post_format-post-format-status", "Post Format: Status",
		"Displays the Status post format archive."},
	{"taxonomy-post_format-post-format-video", "Post Format: Video",
		"Displays the Video post format archive."},
	{"taxonomy-post_format-post-format-audio", "Post Format: Audio",
		"Displays the Audio post format archive."},
}

type partArea struct{ area, label, description, icon, tag string }

var defaultTemplatePartAreas = []partArea{
	{"uncategorized", "General",
		"General templates often perform a specific role like displaying post content, and are not tied to any particular area.",
		"layout", "div"},
	{"header", "Header",
		"The Header template defines a page area that typically contains a title, logo, and main navigation.",
		"header", "header"},
	{"footer", "Footer",
		"The Footer template defines a page area that typically contains site credits, social links, or any other combination of blocks.",
		"footer", "footer"},
}

func templateTypesValue() []any {
	out := make([]any, len(defaultTemplateTypes))
	for i, t := range defaultTemplateTypes {
		out[i] = rest.Object{{Key: "title", Value: t.title}, {Key: "description", Value: t.description}, {Key: "slug", Value: t.slug}}
	}
	return out
}

func templatePartAreasValue() []any {
	out := make([]any, len(defaultTemplatePartAreas))
	for i, a := range defaultTemplatePartAreas {
		out[i] = rest.Object{{Key: "area", Value: a.area}, {Key: "label", Value: a.label}, {Key: "description", Value: a.description},
			{Key: "icon", Value: a.icon}, {Key: "area_tag", Value: a.tag}}
	}
	return out
}

// themeSupports are the theme features a block theme has (what a block
// theme gets from core without declaring it), every key WordPress 6.9
// lists.
func themeSupports() rest.Object {
	return rest.Object{
		{Key: "align-wide", Value: true},
		{Key: "automatic-feed-links", Value: true},
		{Key: "block-templates", Value: true},
		{Key: "block-template-parts", Value: true},
		{Key: "custom-background", Value: false},
		{Key: "custom-header", Value: false},
		{Key: "custom-logo", Value: false},
		{Key: "customize-selective-refresh-widgets", Value: false},
		{Key: "dark-editor-style", Value: false},
		{Key: "disable-custom-colors", Value: false},
		{Key: "disable-custom-font-sizes", Value: false},
		{Key: "disable-custom-gradients", Value: false},
		{Key: "disable-layout-styles", Value: false},
		{Key: "editor-color-palette", Value: false},
		{Key: "editor-font-sizes", Value: false},
		{Key: "editor-gradient-presets", Value: false},
		{Key: "editor-spacing-sizes", Value: false},
		{Key: "editor-styles", Value: true},
		{Key: "html5", Value: []any{"comment-form", "comment-list", "search-form", "gallery", "caption", "style", "script"}},
		{Key: "formats", Value: []any{"standard", "aside", "audio", "chat", "gallery", "image", "link", "quote", "status", "video"}},
		{Key: "post-thumbnails", Value: true},
		{Key: "responsive-embeds", Value: true},
		{Key: "title-tag", Value: true},
		{Key: "wp-block-styles", Value: true},
	}
}
