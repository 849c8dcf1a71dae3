package stack

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"siteplane.dev/services/pkg/contract"
)

// Every page kind of the built-in theme, as an anonymous visitor gets it
// through the gateway, passes the Nu HTML Checker with no error and axe-core
// in headless Chromium with no WCAG 2.1 AA violation (docs/website.md,
// "Validators"). The validators come from hack/validators.sh.

// validatedPage is one page kind: its name (the file the checker reports),
// its URL and the status it answers.
type validatedPage struct {
	name, url string
	status    int
}

// validationSite creates what every page kind needs (a site icon, whose
// attachment page is shown with wp_attachment_pages_enabled on, posts in a
// category and a tag, a threaded comment, a page, a protected post, a post
// split into pages) and lists the pages.
func validationSite(t *testing.T) (pages []validatedPage, postID any) {
	t.Helper()
	// a site icon, so the head's icon links are checked too
	icon := uploadJPEG(t, "validated-icon.jpg", 512, 512).Obj()
	if r := call(t, "POST", "/cms-json/cms/v2/settings", map[string]any{"site_icon": icon["id"]}, admin()...); r.Status != 200 {
		t.Fatalf("set site_icon: %d %s", r.Status, r.Raw)
	}
	t.Cleanup(func() { call(t, "POST", "/cms-json/cms/v2/settings", map[string]any{"site_icon": 0}, admin()...) })
	// the icon's attachment page is a page kind too; its image links the file,
	// so it needs its alternative text (the link's only content)
	setAttachmentPages(t, "1")
	if r := call(t, "POST", fmt.Sprintf("/cms-json/cms/v2/media/%v", icon["id"]), map[string]any{"alt_text": "The site's icon"}, admin()...); r.Status != 200 {
		t.Fatalf("alt text: %d %s", r.Status, r.Raw)
	}
	run := randomHex(3) // the built-in theme's and TT3's tests share the stack
	cat := create(t, "categories", map[string]any{"name": "Validated things " + run})
	tag := create(t, "tags", map[string]any{"name": "checked " + run})
	for i := range 11 { // one more than a page of posts, so /page/2/ exists
		create(t, "posts", map[string]any{"title": fmt.Sprintf("Filler %d", i), "status": "publish",
			"content": "<!-- wp:paragraph -->\n<p>Filler.</p>\n<!-- /wp:paragraph -->"})
	}
	post := create(t, "posts", map[string]any{"title": "A validated post", "status": "publish",
		"categories": []any{cat["id"]}, "tags": []any{tag["id"]}, "excerpt": "Checked by validators.",
		"content": "<!-- wp:paragraph -->\n<p>A paragraph with <a href=\"https://example.com/\">a link</a> and <strong>words</strong>.</p>\n<!-- /wp:paragraph -->\n\n" +
			"<!-- wp:heading -->\n<h2 class=\"wp-block-heading\">A heading</h2>\n<!-- /wp:heading -->\n\n" +
			"<!-- wp:list -->\n<ul class=\"wp-block-list\"><!-- wp:list-item -->\n<li>One</li>\n<!-- /wp:list-item --></ul>\n<!-- /wp:list -->\n\n" +
			"<!-- wp:quote -->\n<blockquote class=\"wp-block-quote\"><!-- wp:paragraph -->\n<p>Quoted.</p>\n<!-- /wp:paragraph --></blockquote>\n<!-- /wp:quote -->"})
	id := post["id"]
	parent := call(t, "POST", "/cms-json/cms/v2/comments", map[string]any{"post": id, "content": "A first comment.",
		"author_name": "Ann", "author_email": "ann@example.com", "status": "approved"}, admin()...)
	if parent.Status != 201 {
		t.Fatalf("comment: %d %s", parent.Status, parent.Raw)
	}
	if r := call(t, "POST", "/cms-json/cms/v2/comments", map[string]any{"post": id, "content": "A reply.",
		"parent": parent.Obj()["id"]}, admin()...); r.Status != 201 {
		t.Fatalf("reply: %d %s", r.Status, r.Raw)
	}
	pg := create(t, "pages", map[string]any{"title": "A validated page", "status": "publish",
		"content": "<!-- wp:paragraph -->\n<p>A page.</p>\n<!-- /wp:paragraph -->"})
	protected := create(t, "posts", map[string]any{"title": "A locked post", "status": "publish", "password": "open sesame",
		"content": "<!-- wp:paragraph -->\n<p>Secret.</p>\n<!-- /wp:paragraph -->"})
	split := create(t, "posts", map[string]any{"title": "A validated long read", "status": "publish",
		"content": "<!-- wp:paragraph -->\n<p>Part one.</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:nextpage -->\n<!--nextpage-->\n<!-- /wp:nextpage -->\n\n" +
			"<!-- wp:paragraph -->\n<p>Part two.</p>\n<!-- /wp:paragraph -->"})
	link := post["link"].(string)
	parsed, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	month := time.Now().UTC().Format("/2006/01/")
	return []validatedPage{
		{"front-page", "/", 200},
		{"front-page-2", "/page/2/", 200},
		{"post", parsed.Path, 200},
		{"post-reply", parsed.Path + "?replytocom=" + fmt.Sprint(parent.Obj()["id"]), 200},
		{"page", mustPath(t, pg["link"].(string)), 200},
		{"protected", mustPath(t, protected["link"].(string)), 200},
		{"split-post-2", mustPath(t, split["link"].(string)) + "2/", 200},
		{"category", mustPath(t, cat["link"].(string)), 200},
		{"tag", mustPath(t, tag["link"].(string)), 200},
		{"author", "/author/" + st.AdminUser + "/", 200},
		{"month", month, 200},
		{"search", "/?s=validated", 200},
		{"search-none", "/?s=nothing-matches-this", 200},
		{"not-found", "/no-such-page-here/", 404},
		{"embed", parsed.Path + "embed/", 200},
		{"attachment", mustPath(t, icon["link"].(string)), 200},
	}, id
}

// mustPath is a link's path and query.
func mustPath(t *testing.T, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	return u.RequestURI()
}

func TestWebsiteValidators(t *testing.T) {
	needs(t, contract.ServiceContent, contract.ServiceMedia)
	tools := validatorTools(t)
	pages, postID := validationSite(t)
	validateSite(t, tools, pages, postID, nil)
}

// Twenty Twenty-Three renders the same page kinds, with the same 0 errors
// and 0 violations, but for tt3Exceptions: TT3's own defects, each shown on
// WordPress's rendering of the same page.
func TestWebsiteValidatorsTwentyTwentyThree(t *testing.T) {
	needs(t, contract.ServiceContent, contract.ServiceMedia)
	tt3Dir(t)
	tools := validatorTools(t)
	pages, postID := validationSite(t)
	useTT3(t)
	// the pages are Twenty Twenty-Three's: its header part and its fonts
	if r := page(t, "GET", "/"); !strings.Contains(string(r.Raw), "/themes/twentytwentythree/") ||
		!strings.Contains(string(r.Raw), "Proudly powered by") {
		t.Fatalf("the front page is not Twenty Twenty-Three's: %.500s", r.Raw)
	}
	validateSite(t, tools, pages, postID, tt3Exceptions)
}

// validateSite fetches every page as an anonymous visitor and runs both
// validators on it; a finding is allowed only when excepted lists it (by
// the rule's id or the checker's message).
func validateSite(t *testing.T, tools validators, pages []validatedPage, postID any, excepted map[string]string) {
	t.Helper()
	docs := map[string][]byte{}
	for _, p := range pages {
		r := page(t, "GET", p.url)
		if r.Status != p.status || !strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("%s (%s): status %d, want %d: %.300s", p.name, p.url, r.Status, p.status, r.Raw)
		}
		docs[p.name] = r.Raw
	}
	docs["comment-refused"] = commentRefusalPage(t, postID)
	out := testOutput(t, "validated/"+t.Name())
	for name, b := range docs { // kept for review, as the checker saw them
		if err := os.WriteFile(filepath.Join(out, name+".html"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// A probe each validator must fail, or passing proves nothing.
	docs["probe"] = []byte(`<!DOCTYPE html><html lang="en"><head><title>Probe</title></head><body><p id="a"></p><p id="a"></p></body></html>`)

	t.Run("NuHTMLChecker", func(t *testing.T) {
		found := tools.nuCheck(t, docs)
		if probe := found["probe"]; len(probe) != 1 || !strings.Contains(probe[0], "Duplicate ID") {
			t.Errorf("the checker did not find the probe's duplicate id: %v", probe)
		}
		delete(found, "probe")
		for name, msgs := range found {
			for _, m := range msgs {
				if !isExcepted(m, excepted) {
					t.Errorf("%s: %s", name, m)
				}
			}
		}
	})
	t.Run("axe", func(t *testing.T) {
		ctx := newBrowserContextFor(t, 5*time.Minute)
		probe := tools.axeCheck(t, ctx, st.SiteURL+"/", `document.body.insertAdjacentHTML("beforeend", '<img src="data:,">')`)
		if len(probe) != 1 || !strings.HasPrefix(probe[0], "image-alt ") {
			t.Errorf("axe did not find the probe's image without alt: %v", probe)
		}
		for _, p := range pages {
			for _, v := range tools.axeCheck(t, ctx, st.SiteURL+p.url, "") {
				if !isExcepted(v, excepted) {
					t.Errorf("%s (%s): %s", p.name, p.url, v)
				}
			}
		}
		if excepted == nil { // the built-in theme's layout; TT3 has its own
			threadLayout(t, ctx, st.SiteURL+pages[2].url)
		}
	})
}

// isExcepted tells whether a finding (an axe line starting with its rule's
// id, or a checker's message) is one of excepted's.
func isExcepted(finding string, excepted map[string]string) bool {
	for key := range excepted {
		if strings.HasPrefix(finding, key+" ") || strings.Contains(finding, key) {
			return true
		}
	}
	return false
}

// commentRefusalPage is the page the comment form answers with a refusal
// (an empty comment).
func commentRefusalPage(t *testing.T, id any) []byte {
	t.Helper()
	r := postCommentForm(t, url.Values{"comment_post_ID": {fmt.Sprint(id)}, "comment": {""},
		"author": {"Val"}, "email": {"val@example.com"}}, nil)
	if r.Status != 200 || !strings.Contains(string(r.Raw), "Please type your comment text.") {
		t.Fatalf("comment refusal: %d %.300s", r.Status, r.Raw)
	}
	return r.Raw
}

// threadLayout checks that the comments' stylesheet lays a thread out as
// WordPress's block styles do: no list markers, a reply indented by 2rem
// (32 px at the default font size), the form's text fields full width.
func threadLayout(t *testing.T, ctx context.Context, postURL string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(postURL)); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`(() => {
  const top = document.querySelector(".wp-block-comment-template"), reply = top && top.querySelector("ol");
  const form = document.querySelector("#commentform"), author = document.querySelector("#author");
  if (!reply || !form || !author) return ["missing"];
  return [getComputedStyle(top).listStyleType, getComputedStyle(reply).listStyleType, getComputedStyle(reply).paddingLeft,
    String(Math.round(author.getBoundingClientRect().width) === Math.round(form.getBoundingClientRect().width))];
})()`))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"none", "none", "32px", "true"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("thread layout (list style, reply's list style, reply indent, name field full width): %v, want %v", got, want)
	}
}
