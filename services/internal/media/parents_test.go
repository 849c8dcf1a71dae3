package media

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"siteplane.dev/services/internal/content"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/pgtest"
	"siteplane.dev/services/internal/platform/service/servicetest"
	"siteplane.dev/services/pkg/contract"
)

// newEnvWithContent starts the content service (as its main does, on a
// database of its own) and media pointed at it.
func newEnvWithContent(t *testing.T) (*testEnv, func(who string, body map[string]any) int64) {
	t.Helper()
	base := servicetest.Start(t, content.Options(), map[string]string{
		contract.EnvDatabaseURL: pgtest.NewDatabase(t), contract.EnvInternalKey: testKey, contract.EnvLogLevel: "error",
	}, content.Register)
	post := func(who string, body map[string]any) int64 {
		t.Helper()
		data, _ := json.Marshal(body)
		req, _ := http.NewRequest("POST", base+"/cms/v2/posts", bytes.NewReader(data))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(contract.IdentityHeader, identity.Sign(identity.NewKey([]byte(testKey)), contract.ServiceContent, callers[who], time.Now().Add(time.Minute)))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var out struct{ ID int64 }
		if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != http.StatusCreated {
			t.Fatalf("create post as %s: %d %v", who, res.StatusCode, err)
		}
		return out.ID
	}
	return newEnv(t, contract.EnvContentURL, base), post
}

// Attachments follow their parent: read as WordPress reads them (an
// inherit attachment is readable by who may read its parent, or edit the
// attachment), attached only to posts the caller may edit. On a1ed099
// anonymous callers listed and read the attachments of drafts and private
// posts, and an author attached uploads to another author's post and to
// posts that do not exist.
func TestAttachmentsFollowTheirParent(t *testing.T) {
	e, post := newEnvWithContent(t)
	published := post(author, map[string]any{"title": "Out", "status": "publish"})
	draft := post(author, map[string]any{"title": "Draft", "status": "draft"})
	private := post(editor, map[string]any{"title": "Secret", "status": "private"})
	others := post(author2, map[string]any{"title": "Theirs", "status": "publish"})
	draft2 := post(author, map[string]any{"title": "Draft with an editor's image", "status": "draft"})
	upload := func(who string, parent int64) *resp {
		return e.uploadRaw(who, fmt.Sprintf("?post=%d", parent), "a.jpg", "image/jpeg", testJPEG(t, 30, 20))
	}
	attach := []struct {
		name   string
		who    string
		parent int64
		status int
	}{
		{"author to a published post of theirs", author, published, 201},
		{"author to a draft of theirs", author, draft, 201},
		{"editor to a private post", editor, private, 201},
		{"editor to an author's draft", editor, draft2, 201},
		{"author to another author's post", author, others, 403},
		{"author to a private post of an editor", author, private, 403},
		{"author to a post that does not exist", author, 999999, 403},
	}
	ids := map[int64]int64{}
	for _, tc := range attach {
		t.Run("attach: "+tc.name, func(t *testing.T) {
			r := upload(tc.who, tc.parent)
			if tc.status == http.StatusCreated {
				wantStatus(t, r, http.StatusCreated)
				ids[tc.parent] = r.id()
				return
			}
			wantError(t, r, tc.status, "rest_cannot_edit", "Sorry, you are not allowed to upload media to this post.")
		})
	}
	// moving an attachment of one's own under someone else's post
	mine := upload(author2, 0).id()
	r := e.request(author2, "POST", fmt.Sprintf("/cms/v2/media/%d?post=%d", mine, draft), nil, nil)
	if r.Status != http.StatusForbidden || r.obj()["code"] != "rest_cannot_edit" {
		t.Errorf("moving an attachment under another author's draft: %d %.200s", r.Status, r.Raw)
	}

	read := []struct {
		name, who string
		parent    int64
		visible   bool
	}{
		{"anonymous, published parent", anon, published, true},
		{"anonymous, draft parent", anon, draft, false},
		{"anonymous, private parent", anon, private, false},
		{"another author, draft parent", author2, draft, false},
		{"subscriber, private parent", subscriber, private, false},
		{"its author, draft parent", author, draft, true},
		{"an editor, draft parent", editor, draft, true},
		{"an administrator, private parent", admin, private, true},
		// the author cannot edit the editor's attachment, but may read the draft
		{"the draft's author, an editor's attachment", author, draft2, true},
		{"another author, an editor's attachment to a draft", author2, draft2, false},
		{"anonymous, an editor's attachment to a draft", anon, draft2, false},
	}
	for _, tc := range read {
		t.Run("read: "+tc.name, func(t *testing.T) {
			list := e.request(tc.who, "GET", fmt.Sprintf("/cms/v2/media?parent=%d", tc.parent), nil, nil)
			wantStatus(t, list, http.StatusOK)
			if got := len(list.list()) == 1; got != tc.visible {
				t.Errorf("listed: %v, want %v: %.300s", got, tc.visible, list.Raw)
			}
			item := e.request(tc.who, "GET", fmt.Sprintf("/cms/v2/media/%d", ids[tc.parent]), nil, nil)
			if got := item.Status == http.StatusOK; got != tc.visible {
				t.Errorf("item: %d, visible %v", item.Status, tc.visible)
			}
		})
	}
}
