package content

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

// peerParagraph is WordPress 6.9.7's answer to GET
// /wp/v2/block-types/core/paragraph (theme styles and _links left out: the
// peer's theme registers three paragraph styles, Siteplane's none).
const peerParagraph = `{"attributes":{"align":{"type":"string"},"content":{"type":"rich-text","source":"rich-text","selector":"p","role":"content"},
"dropCap":{"type":"boolean","default":false},"placeholder":{"type":"string"},"direction":{"type":"string","enum":["ltr","rtl"]},
"lock":{"type":"object"},"metadata":{"type":"object"},"className":{"type":"string"},"style":{"type":"object"},"backgroundColor":{"type":"string"},
"textColor":{"type":"string"},"gradient":{"type":"string"},"fontSize":{"type":"string"},"fontFamily":{"type":"string"},"borderColor":{"type":"string"}},
"is_dynamic":false,"api_version":3,"name":"core/paragraph","title":"Paragraph","description":"Start with the basic building block of all narrative.",
"icon":null,"category":"text","keywords":["text"],"parent":null,"ancestor":null,"allowed_blocks":null,"provides_context":[],"uses_context":[],"selectors":[],
"supports":{"splitting":true,"anchor":true,"className":false,"__experimentalBorder":{"color":true,"radius":true,"style":true,"width":true},
"color":{"gradients":true,"link":true,"__experimentalDefaultControls":{"background":true,"text":true}},
"spacing":{"margin":true,"padding":true,"__experimentalDefaultControls":{"margin":false,"padding":false}},
"typography":{"fontSize":true,"lineHeight":true,"__experimentalFontFamily":true,"__experimentalTextDecoration":true,"__experimentalFontStyle":true,
"__experimentalFontWeight":true,"__experimentalLetterSpacing":true,"__experimentalTextTransform":true,"__experimentalWritingMode":true,"fitText":true,
"__experimentalDefaultControls":{"fontSize":true}},"__experimentalSelector":"p","__unstablePasteTextInline":true,"interactivity":{"clientNavigation":true}},
"styles":[],"textdomain":null,"example":null,"editor_script_handles":[],"script_handles":[],"view_script_handles":[],"view_script_module_ids":[],
"editor_style_handles":["wp-block-paragraph-editor"],"style_handles":["wp-block-paragraph"],"view_style_handles":[],"variations":[],"block_hooks":[],
"editor_script":null,"script":null,"view_script":null,"editor_style":"wp-block-paragraph-editor","style":"wp-block-paragraph"}`

// routeCase is one request of a route's table test and what it must get.
type routeCase struct {
	name, who, method, path string // method: GET when empty
	body                    any
	status                  int
	code, message           string // an error's code (and message, when set)
	want                    string // the whole body, as JSON in key order
	check                   func(t *testing.T, r *resp)
}

// runRouteCases runs each case as a subtest.
func runRouteCases(t *testing.T, e *testEnv, cases []routeCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			method := c.method
			if method == "" {
				method = "GET"
			}
			r := e.do(c.who, method, c.path, c.body)
			if c.code != "" {
				wantError(t, r, c.status, c.code, c.message)
			} else {
				wantStatus(t, r, c.status)
			}
			if c.want != "" && !sameJSON(t, string(r.Raw), c.want) {
				t.Errorf("got  %s\nwant %s", r.Raw, c.want)
			}
			if c.check != nil {
				c.check(t, r)
			}
		})
	}
}

// sameJSON reports whether a and b hold the same JSON, keys in the same
// order (escaping and layout aside).
func sameJSON(t *testing.T, a, b string) bool {
	t.Helper()
	return slices.Equal(jsonTokens(t, a), jsonTokens(t, b))
}

func jsonTokens(t *testing.T, s string) []string {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var out []string
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatalf("%v in %.200s", err, s)
		}
		out = append(out, fmt.Sprintf("%T %v", tok, tok))
	}
}

func TestBlockTypes(t *testing.T) {
	e := newEnv(t)
	cases := []routeCase{
		{name: "anonymous list", who: anon, path: "/cms/v2/block-types", status: 401, code: "rest_block_type_cannot_view", message: "Sorry, you are not allowed to manage block types."},
		{name: "anonymous item", who: anon, path: "/cms/v2/block-types/core/paragraph", status: 401, code: "rest_block_type_cannot_view"},
		{name: "subscriber", who: subscriber, path: "/cms/v2/block-types", status: 403, code: "rest_block_type_cannot_view"},
		{name: "contributor reads", who: contributor, path: "/cms/v2/block-types/core/paragraph", status: 200},
		{name: "unknown block", who: author, path: "/cms/v2/block-types/core/nope", status: 404, code: "rest_block_type_invalid", message: "Invalid block type."},
		{name: "bad context", who: author, path: "/cms/v2/block-types/core/paragraph?context=bogus", status: 400, code: "rest_invalid_param"},
		{name: "paragraph as WordPress", who: editor, path: "/cms/v2/block-types/core/paragraph?_fields=" + strings.Join(paragraphFields, ","), status: 200,
			check: func(t *testing.T, r *resp) {
				if !sameJSON(t, string(r.Raw), peerParagraph) {
					t.Errorf("paragraph\n got %s\nwant %s", r.Raw, peerParagraph)
				}
			}},
		{name: "all of them in registration order", who: editor, path: "/cms/v2/block-types?_fields=name", status: 200,
			check: func(t *testing.T, r *resp) {
				l := r.list()
				if len(l) != 107 || l[0]["name"] != "core/legacy-widget" || l[2]["name"] != "core/accordion" || l[106]["name"] != "core/post-comments" {
					t.Errorf("%d block types: %.300s", len(l), r.Raw)
				}
			}},
		{name: "namespace route", who: editor, path: "/cms/v2/block-types/core?_fields=name", status: 200,
			check: func(t *testing.T, r *resp) {
				if len(r.list()) != 107 {
					t.Errorf("core: %d", len(r.list()))
				}
			}},
		{name: "unknown namespace lists nothing", who: editor, path: "/cms/v2/block-types?namespace=nope", status: 200,
			check: func(t *testing.T, r *resp) {
				if string(r.Raw) != "[]" {
					t.Errorf("got %s", r.Raw)
				}
			}},
		{name: "dynamic block links its renderer", who: editor, path: "/cms/v2/block-types/core/archives?_fields=name,is_dynamic,_links", status: 200,
			check: func(t *testing.T, r *resp) {
				want := `{"is_dynamic":true,"name":"core\/archives","_links":{"collection":[{"href":"http:\/\/example.test\/cms-json\/cms\/v2\/block-types"}],` +
					`"self":[{"href":"http:\/\/example.test\/cms-json\/cms\/v2\/block-types\/core\/archives","targetHints":{"allow":["GET"]}}],` +
					`"up":[{"href":"http:\/\/example.test\/cms-json\/cms\/v2\/block-types\/core"}],` +
					`"wp:render-block":[{"href":"http:\/\/example.test\/cms-json\/cms\/v2\/block-renderer\/core\/archives?context=edit"}],` +
					`"curies":[{"name":"wp","href":"https:\/\/api.w.org\/{rel}","templated":true}]}}`
				if string(r.Raw) != want {
					t.Errorf("got  %s\nwant %s", r.Raw, want)
				}
			}},
		{name: "post-terms variations as WordPress builds them", who: editor, path: "/cms/v2/block-types/core/post-terms?_fields=variations", status: 200,
			check: func(t *testing.T, r *resp) {
				want := `{"variations":[{"name":"category","title":"Categories","description":"Display a list of assigned terms from the taxonomy: Categories",` +
					`"attributes":{"term":"category"},"isActive":["term"],"scope":["inserter","transform"],"isDefault":true},` +
					`{"name":"post_tag","title":"Tags","description":"Display a list of assigned terms from the taxonomy: Tags","attributes":{"term":"post_tag"},` +
					`"isActive":["term"],"scope":["inserter","transform"]}]}`
				if !sameJSON(t, string(r.Raw), want) {
					t.Errorf("got  %s\nwant %s", r.Raw, want)
				}
			}},
		{name: "navigation-link variations", who: editor, path: "/cms/v2/block-types/core/navigation-link?_fields=variations", status: 200,
			check: func(t *testing.T, r *resp) {
				want := `{"variations":[{"name":"post","title":"Post Link","description":"A link to a post.","attributes":{"type":"post","kind":"post-type"}},` +
					`{"name":"page","title":"Page Link","description":"A link to a page.","attributes":{"type":"page","kind":"post-type"}},` +
					`{"name":"category","title":"Category Link","description":"A link to a category.","attributes":{"type":"category","kind":"taxonomy"}},` +
					`{"name":"tag","title":"Tag Link","description":"A link to a tag.","attributes":{"type":"tag","kind":"taxonomy"}}]}`
				if !sameJSON(t, string(r.Raw), want) {
					t.Errorf("got  %s\nwant %s", r.Raw, want)
				}
			}},
		{name: "template-part variations: the areas, then the theme's parts", who: editor, path: "/cms/v2/block-types/core/template-part?_fields=variations", status: 200,
			check: func(t *testing.T, r *resp) {
				want := `{"variations":[{"name":"area_header","title":"Header","description":"The Header template defines a page area that typically contains a title, logo, and main navigation.",` +
					`"attributes":{"area":"header"},"scope":[],"icon":"header"},` +
					`{"name":"area_footer","title":"Footer","description":"The Footer template defines a page area that typically contains site credits, social links, or any other combination of blocks.",` +
					`"attributes":{"area":"footer"},"scope":[],"icon":"footer"},` +
					`{"name":"instance_footer","title":"Footer","description":"1","attributes":{"slug":"footer","theme":"siteplane","area":"footer"},"scope":["inserter"],"icon":"footer",` +
					`"example":{"attributes":{"slug":"footer","theme":"siteplane","area":"footer"}}},` +
					`{"name":"instance_header","title":"Header","description":"1","attributes":{"slug":"header","theme":"siteplane","area":"header"},"scope":["inserter"],"icon":"header",` +
					`"example":{"attributes":{"slug":"header","theme":"siteplane","area":"header"}}}]}`
				if !sameJSON(t, string(r.Raw), want) {
					t.Errorf("got  %s\nwant %s", r.Raw, want)
				}
			}},
		{name: "nested _fields", who: editor, path: "/cms/v2/block-types/core/paragraph?_fields=attributes.content", status: 200,
			check: func(t *testing.T, r *resp) {
				if want := `{"attributes":{"content":{"type":"rich-text","source":"rich-text","selector":"p","role":"content"}}}`; string(r.Raw) != want {
					t.Errorf("got %s", r.Raw)
				}
			}},
	}
	runRouteCases(t, e, cases)
}

// paragraphFields are the fields of a block type, without _links.
var paragraphFields = []string{"attributes", "is_dynamic", "api_version", "name", "title", "description", "icon", "category", "keywords", "parent",
	"ancestor", "allowed_blocks", "provides_context", "uses_context", "selectors", "supports", "styles", "textdomain", "example",
	"editor_script_handles", "script_handles", "view_script_handles", "view_script_module_ids", "editor_style_handles", "style_handles",
	"view_style_handles", "variations", "block_hooks", "editor_script", "script", "view_script", "editor_style", "style"}
