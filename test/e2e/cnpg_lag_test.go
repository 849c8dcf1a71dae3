//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/remotecommand"

	"siteplane.dev/services/pkg/contract"
)

// instanceSQL runs one statement as PostgreSQL's superuser inside a
// CloudNativePG instance pod (its container "postgres", over the server's
// own socket with peer authentication, as `kubectl exec` would: the
// managed Cluster has no superuser password) and returns psql's output.
func instanceSQL(t *testing.T, ns, pod, sql string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := env.kube.CoreV1().RESTClient().Post().Resource("pods").Namespace(ns).Name(pod).SubResource("exec").
		VersionedParams(&corev1.PodExecOptions{Container: "postgres", Stdout: true, Stderr: true,
			Command: []string{"psql", "-h", "/controller/run", "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-tAc", sql}},
			scheme.ParameterCodec)
	ex, err := remotecommand.NewSPDYExecutor(env.cfg, http.MethodPost, req.URL())
	if err != nil {
		t.Fatalf("exec in %s: %v", pod, err)
	}
	var stdout, stderr bytes.Buffer
	if err := ex.StreamWithContext(ctx, remotecommand.StreamOptions{Stdout: &stdout, Stderr: &stderr}); err != nil {
		t.Fatalf("psql %q in %s: %v: %s", sql, pod, err, stderr.String())
	}
	return strings.TrimSpace(stdout.String())
}

// lagRead is one anonymous read of the post or its page while the
// replicas lag or catch up.
type lagRead struct {
	fresh, hit bool
}

// readLagged reads path anonymously through the gateway and says whether
// the answer has the new title and whether the edge cache served it.
func readLagged(t *testing.T, gw, path, newTitle string) lagRead {
	t.Helper()
	r := request("GET", gw+path, nil, nil)
	if r.Status != http.StatusOK {
		t.Fatalf("GET %s: %s", path, r)
	}
	return lagRead{fresh: strings.Contains(string(r.Body), newTitle), hit: r.Header.Get("X-Cache") == "hit"}
}

// laggingReplicas is the delayed-replica cache test on CloudNativePG's
// replicas (test/stack's TestReadPoolOnStreamingReplica does it on a pair of
// hack/postgres.sh): a post and its page are read anonymously until the
// edge cache keeps them; WAL replay is paused on every replica (the -ro
// Service, the read pool), the post's title changed through the gateway;
// while the replicas are behind, the post's old answer is served (from a
// replica) but no old answer comes from the cache; after replay resumes and the replicas have
// replayed the write, every answer is the new one and the cache keeps it.
// A stale answer served as a cache hit at any point fails the test.
func laggingReplicas(t *testing.T, ns, site, cluster string, auth func(http.Header) http.Header) {
	gw := serviceURL(t, ns, componentName(site, contract.ServiceGateway), contract.DefaultAPIPort)
	const oldTitle, newTitle = "lagging replica before", "lagging replica after"
	created := request("POST", gw+"/cms-json/cms/v2/posts", fmt.Appendf(nil, `{"title":%q,"status":"publish"}`, oldTitle),
		auth(http.Header{"Content-Type": {"application/json"}}))
	if created.Status != http.StatusCreated {
		t.Fatalf("create: %s", created)
	}
	post := fmt.Sprintf("/cms-json/cms/v2/posts/%v", created.JSON()["id"])
	link, err := url.Parse(fmt.Sprint(created.JSON()["link"]))
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{post, link.RequestURI()}
	for _, path := range paths {
		eventually(t, "the replicas' answer of "+path+" kept", time.Minute, func() (bool, string) {
			r := request("GET", gw+path, nil, nil)
			return strings.Contains(string(r.Body), oldTitle) && r.Header.Get("X-Cache") == "hit", r.String()
		})
	}

	in := clusterInstances(t, ns, cluster)
	resume := func() {
		for _, pod := range in.replicas {
			instanceSQL(t, ns, pod, "SELECT pg_wal_replay_resume()")
		}
	}
	t.Cleanup(resume) // a failure below must not leave them paused
	for _, pod := range in.replicas {
		instanceSQL(t, ns, pod, "SELECT pg_wal_replay_pause()")
	}
	updated := request("POST", gw+post, fmt.Appendf(nil, `{"title":%q}`, newTitle), auth(http.Header{"Content-Type": {"application/json"}}))
	if updated.Status != http.StatusOK {
		t.Fatalf("update: %s", updated)
	}
	written := instanceSQL(t, ns, in.primary, "SELECT pg_current_wal_lsn()")
	stale := 0
	for range 5 {
		for _, path := range paths {
			switch r := readLagged(t, gw, path, newTitle); {
			case r.fresh && path == post:
				t.Fatalf("GET %s: the new title with every replica paused: not read from a replica", path)
			case !r.fresh && r.hit:
				t.Fatalf("GET %s: X-Cache hit while the replicas lag: a stale answer was kept", path)
			case !r.fresh:
				stale++
			}
		}
	}

	t0 := time.Now()
	resume()
	for _, pod := range in.replicas {
		eventually(t, pod+" replayed "+written, time.Minute, func() (bool, string) {
			out := instanceSQL(t, ns, pod, fmt.Sprintf("SELECT pg_last_wal_replay_lsn() >= '%s'::pg_lsn, pg_last_wal_replay_lsn()", written))
			return strings.HasPrefix(out, "t|"), out
		})
	}
	caughtUp := time.Since(t0)
	// Once both replicas have the write, every answer is the new one (none
	// kept from before), and the cache keeps it again.
	hits := 0
	for range 10 {
		for _, path := range paths {
			r := readLagged(t, gw, path, newTitle)
			if !r.fresh {
				t.Fatalf("GET %s after the replicas caught up: the old title (X-Cache hit %t): a stale answer was kept", path, r.hit)
			}
			if r.hit {
				hits++
			}
		}
	}
	if hits == 0 {
		t.Errorf("no cache hit in 20 reads after the replicas caught up: the new answers are not kept")
	}
	t.Logf("replicas paused: %d stale answers served, none from the cache; replayed %.1fs after resume; then 20 reads all new, %d cache hits",
		stale, caughtUp.Seconds(), hits)
}
