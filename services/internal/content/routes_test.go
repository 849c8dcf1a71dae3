package content

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// Behaviour that comes from declaring the routes with the route kit.
func TestKitBehaviour(t *testing.T) {
	e := newEnv(t)
	id := seedPosts(e, map[string]any{"title": "Hello"})[0]
	item := fmt.Sprintf("/cms/v2/posts/%d", id)

	allow := []struct{ who, path, want string }{
		{anon, "/cms/v2/posts", "GET"},
		{contributor, "/cms/v2/posts", "GET, POST"},
		{anon, item, "GET"},
		{author, item, "GET"},
		{editor, item, "GET, POST, PUT, PATCH, DELETE"},
		{anon, "/cms/v2/menus", ""},
	}
	for _, c := range allow {
		r := e.do(c.who, "GET", c.path, nil)
		if got := r.Header.Get("Allow"); got != c.want {
			t.Errorf("%s GET %s: Allow %q, want %q", c.who, c.path, got, c.want)
		}
	}

	r := e.do(anon, "GET", item+"?_fields=id,title.rendered", nil)
	if len(r.obj()) != 2 || field(r.obj(), "title", "rendered") != "Hello" || field(r.obj(), "title", "raw") != nil {
		t.Errorf("_fields: %s", r.Raw)
	}
	r = e.do(anon, "OPTIONS", "/cms/v2/posts", nil)
	wantStatus(t, r, 200)
	if r.obj()["namespace"] != "cms/v2" || field(r.obj(), "schema", "title") != "post" ||
		field(r.obj(), "schema", "properties", "sticky", "type") != "boolean" {
		t.Errorf("OPTIONS: %.300s", r.Raw)
	}
	r = e.do(anon, "HEAD", "/cms/v2/posts", nil)
	if r.Status != 200 || len(r.Raw) != 0 || r.Header.Get("X-WP-Total") != "1" {
		t.Errorf("HEAD: %d %q %v", r.Status, r.Raw, r.Header)
	}
	r = e.do(anon, "GET", "/cms/v2/Posts/", nil)
	wantStatus(t, r, 200)
	// a parameter named like a memo key cannot stand in for the loaded post:
	// its NUL is refused at the kit's boundary (limits.go) before anything runs
	wantError(t, e.do(anon, "GET", item+"?%00post=x&%00parent=y", nil), 400, "rest_invalid_param", "")
	wantStatus(t, e.do(anon, "GET", item+"?post=x&parent=y", nil), 200)

	srv, err := e.svc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	routes := strings.Join(srv.Routes(), "\n")
	for _, want := range []string{"/cms/v2/posts", `/cms/v2/pages/(?P<parent>[\d]+)/revisions/(?P<id>[\d]+)`,
		`/cms/v2/blocks/(?P<id>[\d]+)/autosaves`, "/cms/v2/navigation", "/cms/v2/cms_pattern_category", "/cms/v2/menus"} {
		if !strings.Contains(routes, want) {
			t.Errorf("route %s not declared", want)
		}
	}
	// every endpoint of a batchable route says so, the collection's GET
	// included, as WordPress's index does (§2.3)
	batchable := map[string]bool{}
	for _, base := range []string{"posts", "pages", "blocks", "navigation", "menu-items"} {
		batchable["/cms/v2/"+base] = true
		batchable["/cms/v2/"+base+`/(?P<id>[\d]+)`] = true
	}
	for _, d := range srv.Describe() {
		if !batchable[d.Route] {
			continue
		}
		delete(batchable, d.Route)
		for _, ep := range d.Endpoints {
			if ep.AllowBatch == nil || !ep.AllowBatch.V1 {
				t.Errorf("%s %v must allow batch", d.Route, ep.Methods)
			}
		}
	}
	if len(batchable) != 0 {
		t.Errorf("routes missing: %v", batchable)
	}
}

// The gateway rebuilds validation-only routes from the route index to check
// batch sub-requests; the index must round-trip and validate like the service.
func TestIndexRoundTripForBatchValidation(t *testing.T) {
	svc := New(nil, contract.DefaultSite("http://example.test"), store.FixedUsers{})
	srv, err := svc.NewServer(nil)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(srv.Index())
	if err != nil {
		t.Fatal(err)
	}
	ix, err := rest.ParseIndex(data)
	if err != nil {
		t.Fatal(err)
	}
	check, err := rest.New(rest.Options{RootURL: "http://example.test/cms-json/"}, ix.RoutesForValidation()...)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if e := check.Check(ctx, rest.Call{Method: "POST", Path: "/cms/v2/posts", Body: map[string]any{"status": "publish", "sticky": true}}); e != nil {
		t.Errorf("valid create refused: %v", e)
	}
	if e := check.Check(ctx, rest.Call{Method: "POST", Path: "/cms/v2/posts", Body: map[string]any{"status": "bogus"}}); e == nil || e.Code != "rest_invalid_param" {
		t.Errorf("invalid status accepted: %v", e)
	}
	if e := check.Check(ctx, rest.Call{Method: "DELETE", Path: "/cms/v2/tags/5", Body: nil}); e != nil {
		t.Errorf("term delete refused: %v", e)
	}
	if e := check.Check(ctx, rest.Call{Method: "GET", Path: "/cms/v2/posts/5/revisions"}); e == nil || e.Code != "rest_batch_not_allowed" {
		t.Errorf("revisions must not be batchable: %v", e)
	}
}
