package rest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"siteplane.dev/services/internal/platform/rest"
)

func Example() {
	item := &rest.Schema{Type: "object", Properties: rest.Props{
		{Name: "id", Schema: &rest.Schema{Type: "integer", Context: []string{"view", "edit", "embed"}, Readonly: true}},
		{Name: "secret", Schema: &rest.Schema{Type: "string", Context: []string{"edit"}}},
	}}
	srv, err := rest.New(rest.Options{RootURL: "https://example.com/cms-json/"}, rest.Route{
		Namespace: "cms/v2",
		Path:      `/things/(?P<id>[\d]+)`,
		Schema:    item,
		Endpoints: []rest.Endpoint{{
			Methods: rest.Readable,
			Args: rest.Props{
				{Name: "id", Schema: &rest.Schema{Type: "integer"}},
				{Name: "context", Schema: rest.ContextArg(item, "view")},
			},
			Handler: func(r *rest.Request) (*rest.Response, error) {
				if r.Int("id") != 7 {
					return nil, rest.NewError("rest_thing_invalid_id", "Invalid thing ID.", http.StatusNotFound)
				}
				return rest.OK(rest.Item{
					Data:  rest.Object{}.With("id", r.Int("id")).With("secret", "s3cret"),
					Links: rest.Links{{Rel: "self", Href: r.URL("/cms/v2/things/7")}},
				}), nil
			},
		}},
	})
	if err != nil {
		panic(err)
	}
	for _, target := range []string{"/cms/v2/things/7", "/cms/v2/things/7?context=nope", "/cms/v2/things/8"} {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
		fmt.Println(rec.Code, rec.Body.String())
	}
	// Output:
	// 200 {"id":7,"_links":{"self":[{"href":"https:\/\/example.com\/cms-json\/cms\/v2\/things\/7","targetHints":{"allow":["GET"]}}]}}
	// 400 {"code":"rest_invalid_param","message":"Invalid parameter(s): context","data":{"status":400,"params":{"context":"context is not one of view, embed, and edit."},"details":{"context":{"code":"rest_not_in_enum","message":"context is not one of view, embed, and edit.","data":null}}}}
	// 404 {"code":"rest_thing_invalid_id","message":"Invalid thing ID.","data":{"status":404}}
}
