package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"siteplane.dev/services/pkg/contract"
)

// postLookups is a batch of reads as the gateway's _embed sends it for the
// wp:term and replies links of posts (context=embed, per_page=100), with
// variants the read-ahead must leave to the database (another parameter),
// a short page, a post that does not exist, a draft; slow counts the
// variants.
func postLookups(posts []int64) (reqs []contract.BatchSubRequest, slow int) {
	for i, id := range posts {
		for _, base := range []string{"categories", "tags", "comments"} {
			q := fmt.Sprintf("post=%d&context=embed&per_page=100", id)
			switch i % 10 {
			case 3:
				q = fmt.Sprintf("post=%d&context=embed&per_page=1", id)
			case 5:
				q += "&hide_empty=true&type=comment"
				slow++
			case 7:
				q += "&orderby=id&order=desc"
				slow++
			}
			reqs = append(reqs, contract.BatchSubRequest{Method: "GET", Route: "/cms/v2/" + base, Query: q})
		}
	}
	return append(reqs, contract.BatchSubRequest{Method: "GET", Route: "/cms/v2/tags", Query: "post=999999&context=embed&per_page=100"},
		contract.BatchSubRequest{Method: "GET", Route: "/cms/v2/comments", Query: "post=999999&context=embed&per_page=100"}), slow
}

// A batch of reads made of ?post= term and comment lookups (the gateway's
// _embed of a page of posts) is answered in a few statements, not two per
// lookup, with every answer (status, headers, body) byte for byte the one
// the lookup gets alone.
func TestPostLookupsReadAhead(t *testing.T) {
	e := newEnv(t)
	var tags []int64
	for _, name := range []string{"beta", "Alpha", "alpha 2", "Zeta", "éclair"} {
		r := e.do(editor, "POST", "/cms/v2/tags", map[string]any{"name": name})
		wantStatus(t, r, 201)
		tags = append(tags, r.id())
	}
	r := e.do(editor, "POST", "/cms/v2/categories", map[string]any{"name": "News"})
	wantStatus(t, r, 201)
	news := r.id()
	var posts []int64
	for i := range 100 {
		body := map[string]any{"title": fmt.Sprintf("P%d", i), "status": "publish"}
		switch {
		case i%9 == 4:
			body["status"] = "draft" // anonymous lookups of it are refused
		case i%4 == 1:
			body["categories"] = []int64{news, 1}
		}
		body["tags"] = tags[:i%(len(tags)+1)]
		r := e.do(editor, "POST", "/cms/v2/posts", body)
		wantStatus(t, r, 201)
		posts = append(posts, r.id())
		if i%3 == 0 && i%9 != 4 {
			// comments, a reply to one, one held (not listed)
			var first int64
			for k := range 3 {
				body := map[string]any{"post": r.id(), "content": fmt.Sprintf("c%d", k)}
				if k == 1 {
					body["parent"] = first
				}
				c := e.do(editor, "POST", "/cms/v2/comments", body)
				wantStatus(t, c, 201)
				if k == 0 {
					first = c.id()
				}
				if k == 2 {
					wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/comments/%d", c.id()), map[string]any{"status": "hold"}), 200)
				}
			}
		}
	}
	// The read-ahead reads its posts bare (store.GetPostsBare): a child
	// page's comments link to its path, a private or protected post's
	// lookups are refused to some.
	parent := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "Parent", "status": "publish"})
	wantStatus(t, parent, 201)
	for _, tc := range []struct {
		base string
		body map[string]any
	}{
		{"pages", map[string]any{"title": "Child", "status": "publish", "parent": parent.id(), "comment_status": "open"}},
		{"posts", map[string]any{"title": "Private", "status": "private"}},
		{"posts", map[string]any{"title": "Protected", "status": "publish", "password": "secret"}},
	} {
		r := e.do(editor, "POST", "/cms/v2/"+tc.base, tc.body)
		wantStatus(t, r, 201)
		posts = append(posts, r.id())
		wantStatus(t, e.do(editor, "POST", "/cms/v2/comments", map[string]any{"post": r.id(), "content": "on " + tc.body["title"].(string)}), 201)
	}
	// The plain lookups of ten posts: three statements, the posts read
	// without their terms (the lookups read those in their own statement).
	var plain []contract.BatchSubRequest
	for _, id := range posts[:10] {
		for _, base := range []string{"categories", "tags", "comments"} {
			plain = append(plain, contract.BatchSubRequest{Method: "GET", Route: "/cms/v2/" + base, Query: fmt.Sprintf("post=%d&context=embed&per_page=100", id)})
		}
	}
	before := e.queries.n.Load()
	rawBatch(t, e, anon, plain)
	if n := e.queries.n.Load() - before; n != 3 {
		t.Errorf("%d statements for %d plain lookups, want 3", n, len(plain))
	}
	for _, sql := range e.queries.lastSQL(3) {
		if strings.Contains(sql, "FROM posts p") && strings.Contains(sql, "term_relationships") {
			t.Errorf("the lookups' posts are read with their terms:\n%s", sql)
		}
	}
	for _, who := range []string{anon, editor} {
		reqs, slow := postLookups(posts)
		before := e.queries.n.Load()
		batch := rawBatch(t, e, who, reqs)
		// three statements read ahead; the lookups they answer cost
		// nothing, the rest at most three each (the post, its terms or
		// comments, their post); each alone costs two or three
		if n := e.queries.n.Load() - before; n > 3+3*int64(slow) {
			t.Errorf("%s: %d statements for %d lookups", who, n, len(reqs))
		}
		for i, req := range reqs {
			alone := rawBatch(t, e, who, []contract.BatchSubRequest{req})
			if !bytes.Equal(batch[i], alone[0]) {
				t.Fatalf("%s %s?%s: in the batch\n%s\nalone\n%s", who, req.Route, req.Query, batch[i], alone[0])
			}
		}
	}
}

// rawBatch posts reqs to the batch handler as who and returns each
// response (status, headers, body) as its JSON.
func rawBatch(t *testing.T, e *testEnv, who string, reqs []contract.BatchSubRequest) []json.RawMessage {
	t.Helper()
	body, err := json.Marshal(contract.BatchRequest{Requests: reqs})
	if err != nil {
		t.Fatal(err)
	}
	out := postBatch(t, e, who, body)
	raw, err := json.Marshal(out["responses"])
	if err != nil {
		t.Fatal(err)
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil || len(list) != len(reqs) {
		t.Fatalf("%d answers for %d requests (%v)", len(list), len(reqs), err)
	}
	return list
}
