package rest

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

func TestRouteDescription(t *testing.T) {
	s, err := New(Options{RootURL: "https://example.com/cms-json/"},
		Route{Path: "/", Endpoints: []Endpoint{{Methods: Readable, Args: Props{{Name: "context", Schema: &Schema{Default: "view"}}}}}},
		Route{Namespace: "cms/v2", Path: "/global-styles/(?P<id>[\\/\\w-]+)", AllowBatch: &Batch{V1: false}, Endpoints: []Endpoint{
			{Methods: Readable, Args: Props{{Name: "id", Schema: &Schema{Description: "The id of a template", Type: "string", Sanitize: func(_ *Request, v any, _ string) (any, error) { return v, nil }}}}},
			{Methods: Editable, Args: Props{{Name: "styles", Schema: &Schema{Description: "Global styles.", Type: "object", Context: []string{"edit"}}}}},
		}},
		Route{Namespace: "cms/v2", Path: "/media", Endpoints: []Endpoint{{Methods: Creatable}}},
		Route{Namespace: "cms/v2", Path: "/hidden", Hidden: true, Endpoints: []Endpoint{{Methods: Readable}}},
	)
	if err != nil {
		t.Fatal(err)
	}
	got := string(appendJSON(RoutesObject(s.Describe(), false), false))
	want := `{"\/":{"namespace":"","methods":["GET"],"endpoints":[{"methods":["GET"],"args":{"context":{"default":"view","required":false}}}],"_links":{"self":[{"href":"https:\/\/example.com\/cms-json\/"}]}},` +
		`"\/cms\/v2\/global-styles\/(?P<id>[\\\/\\w-]+)":{"namespace":"cms\/v2","methods":["GET","POST","PUT","PATCH"],"endpoints":[{"methods":["GET"],"allow_batch":{"v1":false},"args":{"id":{"description":"The id of a template","type":"string","required":false}}},{"methods":["POST","PUT","PATCH"],"allow_batch":{"v1":false},"args":{"styles":{"description":"Global styles.","type":"object","required":false}}}]},` +
		`"\/cms\/v2\/media":{"namespace":"cms\/v2","methods":["POST"],"endpoints":[{"methods":["POST"],"args":[]}],"_links":{"self":[{"href":"https:\/\/example.com\/cms-json\/cms\/v2\/media"}]}}}`
	if got != want {
		t.Fatalf("descriptions\n got %s\nwant %s", got, want)
	}
	if ns := s.Index().Namespaces; !reflect.DeepEqual(ns, []string{"cms/v2"}) {
		t.Fatalf("namespaces %v", ns)
	}
}

// TestIndexRoundTrip checks that the gateway, rebuilding routes from the
// JSON descriptions, validates batch sub-requests exactly like the service.
func TestIndexRoundTrip(t *testing.T) {
	svc := newTestServer(t)
	rec := httptest.NewRecorder()
	svc.IndexHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/internal/routes", nil))
	ix, err := ParseIndex(rec.Body.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if len(ix.Routes) != 4 || ix.Routes[1].Route != `/cms/v2/posts/(?P<id>[\d]+)` || ix.Routes[0].Schema == nil {
		t.Fatalf("parsed index: %+v", ix.Routes)
	}
	// Serialising the parsed index again gives the same bytes.
	again, _ := ix.MarshalJSON()
	if string(again) != rec.Body.String() {
		t.Fatalf("round trip differs\n got %s\nwant %s", again, rec.Body.String())
	}
	gw, err := New(Options{RootURL: "https://example.com/cms-json/"}, ix.RoutesForValidation()...)
	if err != nil {
		t.Fatal(err)
	}
	calls := []Call{
		{Method: "POST", Path: "/cms/v2/posts", Body: map[string]any{"slug": "a", "status": "draft"}},
		{Method: "POST", Path: "/cms/v2/posts", Body: map[string]any{"status": "bogus", "sticky": "maybe", "categories": "1,x"}},
		{Method: "PUT", Path: "/cms/v2/posts/12", Body: map[string]any{"title": map[string]any{"raw": json.Number("5")}}},
		{Method: "DELETE", Path: "/cms/v2/posts/12?force=nope"},
		{Method: "POST", Path: "/cms/v2/media"},
		{Method: "POST", Path: "/cms/v2/unknown"},
		{Method: "PATCH", Path: "/cms/v2/posts/abc"},
	}
	for _, c := range calls {
		a := svc.Check(context.Background(), c)
		b := gw.Check(context.Background(), c)
		if mustJSON(a) != mustJSON(b) {
			t.Errorf("%s %s: service %s, gateway %s", c.Method, c.Path, mustJSON(a), mustJSON(b))
		}
	}
	if err := gw.Check(context.Background(), calls[1]); err == nil || err.Message != "Invalid parameter(s): status, sticky, categories" {
		t.Fatalf("gateway validation: %v", err)
	}
}

// The JSON form uses one canonical keyword order (the order of §2.2's
// keyword list), whatever order the input had.
func TestSchemaJSONRoundTrip(t *testing.T) {
	in := `{"$schema":"http:\/\/json-schema.org\/draft-04\/schema#","title":"x","type":"object","properties":{"b":{"type":["string","null"],"format":"date-time","context":["view","edit"],"readonly":true},"a":{"type":"array","items":{"type":"integer","minimum":1,"maximum":5,"exclusiveMaximum":true},"minItems":1,"maxItems":3,"uniqueItems":true},"o":{"type":"object","additionalProperties":false,"patternProperties":{"^x":{"type":"string","minLength":1,"maxLength":4,"pattern":"^a+$"}},"minProperties":1,"maxProperties":2,"required":["q"]},"c":{"anyOf":[{"enum":[1,"a",null]}],"oneOf":[{"title":"A","type":"number","multipleOf":0.5},{"title":"B","type":"boolean"}]}},"links":[{"rel":"x"}]}`
	var s Schema
	if err := json.Unmarshal([]byte(in), &s); err != nil {
		t.Fatal(err)
	}
	if err := s.Compile(); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(&s)
	if string(out) != in {
		t.Fatalf("\n got %s\nwant %s", out, in)
	}
}

// An argument validated by a callback (WordPress's arg_options with its own
// validate_callback) must not be schema-checked by the gateway: the service
// accepts values the bare schema would refuse. The marker that says so is in
// the internal index only, never in the public one.
func TestIndexCallbackArgsStayPermissive(t *testing.T) {
	titleSchema := &Schema{Type: "object", Validate: func(_ *Request, v any, _ string) error {
		if _, ok := v.(string); ok {
			return nil
		}
		if _, ok := v.(map[string]any); ok {
			return nil
		}
		return ErrInvalid
	}}
	svc, err := New(Options{RootURL: "https://example.com/cms-json/"}, Route{Namespace: "cms/v2", Path: "/posts",
		AllowBatch: &Batch{V1: true},
		Endpoints: []Endpoint{{Methods: Creatable, Args: Props{
			{Name: "title", Schema: titleSchema},
			{Name: "slug", Schema: &Schema{Type: "string", Required: true}},
		}}}})
	if err != nil {
		t.Fatal(err)
	}
	internal, _ := svc.Index().MarshalJSON()
	public := string(appendJSON(RoutesObject(svc.Describe(), false), false))
	if !json.Valid(internal) {
		t.Fatal("internal index is not JSON")
	}
	if want := `"x-callbacks":["title"]`; !bytesContains(internal, want) {
		t.Fatalf("internal index lacks %s: %s", want, internal)
	}
	if bytesContains([]byte(public), "x-callbacks") {
		t.Fatalf("public index shows the internal marker: %s", public)
	}
	ix, err := ParseIndex(internal)
	if err != nil {
		t.Fatal(err)
	}
	gw, err := New(Options{RootURL: "https://example.com/cms-json/"}, ix.RoutesForValidation()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []Call{
		{Method: "POST", Path: "/cms/v2/posts", Body: map[string]any{"title": "A string title", "slug": "a"}},
		{Method: "POST", Path: "/cms/v2/posts", Body: map[string]any{"title": "x"}},
		{Method: "POST", Path: "/cms/v2/posts", Body: map[string]any{"slug": []any{"not", "a", "string"}}},
	} {
		a, b := svc.Check(context.Background(), c), gw.Check(context.Background(), c)
		if mustJSON(a) != mustJSON(b) {
			t.Errorf("%v: service %s, gateway %s", c.Body, mustJSON(a), mustJSON(b))
		}
	}
	// Required-ness still travels for callback arguments.
	if err := gw.Check(context.Background(), Call{Method: "POST", Path: "/cms/v2/posts", Body: map[string]any{"title": "x"}}); err == nil || err.Code != "rest_missing_callback_param" {
		t.Fatalf("missing slug: %v", err)
	}
}

func bytesContains(b []byte, s string) bool { return strings.Contains(string(b), s) }
