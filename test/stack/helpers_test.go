package stack

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"testing"
)

func writeJSON(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return writeAtomic(path, b)
}

func writeAtomic(path string, b []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Response is a decoded HTTP answer.
type Response struct {
	Status int
	Header http.Header
	Raw    []byte
	JSON   any
}

// Obj returns the body as a JSON object (nil when it is not one).
func (r *Response) Obj() map[string]any { m, _ := r.JSON.(map[string]any); return m }

// call sends a request through the gateway. auth is "user:password" or "".
func call(t *testing.T, method, path string, body any, auth ...string) *Response {
	t.Helper()
	if body == nil {
		return send(t, method, path, nil, nil, auth...)
	}
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return send(t, method, path, b, http.Header{"Content-Type": {"application/json"}}, auth...)
}

// send is call with a raw body (none when nil) and headers.
func send(t *testing.T, method, path string, body []byte, header http.Header, auth ...string) *Response {
	t.Helper()
	return sendTo(t, st.Gateway, method, path, body, header, auth...)
}

// sendTo is send to the gateway at base (a stack of a test's own).
func sendTo(t *testing.T, base, method, path string, body []byte, header http.Header, auth ...string) *Response {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if len(auth) == 2 {
		req.SetBasicAuth(auth[0], auth[1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	out := &Response{Status: res.StatusCode, Header: res.Header, Raw: raw}
	_ = json.Unmarshal(raw, &out.JSON)
	return out
}

func admin() []string { return []string{st.AdminUser, st.AdminPass} }

// expectError checks a WordPress error body.
func expectError(t *testing.T, r *Response, status int, code string) {
	t.Helper()
	o := r.Obj()
	if r.Status != status || o == nil || o["code"] != code {
		t.Fatalf("got %d %s, want %d %s", r.Status, r.Raw, status, code)
	}
	if d, _ := o["data"].(map[string]any); d == nil || d["status"] != float64(status) {
		t.Fatalf("data.status missing or wrong: %s", r.Raw)
	}
}
