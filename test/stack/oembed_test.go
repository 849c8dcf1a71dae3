package stack

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"siteplane.dev/services/pkg/contract"
)

func TestOEmbedOfAPublishedPost(t *testing.T) {
	needs(t, contract.ServiceContent)
	r := call(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "Embeddable story", "slug": "embeddable-story", "status": "publish"}, admin()...)
	if r.Status != 201 {
		t.Fatalf("create: %d %.300s", r.Status, r.Raw)
	}
	id, link := r.Obj()["id"], r.Obj()["link"].(string)
	for _, u := range []string{link, fmt.Sprintf("%s/?p=%v", st.SiteURL, id)} {
		r = call(t, "GET", "/cms-json/oembed/1.0/embed?maxwidth=400&url="+url.QueryEscape(u), nil)
		o := r.Obj()
		if r.Status != 200 || o["title"] != "Embeddable story" || o["width"] != float64(400) || o["height"] != float64(225) ||
			o["provider_name"] != "Stack Test" || o["author_name"] != st.AdminUser {
			t.Fatalf("%s: %d %.400s", u, r.Status, r.Raw)
		}
	}
	// A draft is not embeddable.
	r = call(t, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "Secret", "status": "draft"}, admin()...)
	r = call(t, "GET", fmt.Sprintf("/cms-json/oembed/1.0/embed?url=%s", url.QueryEscape(fmt.Sprintf("%s/?p=%v", st.SiteURL, r.Obj()["id"]))), nil)
	expectError(t, r, 404, "oembed_invalid_url")
	r = call(t, "GET", "/cms-json/oembed/1.0/embed?format=xml&url="+url.QueryEscape(link), nil)
	if r.Status != 200 || !strings.HasPrefix(string(r.Raw), "<?xml version=\"1.0\"?>\n<oembed><version>1.0</version>") {
		t.Fatalf("xml: %d %.300s", r.Status, r.Raw)
	}
	// §12.1: values as SimpleXML writes them (the iframe title's curly
	// quotes as character references, not entity text), after the
	// pipeline's headers.
	if b := string(r.Raw); !strings.Contains(b, `title="&#x201C;Embeddable story&#x201D; &#x2014; Stack Test"`) ||
		strings.Contains(b, "&amp;#") || r.Header.Get("Allow") != "GET" || r.Header.Get("Content-Type") != "text/xml; charset=UTF-8" {
		t.Fatalf("xml body or headers: %v %s", r.Header, b)
	}
}
