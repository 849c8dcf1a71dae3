package content

import (
	"strings"
	"testing"

	"siteplane.dev/services/internal/content/store"
)

// peerStandardPosts is WordPress 6.9.7's first pattern of GET
// /wp/v2/block-patterns/patterns (remote patterns off): the core query
// pattern, its category migrated from "query" to "posts" and its markup
// serialized again (one space before the attributes).
const peerStandardPosts = `{"name":"core/query-standard-posts","title":"Standard","content":"<!-- wp:query {\"query\":{\"perPage\":3,\"pages\":0,\"offset\":0,` +
	`\"postType\":\"post\",\"order\":\"desc\",\"orderBy\":\"date\",\"author\":\"\",\"search\":\"\",\"exclude\":[],\"sticky\":\"\",\"inherit\":false}} -->\n` +
	`\t\t\t\t\t<div class=\"wp-block-query\">\n\t\t\t\t\t<!-- wp:post-template -->\n\t\t\t\t\t<!-- wp:post-title {\"isLink\":true} /-->\n` +
	`\t\t\t\t\t<!-- wp:post-featured-image {\"isLink\":true,\"align\":\"wide\"} /-->\n\t\t\t\t\t<!-- wp:post-excerpt /-->\n` +
	`\t\t\t\t\t<!-- wp:separator -->\n\t\t\t\t\t<hr class=\"wp-block-separator\"/>\n\t\t\t\t\t<!-- /wp:separator -->\n` +
	`\t\t\t\t\t<!-- wp:post-date /-->\n\t\t\t\t\t<!-- /wp:post-template -->\n\t\t\t\t\t</div>\n\t\t\t\t\t<!-- /wp:query -->",` +
	`"categories":["posts"],"block_types":["core/query"],"source":"core"}`

func TestBlockPatterns(t *testing.T) {
	e := newEnv(t)
	cases := []routeCase{
		{name: "anonymous patterns", who: anon, path: "/cms/v2/block-patterns/patterns", status: 401, code: "rest_cannot_view",
			message: "Sorry, you are not allowed to view the registered block patterns."},
		{name: "subscriber categories", who: subscriber, path: "/cms/v2/block-patterns/categories", status: 403, code: "rest_cannot_view",
			message: "Sorry, you are not allowed to view the registered block pattern categories."},
		{name: "core patterns first, as WordPress", who: contributor, path: "/cms/v2/block-patterns/patterns", status: 200, check: func(t *testing.T, r *resp) {
			l := r.list()
			var names []string
			for _, p := range l {
				names = append(names, str(p["name"]))
			}
			want := "core/query-standard-posts core/query-medium-posts core/query-small-posts core/query-grid-posts core/query-large-title-posts " +
				"core/query-offset-posts siteplane/call-to-action siteplane/hidden-no-results"
			if strings.Join(names, " ") != want {
				t.Errorf("patterns %v", names)
			}
			first := string(r.Raw)[1 : strings.Index(string(r.Raw), `},{`)+1]
			if !sameJSON(t, first, peerStandardPosts) {
				t.Errorf("first pattern\n got %s\nwant %s", first, peerStandardPosts)
			}
		}},
		{name: "theme patterns carry the headers they set", who: author, path: "/cms/v2/block-patterns/patterns?_fields=name,description,viewport_width,inserter,categories,keywords,template_types",
			status: 200, check: func(t *testing.T, r *resp) {
				l := r.list()
				raw := string(r.Raw)
				tail := raw[strings.Index(raw, `{"name":"siteplane\/call-to-action"`) : len(raw)-1]
				want := `{"name":"siteplane/call-to-action","description":"A centred heading, a sentence and a button on the subtle background.",` +
					`"viewport_width":1200,"categories":["call-to-action","banner"],"keywords":["button","action","subscribe"]},` +
					`{"name":"siteplane/hidden-no-results","description":"","inserter":false,"template_types":["search"]}`
				if len(l) != 8 || !sameJSON(t, "["+tail+"]", "["+want+"]") {
					t.Errorf("theme patterns\n got %s\nwant %s", tail, want)
				}
			}},
		{name: "core categories", who: editor, path: "/cms/v2/block-patterns/categories", status: 200, check: func(t *testing.T, r *resp) {
			l := r.list()
			if len(l) != 20 || l[0]["name"] != "banner" || l[0]["label"] != "Banners" || l[0]["description"] != "Bold sections designed to showcase key content." ||
				l[17]["name"] != "posts" || l[19]["name"] != "header" || l[19]["label"] != "Headers" {
				t.Errorf("categories: %s", r.Raw)
			}
		}},
	}
	runRouteCases(t, e, cases)
}

func TestMenuLocations(t *testing.T) {
	e := newEnv(t)
	menu := e.do(admin, "POST", "/cms/v2/menus", map[string]any{"name": "Main", "locations": []string{"footer"}})
	wantStatus(t, menu, 201)
	id := menu.id()
	cases := []routeCase{
		{name: "anonymous", who: anon, path: "/cms/v2/menu-locations", status: 401, code: "rest_cannot_view", message: "Sorry, you are not allowed to view menu locations."},
		{name: "an editor cannot edit theme options", who: editor, path: "/cms/v2/menu-locations/primary", status: 403, code: "rest_cannot_view"},
		{name: "unknown location", who: admin, path: "/cms/v2/menu-locations/sidebar", status: 404, code: "rest_menu_location_invalid", message: "Invalid menu location."},
		{name: "list keyed by location", who: admin, path: "/cms/v2/menu-locations", status: 200,
			want: `{"primary":{"name":"primary","description":"Primary menu","menu":0,"_links":{"self":[{"href":"http:\/\/example.test\/cms-json\/cms\/v2\/menu-locations\/primary",` +
				`"targetHints":{"allow":["GET"]}}],"collection":[{"href":"http:\/\/example.test\/cms-json\/cms\/v2\/menu-locations"}]}},` +
				`"footer":{"name":"footer","description":"Footer menu","menu":` + store.Itoa(id) + `,"_links":{"self":[{"href":"http:\/\/example.test\/cms-json\/cms\/v2\/menu-locations\/footer",` +
				`"targetHints":{"allow":["GET"]}}],"collection":[{"href":"http:\/\/example.test\/cms-json\/cms\/v2\/menu-locations"}],` +
				`"wp:menu":[{"embeddable":true,"href":"http:\/\/example.test\/cms-json\/cms\/v2\/menus\/` + store.Itoa(id) + `"}],` +
				`"curies":[{"name":"wp","href":"https:\/\/api.w.org\/{rel}","templated":true}]}}}`},
		{name: "assigned location links its menu", who: admin, path: "/cms/v2/menu-locations/footer", status: 200,
			want: `{"name":"footer","description":"Footer menu","menu":` + store.Itoa(id) + `,"_links":{"self":[{"href":"http:\/\/example.test\/cms-json\/cms\/v2\/menu-locations\/footer","targetHints":{"allow":["GET"]}}],` +
				`"collection":[{"href":"http:\/\/example.test\/cms-json\/cms\/v2\/menu-locations"}],` +
				`"wp:menu":[{"embeddable":true,"href":"http:\/\/example.test\/cms-json\/cms\/v2\/menus\/` + store.Itoa(id) + `"}],` +
				`"curies":[{"name":"wp","href":"https:\/\/api.w.org\/{rel}","templated":true}]}}`},
	}
	runRouteCases(t, e, cases)
}
