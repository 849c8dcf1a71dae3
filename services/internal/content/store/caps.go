package store

import "siteplane.dev/services/internal/platform/identity"

// Meta capabilities of WordPress (map_meta_cap) for one post, mapped onto
// the primitive capabilities of the caller's role. A revision is checked
// against its parent by the caller.

func isPublishedStatus(s string) bool { return s == "publish" || s == "future" }

func (p *Post) ownedBy(who identity.Identity) bool {
	return who.LoggedIn() && p.Author != 0 && p.Author == who.UserID
}

// canEdit is edit_post.
func CanEdit(who identity.Identity, pt *PostType, p *Post) bool {
	c := pt.Caps
	if p.ownedBy(who) {
		switch {
		case isPublishedStatus(p.Status):
			return who.Can(c.EditPublished)
		case p.Status == "trash" && isPublishedStatus(p.TrashStatus):
			return who.Can(c.EditPublished)
		default:
			return who.Can(c.EditPosts)
		}
	}
	if !who.Can(c.EditOthers) {
		return false
	}
	switch {
	case isPublishedStatus(p.Status):
		return who.Can(c.EditPublished)
	case p.Status == "private":
		return who.Can(c.EditPrivate)
	}
	return true
}

// canDelete is delete_post.
func CanDelete(who identity.Identity, pt *PostType, p *Post) bool {
	c := pt.Caps
	if p.ownedBy(who) {
		switch {
		case isPublishedStatus(p.Status):
			return who.Can(c.DeletePublished)
		case p.Status == "trash" && isPublishedStatus(p.TrashStatus):
			return who.Can(c.DeletePublished)
		default:
			return who.Can(c.DeletePosts)
		}
	}
	if !who.Can(c.DeleteOthers) {
		return false
	}
	switch {
	case isPublishedStatus(p.Status):
		return who.Can(c.DeletePublished)
	case p.Status == "private":
		return who.Can(c.DeletePrivate)
	}
	return true
}

// canReadMeta is read_post.
func canReadMeta(who identity.Identity, pt *PostType, p *Post) bool {
	switch {
	case p.Status == "publish":
		return who.Can(pt.Caps.Read)
	case p.ownedBy(who):
		return who.Can(pt.Caps.Read)
	case p.Status == "private":
		return who.Can(pt.Caps.ReadPrivate)
	}
	return CanEdit(who, pt, p)
}

// canRead is the REST controller's check_read_permission: anyone reads
// published posts; other statuses need read_post. Blocks need read_post
// even when published (WP_REST_Blocks_Controller).
func CanRead(who identity.Identity, pt *PostType, p *Post) bool {
	if pt == TypeBlock && !canReadMeta(who, pt, p) {
		return false
	}
	if p.Status == "publish" || canReadMeta(who, pt, p) {
		return true
	}
	return false
}
