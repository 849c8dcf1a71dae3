package stack

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Issue 33: anonymous reads on a read-only replica pool. A stack of its
// own runs on a PostgreSQL primary and a real streaming replica
// (hack/postgres.sh replica); content and media read anonymous requests
// from the replica. With the replica's replay paused (a replica that
// lags), a post updated on the primary is still served from the replica as
// it was, but neither the edge cache nor anything else keeps that answer;
// once the replica catches up, the new answer is served and kept. With the
// primary stopped, anonymous reads keep being answered from the replica and
// writes answer 503 with Retry-After.
func TestReadPoolOnStreamingReplica(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a primary and a replica")
	}
	pair := startReplicaPair(t)
	s := startStackOn(t, pair.primary, pair.replica)
	as := []string{s.AdminUser, s.AdminPass}
	created := sendJSONTo(t, s.Gateway, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": "readpool-old", "status": "publish"}, as)
	if created.Status != http.StatusCreated {
		t.Fatalf("create: %d %s", created.Status, created.Raw)
	}
	id := int64(created.Obj()["id"].(float64))
	post := fmt.Sprintf("/cms-json/cms/v2/posts/%d", id)
	link, _ := url.Parse(created.Obj()["link"].(string))
	page := link.RequestURI()

	// caught up: the replica's answer is served and kept
	waitFor(t, "the replica's answer kept", func() bool {
		r := sendTo(t, s.Gateway, "GET", post, nil, nil)
		return renderedTitle(r) == "readpool-old" && r.Header.Get("X-Cache") == "hit"
	})
	readsBefore := queriesOf(t, s, "read")

	// the website's snapshot keeps the global styles' stylesheet
	idx := sendTo(t, s.Gateway, "GET", "/cms-json/", nil, nil, as...)
	theme, _ := url.Parse(linkPath(t, idx.Obj(), "wp:active-theme"))
	th := sendTo(t, s.Gateway, "GET", theme.RequestURI(), nil, nil, as...)
	styles, _ := url.Parse(linkPath(t, th.Obj(), "wp:user-global-styles"))

	pair.pauseReplay(t)
	updated := sendJSONTo(t, s.Gateway, "POST", post, map[string]any{"title": "readpool-new"}, as)
	if updated.Status != http.StatusOK {
		t.Fatalf("update: %d %s", updated.Status, updated.Raw)
	}
	restyled := sendJSONTo(t, s.Gateway, "PUT", styles.RequestURI(),
		map[string]any{"styles": map[string]any{"color": map[string]any{"background": "#a1b2c3"}}}, as)
	if restyled.Status != http.StatusOK {
		t.Fatalf("update global styles: %d %s", restyled.Status, restyled.Raw)
	}
	if own := sendTo(t, s.Gateway, "GET", post+"?context=edit", nil, nil, as...); renderedTitle(own) != "readpool-new" {
		t.Fatalf("the writer reads %q, not its own write", renderedTitle(own))
	}
	for _, path := range []string{post, page, post, page} {
		r := sendTo(t, s.Gateway, "GET", path, nil, nil)
		if r.Status != http.StatusOK {
			t.Fatalf("GET %s with the replica behind: %d %.200s", path, r.Status, r.Raw)
		}
		if got := r.Header.Get("X-Cache"); got == "hit" {
			t.Fatalf("GET %s: X-Cache %q while the replica lags: a stale answer was kept", path, got)
		}
		if path == post && renderedTitle(r) != "readpool-old" {
			t.Fatalf("GET %s: title %q: not read from the paused replica", path, renderedTitle(r))
		}
		if strings.Contains(string(r.Raw), "X-Siteplane") || r.Header.Get("X-Siteplane-Read-Lsn") != "" {
			t.Fatalf("GET %s: the replica position reached the client", path)
		}
	}
	if reads := queriesOf(t, s, "read"); reads <= readsBefore {
		t.Fatalf("siteplane_db_queries_total{pool=\"read\"} %v → %v: the anonymous reads did not use the replica", readsBefore, reads)
	}

	pair.resumeReplay(t)
	for path, want := range map[string][]string{post: {"readpool-new"}, page: {"readpool-new", "#a1b2c3"}} {
		waitFor(t, "the new answer of "+path+" kept after the replica caught up", func() bool {
			r := sendTo(t, s.Gateway, "GET", path, nil, nil)
			for _, w := range want {
				if !strings.Contains(string(r.Raw), w) {
					return false
				}
			}
			return r.Header.Get("X-Cache") == "hit"
		})
	}

	// failover: without the primary, reads go on, writes are 503
	pair.stopPrimary(t)
	for i := range 3 {
		r := sendTo(t, s.Gateway, "GET", fmt.Sprintf("%s?_fields=title&n=%d", post, i), nil, nil)
		if r.Status != http.StatusOK || renderedTitle(r) != "readpool-new" {
			t.Fatalf("read without the primary: %d %.200s", r.Status, r.Raw)
		}
	}
	w := sendJSONTo(t, s.Gateway, "POST", post, map[string]any{"title": "not saved"}, as)
	t.Logf("write without the primary: %d %s", w.Status, w.Obj()["code"])
	if ra, err := strconv.Atoi(w.Header.Get("Retry-After")); w.Status != http.StatusServiceUnavailable || err != nil || ra <= 0 || w.Obj()["code"] == nil {
		t.Fatalf("write without the primary: %d Retry-After %q %.200s", w.Status, w.Header.Get("Retry-After"), w.Raw)
	}
}

// replicaPair is a PostgreSQL primary and its streaming replica of a test's
// own (hack/postgres.sh start, replica).
type replicaPair struct {
	name, primary, replica string
}

func startReplicaPair(t *testing.T) *replicaPair {
	t.Helper()
	p := &replicaPair{name: "readpool-" + randomHex(3)}
	t.Cleanup(func() {
		_ = exec.Command(pgScript(), "destroy", p.name+"-replica").Run()
		_ = exec.Command(pgScript(), "destroy", p.name).Run()
	})
	p.primary = p.pg(t, "start", p.name)
	p.replica = p.pg(t, "replica", p.name)
	return p
}

func pgScript() string { return filepath.Join(repoRoot(), "hack", "postgres.sh") }

func (p *replicaPair) pg(t *testing.T, verb, name string) string {
	t.Helper()
	out, err := exec.Command(pgScript(), verb, name).Output()
	if err != nil {
		t.Fatalf("hack/postgres.sh %s %s: %v", verb, name, err)
	}
	return strings.TrimSpace(string(out))
}

// onReplica runs one statement as the replica's superuser.
func (p *replicaPair) onReplica(t *testing.T, sql string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, p.replica)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// pauseReplay makes the replica lag: it receives the WAL but applies none
// of it until resumeReplay (resumed when the test ends, too).
func (p *replicaPair) pauseReplay(t *testing.T) {
	p.onReplica(t, "SELECT pg_wal_replay_pause()")
	t.Cleanup(func() { p.onReplica(t, "SELECT pg_wal_replay_resume()") })
}

func (p *replicaPair) resumeReplay(t *testing.T) { p.onReplica(t, "SELECT pg_wal_replay_resume()") }

func (p *replicaPair) stopPrimary(t *testing.T) { p.pg(t, "stop", p.name) }

// replicaDatabase is database name on the replica server once the replica
// has replayed its creation.
func replicaDatabase(server, name string) (string, error) {
	u, err := url.Parse(server)
	if err != nil {
		return "", err
	}
	u.Path = "/" + name
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		conn, err := pgx.Connect(ctx, u.String())
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return u.String(), nil
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("database %s not on the replica: %w", name, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func sendJSONTo(t *testing.T, base, method, path string, body any, auth []string) *Response {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return sendTo(t, base, method, path, b, http.Header{"Content-Type": {"application/json"}}, auth...)
}

func renderedTitle(r *Response) string {
	title, _ := r.Obj()["title"].(map[string]any)
	s, _ := title["rendered"].(string)
	if s == "" {
		s, _ = title["raw"].(string)
	}
	return s
}

// queriesOf reads siteplane_db_queries_total of content's pool from its
// metrics listener.
func queriesOf(t *testing.T, s *Stack, pool string) float64 {
	t.Helper()
	res, err := http.Get("http://" + s.contentMetrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	want := `siteplane_db_queries_total{pool="` + pool + `",service="content"} `
	for sc := bufio.NewScanner(res.Body); sc.Scan(); {
		if v, ok := strings.CutPrefix(sc.Text(), want); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f
		}
	}
	return 0
}
