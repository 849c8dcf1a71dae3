// This file is over 500 lines on purpose: it is one list of regression
// cases from the compliance audit, each a few lines stating one WordPress
// behaviour; splitting it by size would scatter the list.

package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/pkg/jsonkeys"
)

// Regressions found by the compliance audit against the behaviour
// reference (§4, §5, §10): each case states the WordPress behaviour.

// topKeys returns the keys of the JSON object raw in document order.
func topKeys(t testing.TB, raw []byte) []string {
	t.Helper()
	keys, err := jsonkeys.Of(raw)
	if err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	return keys
}

// objectKeys returns the keys of the member name of raw, in document order.
func objectKeys(t testing.TB, raw []byte, name string) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if m[name] == nil {
		return nil
	}
	return topKeys(t, m[name])
}

func TestActionCreateLinksFollowTaxonomyCapabilities(t *testing.T) {
	e := newEnv(t)
	// get_available_actions: creating terms needs edit_terms for a
	// hierarchical taxonomy but only assign_terms (edit_posts) for a flat one
	cases := []struct {
		who                string
		createCat, creTags bool
	}{
		{admin, true, true},
		{editor, true, true},
		{author, false, true},
		{contributor, false, true},
	}
	for _, c := range cases {
		t.Run(c.who, func(t *testing.T) {
			r := e.do(c.who, "POST", "/cms/v2/posts", map[string]any{"title": "actions"})
			wantStatus(t, r, 201)
			links, _ := r.obj()["_links"].(map[string]any)
			_, cat := links["wp:action-create-categories"]
			_, tags := links["wp:action-create-tags"]
			_, assignTags := links["wp:action-assign-tags"]
			if cat != c.createCat || tags != c.creTags || !assignTags {
				t.Fatalf("create-categories %v (want %v), create-tags %v (want %v), assign-tags %v: %v",
					cat, c.createCat, tags, c.creTags, assignTags, slices.Sorted(maps.Keys(links)))
			}
		})
	}
}

func TestFieldShapesPerType(t *testing.T) {
	e := newEnv(t)
	nav := e.do(admin, "POST", "/cms/v2/navigation", map[string]any{"title": "Main", "status": "publish",
		"content": "<!-- wp:navigation-link {\"label\":\"Home\"} /-->"})
	wantStatus(t, nav, 201)
	block := e.do(admin, "POST", "/cms/v2/blocks", map[string]any{"title": "Reusable", "status": "publish",
		"content": "<!-- wp:paragraph --><p>b</p><!-- /wp:paragraph -->", "meta": map[string]any{"cms_pattern_sync_status": "unsynced"}})
	wantStatus(t, block, 201)
	cases := []struct {
		name, path string
		member     string   // "" checks the top-level keys
		want       []string // exact keys, in order
		tail       []string // or: the last keys, in order
	}{
		// WP_Navigation_Fallback adds embed to status, content (raw,
		// rendered, block_version) and title.raw; content.protected is in
		// embed for every type
		{"navigation embed content", fmt.Sprintf("/cms/v2/navigation/%d?context=embed", nav.id()), "content",
			[]string{"raw", "rendered", "protected", "block_version"}, nil},
		{"navigation embed title", fmt.Sprintf("/cms/v2/navigation/%d?context=embed", nav.id()), "title",
			[]string{"raw", "rendered"}, nil},
		{"navigation embed fields", fmt.Sprintf("/cms/v2/navigation/%d?context=embed", nav.id()), "",
			[]string{"id", "date", "slug", "status", "type", "link", "title", "content", "_links"}, nil},
		// the blocks controller appends wp_pattern_sync_status after every
		// other field (filter_response_by_context), in every context
		{"block view order", fmt.Sprintf("/cms/v2/blocks/%d", block.id()), "", nil,
			[]string{"meta", "cms_pattern_category", "cms_pattern_sync_status", "_links"}},
		{"block edit order", fmt.Sprintf("/cms/v2/blocks/%d?context=edit", block.id()), "", nil,
			[]string{"meta", "cms_pattern_category", "cms_pattern_sync_status", "_links"}},
		{"block embed fields", fmt.Sprintf("/cms/v2/blocks/%d?context=embed", block.id()), "",
			[]string{"id", "date", "slug", "type", "link", "title", "excerpt", "cms_pattern_sync_status", "_links"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.do(admin, "GET", c.path, nil)
			wantStatus(t, r, 200)
			got := topKeys(t, r.Raw)
			if c.member != "" {
				got = objectKeys(t, r.Raw, c.member)
			}
			if c.want != nil && !slices.Equal(got, c.want) {
				t.Fatalf("keys %v, want %v", got, c.want)
			}
			if c.tail != nil && (len(got) < len(c.tail) || !slices.Equal(got[len(got)-len(c.tail):], c.tail)) {
				t.Fatalf("keys %v, want them to end with %v", got, c.tail)
			}
		})
	}
	// a block in embed context: title.raw is not in embed and
	// title.rendered is removed, leaving an empty array; no meta, so ""
	r := e.do(admin, "GET", fmt.Sprintf("/cms/v2/blocks/%d?context=embed", block.id()), nil)
	if !bytes.Contains(r.Raw, []byte(`"title":[]`)) || r.obj()["cms_pattern_sync_status"] != "" {
		t.Fatalf("block embed: %s", r.Raw)
	}
	r = e.do(admin, "GET", fmt.Sprintf("/cms/v2/blocks/%d", block.id()), nil)
	if r.obj()["cms_pattern_sync_status"] != "unsynced" {
		t.Fatalf("block view sync status: %s", r.Raw)
	}
}

func TestRevisionPagingAndDelete(t *testing.T) {
	e := newEnv(t)
	id := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "r", "content": "v1"}).id()
	for _, content := range []string{"v2", "v3"} {
		wantStatus(t, e.do(author, "POST", fmt.Sprintf("/cms/v2/posts/%d", id), map[string]any{"content": content}), 200)
	}
	base := fmt.Sprintf("/cms/v2/posts/%d/revisions", id)
	cases := []struct {
		query string
		want  int // status; 200 answers this many items
		items int
	}{
		{"", 200, 2},
		// without per_page all revisions are one page: page 2 is beyond it
		{"?page=2", 400, 0},
		{"?page=1", 200, 2},
		{"?per_page=1&page=2", 200, 1},
		{"?per_page=1&page=3", 400, 0},
		// with an offset the page number is not checked
		{"?per_page=1&page=5&offset=1", 200, 1},
		{"?offset=2", 400, 0},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			r := e.do(author, "GET", base+c.query, nil)
			switch {
			case c.want == 400 && c.query == "?offset=2":
				wantError(t, r, 400, "rest_revision_invalid_offset_number", "")
			case c.want == 400:
				wantError(t, r, 400, "rest_revision_invalid_page_number",
					"The page number requested is larger than the number of pages available.")
			default:
				wantStatus(t, r, 200)
				if len(r.list()) != c.items {
					t.Fatalf("want %d items: %s", c.items, r.Raw)
				}
			}
		})
	}
	// the deleted revision is rendered in edit context (raw values), and a
	// revision has no preview_link
	revs := e.do(author, "GET", base, nil).list()
	rid := int64(revs[0]["id"].(float64))
	if r := e.do(author, "GET", fmt.Sprintf("%s/%d?context=edit", base, rid), nil); r.obj()["preview_link"] != nil {
		t.Fatalf("revision with preview_link: %s", r.Raw)
	}
	r := e.do(author, "DELETE", fmt.Sprintf("%s/%d?force=true", base, rid), nil)
	wantStatus(t, r, 200)
	if field(r.obj(), "previous", "content", "raw") != "v3" || field(r.obj(), "previous", "guid", "raw") == nil {
		t.Fatalf("previous not in edit context: %s", r.Raw)
	}
}

func TestTemplateValidatedBeforePermissions(t *testing.T) {
	e := newEnv(t)
	id := seedPosts(e, map[string]any{"title": "t"})[0]
	item := fmt.Sprintf("/cms/v2/posts/%d", id)
	cases := []struct {
		who, method, path string
		body              map[string]any
		status            int
		code              string
	}{
		// check_template is the template argument's validate_callback: a 400
		// before rest_cannot_create / rest_cannot_edit / rest_post_exists
		{anon, "POST", "/cms/v2/posts", map[string]any{"title": "x", "template": "nope.php"}, 400, "rest_invalid_param"},
		{subscriber, "POST", "/cms/v2/posts", map[string]any{"title": "x", "template": "nope.php"}, 400, "rest_invalid_param"},
		{admin, "POST", "/cms/v2/posts", map[string]any{"id": 3, "template": "nope.php"}, 400, "rest_invalid_param"},
		{anon, "POST", item, map[string]any{"template": "nope.php"}, 400, "rest_invalid_param"},
		{author, "PUT", item, map[string]any{"template": "nope.php"}, 400, "rest_invalid_param"},
		{author, "PUT", item, map[string]any{"template": ""}, 403, "rest_cannot_edit"},
		{anon, "POST", "/cms/v2/posts", map[string]any{"title": "x", "template": ""}, 401, "rest_cannot_create"},
	}
	for _, c := range cases {
		t.Run(c.who+c.method+c.path, func(t *testing.T) {
			r := e.do(c.who, c.method, c.path, c.body)
			wantError(t, r, c.status, c.code, "")
			if c.status != 400 {
				return
			}
			if field(r.obj(), "data", "params", "template") != "template is not one of ." ||
				!slices.Equal(objectKeys(t, mustMember(t, r.Raw, "data"), "details"), []string{"template"}) {
				t.Fatalf("template error: %s", r.Raw)
			}
			// has_valid_params' shape: status, params, details; details as {code, message, data}
			if got := objectKeys(t, r.Raw, "data"); !slices.Equal(got, []string{"status", "params", "details"}) {
				t.Fatalf("data keys %v: %s", got, r.Raw)
			}
			details := mustMember(t, mustMember(t, r.Raw, "data"), "details")
			if got := objectKeys(t, details, "template"); !slices.Equal(got, []string{"code", "message", "data"}) {
				t.Fatalf("details keys %v: %s", got, r.Raw)
			}
		})
	}
}

// mustMember returns the raw JSON of member name of the object raw.
func mustMember(t testing.TB, raw []byte, name string) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m[name] == nil {
		t.Fatalf("no %s in %s", name, raw)
	}
	return m[name]
}

func TestMetaValidatedOnWrite(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name, path string
		body       map[string]any
		status     int
		code, msg  string
		additional bool // additional_data [{param}] (type errors carry their param)
	}{
		// WP_REST_Meta_Fields::update_value: the schema's own error with the
		// path meta.<key> and status 400, not rest_invalid_param
		{"enum", "/cms/v2/blocks", map[string]any{"title": "b", "meta": map[string]any{"cms_pattern_sync_status": "bad"}},
			400, "rest_not_in_enum", "meta.cms_pattern_sync_status is not one of partial and unsynced.", false},
		{"empty is not in the enum", "/cms/v2/blocks", map[string]any{"title": "b", "meta": map[string]any{"cms_pattern_sync_status": ""}},
			400, "rest_not_in_enum", "meta.cms_pattern_sync_status is not one of partial and unsynced.", false},
		{"type", "/cms/v2/posts", map[string]any{"title": "b", "meta": map[string]any{"footnotes": 5}},
			400, "rest_invalid_type", "meta.footnotes is not of type string.", true},
		// check_meta_is_array answers false: "Invalid parameter." without details
		{"not an object", "/cms/v2/posts", map[string]any{"title": "b", "meta": "x"},
			400, "rest_invalid_param", "Invalid parameter(s): meta", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.do(admin, "POST", c.path, c.body)
			wantError(t, r, c.status, c.code, c.msg)
			if got := r.obj()["additional_data"] != nil; got != c.additional {
				t.Fatalf("additional_data present %v: %s", got, r.Raw)
			}
			if c.additional && field(r.obj()["additional_data"].([]any)[0].(map[string]any), "param") != "meta.footnotes" {
				t.Fatalf("additional_data: %s", r.Raw)
			}
			if c.code == "rest_invalid_param" && field(r.obj(), "data", "params", "meta") != "Invalid parameter." {
				t.Fatalf("params: %s", r.Raw)
			}
		})
	}
	// nothing was written by the failed requests (one transaction per write)
	if r := e.do(admin, "GET", "/cms/v2/posts?status=draft", nil); len(r.list()) != 0 {
		t.Fatalf("failed writes left posts: %s", r.Raw)
	}
	// valid values are stored; null deletes (back to ""); unknown keys are ignored
	r := e.do(admin, "POST", "/cms/v2/blocks", map[string]any{"title": "b",
		"meta": map[string]any{"cms_pattern_sync_status": "partial", "footnotes": "f", "unknown": 1}})
	wantStatus(t, r, 201)
	if r.obj()["cms_pattern_sync_status"] != "partial" || field(r.obj(), "meta", "footnotes") != "f" || field(r.obj(), "meta", "unknown") != nil {
		t.Fatalf("stored meta: %s", r.Raw)
	}
	r = e.do(admin, "POST", fmt.Sprintf("/cms/v2/blocks/%d", r.id()), map[string]any{"meta": map[string]any{"cms_pattern_sync_status": nil}})
	wantStatus(t, r, 200)
	if r.obj()["cms_pattern_sync_status"] != "" || field(r.obj(), "meta", "footnotes") != "f" {
		t.Fatalf("null meta: %s", r.Raw)
	}
}

func TestClassListAndTermOrder(t *testing.T) {
	e := newEnv(t)
	term := func(base, name string) int64 {
		r := e.do(admin, "POST", "/cms/v2/"+base, map[string]any{"name": name})
		wantStatus(t, r, 201)
		return r.id()
	}
	zebra, apple := term("tags", "Zebra"), term("tags", "apple")
	numeric := term("tags", "2024")
	news := term("categories", "News")
	cases := []struct {
		name  string
		body  map[string]any
		tags  []int64
		class []string
	}{
		// get_the_terms orders by name; get_post_class lists category terms
		// before tags, then the post format term; a numeric slug becomes the
		// term id; no "sticky" (is_home() is false in a REST request)
		{"sticky aside with terms", map[string]any{"title": "a", "sticky": true, "format": "aside",
			"tags": []int64{zebra, numeric, apple}, "categories": []int64{news}},
			[]int64{numeric, apple, zebra},
			[]string{"post-%d", "post", "type-post", "status-publish", "format-aside", "hentry", "category-news",
				fmt.Sprintf("tag-%d", numeric), "tag-apple", "tag-zebra", "post_format-post-format-aside"}},
		// a password is always required in REST (no cookie), which also
		// hides has-post-thumbnail
		{"password and thumbnail", map[string]any{"title": "p", "password": "pw", "featured_media": 7},
			[]int64{},
			[]string{"post-%d", "post", "type-post", "status-publish", "format-standard", "post-password-required", "hentry", "category-uncategorized"}},
		{"thumbnail", map[string]any{"title": "t", "featured_media": 7},
			[]int64{},
			[]string{"post-%d", "post", "type-post", "status-publish", "format-standard", "has-post-thumbnail", "hentry", "category-uncategorized"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			id := seedPosts(e, c.body)[0]
			r := e.do(anon, "GET", fmt.Sprintf("/cms/v2/posts/%d", id), nil)
			wantStatus(t, r, 200)
			want := slices.Clone(c.class)
			want[0] = fmt.Sprintf(want[0], id)
			var got []string
			for _, v := range r.obj()["class_list"].([]any) {
				got = append(got, v.(string))
			}
			if !slices.Equal(got, want) {
				t.Fatalf("class_list %v, want %v", got, want)
			}
			if tags := fmt.Sprint(r.obj()["tags"]); tags != fmt.Sprint(toAnyFloats(c.tags)) {
				t.Fatalf("tags %s, want %v", tags, c.tags)
			}
		})
	}
}

func toAnyFloats(ids []int64) []any {
	out := []any{}
	for _, id := range ids {
		out = append(out, float64(id))
	}
	return out
}

func TestNumericPostSlugsAvoidDateArchives(t *testing.T) {
	e := newEnv(t)
	// permalinks are /%postname%/: a number in the first position reads as
	// a year, so wp_unique_post_slug suffixes numeric post slugs (pages: as
	// page numbers); an unchanged slug is kept
	cases := []struct {
		base string
		body map[string]any
		want string
	}{
		{"posts", map[string]any{"title": "2024", "status": "publish"}, "2024-2"},
		{"posts", map[string]any{"title": "x", "slug": "42", "status": "publish"}, "42-2"},
		{"posts", map[string]any{"title": "x", "slug": "43", "status": "draft"}, "43-2"},
		{"posts", map[string]any{"title": "0", "status": "publish"}, "0"},
		{"posts", map[string]any{"title": "2024 plans", "status": "publish"}, "2024-plans"},
		{"pages", map[string]any{"title": "2024", "status": "publish"}, "2024-2"},
		{"navigation", map[string]any{"title": "2024", "status": "publish"}, "2024"},
	}
	for _, c := range cases {
		t.Run(c.base+fmt.Sprint(c.body), func(t *testing.T) {
			r := e.do(admin, "POST", "/cms/v2/"+c.base, c.body)
			wantStatus(t, r, 201)
			if r.obj()["slug"] != c.want {
				t.Fatalf("slug %v, want %s", r.obj()["slug"], c.want)
			}
		})
	}
	// a post that has the numeric slug keeps it on update
	r := e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "y", "slug": "77", "status": "publish"})
	id := r.id()
	if _, err := e.pool.Exec(t.Context(), `UPDATE posts SET slug = '77' WHERE id = $1`, id); err != nil {
		t.Fatal(err)
	}
	r = e.do(admin, "POST", fmt.Sprintf("/cms/v2/posts/%d", id), map[string]any{"slug": "77"})
	if r.obj()["slug"] != "77" {
		t.Fatalf("unchanged numeric slug: %v", r.obj()["slug"])
	}
}

func TestGeneratedSlug(t *testing.T) {
	e := newEnv(t)
	create := func(base string, body map[string]any) int64 {
		r := e.do(admin, "POST", "/cms/v2/"+base, body)
		wantStatus(t, r, 201)
		return r.id()
	}
	first := create("posts", map[string]any{"title": "Hello World", "status": "publish"})
	second := create("posts", map[string]any{"title": "Hello World", "status": "publish"})
	custom := create("posts", map[string]any{"title": "Other Title", "slug": "custom", "status": "publish"})
	draft := create("posts", map[string]any{"title": "Hello World"})
	numeric := create("posts", map[string]any{"title": "1999"})
	parentA := create("pages", map[string]any{"title": "A", "status": "publish"})
	child := create("pages", map[string]any{"title": "About", "parent": parentA, "status": "publish"})
	topAbout := create("pages", map[string]any{"title": "About"})
	// get_sample_permalink: the title's slug as if published, unique among
	// the other posts of the type (and parent), never the current slug
	cases := []struct {
		path string
		want string
	}{
		{fmt.Sprintf("/cms/v2/posts/%d", first), "hello-world"},
		{fmt.Sprintf("/cms/v2/posts/%d", second), "hello-world-2"},
		{fmt.Sprintf("/cms/v2/posts/%d", custom), "other-title"},
		{fmt.Sprintf("/cms/v2/posts/%d", draft), "hello-world-3"},
		{fmt.Sprintf("/cms/v2/posts/%d", numeric), "1999-2"},
		{fmt.Sprintf("/cms/v2/pages/%d", child), "about"},
		{fmt.Sprintf("/cms/v2/pages/%d", topAbout), "about"},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			r := e.do(admin, "GET", c.path+"?context=edit", nil)
			wantStatus(t, r, 200)
			if r.obj()["generated_slug"] != c.want {
				t.Fatalf("generated_slug %v, want %s", r.obj()["generated_slug"], c.want)
			}
		})
	}
	// the list computes them in one extra statement, and not at all when
	// _fields leaves generated_slug out
	r := e.do(admin, "GET", "/cms/v2/posts?context=edit&status=publish,draft&orderby=id&order=asc", nil)
	var got []string
	for _, o := range r.list() {
		got = append(got, str(o["generated_slug"]))
	}
	if want := []string{"hello-world", "hello-world-2", "other-title", "hello-world-3", "1999-2"}; !slices.Equal(got, want) {
		t.Fatalf("list generated slugs %v, want %v", got, want)
	}
	for _, c := range []struct {
		query string
		want  int64
	}{
		{"?context=edit", 2},
		{"?context=edit&_fields=id,slug", 1},
		{"?context=view", 1},
	} {
		before := e.queries.n.Load()
		wantStatus(t, e.do(admin, "GET", "/cms/v2/posts"+c.query, nil), 200)
		if n := e.queries.n.Load() - before; n != c.want {
			t.Fatalf("%s: %d statements, want %d", c.query, n, c.want)
		}
	}
}

func TestPostPasswordOnlyCheckedFromQuery(t *testing.T) {
	e := newEnv(t)
	id := seedPosts(e, map[string]any{"title": "Secret", "content": "hidden", "password": "pw"})[0]
	path := fmt.Sprintf("/cms/v2/posts/%d", id)
	cases := []struct {
		name      string
		query     string
		body      map[string]any
		status    int
		rendered  string
		errorCode string
	}{
		{"wrong in query", "?password=bad", nil, 403, "", "rest_post_incorrect_password"},
		{"right in query", "?password=pw", nil, 200, "<p>hidden</p>\n", ""},
		// get_item_permissions_check reads get_query_params() only: a wrong
		// password sent in a body is no error, it just unlocks nothing
		{"wrong in body", "", map[string]any{"password": "bad"}, 200, "", ""},
		{"none", "", nil, 200, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body any
			if c.body != nil {
				body = c.body
			}
			r := e.do(anon, "GET", path+c.query, body)
			if c.errorCode != "" {
				wantError(t, r, c.status, c.errorCode, "Incorrect post password.")
				return
			}
			wantStatus(t, r, c.status)
			if field(r.obj(), "content", "rendered") != c.rendered {
				t.Fatalf("content.rendered: %s", r.Raw)
			}
		})
	}
}

func TestRevisionExcerptIsNotGenerated(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		excerpt, want string
	}{
		// the revisions controller renders the stored excerpt only
		{"", ""},
		{"Short", "<p>Short</p>\n"},
	}
	for _, c := range cases {
		t.Run(c.excerpt, func(t *testing.T) {
			id := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "r", "content": "some words here",
				"excerpt": c.excerpt, "status": "publish"}).id()
			wantStatus(t, e.do(author, "POST", fmt.Sprintf("/cms/v2/posts/%d", id), map[string]any{"content": "other words"}), 200)
			revs := e.do(author, "GET", fmt.Sprintf("/cms/v2/posts/%d/revisions", id), nil).list()
			if len(revs) != 1 || field(revs[0], "excerpt", "rendered") != c.want {
				t.Fatalf("revision excerpt: %v", revs)
			}
			// an autosave (the post is published) is rendered the same way
			a := e.do(author, "POST", fmt.Sprintf("/cms/v2/posts/%d/autosaves", id), map[string]any{"content": "autosaved words"})
			wantStatus(t, a, 200)
			if field(a.obj(), "excerpt", "rendered") != c.want || field(a.obj(), "excerpt", "raw") != c.excerpt {
				t.Fatalf("autosave excerpt: %s", a.Raw)
			}
		})
	}
}

func TestAutosaveOfOwnDraftHasNoParentLink(t *testing.T) {
	e := newEnv(t)
	draft := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "d", "content": "v1"}).id()
	published := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "p", "content": "v1", "status": "publish"}).id()
	cases := []struct {
		name       string
		id         int64
		sameID     bool   // the draft itself was updated
		parentLink string // "" when no _links at all
	}{
		// the revisions controller links "parent" only for a non-zero parent
		// field; the author's draft autosaved in place is the post itself
		{"own draft", draft, true, ""},
		{"published", published, false, fmt.Sprintf("http://example.test/cms-json/cms/v2/posts/%d", published)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.do(author, "POST", fmt.Sprintf("/cms/v2/posts/%d/autosaves", c.id), map[string]any{"content": "v2"})
			wantStatus(t, r, 200)
			o := r.obj()
			if (o["id"] == float64(c.id)) != c.sameID {
				t.Fatalf("id: %s", r.Raw)
			}
			links, has := o["_links"].(map[string]any)
			if c.parentLink == "" {
				if has || o["parent"] != float64(0) {
					t.Fatalf("in-place autosave: %s", r.Raw)
				}
				return
			}
			if !has || field(links["parent"].([]any)[0].(map[string]any), "href") != c.parentLink || o["parent"] != float64(c.id) {
				t.Fatalf("autosave links: %s", r.Raw)
			}
		})
	}
}

func TestTrashAndDeleteSideEffects(t *testing.T) {
	e := newEnv(t)
	count := func(r *resp) any {
		return field(r.obj()["_links"].(map[string]any)["version-history"].([]any)[0].(map[string]any), "count")
	}
	// trashing is wp_update_post: the first update of a post stores a revision
	id := seedPosts(e, map[string]any{"title": "t"})[0]
	r := e.do(editor, "DELETE", fmt.Sprintf("/cms/v2/posts/%d", id), nil)
	wantStatus(t, r, 200)
	if r.obj()["status"] != "trash" || count(r) != float64(1) {
		t.Fatalf("trashed: %s", r.Raw)
	}
	// restoring and trashing again changes no revisioned field: no new one
	wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/posts/%d", id), map[string]any{"status": "publish"}), 200)
	if r = e.do(editor, "DELETE", fmt.Sprintf("/cms/v2/posts/%d", id), nil); count(r) != float64(1) {
		t.Fatalf("trashed again: %s", r.Raw)
	}
	// deleting a page for good moves its children up to its own parent
	top := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "top", "status": "publish"}).id()
	mid := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "mid", "parent": top, "status": "publish"}).id()
	leaf := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "leaf", "parent": mid, "status": "publish"}).id()
	wantStatus(t, e.do(editor, "DELETE", fmt.Sprintf("/cms/v2/pages/%d?force=true", mid), nil), 200)
	r = e.do(editor, "GET", fmt.Sprintf("/cms/v2/pages/%d", leaf), nil)
	if r.obj()["parent"] != float64(top) || r.obj()["link"] != "http://example.test/top/leaf/" {
		t.Fatalf("child after its parent's deletion: %s", r.Raw)
	}
}

func TestUntrashedSlugStaysUnique(t *testing.T) {
	e := newEnv(t)
	first := seedPosts(e, map[string]any{"title": "Same"})[0]
	wantStatus(t, e.do(editor, "DELETE", fmt.Sprintf("/cms/v2/posts/%d", first), nil), 200)
	// the slug is free while the first post is in the trash
	second := seedPosts(e, map[string]any{"title": "Same"})[0]
	if r := e.do(editor, "GET", fmt.Sprintf("/cms/v2/posts/%d", second), nil); r.obj()["slug"] != "same" {
		t.Fatalf("second: %s", r.Raw)
	}
	// restoring goes through wp_unique_post_slug again
	r := e.do(editor, "POST", fmt.Sprintf("/cms/v2/posts/%d", first), map[string]any{"status": "publish"})
	wantStatus(t, r, 200)
	if r.obj()["slug"] != "same-2" {
		t.Fatalf("restored slug: %v", r.obj()["slug"])
	}
}

func TestAutosaveRulesFromTheControllers(t *testing.T) {
	e := newEnv(t)
	pub := seedPosts(e, map[string]any{"title": "pub"})[0]
	cases := []struct {
		path, msg string
	}{
		// the list checks with the autosaves controller's message, the
		// single route with the revisions controller's permission check
		{fmt.Sprintf("/cms/v2/posts/%d/autosaves", pub), "Sorry, you are not allowed to view autosaves of this post."},
		{fmt.Sprintf("/cms/v2/posts/%d/autosaves/5", pub), "Sorry, you are not allowed to view revisions of this post."},
	}
	for _, c := range cases {
		wantError(t, e.do(anon, "GET", c.path, nil), 401, "rest_cannot_read", c.msg)
		wantError(t, e.do(author2, "GET", c.path, nil), 403, "rest_cannot_read", c.msg)
	}
	// create_item_permissions_check refuses an empty id before the update check
	wantError(t, e.do(admin, "POST", "/cms/v2/posts/0/autosaves", map[string]any{"content": "x"}), 404, "rest_post_invalid_id", "Invalid item ID.")
	wantError(t, e.do(admin, "POST", "/cms/v2/posts/99999/autosaves", map[string]any{"content": "x"}), 404, "rest_post_invalid_id", "Invalid post ID.")
	// an author's draft autosaved in place takes the prepare_item_for_database
	// fields only: terms, format, sticky, featured media and meta stay
	tag := e.do(editor, "POST", "/cms/v2/tags", map[string]any{"name": "t"}).id()
	draft := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "d", "format": "aside", "meta": map[string]any{"footnotes": "f"}}).id()
	r := e.do(author, "POST", fmt.Sprintf("/cms/v2/posts/%d/autosaves", draft), map[string]any{"title": "d2",
		"tags": []int64{tag}, "format": "quote", "sticky": true, "featured_media": 9, "meta": map[string]any{"footnotes": "g"}})
	wantStatus(t, r, 200)
	got := e.do(author, "GET", fmt.Sprintf("/cms/v2/posts/%d?context=edit", draft), nil).obj()
	if field(got, "title", "raw") != "d2" || got["format"] != "aside" || got["sticky"] != false ||
		got["featured_media"] != float64(0) || len(got["tags"].([]any)) != 0 || field(got, "meta", "footnotes") != "f" {
		t.Fatalf("in-place autosave: %v", got)
	}
}

func TestTemplateParamDoesNotChangeAllow(t *testing.T) {
	e := newEnv(t)
	id := seedPosts(e, map[string]any{"title": "t"})[0]
	// template is validated as an argument of the write endpoints; the
	// Allow header of a read is computed from the permission checks alone
	for _, q := range []string{"", "?template=bogus.php"} {
		r := e.do(editor, "GET", fmt.Sprintf("/cms/v2/posts/%d%s", id, q), nil)
		wantStatus(t, r, 200)
		if got := r.Header.Get("Allow"); got != "GET, POST, PUT, PATCH, DELETE" {
			t.Fatalf("%q: Allow %q", q, got)
		}
	}
}

func TestEmptyAuthorAndNullDates(t *testing.T) {
	e := newEnv(t)
	cases := []struct {
		name   string
		body   map[string]any
		status int
		check  func(o map[string]any) bool
	}{
		// prepare_item_for_database tests author with empty(): 0 is "not given"
		{"author 0", map[string]any{"title": "a", "author": 0}, 201,
			func(o map[string]any) bool { return o["author"] == float64(3) }},
		{"author -1", map[string]any{"title": "a", "author": -1}, 400, nil},
		// a null date_gmt resets the dates even when date is given: the draft floats
		{"date with null date_gmt", map[string]any{"title": "d", "date": "2020-05-05T10:00:00", "date_gmt": nil}, 201,
			func(o map[string]any) bool { return !strings.HasPrefix(str(o["date"]), "2020-") }},
		{"date alone", map[string]any{"title": "d", "date": "2020-05-05T10:00:00"}, 201,
			func(o map[string]any) bool {
				return o["date"] == "2020-05-05T10:00:00" && o["date_gmt"] == "2020-05-05T08:00:00"
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			who := author
			if c.status == 400 {
				who = editor // may write as others: the id itself is checked
			}
			r := e.do(who, "POST", "/cms/v2/posts", c.body)
			if c.status == 400 {
				wantError(t, r, 400, "rest_invalid_author", "Invalid author ID.")
				return
			}
			wantStatus(t, r, c.status)
			if !c.check(r.obj()) {
				t.Fatalf("%s", r.Raw)
			}
		})
	}
	// on update, author 0 keeps the author
	id := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "x", "author": 3}).id()
	r := e.do(editor, "POST", fmt.Sprintf("/cms/v2/posts/%d", id), map[string]any{"author": 0})
	wantStatus(t, r, 200)
	if r.obj()["author"] != float64(3) {
		t.Fatalf("author after 0: %s", r.Raw)
	}
}

func TestPageParentLoopsAreRefused(t *testing.T) {
	e := newEnv(t)
	a := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "a", "status": "publish"}).id()
	b := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "b", "parent": a, "status": "publish"}).id()
	c := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "c", "parent": b, "status": "publish"}).id()
	other := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "other", "status": "publish"}).id()
	// wp_check_post_hierarchy_for_loops: the post itself or a descendant as
	// parent becomes 0; any other page is taken
	cases := []struct {
		name       string
		id, parent int64
		want       int64
		wantLink   string
	}{
		{"itself", a, a, 0, "http://example.test/a/"},
		{"its grandchild", a, c, 0, "http://example.test/a/"},
		{"its child", b, c, 0, "http://example.test/b/"},
		{"another page", c, other, other, "http://example.test/other/c/"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(editor, "POST", fmt.Sprintf("/cms/v2/pages/%d", tc.id), map[string]any{"parent": tc.parent})
			wantStatus(t, r, 200)
			if r.obj()["parent"] != float64(tc.want) || r.obj()["link"] != tc.wantLink {
				t.Fatalf("parent %v link %v, want %d %s", r.obj()["parent"], r.obj()["link"], tc.want, tc.wantLink)
			}
		})
	}
}

func TestSlugRecheckedOnParentChange(t *testing.T) {
	e := newEnv(t)
	a := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "a", "status": "publish"}).id()
	e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "About", "parent": a, "status": "publish"})
	top := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "About", "status": "publish"})
	if top.obj()["slug"] != "about" {
		t.Fatalf("top-level about: %s", top.Raw)
	}
	// moving it under a, which already has an "about" child, makes it unique
	r := e.do(editor, "POST", fmt.Sprintf("/cms/v2/pages/%d", top.id()), map[string]any{"parent": a})
	wantStatus(t, r, 200)
	if r.obj()["slug"] != "about-2" || r.obj()["link"] != "http://example.test/a/about-2/" {
		t.Fatalf("moved page: %s", r.Raw)
	}
	// an explicit slug is made unique even for a draft (the REST controller
	// asks as if publishing), within the parent
	d := e.do(editor, "POST", "/cms/v2/pages", map[string]any{"title": "About", "slug": "about", "parent": a})
	if d.obj()["slug"] != "about-3" {
		t.Fatalf("explicit draft slug: %s", d.Raw)
	}
	// without a new slug a draft keeps its own as it is, even when moved
	r = e.do(editor, "POST", fmt.Sprintf("/cms/v2/pages/%d", d.id()), map[string]any{"parent": 0})
	if r.obj()["slug"] != "about-3" {
		t.Fatalf("moved draft: %s", r.Raw)
	}
}

func TestScheduledPublishStoresFirstRevision(t *testing.T) {
	e := newEnv(t)
	soon := e.svc.now().Add(time.Hour)
	fresh := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "fresh", "status": "future", "date_gmt": soon.Format(store.WPDateLayout)}).id()
	edited := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "edited", "status": "future", "date_gmt": soon.Format(store.WPDateLayout)}).id()
	wantStatus(t, e.do(editor, "POST", fmt.Sprintf("/cms/v2/posts/%d", edited), map[string]any{"content": "x"}), 200)
	e.svc.now = func() time.Time { return soon.Add(time.Second) }
	if n, err := e.svc.PublishDue(t.Context()); err != nil || n != 2 {
		t.Fatalf("PublishDue: %d %v", n, err)
	}
	// wp_publish_post ends as an update: the first revision is stored (by
	// no user); a post that has one gets no other, nothing changed
	for _, c := range []struct {
		id   int64
		want int
	}{{fresh, 1}, {edited, 1}} {
		revs := e.do(editor, "GET", fmt.Sprintf("/cms/v2/posts/%d/revisions", c.id), nil).list()
		if len(revs) != c.want || revs[0]["title"].(map[string]any)["rendered"] == nil {
			t.Fatalf("post %d revisions: %v", c.id, revs)
		}
	}
	revs := e.do(editor, "GET", fmt.Sprintf("/cms/v2/posts/%d/revisions", fresh), nil).list()
	if revs[0]["author"] != float64(0) || revs[0]["slug"] != fmt.Sprintf("%d-revision-v1", fresh) {
		t.Fatalf("scheduled revision: %v", revs[0])
	}
}

func TestFutureNeedsAMinute(t *testing.T) {
	e := newEnv(t)
	now := e.svc.now()
	e.svc.now = func() time.Time { return now } // the borders are to the second
	cases := []struct {
		status string
		ahead  time.Duration
		want   string
	}{
		// wp_insert_post compares with MINUTE_IN_SECONDS
		{"publish", 30 * time.Second, "publish"},
		{"publish", 59 * time.Second, "publish"},
		{"publish", time.Minute, "future"},
		{"future", 30 * time.Second, "publish"},
		{"future", 2 * time.Minute, "future"},
		{"future", -time.Hour, "publish"},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.status, c.ahead), func(t *testing.T) {
			r := e.do(editor, "POST", "/cms/v2/posts", map[string]any{"title": "f", "status": c.status,
				"date_gmt": now.Add(c.ahead).Format(store.WPDateLayout)})
			wantStatus(t, r, 201)
			if r.obj()["status"] != c.want {
				t.Fatalf("status %v, want %s", r.obj()["status"], c.want)
			}
		})
	}
}

func TestExcerptLengthAppliesToLists(t *testing.T) {
	e := newEnv(t)
	seedPosts(e, map[string]any{"title": "long", "content": "one two three four five six seven"})
	cases := []struct {
		query, want string
	}{
		// prepare_item_for_response reads $request['excerpt_length'] on any route
		{"?excerpt_length=3", "<p>one two three [&hellip;]</p>\n"},
		{"", "<p>one two three four five six seven</p>\n"},
		{"?excerpt_length=abc", "<p>one two three four five six seven</p>\n"},
	}
	for _, c := range cases {
		r := e.do(anon, "GET", "/cms/v2/posts"+c.query, nil)
		wantStatus(t, r, 200)
		if got := field(r.list()[0], "excerpt", "rendered"); got != c.want {
			t.Fatalf("%s: excerpt %q, want %q", c.query, got, c.want)
		}
	}
}

func TestClassListPasswordByRead(t *testing.T) {
	e := newEnv(t)
	id := seedPosts(e, map[string]any{"title": "p", "password": "pw", "featured_media": 7})[0]
	item := fmt.Sprintf("/cms/v2/posts/%d", id)
	protected := []string{"post-password-protected", "has-post-thumbnail"}
	required := []string{"post-password-required"}
	cases := []struct {
		name, method, path string
		pick               func(r *resp) map[string]any
		want               []string
	}{
		// GET in edit context leaves post_password_required filtered for the
		// whole response; view reads (even with the right password) and
		// write responses do not
		{"view", "GET", item, (*resp).obj, required},
		{"view with password", "GET", item + "?password=pw", (*resp).obj, required},
		{"edit", "GET", item + "?context=edit", (*resp).obj, protected},
		{"edit list", "GET", "/cms/v2/posts?context=edit", func(r *resp) map[string]any { return r.list()[0] }, protected},
		{"update response", "POST", item, (*resp).obj, required},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body any
			if c.method == "POST" {
				body = map[string]any{"excerpt": "e"}
			}
			r := e.do(editor, c.method, c.path, body)
			wantStatus(t, r, 200)
			var got []string
			for _, v := range c.pick(r)["class_list"].([]any) {
				got = append(got, v.(string))
			}
			want := append([]string{fmt.Sprintf("post-%d", id), "post", "type-post", "status-publish", "format-standard"}, c.want...)
			want = append(want, "hentry", "category-uncategorized")
			if !slices.Equal(got, want) {
				t.Fatalf("class_list %v, want %v", got, want)
			}
		})
	}
}
