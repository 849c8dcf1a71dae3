package blocks

import "strconv"

// Env is what dynamic blocks read: the site, the current post (inside a
// single template or a query loop's post template) and the main query.
type Env struct {
	SiteTitle string
	Tagline   string
	HomeURL   string
	// SearchQuery is the visitor's ?s= value (the search block shows it).
	SearchQuery string
	// ArchiveTitle is what query-title shows ("Category: News").
	ArchiveTitle       string
	ArchiveDescription string

	// Part returns a template part's parsed blocks by slug (parsed once by
	// the caller, not on every render).
	Part func(slug string) ([]Node, bool)
	// Navigation returns the links of a navigation block: ref is the
	// navigation post's id (0: the site's default menu).
	Navigation func(ref int64) []Link

	Post  *Post
	Query *Query
	// Comments are the current post's comments and form (nil: none shown)
	Comments *Comments

	// SizeHint is the expected size of Render's output in bytes (the last
	// render of the same template): the output is allocated once.
	SizeHint int

	// postTemplateClass is what the enclosing query's displayLayout adds
	// to its post-template (WordPress's block context): "is-flex-container
	// columns-3" for a grid of three.
	postTemplateClass string
	// paginationArrow and hidePaginationLabel are the block context a
	// query-pagination or comments-pagination gives its previous and next
	// links (its paginationArrow and showLabel attributes).
	paginationArrow     string
	hidePaginationLabel bool

	// depth bounds template-part recursion (a part that includes itself).
	depth int
	// comment is the comment comment-template is rendering
	comment *Comment
	// ids numbers the ids blocks give their elements, unique in a page.
	ids *int
	// modals numbers the overlay menus (navigation), unique in a page
	modals *int
}

// nextID returns prefix with a number unique within the render.
func (e *Env) nextID(prefix string) string {
	if e.ids == nil {
		e.ids = new(int)
	}
	*e.ids++
	if *e.ids == 1 {
		return prefix
	}
	return prefix + "-" + strconv.Itoa(*e.ids)
}

// Link is a label and a URL; a submenu's (core/navigation-submenu) links
// are its Children.
type Link struct {
	Label    string
	URL      string
	Children []Link
}

// Post is a post as the post-* blocks show it. ContentHTML is already
// rendered (the caller renders the post's own blocks, or the password
// form of a protected post).
type Post struct {
	ID          int64
	Type        string
	Title       string
	URL         string
	DateISO     string // datetime attribute
	DateText    string // what the visitor reads
	ContentHTML string
	Excerpt     string // plain text
	Author      Link
	Image       *Image
	// Terms by taxonomy name ("category", "post_tag").
	Terms      map[string][]Link
	Prev, Next *Link
}

// Image is a featured image.
type Image struct {
	URL string
	Alt string
}

// Query is the page of posts a query loop shows, and its pagination.
type Query struct {
	Posts []*Post
	Page  int // 1-based
	Pages int
	// PageURL returns the URL of page n of this listing.
	PageURL func(n int) string
}
