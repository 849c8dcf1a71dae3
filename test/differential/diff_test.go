//go:build differential

package differential

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
)

// site is one side of the comparison.
type site struct {
	name, base string // base: the REST root, ".../wp-json"
	user, pass string
	client     *http.Client
}

func siteFromEnv(t *testing.T, name, urlVar, authVar string) *site {
	t.Helper()
	u, auth := os.Getenv(urlVar), os.Getenv(authVar)
	if u == "" || auth == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s and %s must be set (hack/differential.sh)", urlVar, authVar)
		}
		t.Skipf("%s and %s not set: run make test-differential", urlVar, authVar)
	}
	user, pass, _ := strings.Cut(auth, ":")
	return &site{name: name, base: strings.TrimRight(u, "/") + "/wp-json", user: user, pass: pass,
		client: &http.Client{Timeout: 30 * time.Second}}
}

// answer is a normalised response.
type answer struct {
	status  int
	code    string            // an error's code
	shape   map[string]string // key path → JSON type (successful answers)
	headers map[string]string // X-WP-* presence, Link relations, Allow
}

func (s *site) do(t *testing.T, method, path string, admin bool) answer {
	t.Helper()
	req, err := http.NewRequest(method, s.base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if admin {
		req.SetBasicAuth(s.user, s.pass)
	}
	res, err := s.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s %s: %v", s.name, method, path, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	a := answer{status: res.StatusCode, headers: map[string]string{}}
	for _, h := range []string{"X-WP-Total", "X-WP-TotalPages"} {
		if res.Header.Get(h) != "" {
			a.headers[h] = "present"
		}
	}
	for _, rel := range linkRels(res.Header.Values("Link")) {
		a.headers["Link rel="+rel] = "present"
	}
	if allow := res.Header.Get("Allow"); allow != "" {
		a.headers["Allow"] = allow
	}
	var v any
	if json.Unmarshal(body, &v) != nil {
		a.shape = map[string]string{"": "not JSON"}
		return a
	}
	if m, ok := v.(map[string]any); ok && res.StatusCode >= 400 {
		a.code, _ = m["code"].(string)
		return a
	}
	a.shape = map[string]string{}
	flatten(a.shape, "", v, 0)
	for k := range a.shape {
		// An index's routes are compared as the route sets (TestDifferential
		// runs the shared ones), not as one answer's keys.
		if strings.HasPrefix(k, "routes.") {
			delete(a.shape, k)
		}
	}
	return a
}

var relPattern = regexp.MustCompile(`rel="([^"]+)"`)

func linkRels(values []string) []string {
	var out []string
	for _, v := range values {
		for _, m := range relPattern.FindAllStringSubmatch(v, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// flatten records the key paths of v down to three levels with their JSON
// types; array elements merge under "[]" (their keys, not their number:
// the two sites hold different data).
func flatten(out map[string]string, path string, v any, depth int) {
	out[path] = jsonType(v)
	if depth >= 3 {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			flatten(out, join(path, k), e, depth+1)
		}
	case []any:
		for i, e := range x {
			if i == 3 {
				break
			}
			flatten(out, join(path, "[]"), e, depth+1)
		}
	}
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		if len(x) == 0 {
			return "array" // an empty PHP object is [] too
		}
		return "array"
	default:
		return "object"
	}
}

// compare lists the differences of two normalised answers, WordPress first.
func compare(wp, sp answer) []string {
	var out []string
	if wp.status != sp.status {
		return []string{fmt.Sprintf("status: WordPress %d, Siteplane %d", wp.status, sp.status)}
	}
	if wp.code != sp.code {
		return []string{fmt.Sprintf("error code: WordPress %s, Siteplane %s", wp.code, sp.code)}
	}
	for _, k := range sortedKeys(wp.shape) {
		st, ok := sp.shape[k]
		switch {
		case !ok && parentEmpty(sp.shape, k):
			// the other side's list is empty: nothing to compare
		case !ok:
			out = append(out, "missing key: "+k)
		case st != wp.shape[k] && !emptyContainer(st, wp.shape[k]):
			out = append(out, fmt.Sprintf("type: %s WordPress %s, Siteplane %s", k, wp.shape[k], st))
		}
	}
	for _, k := range sortedKeys(sp.shape) {
		if _, ok := wp.shape[k]; !ok && !parentEmpty(wp.shape, k) {
			out = append(out, "extra key: "+k)
		}
	}
	for _, k := range sortedKeys(wp.headers) {
		if sp.headers[k] != wp.headers[k] {
			out = append(out, fmt.Sprintf("header: %s WordPress %q, Siteplane %q", k, wp.headers[k], sp.headers[k]))
		}
	}
	for _, k := range sortedKeys(sp.headers) {
		if _, ok := wp.headers[k]; !ok {
			out = append(out, fmt.Sprintf("header: %s WordPress absent, Siteplane %q", k, sp.headers[k]))
		}
	}
	return out
}

// parentEmpty: a path under a list that is empty on that side (the two
// sites hold different data, so one list may be empty).
func parentEmpty(shape map[string]string, k string) bool {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		if p != "[]" {
			continue
		}
		if _, ok := shape[strings.Join(parts[:i+1], ".")]; ok {
			continue
		}
		if i == 0 || shape[strings.Join(parts[:i], ".")] == "array" {
			return true
		}
	}
	return false
}

// emptyContainer: PHP writes an empty object as [].
func emptyContainer(a, b string) bool {
	return (a == "array" || a == "object") && (b == "array" || b == "object")
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// deliberate is deliberate.txt: a glob ("*" any text) and its reason per
// line; "#" starts a comment.
type deliberate struct {
	pattern *regexp.Regexp
	glob    string
	reason  string
	used    int
}

func loadDeliberate(t *testing.T) []*deliberate {
	t.Helper()
	f, err := os.Open("deliberate.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*deliberate
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		glob, reason, ok := strings.Cut(line, "\t")
		if !ok || strings.TrimSpace(reason) == "" {
			t.Fatalf("deliberate.txt: %q has no reason (glob<TAB>reason)", line)
		}
		re := "^" + strings.ReplaceAll(regexp.QuoteMeta(strings.TrimSpace(glob)), `\*`, ".*") + "$"
		out = append(out, &deliberate{pattern: regexp.MustCompile(re), glob: glob, reason: strings.TrimSpace(reason)})
	}
	return out
}

// raw is an administrator's GET body.
func (s *site) raw(t *testing.T, method, path string) []byte {
	t.Helper()
	req, err := http.NewRequest(method, s.base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(s.user, s.pass)
	res, err := s.client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", s.name, path, err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 16<<20))
	return body
}
