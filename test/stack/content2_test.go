package stack

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"siteplane.dev/services/pkg/contract"
)

// roleUsers are one user per role with an application password, made once
// through the gateway (username = role).
var (
	roleOnce  sync.Once
	roleCreds map[string][]string
)

func roleUser(t *testing.T, role string) []string {
	t.Helper()
	if role == "administrator" {
		return admin()
	}
	if role == "anonymous" {
		return nil
	}
	roleOnce.Do(func() {
		roleCreds = map[string][]string{}
		for _, r := range []string{"editor", "author", "contributor", "subscriber"} {
			login := "c2-" + r
			u := call(t, "POST", "/cms-json/cms/v2/users", map[string]any{"username": login, "email": login + "@example.com",
				"password": "unused", "roles": []string{r}}, admin()...)
			if u.Status != 201 {
				t.Fatalf("create %s: %d %s", r, u.Status, u.Raw)
			}
			p := call(t, "POST", fmt.Sprintf("/cms-json/cms/v2/users/%v/application-passwords", u.Obj()["id"]), map[string]any{"name": "c2"}, admin()...)
			if p.Status != 201 {
				t.Fatalf("password for %s: %d %s", r, p.Status, p.Raw)
			}
			roleCreds[r] = []string{login, p.Obj()["password"].(string)}
		}
	})
	return roleCreds[role]
}

var roleOrder = []string{"anonymous", "subscriber", "contributor", "author", "editor", "administrator"}

// A settings change shows in the index (GET /) and on the website's pages
// and feed at once, though the edge cache and the website's snapshot held
// them with the old title.
func TestSettingsShowInIndex(t *testing.T) {
	needs(t, contract.ServiceContent)
	t.Cleanup(func() {
		call(t, "POST", "/cms-json/cms/v2/settings", map[string]any{"title": nil, "description": nil, "timezone": nil}, admin()...)
	})
	for i, who := range roleOrder[:5] {
		r := call(t, "GET", "/cms-json/cms/v2/settings", nil, roleUser(t, who)...)
		expectError(t, r, []int{401, 403, 403, 403, 403}[i], "rest_forbidden")
	}
	for range 2 { // the second answer comes from the edge cache
		for _, path := range []string{"/", "/feed/"} {
			if p := page(t, "GET", path); p.Status != 200 || strings.Contains(string(p.Raw), "Renamed site") {
				t.Fatalf("%s before the change: %d %.300s", path, p.Status, p.Raw)
			}
		}
	}
	r := call(t, "POST", "/cms-json/cms/v2/settings", map[string]any{"title": "Renamed site", "description": "New tagline",
		"timezone": "Asia/Kolkata"}, admin()...)
	if r.Status != 200 || r.Obj()["title"] != "Renamed site" {
		t.Fatalf("update settings: %d %s", r.Status, r.Raw)
	}
	ix := call(t, "GET", "/cms-json/", nil)
	o := ix.Obj()
	if o["name"] != "Renamed site" || o["description"] != "New tagline" || o["timezone_string"] != "Asia/Kolkata" || o["gmt_offset"] != "5.5" {
		t.Fatalf("index after the settings change: name=%v description=%v tz=%v offset=%v", o["name"], o["description"], o["timezone_string"], o["gmt_offset"])
	}
	for path, want := range map[string][]string{"/": {"<title>Renamed site – New tagline</title>", "Renamed site</a>", "New tagline</p>"},
		"/feed/": {"<title>Renamed site</title>", "<description>New tagline</description>"}} {
		p := page(t, "GET", path)
		for _, w := range want {
			if !strings.Contains(string(p.Raw), w) {
				t.Errorf("%s after the settings change lacks %q: %.600s", path, w, p.Raw)
			}
		}
	}
}

// Menu items through the gateway: the role matrix and a batch.
func TestMenuItemsThroughGateway(t *testing.T) {
	needs(t, contract.ServiceContent)
	menu := call(t, "POST", "/cms-json/cms/v2/menus", map[string]any{"name": "Stack menu"}, admin()...)
	if menu.Status != 201 {
		t.Fatalf("menu: %d %s", menu.Status, menu.Raw)
	}
	readWant := []int{401, 403, 200, 200, 200, 200}
	createWant := []int{401, 403, 403, 403, 403, 201}
	for i, who := range roleOrder {
		t.Run(who, func(t *testing.T) {
			r := call(t, "GET", "/cms-json/cms/v2/menu-items", nil, roleUser(t, who)...)
			if r.Status != readWant[i] {
				t.Fatalf("list: %d %s", r.Status, r.Raw)
			}
			c := call(t, "POST", "/cms-json/cms/v2/menu-items", map[string]any{"title": "x", "url": "https://x.test/", "menus": menu.Obj()["id"]}, roleUser(t, who)...)
			if c.Status != createWant[i] {
				t.Fatalf("create: %d %s", c.Status, c.Raw)
			}
		})
	}
	b := batch(t, "", map[string]any{"method": "POST", "path": "/cms/v2/menu-items", "body": map[string]any{"title": "B1", "url": "https://b1.test/", "menus": menu.Obj()["id"]}},
		map[string]any{"method": "POST", "path": "/cms/v2/menu-items", "body": map[string]any{"title": "B2", "url": "https://b2.test/", "menu_order": 2}})
	resp, _ := b.Obj()["responses"].([]any)
	if b.Status != 207 || len(resp) != 2 {
		t.Fatalf("batch: %d %s", b.Status, b.Raw)
	}
	for _, x := range resp {
		if x.(map[string]any)["status"] != float64(201) {
			t.Fatalf("batch item: %v", x)
		}
	}
	bad := batch(t, "require-all-validate", map[string]any{"method": "POST", "path": "/cms/v2/menu-items", "body": map[string]any{"title": "ok", "url": "https://ok.test/"}},
		map[string]any{"method": "POST", "path": "/cms/v2/menu-items", "body": map[string]any{"menu_order": 0}})
	if bad.Obj()["failed"] != "validation" {
		t.Fatalf("require-all-validate: %d %s", bad.Status, bad.Raw)
	}
}

// Every link a content response emits resolves: for one post, page, block,
// term, user and menu item, each href of _links answers 200 to the
// administrator (or the documented 401/403).
func TestContentLinksResolve(t *testing.T) {
	needs(t, contract.ServiceContent)
	create := func(path string, body map[string]any) map[string]any {
		r := call(t, "POST", "/cms-json/cms/v2/"+path, body, admin()...)
		if r.Status != 201 {
			t.Fatalf("create %s: %d %s", path, r.Status, r.Raw)
		}
		return r.Obj()
	}
	cat := create("categories", map[string]any{"name": "Linked"})
	parent := create("pages", map[string]any{"title": "Parent", "status": "publish"})
	page := create("pages", map[string]any{"title": "Child", "status": "publish", "parent": parent["id"]})
	post := create("posts", map[string]any{"title": "Linked post", "status": "publish", "categories": []any{cat["id"]}})
	call(t, "POST", fmt.Sprintf("/cms-json/cms/v2/posts/%v", post["id"]), map[string]any{"title": "Linked post, revised"}, admin()...)
	block := create("blocks", map[string]any{"title": "Linked block", "status": "publish"})
	menu := create("menus", map[string]any{"name": "Linked menu"})
	item := create("menu-items", map[string]any{"type": "post_type", "object_id": page["id"], "menus": menu["id"]})
	top := create("comments", map[string]any{"post": post["id"], "content": "First!"})
	reply := create("comments", map[string]any{"post": post["id"], "content": "Reply", "parent": top["id"]})

	items := map[string]string{
		"post": fmt.Sprintf("posts/%v", post["id"]), "page": fmt.Sprintf("pages/%v", page["id"]),
		"block": fmt.Sprintf("blocks/%v", block["id"]), "term": fmt.Sprintf("categories/%v", cat["id"]),
		"menu": fmt.Sprintf("menus/%v", menu["id"]), "user": "users/1",
		"menu item": fmt.Sprintf("menu-items/%v", item["id"]),
		"comment":   fmt.Sprintf("comments/%v", top["id"]), "reply": fmt.Sprintf("comments/%v", reply["id"]),
	}
	for name, path := range items {
		t.Run(name, func(t *testing.T) {
			r := call(t, "GET", "/cms-json/cms/v2/"+path, nil, admin()...)
			links, _ := r.Obj()["_links"].(map[string]any)
			if r.Status != 200 || len(links) == 0 {
				t.Fatalf("GET %s: %d %.300s", path, r.Status, r.Raw)
			}
			for rel, list := range links {
				if rel == "curies" {
					continue
				}
				for _, l := range list.([]any) {
					h, _ := l.(map[string]any)["href"].(string)
					if strings.Contains(h, "/cms/v2/media") && !st.Has(contract.ServiceMedia) {
						continue // media is another service, absent from this tree
					}
					rest, ok := strings.CutPrefix(h, st.SiteURL)
					if !ok {
						t.Fatalf("%s: link %s is not on the site", rel, h)
					}
					got := call(t, "GET", rest, nil, admin()...)
					if got.Status != 200 && got.Status != 401 && got.Status != 403 {
						t.Errorf("%s %s → %d %.200s", rel, h, got.Status, got.Raw)
					}
				}
			}
		})
	}
}

// Comments through the gateway: who may comment, and _embed of a post's
// replies.
func TestCommentsThroughGateway(t *testing.T) {
	needs(t, contract.ServiceContent)
	post := call(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "Talk", "status": "publish"}, admin()...)
	want := []int{401, 201, 201, 201, 201, 201}
	for i, who := range roleOrder {
		r := call(t, "POST", "/cms-json/cms/v2/comments", map[string]any{"post": post.Obj()["id"], "content": "Hello from " + who}, roleUser(t, who)...)
		if r.Status != want[i] {
			t.Fatalf("%s: %d %s", who, r.Status, r.Raw)
		}
	}
	// a logged-in commenter's display name is the comment's author_name
	l := call(t, "GET", fmt.Sprintf("/cms-json/cms/v2/comments?post=%v&author=1", post.Obj()["id"]), nil, admin()...)
	var mine []map[string]any
	if err := json.Unmarshal(l.Raw, &mine); err != nil || len(mine) != 1 || mine[0]["author_name"] == "" {
		t.Fatalf("author_name: %s", l.Raw)
	}
	e := call(t, "GET", fmt.Sprintf("/cms-json/cms/v2/posts/%v?_embed=replies", post.Obj()["id"]), nil)
	emb, _ := e.Obj()["_embedded"].(map[string]any)
	replies, _ := emb["replies"].([]any)
	if len(replies) != 1 {
		t.Fatalf("embedded replies: %.400s", e.Raw)
	}
	// anonymous readers see the approved ones (the administrator's, the editor's)
	if list, _ := replies[0].([]any); len(list) != 2 {
		t.Fatalf("approved replies: %d %.400s", len(list), e.Raw)
	}
}

// Search through the gateway: _embed brings the found objects.
func TestSearchEmbedThroughGateway(t *testing.T) {
	needs(t, contract.ServiceContent)
	p := call(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "Zebracorn sightings", "status": "publish"}, admin()...)
	if p.Status != 201 {
		t.Fatalf("post: %d %s", p.Status, p.Raw)
	}
	r := call(t, "GET", "/cms-json/cms/v2/search?search=zebracorn&_embed", nil)
	var hits []any
	if err := json.Unmarshal(r.Raw, &hits); err != nil || len(hits) != 1 {
		t.Fatalf("search: %d %s", r.Status, r.Raw)
	}
	self, _ := hits[0].(map[string]any)["_embedded"].(map[string]any)["self"].([]any)
	if len(self) != 1 || self[0].(map[string]any)["id"] != p.Obj()["id"] {
		t.Fatalf("embedded self: %s", r.Raw)
	}
}
