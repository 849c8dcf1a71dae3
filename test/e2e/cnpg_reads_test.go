//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"siteplane.dev/services/pkg/contract"
)

// cnpgInstances are the PostgreSQL pods of a CloudNativePG Cluster and
// which of them is the primary (the Cluster's status.currentPrimary).
type cnpgInstances struct {
	primary  string
	replicas []string
	uids     map[string]string // pod name → UID, for its cgroup
}

func clusterInstances(t *testing.T, ns, cluster string) cnpgInstances {
	t.Helper()
	ctx := context.Background()
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("postgresql.cnpg.io/v1")
	u.SetKind("Cluster")
	if err := env.c.Get(ctx, client.ObjectKey{Namespace: ns, Name: cluster}, u); err != nil {
		t.Fatal(err)
	}
	primary, _, _ := unstructured.NestedString(u.Object, "status", "currentPrimary")
	pods, err := env.kube.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "cnpg.io/cluster=" + cluster})
	if err != nil {
		t.Fatal(err)
	}
	in := cnpgInstances{primary: primary, uids: map[string]string{}}
	for _, p := range pods.Items {
		if p.Labels["cnpg.io/jobRole"] != "" { // initdb, join: not an instance
			continue
		}
		in.uids[p.Name] = string(p.UID)
		if p.Name != primary && p.DeletionTimestamp == nil {
			in.replicas = append(in.replicas, p.Name)
		}
	}
	return in
}

// podCPU is the CPU time a pod has used so far, from its cgroup (cgroupfs
// driver, cgroup v1: the local provider's kubelet), or -1 where the
// cgroup is not on this host (another provider).
func podCPU(uid string) time.Duration {
	for _, pattern := range []string{
		"/sys/fs/cgroup/cpuacct/kubepods/pod%s/cpuacct.usage",
		"/sys/fs/cgroup/cpuacct/kubepods/*/pod%s/cpuacct.usage",
	} {
		files, _ := filepath.Glob(fmt.Sprintf(pattern, uid))
		if len(files) == 0 {
			continue
		}
		b, err := os.ReadFile(files[0])
		if err != nil {
			return -1
		}
		ns, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil {
			return -1
		}
		return time.Duration(ns)
	}
	return -1
}

// queryCounts sums siteplane_db_queries_total by pool from a metrics
// endpoint (the Service reaches the component's one pod).
func queryCounts(t *testing.T, url string) map[string]float64 {
	t.Helper()
	r := request("GET", url, nil, nil)
	if r.Status != 200 {
		t.Fatalf("scrape %s: %s", url, r)
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(string(r.Body)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "siteplane_db_queries_total{") {
			continue
		}
		labels, value, ok := strings.Cut(line[strings.Index(line, "{")+1:], "} ")
		v, err := strconv.ParseFloat(value, 64)
		if !ok || err != nil {
			continue
		}
		for _, kv := range strings.Split(labels, ",") {
			if k, val, _ := strings.Cut(kv, "="); k == "pool" {
				out[strings.Trim(val, `"`)] += v
			}
		}
	}
	return out
}

// readShare is one measured batch of list reads: the statements content
// sent to each pool and the CPU each PostgreSQL instance spent meanwhile.
type readShare struct {
	label            string
	reads            int
	primary, read    float64 // content's statements by pool
	primaryCPU, rCPU time.Duration
	elapsed          time.Duration
}

func (s readShare) String() string {
	per := func(d time.Duration) string {
		if d < 0 || s.reads == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.3f ms", float64(d.Microseconds())/1000/float64(s.reads))
	}
	return fmt.Sprintf("| %s | %d | %.0f / %.0f | %s (%s per read) | %s (%s per read) | %.0f |",
		s.label, s.reads, s.primary, s.read, s.primaryCPU.Round(time.Millisecond), per(s.primaryCPU),
		s.rCPU.Round(time.Millisecond), per(s.rCPU), float64(s.reads)/s.elapsed.Seconds())
}

// measureReads sends n list reads through the gateway with header (none:
// anonymous, the read pool; an admin's: the primary) and counts content's
// statements by pool and the instances' CPU. Each query is new (m=...),
// so every read reaches content rather than the edge cache.
func measureReads(t *testing.T, ns, site, cluster, label string, n int, header http.Header) readShare {
	t.Helper()
	gw := serviceURL(t, ns, componentName(site, contract.ServiceGateway), contract.DefaultAPIPort)
	metrics := serviceURL(t, ns, componentName(site, contract.ServiceContent), contract.DefaultMetricsPort) + contract.MetricsPath
	in := clusterInstances(t, ns, cluster)
	cpu := func() (p, r time.Duration) {
		p = podCPU(in.uids[in.primary])
		for _, name := range in.replicas {
			c := podCPU(in.uids[name])
			if c < 0 || p < 0 {
				return -1, -1
			}
			r += c
		}
		return p, r
	}
	q0 := queryCounts(t, metrics)
	p0, r0 := cpu()
	t0 := time.Now()
	if n == 0 {
		// The idle baseline: each pod's CPU without reads (CloudNativePG's
		// instance manager, replication), over as long as a batch takes.
		time.Sleep(3 * time.Second)
	}
	for i := range n {
		u := fmt.Sprintf("%s/cms-json/cms/v2/posts?per_page=10&m=%d%d", gw, t0.UnixNano(), i)
		if r := request("GET", u, nil, header.Clone()); r.Status != 200 {
			t.Fatalf("%s read %d: %s", label, i, r)
		}
	}
	s := readShare{label: label, reads: n, elapsed: time.Since(t0)}
	p1, r1 := cpu()
	q1 := queryCounts(t, metrics)
	s.primary, s.read = q1["primary"]-q0["primary"], q1["read"]-q0["read"]
	s.primaryCPU, s.rCPU = p1-p0, r1-r0
	if p0 < 0 || p1 < 0 {
		s.primaryCPU, s.rCPU = -1, -1
	}
	return s
}

// readsOnReplicas checks that anonymous list reads are served by the
// replicas (content's read pool on the -ro Service) and authenticated ones
// by the primary, and logs the figures (docs/operator.md).
func readsOnReplicas(t *testing.T, ns, site, cluster string, auth func(http.Header) http.Header) {
	const n = 1000
	if in := clusterInstances(t, ns, cluster); len(in.replicas) == 0 {
		t.Fatalf("Cluster %s has no replica: %+v", cluster, in)
	}
	gw := serviceURL(t, ns, componentName(site, contract.ServiceGateway), contract.DefaultAPIPort)
	for i := range 20 {
		body := fmt.Appendf(nil, `{"title":"replica read %d","content":"e2e","status":"publish"}`, i)
		if r := request("POST", gw+"/cms-json/cms/v2/posts", body, auth(http.Header{"Content-Type": {"application/json"}})); r.Status != 201 {
			t.Fatalf("create post %d: %s", i, r)
		}
	}
	idle := measureReads(t, ns, site, cluster, "none (idle 3 s)", 0, http.Header{})
	anon := measureReads(t, ns, site, cluster, "anonymous (read pool)", n, http.Header{})
	signed := measureReads(t, ns, site, cluster, "signed in (primary)", n, auth(http.Header{}))
	t.Logf("| reads | n | content statements primary / read | primary CPU | replicas' CPU | reads/s |")
	for _, row := range []readShare{idle, anon, signed} {
		t.Logf("%s", row)
	}
	if anon.read < n || anon.primary > n/10 {
		t.Errorf("anonymous reads: %.0f statements on the read pool, %.0f on the primary; want >= %d on the read pool, the primary's share under 10%%",
			anon.read, anon.primary, n)
	}
	if signed.primary < n || signed.read > 0 {
		t.Errorf("signed-in reads: %.0f statements on the primary, %.0f on the read pool; want >= %d on the primary, none on the read pool",
			signed.primary, signed.read, n)
	}
}

// adminAuth adds the site's bootstrap admin's Basic credentials to a
// header.
func adminAuth(t *testing.T, ns, site string) func(http.Header) http.Header {
	t.Helper()
	user, pass := adminCredentials(t, ns, site)
	req, _ := http.NewRequest("GET", "/", nil)
	req.SetBasicAuth(user, pass)
	value := req.Header.Get("Authorization")
	return func(h http.Header) http.Header {
		h = h.Clone()
		if h == nil {
			h = http.Header{}
		}
		h.Set("Authorization", value)
		return h
	}
}
