package stack

import (
	"encoding/json"
	"strings"
	"testing"

	"siteplane.dev/services/pkg/jsonkeys"
)

// orderedKeys lists the members of a JSON object in document order.
func orderedKeys(t *testing.T, raw []byte) []string {
	t.Helper()
	out, err := jsonkeys.Of(raw)
	if err != nil {
		t.Fatalf("%v: %.200s", err, raw)
	}
	return out
}

func TestSiteIndex(t *testing.T) {
	for _, path := range []string{"/cms-json/", "/?rest_route=/"} {
		r := call(t, "GET", path, nil)
		if r.Status != 200 {
			t.Fatalf("%s: %d %.300s", path, r.Status, r.Raw)
		}
		got := strings.Join(orderedKeys(t, r.Raw), ",")
		if got != "name,description,url,home,gmt_offset,timezone_string,page_for_posts,page_on_front,show_on_front,namespaces,authentication,routes,site_logo,site_icon,site_icon_url,_links" {
			t.Fatalf("%s: keys %s", path, got)
		}
		o := r.Obj()
		if o["name"] != "Stack Test" || o["description"] != "Siteplane under test" || o["url"] != st.SiteURL || o["home"] != st.SiteURL ||
			o["gmt_offset"] != "0" || o["timezone_string"] != "" || o["show_on_front"] != "posts" || o["page_for_posts"] != float64(0) {
			t.Fatalf("settings: %v", o)
		}
		a, _ := json.Marshal(o["authentication"])
		if string(a) != `{"application-passwords":{"endpoints":{"authorization":"`+st.SiteURL+`/cms-admin/authorize-application.php"}}}` {
			t.Fatalf("authentication %s", a)
		}
		ns, _ := o["namespaces"].([]any)
		if len(ns) < 5 || ns[0] != "oembed/1.0" || ns[1] != "cache-plugin/v1" || ns[2] != "cache-plugin/v3" || ns[3] != "host-tools/v1" || ns[4] != "cms/v2" {
			t.Fatalf("namespaces %v", ns)
		}
		if r.Header.Get("Link") != "<"+st.SiteURL+`/cms-json/>; rel="https://api.w.org/"` {
			t.Fatalf("Link %q", r.Header.Get("Link"))
		}
		routes := o["routes"].(map[string]any)
		root, _ := json.Marshal(routes["/"])
		if string(root) != `{"_links":{"self":[{"href":"`+st.SiteURL+`/cms-json/"}]},"endpoints":[{"args":{"context":{"default":"view","required":false}},"methods":["GET"]}],"methods":["GET"],"namespace":""}` {
			t.Fatalf("root route %s", root)
		}
		for _, k := range []string{"/batch/v1", "/oembed/1.0", "/oembed/1.0/embed", "/oembed/1.0/proxy", "/cache-plugin/v1/toggle_crawler_state",
			"/cache-plugin/v3/ping", "/host-tools/v1/host-api", "/cms/v2", "/cms/v2/users", `/cms/v2/users/(?P<id>[\d]+)`} {
			if routes[k] == nil {
				t.Errorf("%s: route %s missing", path, k)
			}
		}
	}
	// §2.5: namespace index.
	r := call(t, "GET", "/cms-json/oembed/1.0", nil)
	if r.Status != 200 || strings.Join(orderedKeys(t, r.Raw), ",") != "namespace,routes,_links" || r.Obj()["namespace"] != "oembed/1.0" {
		t.Fatalf("namespace index: %d %.300s", r.Status, r.Raw)
	}
	up, _ := json.Marshal(r.Obj()["_links"])
	if string(up) != `{"up":[{"href":"`+st.SiteURL+`/cms-json/"}]}` {
		t.Fatalf("namespace _links %s", up)
	}
	routes := r.Obj()["routes"].(map[string]any)
	if len(routes) != 3 || routes["/oembed/1.0/embed"] == nil {
		t.Fatalf("oembed routes %v", routes)
	}
	// context=help adds schemas.
	r = call(t, "GET", "/cms-json/cms/v2?context=help", nil)
	if r.Status != 200 || r.Obj()["routes"].(map[string]any)["/cms/v2/users"].(map[string]any)["schema"] == nil {
		t.Fatalf("context=help: %d", r.Status)
	}
}
