package content

import (
	"crypto/subtle"
	"strconv"
	"strings"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
)

// view says how a post is rendered: the context, the caller (for password
// access and link hints) and the single-item read options.
type view struct {
	context       string
	who           identity.Identity
	password      string // ?password= of a single GET
	excerptLength int
	// generated holds generated_slug per post id (edit context of public
	// types; withGenerated fills it with one query)
	generated map[int64]string
	// passwordUnlocked is WordPress's post_password_required filter left on
	// for the whole response: GET reads in edit context install it (for
	// editable posts), so even class_list sees the password as not required
	passwordUnlocked bool
}

// withGenerated returns v with the generated slugs of posts when the
// response shows generated_slug (edit context of a public type).
func (s *Service) withGenerated(c *rest.Request, q store.Querier, pt *store.PostType, v view, posts ...*store.Post) (view, error) {
	if v.context != "edit" || !pt.Public || len(posts) == 0 || !c.Wants("generated_slug") {
		return v, nil
	}
	g, err := store.GeneratedSlugs(c.Context(), q, pt, posts)
	v.generated = g
	return v, err
}

// canAccessPasswordContent is can_access_password_content: edit context, or
// the right password.
func canAccessPasswordContent(p *store.Post, v view) bool {
	if p.Password == "" {
		return false
	}
	if v.context == "edit" {
		return true
	}
	return v.password != "" && subtle.ConstantTimeCompare([]byte(p.Password), []byte(v.password)) == 1
}

// prepare renders a post for the response (prepare_item_for_response), in
// WordPress's order. Which fields and sub-fields a context shows is the item
// schema's business (postSchema): the route kit removes what v.context must
// not show, as filter_response_by_context does. Like get_fields_for_response
// and rest_is_field_included, prepare asks the same schema (shows) before
// computing a value that costs an allocation, a render or a query; only
// values WordPress computes differently per context are decided here by hand
// (the blocks embed title, password-protected rendering, the sync status).
func (s *Service) prepare(pt *store.PostType, p *store.Post, v view) rest.Item {
	f := &postFields{context: v.context, schema: s.static(pt).schema, out: make(rest.Object, 0, 32)}
	s.prepareHead(f, pt, p)
	prepareTitle(f, pt, p)
	prepareText(f, pt, p, v)
	s.prepareAttributes(f, pt, p, v)
	f.add("_links", s.links(pt, p, v))
	return rest.Item{Data: f.out}
}

// postFields is a post's response as prepare builds it, member by member.
type postFields struct {
	context string
	schema  *rest.Schema
	out     rest.Object
}

func (f *postFields) add(k string, val any) { f.out = append(f.out, rest.Member{Key: k, Value: val}) }

// shows is rest_is_field_included: whether the context shows the field.
func (f *postFields) shows(path ...string) bool {
	return rest.ContextShows(f.schema, f.context, path...)
}

// prepareHead adds id, the dates, guid, password, slug, status, type and link.
func (s *Service) prepareHead(f *postFields, pt *store.PostType, p *store.Post) {
	f.add("id", p.ID)
	f.add("date", store.FormatLocal(p.DateGMT, s.location()))
	if f.shows("date_gmt") {
		f.add("date_gmt", store.FormatGMT(p.DateGMT))
	}
	if f.shows("guid") {
		var guid any = s.permalinks.GUID(pt, p) // boxed once for both members
		g := rest.Object{{Key: "rendered", Value: guid}}
		if f.shows("guid", "raw") {
			g = append(g, rest.Member{Key: "raw", Value: guid})
		}
		f.add("guid", g)
	}
	if f.shows("modified") {
		f.add("modified", store.FormatLocal(p.ModifiedGMT, s.location()))
	}
	if f.shows("modified_gmt") {
		f.add("modified_gmt", store.FormatGMT(p.ModifiedGMT))
	}
	if f.shows("password") {
		f.add("password", p.Password)
	}
	f.add("slug", p.Slug)
	f.add("status", p.Status)
	f.add("type", pt.Name)
	f.add("link", s.permalinks.Post(pt, p))
}

// prepareTitle adds the title, as the type and context render it.
func prepareTitle(f *postFields, pt *store.PostType, p *store.Post) {
	embed := f.context == "embed"
	var title any = p.Title // boxed once for raw and rendered
	switch {
	case pt.RenderedText:
		t := make(rest.Object, 0, 2)
		if f.shows("title", "raw") {
			t = append(t, rest.Member{Key: "raw", Value: title})
		}
		f.add("title", append(t, rest.Member{Key: "rendered", Value: title}))
	case !embed:
		f.add("title", rest.Object{{Key: "raw", Value: title}})
	default:
		// blocks in embed: WordPress filters title down to nothing (raw is
		// view+edit, rendered is unset) and PHP encodes the empty array as
		// [], not {}: a per-context value the schema cannot express
		f.add("title", []any{})
	}
}

// prepareText adds content and excerpt, rendered unless a password hides them.
func prepareText(f *postFields, pt *store.PostType, p *store.Post, v view) {
	protected := p.Password != ""
	required := protected && !canAccessPasswordContent(p, v)
	if f.shows("content") {
		content := make(rest.Object, 0, 4)
		if f.shows("content", "raw") {
			content = append(content, rest.Member{Key: "raw", Value: p.Content})
		}
		if pt.RenderedText && f.shows("content", "rendered") {
			// password-protected content renders as "" unless the password
			// was given or the context is edit (can_access_password_content)
			rendered := ""
			if !required {
				rendered = store.RenderContent(p.Content)
			}
			content = append(content, rest.Member{Key: "rendered", Value: rendered})
		}
		content = append(content, rest.Member{Key: "protected", Value: protected})
		if f.shows("content", "block_version") { // parsing the blocks costs
			content = append(content, rest.Member{Key: "block_version", Value: blockVersion(p.Content)})
		}
		f.add("content", content)
	}
	if pt.Excerpt {
		ex := make(rest.Object, 0, 3)
		if f.shows("excerpt", "raw") {
			ex = append(ex, rest.Member{Key: "raw", Value: p.Excerpt})
		}
		rendered := ""
		if !required { // as for content.rendered
			rendered = store.RenderExcerpt(p.Excerpt, p.Content, v.excerptLength)
		}
		f.add("excerpt", append(ex, rest.Member{Key: "rendered", Value: rendered}, rest.Member{Key: "protected", Value: protected}))
	}
}

// prepareAttributes adds what follows the text: the type's attributes,
// terms, templates and class list.
func (s *Service) prepareAttributes(f *postFields, pt *store.PostType, p *store.Post, v view) {
	embed := f.context == "embed"
	if pt.Author {
		f.add("author", p.Author)
	}
	if pt.Thumbnail {
		f.add("featured_media", p.FeaturedMedia)
	}
	if pt.Hierarchical {
		f.add("parent", p.Parent)
	}
	if pt.PageAttributes {
		f.add("menu_order", p.MenuOrder)
	}
	if pt.Comments {
		f.add("comment_status", p.CommentStatus)
		f.add("ping_status", p.PingStatus)
	}
	if pt.Sticky {
		f.add("sticky", p.Sticky)
	}
	f.add("template", p.Template)
	if pt.Formats {
		f.add("format", p.Format)
	}
	if pt.Footnotes && f.shows("meta") {
		f.add("meta", rest.Object{{Key: "footnotes", Value: p.Footnotes}})
	}
	for _, tax := range pt.Taxonomies {
		if f.shows(tax.Base) {
			f.add(tax.Base, p.TermsOf(tax))
		}
	}
	if f.shows("permalink_template") {
		f.add("permalink_template", s.permalinks.PermalinkTemplate(pt))
	}
	if f.shows("generated_slug") {
		g, ok := v.generated[p.ID]
		if !ok {
			g = generatedSlug(p)
		}
		f.add("generated_slug", g)
	}
	if f.shows("class_list") {
		f.add("class_list", classList(pt, p, v.passwordUnlocked))
	}
	if pt.SyncStatus {
		// the blocks controller copies the meta value out after
		// filter_response_by_context, so it is there in every context, and
		// "" in embed, where meta was filtered away: a per-context value
		syncStatus := p.SyncStatus
		if embed {
			syncStatus = ""
		}
		f.add("cms_pattern_sync_status", syncStatus)
	}
}

// blockVersion is block_version: 1 when the content has blocks.
func blockVersion(content string) int {
	if store.HasBlocks(content) {
		return 1
	}
	return 0
}

// generatedSlug is generated_slug without the uniqueness check (the
// fallback when withGenerated did not run): the title's slug, or the id.
func generatedSlug(p *store.Post) string {
	if g := store.SanitizeTitle(p.Title); g != "" {
		return g
	}
	return strconv.FormatInt(p.ID, 10)
}

// classList is get_post_class for a post outside the loop, as a REST
// request sees it: no main query ran, so is_home() is false and sticky posts
// get no "sticky" class; no post password cookie, so a password is always
// "required" (and hides has-post-thumbnail) unless an edit-context read
// unlocked it ("post-password-protected"). Term classes follow the public
// taxonomies in registration order (category, post_tag, post_format), terms
// by name as get_the_terms returns them.
func classList(pt *store.PostType, p *store.Post, unlocked bool) []string {
	out := []string{"post-" + strconv.FormatInt(p.ID, 10), pt.Name, "type-" + pt.Name, "status-" + p.Status}
	if pt.Formats {
		out = append(out, "format-"+p.Format)
	}
	required := p.Password != "" && !unlocked
	switch {
	case required:
		out = append(out, "post-password-required")
	case p.Password != "":
		out = append(out, "post-password-protected")
	}
	if !required && p.FeaturedMedia != 0 {
		out = append(out, "has-post-thumbnail")
	}
	out = append(out, "hentry")
	for _, tax := range []*store.Taxonomy{store.Category, store.Tag} {
		for i, name := range p.TermTaxonomies {
			if name == tax.Name {
				out = append(out, termClass(tax, p.TermSlugs[i], p.TermIDs[i]))
			}
		}
	}
	if pt.Formats && p.Format != "" && p.Format != "standard" {
		// the post_format term's slug is post-format-<format>
		out = append(out, "post_format-post-format-"+p.Format)
	}
	return out
}

// termClass is the class of one term: tag-<slug> for tags,
// <taxonomy>-<slug> otherwise; a slug that sanitizes to a number or to
// dashes only is replaced by the term id.
func termClass(tax *store.Taxonomy, slug string, id int64) string {
	c := sanitizeHTMLClass(slug)
	if _, err := strconv.ParseFloat(c, 64); err == nil || strings.Trim(c, "-") == "" {
		c = strconv.FormatInt(id, 10)
	}
	if tax == store.Tag {
		return "tag-" + c
	}
	return sanitizeHTMLClass(tax.Name + "-" + c)
}

// sanitizeHTMLClass is sanitize_html_class: percent-encoded octets and
// every character outside A-Z, a-z, 0-9, _ and - are removed.
func sanitizeHTMLClass(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if ch == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			i += 2
			continue
		}
		if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '_' || ch == '-' {
			b.WriteByte(ch)
		}
	}
	return b.String()
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// allowed lists the methods the caller may use on the post's URL
// (targetHints.allow and the Allow header).
func allowed(who identity.Identity, pt *store.PostType, p *store.Post) []string {
	var m []string
	if store.CanRead(who, pt, p) {
		m = append(m, "GET")
	}
	if store.CanEdit(who, pt, p) {
		m = append(m, "POST", "PUT", "PATCH")
	}
	if store.CanDelete(who, pt, p) {
		m = append(m, "DELETE")
	}
	return m
}

// href is one link: its attributes first, then href (WordPress's order).
func href(u string, attrs ...any) rest.Object {
	o := make(rest.Object, 0, len(attrs)/2+1)
	for i := 0; i+1 < len(attrs); i += 2 {
		o = append(o, rest.Member{Key: attrs[i].(string), Value: attrs[i+1]})
	}
	return append(o, rest.Member{Key: "href", Value: u})
}

var curies = []any{rest.Object{{Key: "name", Value: "wp"}, {Key: "href", Value: "https://api.w.org/{rel}"}, {Key: "templated", Value: true}}}

// links is prepare_links in compact form (§4.4), with targetHints on self
// computed from the post already loaded (no further query).
func (s *Service) links(pt *store.PostType, p *store.Post, v view) rest.Object {
	self := s.permalinks.PostREST(pt, p.ID)
	l := make(rest.Object, 0, 16)
	add := func(rel string, links ...any) { l = append(l, rest.Member{Key: rel, Value: links}) }
	selfLink := rest.Object{{Key: "href", Value: self},
		{Key: "targetHints", Value: rest.Object{{Key: "allow", Value: allowed(v.who, pt, p)}}}}
	add("self", selfLink)
	static := s.static(pt)
	l = append(l, rest.Member{Key: "collection", Value: static.collection}, rest.Member{Key: "about", Value: static.about})
	id := strconv.FormatInt(p.ID, 10)
	if pt.Author && p.Author != 0 {
		add("author", href(s.restRoot+"/cms/v2/users/"+strconv.FormatInt(p.Author, 10), "embeddable", true))
	}
	if pt.Comments {
		add("replies", href(s.restRoot+"/cms/v2/comments?post="+id, "embeddable", true))
	}
	add("version-history", href(self+"/revisions", "count", p.Revisions))
	if p.Revisions > 0 {
		add("predecessor-version", href(self+"/revisions/"+strconv.FormatInt(p.LatestRevision, 10), "id", p.LatestRevision))
	}
	if pt.Hierarchical && p.Parent > 0 {
		add("up", href(s.permalinks.PostREST(pt, p.Parent), "embeddable", true))
	}
	if pt.Thumbnail && p.FeaturedMedia != 0 {
		add("wp:featuredmedia", href(s.restRoot+"/cms/v2/media/"+strconv.FormatInt(p.FeaturedMedia, 10), "embeddable", true))
	}
	add("wp:attachment", href(s.restRoot+"/cms/v2/media?parent="+id))
	if len(pt.Taxonomies) > 0 {
		terms := make([]any, len(pt.Taxonomies))
		for i, tax := range pt.Taxonomies {
			terms[i] = rest.Object{{Key: "taxonomy", Value: tax.Name}, {Key: "embeddable", Value: true},
				{Key: "href", Value: static.termsOf[i] + id}}
		}
		l = append(l, rest.Member{Key: "wp:term", Value: terms})
	}
	if v.context == "edit" {
		if v.who.Can(pt.Caps.Publish) {
			add("wp:action-publish", href(self))
		}
		if v.who.Can("unfiltered_html") {
			add("wp:action-unfiltered-html", href(self))
		}
		if pt.Sticky && v.who.Can(pt.Caps.EditOthers) && v.who.Can(pt.Caps.Publish) {
			add("wp:action-sticky", href(self))
		}
		if pt.Author && v.who.Can(pt.Caps.EditOthers) {
			add("wp:action-assign-author", href(self))
		}
		for _, tax := range pt.Taxonomies {
			// creating terms of a flat taxonomy needs only assign_terms
			// (get_available_actions), as for POST /tags itself
			createCap := tax.EditCap
			if !tax.Hierarchical {
				createCap = tax.AssignCap
			}
			if v.who.Can(createCap) {
				add("wp:action-create-"+tax.Base, href(self))
			}
			if v.who.Can(tax.AssignCap) {
				add("wp:action-assign-"+tax.Base, href(self))
			}
		}
	}
	l = append(l, rest.Member{Key: "curies", Value: curies})
	return l
}

// typeStatic is what the links of every post of a type share, built once.
type typeStatic struct {
	schema            *rest.Schema // postSchema(pt), asked by prepare
	collection, about []any
	termsOf           []string // per taxonomy: ".../{tax base}?post="
}

// static returns the shared link parts of pt (the types are few and fixed).
func (s *Service) static(pt *store.PostType) *typeStatic {
	if st, ok := s.statics.Load(pt); ok {
		return st.(*typeStatic)
	}
	st := &typeStatic{
		schema:     postSchema(pt),
		collection: []any{href(s.restRoot + "/cms/v2/" + pt.Base)},
		about:      []any{href(s.restRoot + "/cms/v2/types/" + pt.Name)},
	}
	for _, tax := range pt.Taxonomies {
		st.termsOf = append(st.termsOf, s.restRoot+"/cms/v2/"+tax.Base+"?post=")
	}
	s.statics.Store(pt, st)
	return st
}
