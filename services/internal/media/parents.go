package media

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// Attachments follow their parent (docs/media.md, "Who may see and attach
// what"). The parent post lives in the content service, which alone knows
// its type, status and author and applies WordPress's rules to them, so
// media asks it, as the caller: the caller's identity (verified by media)
// is signed for the audience content with the site's internal key, and
// content answers its own GET routes exactly as it would answer the caller
// — 200 readable (or, with context=edit, editable), 401/403 not, 404 no
// such post. Nothing about posts is copied into media, so a post that
// changes status changes its attachments' visibility at once.

// parentTypes are the routes a parent id is looked up at, in order (an id
// is a post or a page; other types are not attached to), with the
// capability their collection wants for statuses other than publish.
var parentTypes = []struct{ path, editCap string }{
	{"/cms/v2/posts", "edit_posts"},
	{"/cms/v2/pages", "edit_pages"},
}

// contentClient asks the content service about parent posts.
type contentClient struct {
	base   string
	keys   identity.Keys
	client *http.Client
}

// errParentLookup is a content service that could not answer.
var errParentLookup = errors.New("parent post lookup failed")

func errParentUnavailable() *rest.Error {
	return rest.NewError("rest_parent_unavailable", "The attachment's parent post could not be checked. Try again shortly.", http.StatusServiceUnavailable)
}

// get sends GET path?query to content as c and returns the status (and the
// body, read up to 1 MiB, for 200).
func (cc *contentClient) get(ctx context.Context, c identity.Identity, path string, query url.Values) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, cc.base+path+"?"+query.Encode(), nil)
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %v", errParentLookup, err)
	}
	if c.LoggedIn() {
		key := cc.keys.Keyring().SigningKey(time.Now())
		req.Header.Set(contract.IdentityHeader, identity.Sign(key, contract.ServiceContent, c, time.Now().Add(time.Minute)))
	}
	res, err := cc.client.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %v", errParentLookup, err)
	}
	defer res.Body.Close()
	var body []byte
	if res.StatusCode == http.StatusOK {
		body, _ = io.ReadAll(io.LimitReader(res.Body, 1<<20))
	}
	switch res.StatusCode {
	case http.StatusOK, http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
		return res.StatusCode, body, nil
	}
	return 0, nil, fmt.Errorf("%w: content answered %d", errParentLookup, res.StatusCode)
}

// allowed tells whether c may read (edit false) or edit the post id: the
// first parent type that knows the id decides; an id no type knows is
// exists false.
func (cc *contentClient) allowed(ctx context.Context, c identity.Identity, id int64, edit bool) (ok, exists bool, err error) {
	q := url.Values{"_fields": {"id"}}
	if edit {
		q.Set("context", "edit")
	}
	for _, pt := range parentTypes {
		status, _, err := cc.get(ctx, c, pt.path+"/"+strconv.FormatInt(id, 10), q)
		if err != nil {
			return false, false, err
		}
		if status != http.StatusNotFound {
			return status == http.StatusOK, true, nil
		}
	}
	return false, false, nil
}

// readable returns which of ids c may read, from the posts and pages
// collections (one request per type, whatever the number of ids):
// published ones, and for a caller with the type's edit capability any
// status content lets them read (their own drafts, others' private posts
// with read_private_posts...), as content drops what the caller may not
// read.
func (cc *contentClient) readable(ctx context.Context, c identity.Identity, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	list := make([]string, len(ids))
	for i, id := range ids {
		list[i] = strconv.FormatInt(id, 10)
	}
	for _, pt := range parentTypes {
		q := url.Values{"include": {strings.Join(list, ",")}, "per_page": {strconv.Itoa(len(ids))}, "_fields": {"id"}}
		if c.Can(pt.editCap) {
			// other statuses need the type's edit capability
			// (rest_forbidden_status otherwise)
			q.Set("status", "publish,future,draft,pending,private")
		}
		status, body, err := cc.get(ctx, c, pt.path, q)
		if err != nil {
			return nil, err
		}
		var found []struct{ ID int64 }
		if status != http.StatusOK || json.Unmarshal(body, &found) != nil {
			return nil, fmt.Errorf("%w: %s answered %d", errParentLookup, pt.path, status)
		}
		for _, f := range found {
			out[f.ID] = true
		}
	}
	return out, nil
}

// readers decides, for one request, which attachments the caller may read
// (WordPress's check_read_permission of an attachment): a private one its
// author and read_private_posts holders; an inherit one without a parent
// everyone; otherwise whoever may edit the attachment or read its parent.
// A single attachment is looked up exactly (a parent that no longer exists
// leaves it public, as in WordPress); a page of them costs one request per
// parent type for all their parents (list), so a collection request never
// fans out into a request per item, and there a parent content does not
// list hides its attachments, a deleted one included.
type readers struct {
	s      *Service
	c      identity.Identity
	parent map[int64]bool
	listed bool // parent holds every parent's answer (list)
}

func (s *Service) readers(c identity.Identity) *readers {
	return &readers{s: s, c: c, parent: map[int64]bool{}}
}

// list looks up the parents of a page of attachments at once.
func (rd *readers) list(ctx context.Context, page []*Attachment) {
	if rd.s.content == nil {
		return
	}
	rd.listed = true
	var ids []int64
	for _, a := range page {
		if _, seen := rd.parent[a.Post]; !seen && a.Status != "private" && a.Post > 0 && !canEdit(rd.c, a) {
			rd.parent[a.Post] = false
			ids = append(ids, a.Post)
		}
	}
	for len(ids) > 0 {
		n := min(len(ids), 100)
		readable, err := rd.s.content.readable(ctx, rd.c, ids[:n])
		if err != nil {
			// hidden, not shown: the parent decides, and cannot be asked
			rd.s.logger.WarnContext(ctx, "attachment parents", "error", err.Error())
			return
		}
		for id := range readable {
			rd.parent[id] = true
		}
		ids = ids[n:]
	}
}

// can tells whether the caller may read a. A content service that cannot
// answer hides the attachment (it is logged).
func (rd *readers) can(ctx context.Context, a *Attachment) bool {
	if a.Status == "private" || a.Post <= 0 || rd.s.content == nil || canEdit(rd.c, a) {
		return canRead(rd.c, a)
	}
	if ok, known := rd.parent[a.Post]; known || rd.listed {
		return ok
	}
	ok, exists, err := rd.s.content.allowed(ctx, rd.c, a.Post, false)
	if err != nil {
		rd.s.logger.WarnContext(ctx, "attachment parent", "post", a.Post, "error", err.Error())
		return false
	}
	rd.parent[a.Post] = ok || !exists
	return rd.parent[a.Post]
}

// mayAttach is the check of WordPress's create_item_permissions_check,
// applied to every write that sets a parent: the caller must be able to
// edit the post (rest_cannot_edit otherwise, also for an id that is no
// post).
func (s *Service) mayAttach(r *rest.Request, post int64) error {
	if post <= 0 || s.content == nil {
		return nil
	}
	ok, _, err := s.content.allowed(r.Context(), caller(r), post, true)
	if err != nil {
		s.logger.ErrorContext(r.Context(), "attachment parent", "post", post, "error", err.Error())
		return errParentUnavailable()
	}
	if !ok {
		return rest.Denied(r, "rest_cannot_edit", "Sorry, you are not allowed to upload media to this post.")
	}
	return nil
}
