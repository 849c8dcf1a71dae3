package gateway

import (
	"testing"
)

// The index links the active theme for callers who may read it (the themes
// route's rule), and only for them.
func TestIndexActiveThemeLink(t *testing.T) {
	f := newKitFixture(t)
	link := func(v any) any {
		o, _ := v.(map[string]any)
		l, _ := o["_links"].(map[string]any)
		return l["wp:active-theme"]
	}
	_, v := f.do(t, "GET", "/cms-json/", nil, "admin", f.adminPW)
	l, _ := link(v).([]any)
	if len(l) != 1 || l[0].(map[string]any)["href"] != siteURL+"/cms-json/cms/v2/themes/siteplane" {
		t.Fatalf("admin: wp:active-theme = %v", link(v))
	}
	if o, _ := v.(map[string]any); o["_links"].(map[string]any)["curies"] == nil {
		t.Error("a wp: link needs the curies entry")
	}
	for _, auth := range [][]string{nil, {"sub", f.authorPW}} {
		if _, v := f.do(t, "GET", "/cms-json/", nil, auth...); link(v) != nil {
			t.Errorf("%v: wp:active-theme shown: %v", auth, link(v))
		}
	}
}
