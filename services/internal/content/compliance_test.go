package content

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"siteplane.dev/services/pkg/jsonkeys"
)

// Regressions found by the compliance audit against the behaviour
// reference (§4, §5, §10): each case states the WordPress behaviour. The
// slug cases are in compliance_slugs_test.go, the revision, autosave and
// trash cases in compliance_revisions_test.go.

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
