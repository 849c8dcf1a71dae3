package content

import (
	"crypto/subtle"
	"strconv"

	"siteplane.dev/services/internal/platform/identity"
)

// view says how a post is rendered: the context, the caller (for password
// access and link hints) and the single-item read options.
type view struct {
	context       string
	who           identity.Identity
	password      string // ?password= of a single GET
	excerptLength int
}

// canAccessPasswordContent is can_access_password_content: edit context, or
// the right password.
func canAccessPasswordContent(p *Post, v view) bool {
	if p.Password == "" {
		return false
	}
	if v.context == "edit" {
		return true
	}
	return v.password != "" && subtle.ConstantTimeCompare([]byte(p.Password), []byte(v.password)) == 1
}

func (s *Service) postURL(pt *PostType, id int64) string {
	return s.restRoot + "/cms/v2/" + pt.Base + "/" + strconv.FormatInt(id, 10)
}

// link is the post's permalink: /slug/ once published, ?p=/?page_id= before.
func (s *Service) link(pt *PostType, p *Post) string {
	id := strconv.FormatInt(p.ID, 10)
	if pt.Public && (p.Status == "publish" || p.Status == "private") && p.Slug != "" {
		return s.site.URL + "/" + p.Slug + "/"
	}
	switch pt {
	case TypePage:
		return s.site.URL + "/?page_id=" + id
	case TypePost:
		return s.site.URL + "/?p=" + id
	}
	return s.site.URL + "/?post_type=" + pt.Name + "&p=" + id
}

func (s *Service) guid(pt *PostType, p *Post) string {
	if pt == TypePage {
		return s.site.URL + "/?page_id=" + strconv.FormatInt(p.ID, 10)
	}
	if pt == TypePost {
		return s.site.URL + "/?p=" + strconv.FormatInt(p.ID, 10)
	}
	return s.site.URL + "/?post_type=" + pt.Name + "&p=" + strconv.FormatInt(p.ID, 10)
}

func in(ctx string, contexts []string) bool {
	for _, c := range contexts {
		if c == ctx {
			return true
		}
	}
	return false
}

// prepare renders a post for the response (prepare_item_for_response),
// keeping only the fields of v.context.
func (s *Service) prepare(pt *PostType, p *Post, v view) map[string]any {
	c := v.context
	edit, embed := c == "edit", c == "embed"
	out := make(map[string]any, 32)
	out["id"] = p.ID
	out["date"] = formatLocal(p.DateGMT, s.loc)
	if !embed {
		out["date_gmt"] = formatGMT(p.DateGMT)
		guid := map[string]any{"rendered": s.guid(pt, p)}
		if edit {
			guid["raw"] = s.guid(pt, p)
		}
		out["guid"] = guid
		out["modified"] = formatLocal(p.ModifiedGMT, s.loc)
		out["modified_gmt"] = formatGMT(p.ModifiedGMT)
	}
	if edit {
		out["password"] = p.Password
	}
	out["slug"] = p.Slug
	if !embed || pt.EmbedContent {
		out["status"] = p.Status
	}
	out["type"] = pt.Name
	out["link"] = s.link(pt, p)

	// title
	title := map[string]any{}
	if pt.RenderedText {
		title["rendered"] = p.Title
		if edit || (embed && pt.EmbedContent) {
			title["raw"] = p.Title
		}
		out["title"] = title
	} else if !embed { // blocks: {raw} in view and edit
		out["title"] = map[string]any{"raw": p.Title}
	}

	protected := p.Password != ""
	required := protected && !canAccessPasswordContent(p, v)
	// content
	if !embed || pt.EmbedContent {
		content := map[string]any{}
		if pt.RenderedText {
			if required {
				content["rendered"] = ""
			} else {
				content["rendered"] = renderContent(p.Content)
			}
		}
		if edit || !pt.RenderedText || (embed && pt.EmbedContent) {
			content["raw"] = p.Content
		}
		if !(embed && pt.EmbedContent) {
			content["protected"] = protected
		}
		if edit || (embed && pt.EmbedContent) {
			content["block_version"] = blockVersion(p.Content)
		}
		out["content"] = content
	}
	if pt.Excerpt {
		ex := map[string]any{"protected": protected}
		if required {
			ex["rendered"] = ""
		} else {
			ex["rendered"] = renderExcerpt(p.Excerpt, p.Content, v.excerptLength)
		}
		if edit {
			ex["raw"] = p.Excerpt
		}
		out["excerpt"] = ex
	}
	if pt.Author {
		out["author"] = p.Author
	}
	if pt.Thumbnail {
		out["featured_media"] = p.FeaturedMedia
	}
	if !embed {
		if pt.Hierarchical {
			out["parent"] = p.Parent
		}
		if pt.PageAttributes {
			out["menu_order"] = p.MenuOrder
		}
		if pt.Comments {
			out["comment_status"] = p.CommentStatus
			out["ping_status"] = p.PingStatus
		}
		if pt.Sticky {
			out["sticky"] = p.Sticky
		}
		out["template"] = p.Template
		if pt.Formats {
			out["format"] = p.Format
		}
		if pt.Footnotes {
			out["meta"] = map[string]any{"footnotes": p.Footnotes}
		}
		if pt.SyncStatus {
			out["cms_pattern_sync_status"] = p.SyncStatus
		}
		for _, tax := range pt.Taxonomies {
			out[tax.Base] = p.termsOf(tax)
		}
		if edit && pt.Public {
			out["permalink_template"] = s.permalinkTemplate(pt)
			out["generated_slug"] = generatedSlug(p)
		}
		if pt.Public {
			out["class_list"] = classList(pt, p)
		}
	}
	out["_links"] = s.links(pt, p, v)
	return out
}

// blockVersion is block_version: 1 when the content has blocks.
func blockVersion(content string) int {
	if blockDelimiter.MatchString(content) {
		return 1
	}
	return 0
}

func (s *Service) permalinkTemplate(pt *PostType) string {
	if pt == TypePage {
		return s.site.URL + "/%pagename%/"
	}
	return s.site.URL + "/%postname%/"
}

// generatedSlug is the slug WordPress would derive from the title.
func generatedSlug(p *Post) string {
	if p.Slug != "" && p.Status != "draft" && p.Status != "pending" {
		return p.Slug
	}
	if g := sanitizeTitle(p.Title); g != "" {
		return g
	}
	return strconv.FormatInt(p.ID, 10)
}

// classList is get_post_class for a post outside the loop.
func classList(pt *PostType, p *Post) []string {
	out := []string{"post-" + strconv.FormatInt(p.ID, 10), pt.Name, "type-" + pt.Name, "status-" + p.Status}
	if pt.Formats {
		out = append(out, "format-"+p.Format)
	}
	if p.FeaturedMedia != 0 {
		out = append(out, "has-post-thumbnail")
	}
	if p.Password != "" {
		out = append(out, "post-password-required")
	}
	if p.Sticky && p.Status == "publish" {
		out = append(out, "sticky")
	}
	out = append(out, "hentry")
	for i, tax := range p.TermTaxonomies {
		prefix := tax
		if tax == "post_tag" {
			prefix = "tag"
		}
		if tax == Category.Name || tax == Tag.Name {
			out = append(out, prefix+"-"+p.TermSlugs[i])
		}
	}
	return out
}

// allowed lists the methods the caller may use on the post's URL
// (targetHints.allow and the Allow header).
func allowed(who identity.Identity, pt *PostType, p *Post) []string {
	var m []string
	if canRead(who, pt, p) {
		m = append(m, "GET")
	}
	if canEdit(who, pt, p) {
		m = append(m, "POST", "PUT", "PATCH")
	}
	if canDelete(who, pt, p) {
		m = append(m, "DELETE")
	}
	return m
}

func href(u string, extra ...any) map[string]any {
	m := map[string]any{"href": u}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i].(string)] = extra[i+1]
	}
	return m
}

// links is prepare_links in compact form (§4.4).
func (s *Service) links(pt *PostType, p *Post, v view) map[string]any {
	self := s.postURL(pt, p.ID)
	l := map[string]any{
		"self":       []any{href(self, "targetHints", map[string]any{"allow": allowed(v.who, pt, p)})},
		"collection": []any{href(s.restRoot + "/cms/v2/" + pt.Base)},
		"about":      []any{href(s.restRoot + "/cms/v2/types/" + pt.Name)},
	}
	id := strconv.FormatInt(p.ID, 10)
	if pt.Author && p.Author != 0 {
		l["author"] = []any{href(s.restRoot+"/cms/v2/users/"+strconv.FormatInt(p.Author, 10), "embeddable", true)}
	}
	if pt.Comments {
		l["replies"] = []any{href(s.restRoot+"/cms/v2/comments?post="+id, "embeddable", true)}
	}
	l["version-history"] = []any{href(self+"/revisions", "count", p.Revisions)}
	if p.Revisions > 0 {
		l["predecessor-version"] = []any{href(self+"/revisions/"+strconv.FormatInt(p.LatestRevision, 10), "id", p.LatestRevision)}
	}
	if pt.Hierarchical && p.Parent > 0 {
		l["up"] = []any{href(s.postURL(pt, p.Parent), "embeddable", true)}
	}
	if pt.Thumbnail && p.FeaturedMedia != 0 {
		l["wp:featuredmedia"] = []any{href(s.restRoot+"/cms/v2/media/"+strconv.FormatInt(p.FeaturedMedia, 10), "embeddable", true)}
	}
	l["wp:attachment"] = []any{href(s.restRoot + "/cms/v2/media?parent=" + id)}
	if len(pt.Taxonomies) > 0 {
		var terms []any
		for _, tax := range pt.Taxonomies {
			terms = append(terms, href(s.restRoot+"/cms/v2/"+tax.Base+"?post="+id, "taxonomy", tax.Name, "embeddable", true))
		}
		l["wp:term"] = terms
	}
	if v.context == "edit" {
		if v.who.Can(pt.Caps.Publish) {
			l["wp:action-publish"] = []any{href(self)}
		}
		if v.who.Can("unfiltered_html") {
			l["wp:action-unfiltered-html"] = []any{href(self)}
		}
		if pt.Sticky && v.who.Can(pt.Caps.EditOthers) && v.who.Can(pt.Caps.Publish) {
			l["wp:action-sticky"] = []any{href(self)}
		}
		if pt.Author && v.who.Can(pt.Caps.EditOthers) {
			l["wp:action-assign-author"] = []any{href(self)}
		}
		for _, tax := range pt.Taxonomies {
			if v.who.Can(tax.ManageCap) {
				l["wp:action-create-"+tax.Base] = []any{href(self)}
			}
			if v.who.Can(tax.AssignCap) {
				l["wp:action-assign-"+tax.Base] = []any{href(self)}
			}
		}
	}
	l["curies"] = []any{map[string]any{"name": "wp", "href": "https://api.w.org/{rel}", "templated": true}}
	return l
}
