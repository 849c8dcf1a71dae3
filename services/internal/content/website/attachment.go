package website

import "context"

// Attachment pages (the media's link, /?attachment_id={id}): WordPress 6.4
// and later install with attachment pages off (wp_attachment_pages_enabled
// 0), and redirect_canonical then sends an attachment's URL to its file
// with a 301; so does Siteplane. An attachment the visitor may not see (a
// private one, or one attached to a post that is not public: the media
// service's anonymous answer decides) or that does not exist is a 404.

// AttachmentMedia is a Media that also gives an attachment's file URL (the
// gateway's media lookup does); found is false when the attachment is not
// public or does not exist.
type AttachmentMedia interface {
	AttachmentURL(ctx context.Context, id int64) (fileURL string, found bool, err error)
}

// attachment serves ?attachment_id={id}.
func (s *Handler) attachment(req *siteReq, idText string) error {
	id := queryID(idText)
	media, ok := s.media.(AttachmentMedia)
	if id <= 0 || !ok {
		return s.notFound(req)
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
