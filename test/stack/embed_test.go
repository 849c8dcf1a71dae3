package stack

import (
	"fmt"
	"testing"

	"siteplane.dev/services/pkg/contract"
)

func needs(t *testing.T, services ...string) {
	t.Helper()
	for _, s := range services {
		if !st.Has(s) {
			t.Skipf("%s is not available in this tree yet", s)
		}
	}
}

func TestEmbedAuthor(t *testing.T) {
	needs(t, contract.ServiceContent)
	r := call(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "Embed me", "status": "publish"}, admin()...)
	if r.Status != 201 {
		t.Fatalf("create post: %d %.300s", r.Status, r.Raw)
	}
	id := r.Obj()["id"]
	for _, q := range []string{"_embed=author", "_embed", "_embed=1"} {
		r = call(t, "GET", fmt.Sprintf("/cms-json/cms/v2/posts/%v?%s", id, q), nil)
		emb, _ := r.Obj()["_embedded"].(map[string]any)
		if r.Status != 200 || emb == nil {
			t.Fatalf("%s: %d, no _embedded: %.300s", q, r.Status, r.Raw)
		}
		authors, _ := emb["author"].([]any)
		if len(authors) != 1 {
			t.Fatalf("%s: _embedded.author = %v", q, emb["author"])
		}
		a := authors[0].(map[string]any)
		if a["id"] != float64(1) || a["name"] != st.AdminUser || a["slug"] != st.AdminUser {
			t.Fatalf("%s: author %v", q, a)
		}
		if _, leaked := a["email"]; leaked {
			t.Fatalf("%s: the embedded author is not in embed context: %v", q, a)
		}
	}
	// Only the requested relations are embedded.
	r = call(t, "GET", fmt.Sprintf("/cms-json/cms/v2/posts/%v?_embed=wp:featuredmedia", id), nil)
	if emb, _ := r.Obj()["_embedded"].(map[string]any); emb != nil && emb["author"] != nil {
		t.Fatalf("author embedded although not requested: %v", emb)
	}
	// The plain ?rest_route= form and collections embed too.
	r = call(t, "GET", "/?rest_route=/cms/v2/posts&_embed=author", nil)
	list, _ := r.JSON.([]any)
	if r.Status != 200 || len(list) == 0 || list[0].(map[string]any)["_embedded"] == nil {
		t.Fatalf("collection: %d %.300s", r.Status, r.Raw)
	}
}
