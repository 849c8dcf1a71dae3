package store

import "siteplane.dev/services/internal/platform/identity"

// Meta capabilities of WordPress (map_meta_cap) for one post, mapped onto
// the primitive capabilities of the caller's role. A revision is checked
// against its parent by the caller.

func isPublishedStatus(s string) bool { return s == "publish" || s == "future" }

func (p *Post) ownedBy(who identity.Identity) bool {
	return who.LoggedIn() && p.Author != 0 && p.Author == who.UserID
}

// CanEdit is edit_post.
func CanEdit(who identity.Identity, pt *PostType, p *Post) bool {
	c := pt.Caps
	return mayChange(who, p, actionCaps{c.EditPosts, c.EditOthers, c.EditPublished, c.EditPrivate})
}

// CanDelete is delete_post.
func CanDelete(who identity.Identity, pt *PostType, p *Post) bool {
	c := pt.Caps
	return mayChange(who, p, actionCaps{c.DeletePosts, c.DeleteOthers, c.DeletePublished, c.DeletePrivate})
}

// actionCaps are the primitive capabilities of one action (edit or
// delete) on a post type's posts.
type actionCaps struct{ own, others, published, private string }

// mayChange is map_meta_cap's rule for edit_post and delete_post, over
// the capabilities of the action: one's own posts by their status (a
// trashed post by the status it had), others' posts only with the others
// capability, and then by their status.
func mayChange(who identity.Identity, p *Post, a actionCaps) bool {
	if p.ownedBy(who) {
		switch {
		case isPublishedStatus(p.Status):
			return who.Can(a.published)
		case p.Status == "trash" && isPublishedStatus(p.TrashStatus):
			return who.Can(a.published)
		default:
			return who.Can(a.own)
		}
	}
	if !who.Can(a.others) {
		return false
	}
	switch {
	case isPublishedStatus(p.Status):
		return who.Can(a.published)
	case p.Status == "private":
		return who.Can(a.private)
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

// CanRead is the REST controller's check_read_permission: anyone reads
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
