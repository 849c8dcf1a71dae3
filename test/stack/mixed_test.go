package stack

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"siteplane.dev/services/pkg/contract"
)

// notesDescription is the route index a minimal second describing service
// publishes: one batchable collection route, in WordPress's description form.
const notesDescription = `{"namespaces":["notes/v1"],"routes":{"/notes/v1/notes":{"namespace":"notes/v1","methods":["POST"],
"endpoints":[{"methods":["POST"],"allow_batch":{"v1":true},"args":{"text":{"type":"string","minLength":1,"required":true}}}]}}}`

// startNotes runs that service in the test process and routes /notes/v1 to
// it through a hot-reloaded route file; it returns the texts it stored.
func startNotes(t *testing.T) func() []string {
	t.Helper()
	var mu sync.Mutex
	var texts []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == contract.RouteDescriptionsPath:
			io.WriteString(w, notesDescription)
		case r.URL.Path == "/notes/v1/notes" && r.Method == http.MethodPost:
			var in struct {
				Text string `json:"text"`
			}
			json.NewDecoder(r.Body).Decode(&in)
			mu.Lock()
			texts = append(texts, in.Text)
			mu.Unlock()
			w.Header().Set("Content-Type", "application/json; charset=UTF-8")
			w.WriteHeader(http.StatusCreated)
			json.NewEncoder(w).Encode(map[string]any{"text": in.Text, "signed": r.Header.Get(contract.IdentityHeader) != ""})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	good := contract.DefaultRoutes(st.urls)
	with := good
	with.Services = append(append([]contract.Backend(nil), good.Services...), contract.Backend{Name: "notes", URL: srv.URL, Describes: true})
	with.Routes = append(append([]contract.Route(nil), good.Routes...), contract.Route{Prefix: "/notes/v1", Service: "notes"})
	if err := st.WriteRoutes(with); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.WriteRoutes(good) })
	waitFor(t, "the notes routes in the index", func() bool {
		r := call(t, "GET", "/cms-json/", nil)
		routes, _ := r.Obj()["routes"].(map[string]any)
		return routes["/notes/v1/notes"] != nil
	})
	return func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), texts...) }
}

func TestBatchMixedServicesBothModes(t *testing.T) {
	needs(t, contract.ServiceContent)
	notes := startNotes(t)
	for _, mode := range []string{"normal", "require-all-validate"} {
		r := batch(t, mode,
			map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"slug": "mixed-" + mode, "status": "draft"}},
			map[string]any{"path": "/notes/v1/notes", "body": map[string]any{"text": mode}},
		)
		rs := items(t, r)
		if _, failed := r.Obj()["failed"]; failed || rs[0]["status"] != float64(201) || rs[1]["status"] != float64(201) {
			t.Fatalf("%s: %.600s", mode, r.Raw)
		}
		if body := rs[1]["body"].(map[string]any); body["text"] != mode || body["signed"] != true {
			t.Fatalf("%s: the notes service got %v", mode, body)
		}
		if n := countPosts(t, "mixed-"+mode); n != 1 {
			t.Fatalf("%s: %d posts", mode, n)
		}
	}
	// require-all-validate across services: one invalid item stops everything.
	r := batch(t, "require-all-validate",
		map[string]any{"path": "/cms/v2/posts", "body": map[string]any{"slug": "mixed-never", "status": "draft"}},
		map[string]any{"path": "/notes/v1/notes", "body": map[string]any{"text": ""}},
	)
	rs := items(t, r)
	if r.Obj()["failed"] != "validation" || rs[0] != nil || codeOf(rs[1]) != "rest_invalid_param" {
		t.Fatalf("cross-service validation: %.600s", r.Raw)
	}
	if n := countPosts(t, "mixed-never"); n != 0 || len(notes()) != 2 {
		t.Fatalf("a failed validation executed something: posts %d, notes %v", n, notes())
	}
}
