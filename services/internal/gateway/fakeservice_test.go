package gateway

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// fakeContent is a small describing service built with the route kit, the
// way content and media are: a batchable collection and item route of
// resource res (with an embeddable author link), a non-batchable
// /{res}/{id}/edit, its route index, and the internal all-or-nothing batch
// endpoint.
type fakeContent struct {
	mu    sync.Mutex
	posts map[int64]string
	// lastPerPage is the per_page of the last collection request.
	lastPerPage int64
	next        int64
	srv         *rest.Server
	url         string
}

func newFakeContent(t *testing.T, key []byte, root, res string) *fakeContent {
	t.Helper()
	f := &fakeContent{posts: map[int64]string{}, next: 1}
	srv, err := rest.New(rest.Options{RootURL: root, Caller: callerOf}, f.routes(root, res)...)
	if err != nil {
		t.Fatal(err)
	}
	f.srv = srv
	mux := http.NewServeMux()
	mux.Handle(contract.RouteDescriptionsPath, srv.IndexHandler())
	mux.HandleFunc(contract.BatchPath, f.serveAtomic)
	mux.Handle("/", srv)
	// The fake stands in for content and for media: it takes identities
	// signed for either.
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hdr := r.Header.Get(contract.IdentityHeader); hdr != "" {
			id, err := identity.Verify(identity.Static(key), contract.ServiceContent, hdr, time.Now())
			if errors.Is(err, identity.ErrAudience) {
				id, err = identity.Verify(identity.Static(key), contract.ServiceMedia, hdr, time.Now())
			}
			if err != nil {
				rest.WriteErrorCode(w, r, 401, "rest_invalid_identity", "bad identity")
				return
			}
			r = r.WithContext(identity.NewContext(r.Context(), id))
		}
		mux.ServeHTTP(w, r)
	})
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	f.url = ts.URL
	return f
}

// routes declares the fake's routes: the collection and item routes of
// resource res and the non-batchable /{res}/{id}/edit.
func (f *fakeContent) routes(root, res string) []rest.Route {
	item := &rest.Schema{Type: "object", Properties: rest.Props{
		{Name: "id", Schema: &rest.Schema{Type: "integer", Context: []string{"view", "edit", "embed"}, Readonly: true}},
		{Name: "title", Schema: &rest.Schema{Type: "string", Context: []string{"view", "edit", "embed"}}},
		{Name: "author", Schema: &rest.Schema{Type: "integer", Context: []string{"view", "edit", "embed"}, Readonly: true}},
		{Name: "link", Schema: &rest.Schema{Type: "string", Context: []string{"view", "edit", "embed"}, Readonly: true}},
	}}
	canEdit := func(r *rest.Request) error {
		if !r.Caller.Can("edit_posts") {
			return rest.Denied(r, "rest_cannot_create", "Sorry, you are not allowed to create posts as this user.")
		}
		return nil
	}
	itemOf := func(r *rest.Request, id int64, title string) rest.Item {
		return rest.Item{Data: rest.Object{{Key: "id", Value: id}, {Key: "title", Value: title}, {Key: "author", Value: 1},
			{Key: "link", Value: fmt.Sprintf("%s/?p=%d", strings.TrimSuffix(root, RESTPrefix+"/"), id)}},
			Links: rest.Links{
				{Rel: "self", Href: r.URL(fmt.Sprintf("/cms/v2/%s/%d", res, id))},
				rest.EmbeddableLink("author", r.URL("/cms/v2/users/1")),
				rest.EmbeddableLink(rest.APIRelPrefix+"term", r.URL("/cms/v2/"+res+"?parent=1")),
			}}
	}
	batch := &rest.Batch{V1: true}
	return []rest.Route{{
		Namespace: "cms/v2", Path: "/" + res, Schema: item, AllowBatch: batch,
		Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{
				{Name: "context", Schema: rest.ContextArg(item, "view")},
				{Name: "per_page", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(1.0), Maximum: rest.Ptr(100.0), Default: 10}},
			}, Handler: func(r *rest.Request) (*rest.Response, error) {
				f.mu.Lock()
				defer f.mu.Unlock()
				f.lastPerPage = r.Int("per_page")
				var out []rest.Item
				for id := int64(1); id < f.next; id++ {
					if title, ok := f.posts[id]; ok {
						out = append(out, itemOf(r, id, title))
					}
				}
				return rest.OK(out), nil
			}},
			{Methods: rest.Creatable, Permission: canEdit, Args: rest.Props{
				{Name: "title", Schema: &rest.Schema{Type: "string", Required: true}},
				{Name: "status", Schema: &rest.Schema{Type: "string", Enum: []any{"publish", "draft"}}},
			}, Handler: func(r *rest.Request) (*rest.Response, error) {
				title := r.String("title")
				if title == "fail" {
					return nil, rest.NewError("rest_fail", "Asked to fail.", http.StatusBadRequest)
				}
				f.mu.Lock()
				id := f.next
				f.next++
				f.posts[id] = title
				f.mu.Unlock()
				return rest.Created(r, fmt.Sprintf("/cms/v2/%s/%d", res, id), itemOf(r, id, title)), nil
			}},
		},
	}, {
		Namespace: "cms/v2", Path: "/" + res + `/(?P<id>[\d]+)`, Schema: item, AllowBatch: batch,
		Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{{Name: "context", Schema: rest.ContextArg(item, "view")}},
				Handler: func(r *rest.Request) (*rest.Response, error) {
					id := r.Int("id")
					f.mu.Lock()
					title, ok := f.posts[id]
					f.mu.Unlock()
					if !ok {
						return nil, rest.NewError("rest_post_invalid_id", "Invalid post ID.", http.StatusNotFound)
					}
					return rest.OK(itemOf(r, id, title)), nil
				}},
			{Methods: rest.Deletable, Permission: canEdit, Args: rest.Props{{Name: "force", Schema: &rest.Schema{Type: "boolean", Default: false}}},
				Handler: func(r *rest.Request) (*rest.Response, error) {
					f.mu.Lock()
					defer f.mu.Unlock()
					delete(f.posts, r.Int("id"))
					return rest.OK(rest.Object{{Key: "deleted", Value: true}}), nil
				}},
		},
	}, {
		Namespace: "cms/v2", Path: "/" + res + `/(?P<id>[\d]+)/edit`, Endpoints: []rest.Endpoint{{Methods: rest.Creatable, Handler: func(r *rest.Request) (*rest.Response, error) {
			return rest.OK(rest.Object{{Key: "id", Value: 1}}), nil
		}}},
	}}
}

// serveAtomic implements the internal batch protocol: snapshot, run in
// order, restore the snapshot on the first failure.
func (f *fakeContent) serveAtomic(w http.ResponseWriter, r *http.Request) {
	var in contract.BatchRequest
	if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	f.mu.Lock()
	snapshot, next := map[int64]string{}, f.next
	for k, v := range f.posts {
		snapshot[k] = v
	}
	f.mu.Unlock()
	out := contract.BatchResponse{Committed: true}
	for _, q := range in.Requests {
		path := q.Route
		if q.Query != "" {
			path += "?" + q.Query
		}
		res := f.srv.Do(r.Context(), rest.Call{Method: q.Method, Path: path, Body: q.Body})
		h := map[string]string{}
		for k := range res.Header {
			h[k] = res.Header.Get(k)
		}
		out.Responses = append(out.Responses, contract.BatchSubResponse{Status: res.Status, Headers: h, Body: res.Body})
		if res.Status >= 400 {
			out.Committed = false
			break
		}
	}
	if !out.Committed {
		f.mu.Lock()
		f.posts, f.next = snapshot, next
		f.mu.Unlock()
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

func (f *fakeContent) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.posts)
}
