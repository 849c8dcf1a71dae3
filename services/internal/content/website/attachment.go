package website

import (
	"context"
	"html"
	"strings"
	"time"

	"siteplane.dev/services/internal/content/store"
)

// Attachment pages (the media's link, /?attachment_id={id}): WordPress 6.4
// and later install with attachment pages off (wp_attachment_pages_enabled
// 0), and redirect_canonical then sends an attachment's URL to its file
// with a 301; so does Siteplane. With the option on, the page is rendered
// as WordPress renders it: the attachment template hierarchy ({type}-{subtype},
// {subtype}, {type}, attachment, single-attachment-{slug}, single-attachment,
// single, singular, index), the attachment as the post (its title, date,
// author, caption as excerpt) and as its content the description as the
// media service renders it (prepend_attachment's link to the file first).
// An attachment the visitor may not see (a private one, or one attached to
// a post that is not public: the media service's anonymous answer decides)
// or that does not exist is a 404 either way.

// AttachmentMedia is a Media that also gives an attachment's file URL (the
// gateway's media lookup does); found is false when the attachment is not
// public or does not exist.
type AttachmentMedia interface {
	AttachmentURL(ctx context.Context, id int64) (fileURL string, found bool, err error)
}

// AttachmentPageMedia also gives what an attachment page shows.
type AttachmentPageMedia interface {
	AttachmentPage(ctx context.Context, id int64) (a Attachment, found bool, err error)
}

// Attachment is what an attachment page shows of the media item.
type Attachment struct {
	ID, Author  int64
	DateGMT     time.Time
	Slug, Title string // the title as text
	// CaptionHTML and DescHTML are rendered by the media service, the
	// description with prepend_attachment's link to the file before it (the
	// medium size of an image), as WordPress's the_content filter adds it
	CaptionHTML, DescHTML string
	MimeType              string
}

// attachmentType is the attachment's post type as the page sees it: an
// author, an excerpt (the caption), no comments here.
var attachmentType = &store.PostType{Name: "attachment", Base: "media", Author: true, Excerpt: true, RenderedText: true,
	DefaultCommentStatus: "closed"}

// attachment serves ?attachment_id={id}.
func (s *Handler) attachment(req *siteReq, idText string) error {
	id := queryID(idText)
	media, ok := s.media.(AttachmentMedia)
	if id <= 0 || !ok {
		return s.notFound(req)
	}
	sn, err := s.snapshot(req.r.Context())
	if err != nil {
		return err
	}
	if pages, ok := s.media.(AttachmentPageMedia); ok && sn.attachmentPages {
		return s.attachmentPage(req, pages, id)
	}
	u, found, err := media.AttachmentURL(req.r.Context(), id)
	if err != nil {
		return err
	}
	if !found {
		return s.notFound(req)
	}
	return s.redirect(req, u)
}

// attachmentPage renders the attachment as its own page.
func (s *Handler) attachmentPage(req *siteReq, media AttachmentPageMedia, id int64) error {
	a, found, err := media.AttachmentPage(req.r.Context(), id)
	if err != nil {
		return err
	}
	if !found {
		return s.notFound(req)
	}
	p := &store.Post{ID: a.ID, Type: attachmentType.Name, Status: "publish", Author: a.Author, DateGMT: a.DateGMT, Slug: a.Slug,
		Title: a.Title, Content: a.DescHTML, Excerpt: html.UnescapeString(plainText(a.CaptionHTML)),
		CommentStatus: "closed"}
	kind, sub, _ := strings.Cut(a.MimeType, "/")
	var front []string
	for _, t := range []string{kind + "-" + sub, sub, kind} {
		if t != "" && t != "-" {
			front = append(front, t)
		}
	}
	sp := s.singularPage(attachmentType, p, append(front, "attachment"))
	sp.canonical = s.Site().URL + "/?attachment_id=" + store.Itoa(id)
	sp.bodyClass = "attachment single single-attachment postid-" + store.Itoa(id) + " attachmentid-" + store.Itoa(id) + " attachment-" + cssWord(sub)
	// the attachment's id is the media service's: its excerpt and content
	// are rendered afresh, never kept under a post's id in the snapshot
	req.preview = id
	return s.render(req, sp)
}

// cssWord keeps a class name's letters, digits and dashes.
func cssWord(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			return r
		}
		return -1
	}, strings.ToLower(s))
}

// attachmentPagesOn reads the wp_attachment_pages_enabled option's stored
// JSON (options are loosely typed: "1", 1 and true are on).
func attachmentPagesOn(raw []byte) bool {
	v := strings.Trim(strings.TrimSpace(string(raw)), `"`)
	return v == "1" || v == "true"
}
