package media

import (
	"fmt"
	"html"
	"strings"

	"siteplane.dev/services/internal/platform/rest"
)

// The response of an attachment (prepare_item_for_response), every field of
// every context; the route kit keeps what the context and _fields ask for.

const wpDate = "2006-01-02T15:04:05"

func (s *Service) fileURL(key string) string { return s.uploads + key }

// item renders a.
func (s *Service) item(r *rest.Request, a *Attachment) rest.Item {
	src := s.fileURL(a.File)
	link := fmt.Sprintf("%s/?attachment_id=%d", strings.TrimRight(s.site.URL, "/"), a.ID)
	data := rest.Object{
		{Key: "id", Value: a.ID},
		{Key: "date", Value: a.Date.In(s.loc).Format(wpDate)},
		{Key: "date_gmt", Value: a.Date.UTC().Format(wpDate)},
		{Key: "guid", Value: rest.Object{{Key: "rendered", Value: src}, {Key: "raw", Value: src}}},
		{Key: "modified", Value: a.Modified.In(s.loc).Format(wpDate)},
		{Key: "modified_gmt", Value: a.Modified.UTC().Format(wpDate)},
		{Key: "slug", Value: a.Slug},
		{Key: "status", Value: a.Status},
		{Key: "type", Value: "attachment"},
		{Key: "link", Value: link},
		{Key: "title", Value: rest.Object{{Key: "raw", Value: a.Title}, {Key: "rendered", Value: renderTitle(a.Title)}}},
		{Key: "author", Value: a.Author},
		{Key: "featured_media", Value: a.FeaturedMedia},
		{Key: "comment_status", Value: a.CommentStatus},
		{Key: "ping_status", Value: a.PingStatus},
		{Key: "template", Value: a.Template},
		{Key: "meta", Value: metaValue(a.Meta)},
		{Key: "permalink_template", Value: link},
		{Key: "generated_slug", Value: a.Slug},
		{Key: "class_list", Value: []string{fmt.Sprintf("post-%d", a.ID), "attachment", "type-attachment", "status-" + a.Status, "hentry"}},
		{Key: "description", Value: rest.Object{{Key: "raw", Value: a.Description}, {Key: "rendered", Value: s.renderDescription(a)}}},
		{Key: "caption", Value: rest.Object{{Key: "raw", Value: a.Caption}, {Key: "rendered", Value: autop(a.Caption)}}},
		{Key: "alt_text", Value: a.AltText},
		{Key: "media_type", Value: mediaType(a.Mime)},
		{Key: "mime_type", Value: a.Mime},
		{Key: "media_details", Value: s.mediaDetails(a)},
		{Key: "post", Value: nullableID(a.Post)},
		{Key: "source_url", Value: src},
		{Key: "missing_image_sizes", Value: a.missingSizes()},
	}
	links := rest.Links{
		{Rel: "self", Href: r.URL(s.itemURL(a.ID))},
		{Rel: "collection", Href: r.URL(routePrefix)},
		{Rel: "about", Href: r.URL("/cms/v2/types/attachment")},
		rest.EmbeddableLink("author", r.URL(fmt.Sprintf("/cms/v2/users/%d", a.Author))),
		rest.EmbeddableLink("replies", r.URL(fmt.Sprintf("/cms/v2/comments?post=%d", a.ID))),
	}
	if a.FeaturedMedia > 0 {
		links = append(links, rest.EmbeddableLink("https://api.w.org/featuredmedia", r.URL(s.itemURL(a.FeaturedMedia))))
	}
	if a.Post > 0 {
		links = append(links, rest.EmbeddableLink("https://api.w.org/attached-to", r.URL(fmt.Sprintf("/cms/v2/posts/%d", a.Post)),
			rest.Member{Key: "post_type", Value: "post"}, rest.Member{Key: "id", Value: a.Post}))
	}
	return rest.Item{Data: data, Links: links}
}

func nullableID(id int64) any {
	if id <= 0 {
		return nil
	}
	return id
}

// metaValue is [] for no meta (an empty PHP array), the object otherwise.
func metaValue(m map[string]any) any {
	if len(m) == 0 {
		return []any{}
	}
	return m
}

// mediaDetails is the media_details object (§6.3).
func (s *Service) mediaDetails(a *Attachment) rest.Object {
	if !a.isImage() {
		return rest.Object{{Key: "filesize", Value: a.Filesize}, {Key: "sizes", Value: rest.Object{}}}
	}
	sizes := rest.Object{}
	for _, sz := range imageSizes {
		info, ok := a.Details.Sizes[sz.Name]
		if !ok {
			continue
		}
		sizes = append(sizes, rest.Member{Key: sz.Name, Value: rest.Object{
			{Key: "file", Value: info.File},
			{Key: "width", Value: info.Width},
			{Key: "height", Value: info.Height},
			{Key: "filesize", Value: info.Filesize},
			{Key: "mime_type", Value: info.Mime},
			{Key: "source_url", Value: s.fileURL(a.dir() + "/" + info.File)},
		}})
	}
	sizes = append(sizes, rest.Member{Key: "full", Value: rest.Object{
		{Key: "file", Value: baseName(a.File)},
		{Key: "width", Value: a.Details.Width},
		{Key: "height", Value: a.Details.Height},
		{Key: "mime_type", Value: a.Mime},
		{Key: "source_url", Value: s.fileURL(a.File)},
	}})
	meta := emptyImageMeta()
	if a.Details.ImageMeta != nil {
		meta = *a.Details.ImageMeta
		if meta.Keywords == nil {
			meta.Keywords = []string{}
		}
	}
	out := rest.Object{
		{Key: "width", Value: a.Details.Width},
		{Key: "height", Value: a.Details.Height},
		{Key: "file", Value: a.File},
		{Key: "filesize", Value: a.Filesize},
		{Key: "sizes", Value: sizes},
		{Key: "image_meta", Value: meta},
	}
	if p := a.Details.ParentImage; p != nil {
		out = append(out, rest.Member{Key: "parent_image", Value: rest.Object{
			{Key: "attachment_id", Value: p.AttachmentID}, {Key: "file", Value: p.File}}})
	}
	return out
}

func baseName(key string) string {
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		return key[i+1:]
	}
	return key
}

func renderTitle(t string) string { return html.EscapeString(t) }

// autop wraps text in paragraphs: blank lines separate paragraphs, single
// newlines become <br />, as wpautop does for plain text.
func autop(text string) string {
	text = strings.TrimSpace(strings.ReplaceAll(text, "\r\n", "\n"))
	if text == "" {
		return ""
	}
	var b strings.Builder
	for _, p := range strings.Split(text, "\n\n") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		b.WriteString("<p>")
		b.WriteString(strings.ReplaceAll(p, "\n", "<br />\n"))
		b.WriteString("</p>\n")
	}
	return b.String()
}

// renderDescription is the rendered description: for images WordPress
// prepends a paragraph with the medium size linked to the full file
// (prepend_attachment).
func (s *Service) renderDescription(a *Attachment) string {
	body := autop(a.Description)
	if !a.isImage() {
		return fmt.Sprintf("<p class=\"attachment\"><a href='%s'>%s</a></p>\n", html.EscapeString(s.fileURL(a.File)),
			html.EscapeString(renderTitle(a.Title))) + body
	}
	key, w, h, size := a.File, a.Details.Width, a.Details.Height, "full"
	if m, ok := a.Details.Sizes["medium"]; ok {
		key, w, h, size = a.dir()+"/"+m.File, m.Width, m.Height, "medium"
	}
	return fmt.Sprintf("<p class=\"attachment\"><a href='%s'><img width=\"%d\" height=\"%d\" src=\"%s\" class=\"attachment-%s size-%s\" alt=\"%s\" decoding=\"async\" loading=\"lazy\" /></a></p>\n",
		html.EscapeString(s.fileURL(a.File)), w, h, html.EscapeString(s.fileURL(key)), size, size, html.EscapeString(a.AltText)) + body
}
