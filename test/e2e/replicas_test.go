//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
	"siteplane.dev/services/pkg/contract"
)

// Issue 34: one Site with every component replicated (gateway 3, content 3,
// media 2 with its files in S3, marketplace 2), and the state that must
// agree across replicas checked on every pod, each addressed by its own IP
// (a port-forward to it off the local provider), so that no check passes
// because the Service happened to send every request to one replica.
const (
	replicasGateway, replicasContent, replicasMedia, replicasMarketplace = 3, 3, 2, 2
	replicasBucket                                                       = "e2e-replicas"
)

func TestReplicas(t *testing.T) {
	ns := namespace(t, "e2e-replicas")
	const name = "multi"
	s3 := startS3(t)
	s3.createBucket(t, replicasBucket)
	s3.credentialsSecret(t, ns, name+"-s3")
	site := plainSite(t, ns, name, "E2E Replicas")
	site.Spec.Media = sitev1.MediaSpec{S3: &sitev1.MediaS3Spec{Endpoint: s3.clusterURL, Bucket: replicasBucket, Prefix: name,
		PathStyle: true, CredentialsSecretRef: sitev1.S3CredentialsSecretRef{Name: name + "-s3"}}}
	site.Spec.Components = sitev1.ComponentsSpec{
		Gateway:     sitev1.ComponentSpec{Replicas: ptr.To[int32](replicasGateway)},
		Content:     sitev1.ComponentSpec{Replicas: ptr.To[int32](replicasContent)},
		Media:       sitev1.ComponentSpec{Replicas: ptr.To[int32](replicasMedia)},
		Marketplace: sitev1.ComponentSpec{Replicas: ptr.To[int32](replicasMarketplace)},
	}
	site.Spec.Marketplace = sitev1.MarketplaceSpec{APIKeys: []sitev1.APIKeySpec{{Name: "author", Account: "acme"}}}
	t0 := time.Now()
	if err := env.c.Create(context.Background(), site); err != nil {
		t.Fatal(err)
	}
	waitReady(t, ns, name, 5*time.Minute)
	t.Logf("Site with gateway %d, content %d, media %d (S3), marketplace %d Ready %.1fs after create",
		replicasGateway, replicasContent, replicasMedia, replicasMarketplace, time.Since(t0).Seconds())
	rs := &replicaSite{ns: ns, name: name, s3: s3}
	rs.user, rs.pass = adminCredentials(t, ns, name)
	rs.gw = serviceURL(t, ns, componentName(name, contract.ServiceGateway), contract.DefaultAPIPort)

	t.Run("every pod runs; PDBs for each component", rs.podsAndPDBs)
	t.Run("media on S3: an upload lands in the bucket and every gateway pod serves it", rs.mediaOnS3)
	t.Run("a write, then an anonymous read on every gateway pod and every content pod: REST and the website page", rs.writeThenReadEverywhere)
	t.Run("a settings change reaches every gateway and content pod by the next request", rs.settingsEverywhere)
	t.Run("a session and nonce from one gateway pod act on every gateway pod", rs.sessionsEverywhere)
	t.Run("failed sign-ins on three gateway pods count together, per Site", rs.throttlePerSite)
	t.Run("extension-route state is shared: the crawler switch flipped on one pod reads back on every pod", rs.extensionState)
	t.Run("a title change shows on every gateway pod once rolled", rs.titleEverywhere)
	t.Run("rolling work under mixed load fails no request", rs.rollingUnderLoad)
}

// plainSite is a Site of one replica each on a database of its own, at
// http://<name>.e2e.test.
func plainSite(t *testing.T, ns, name, title string) *sitev1.Site {
	t.Helper()
	return &sitev1.Site{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: sitev1.SiteSpec{
			Title:    title,
			URL:      "http://" + name + ".e2e.test",
			Database: sitev1.DatabaseSpec{SecretRef: &sitev1.DatabaseSecretRef{Name: siteDatabase(t, ns, name), Key: "dsn"}},
			Admin:    sitev1.AdminSpec{Username: "admin", Email: "admin@e2e.test"},
		},
	}
}

// replicaSite is the replicated Site under test.
type replicaSite struct {
	ns, name   string
	s3         *s3Server
	user, pass string
	gw         string // the gateway Service
}

func (rs *replicaSite) auth(h http.Header) http.Header {
	if h == nil {
		h = http.Header{}
	}
	h.Set("Authorization", "Basic "+basicAuth(rs.user, rs.pass))
	return h
}

// pods returns base URLs of every ready, not terminating pod of component,
// by pod name.
func (rs *replicaSite) pods(t *testing.T, component string) []string {
	t.Helper()
	return podURLs(t, rs.ns, rs.name, component, contract.DefaultAPIPort)
}

func podURLs(t *testing.T, ns, site, component string, port int32) []string {
	t.Helper()
	list, err := env.kube.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{
		LabelSelector: instanceLabel + "=" + site + ",app.kubernetes.io/component=" + component})
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(list.Items, func(i, j int) bool { return list.Items[i].Name < list.Items[j].Name })
	var out []string
	for i := range list.Items {
		p := &list.Items[i]
		if p.DeletionTimestamp != nil || !podReady(p) {
			continue
		}
		if env.provider == "local" {
			out = append(out, fmt.Sprintf("http://%s:%d", p.Status.PodIP, port))
			continue
		}
		addr, err := forward(p, port)
		if err != nil {
			t.Fatalf("port-forward to %s: %v", p.Name, err)
		}
		out = append(out, "http://"+addr)
	}
	return out
}

func podReady(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

func (rs *replicaSite) podsAndPDBs(t *testing.T) {
	want := map[string]int{contract.ServiceGateway: replicasGateway, contract.ServiceContent: replicasContent,
		contract.ServiceMedia: replicasMedia, contract.ServiceMarketplace: replicasMarketplace}
	for c, n := range want {
		if got := len(rs.pods(t, c)); got != n {
			t.Errorf("%s: %d ready pods, want %d", c, got, n)
		}
		pdb, err := env.kube.PolicyV1().PodDisruptionBudgets(rs.ns).Get(context.Background(), componentName(rs.name, c), metav1.GetOptions{})
		if err != nil {
			t.Errorf("%s: PodDisruptionBudget: %v", c, err)
			continue
		}
		if pdb.Spec.MaxUnavailable == nil || pdb.Spec.MaxUnavailable.IntValue() != 1 {
			t.Errorf("%s: PodDisruptionBudget maxUnavailable %v, want 1", c, pdb.Spec.MaxUnavailable)
		}
	}
	if _, err := env.kube.CoreV1().PersistentVolumeClaims(rs.ns).Get(context.Background(), rs.name+"-media", metav1.GetOptions{}); err == nil {
		t.Errorf("a media claim exists although the files are in S3")
	}
}

func (rs *replicaSite) mediaOnS3(t *testing.T) {
	img := testJPEG(t, 80)
	path := uploadJPEG(t, rs.gw, rs.auth(nil), "replica.jpg", img)
	for _, gw := range rs.pods(t, contract.ServiceGateway) {
		if f := request("GET", gw+path, nil, nil); f.Status != 200 || string(f.Body) != string(img) {
			t.Errorf("GET %s on %s: %d, %d bytes; want the %d uploaded", path, gw, f.Status, len(f.Body), len(img))
		}
	}
	key := rs.name + "/" + strings.TrimPrefix(path, "/cms-content/uploads/")
	keys := rs.s3.keys(t, replicasBucket, rs.name+"/")
	found := false
	for _, k := range keys {
		found = found || k == key
	}
	if !found {
		t.Errorf("object %s not in the bucket; it holds %v", key, keys)
	}
	t.Logf("the bucket holds %d objects under %s/", len(keys), rs.name)
}

// freshEverywhere asks every URL until its answer satisfies fresh, and
// fails when one is not fresh within bound; it returns how many answers
// were stale first (0 is the goal: fresh at the first request).
func freshEverywhere(t *testing.T, what string, urls []string, bound time.Duration, fresh func(response) bool) int {
	t.Helper()
	stale := 0
	for _, u := range urls {
		start := time.Now()
		for {
			r := request("GET", u, nil, nil)
			if fresh(r) {
				break
			}
			stale++
			if time.Since(start) > bound {
				t.Errorf("%s: %s still stale %s after the write: %s", what, u, bound, r)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return stale
}

func (rs *replicaSite) writeThenReadEverywhere(t *testing.T) {
	jsonHeader := http.Header{"Content-Type": {"application/json"}}
	r := request("POST", rs.gw+"/cms-json/cms/v2/posts", []byte(`{"title":"Before","content":"x","status":"publish"}`), rs.auth(jsonHeader.Clone()))
	if r.Status != 201 {
		t.Fatalf("create: %s", r)
	}
	id := fmt.Sprint(r.JSON()["id"])
	link, _ := url.Parse(fmt.Sprint(r.JSON()["link"]))
	page := link.RequestURI()
	gws, contents := rs.pods(t, contract.ServiceGateway), rs.pods(t, contract.ServiceContent)
	var rest, pages []string
	for _, gw := range gws {
		rest = append(rest, gw+"/cms-json/cms/v2/posts/"+id)
		pages = append(pages, gw+page)
	}
	for _, c := range contents { // content serves the pages the gateway forwards under contract.SitePath
		pages = append(pages, c+contract.SitePath+page)
	}
	// Fill every edge cache and every website snapshot with the old title.
	for _, u := range append(append([]string{}, rest...), pages...) {
		for range 2 {
			if g := request("GET", u, nil, nil); g.Status != 200 || !strings.Contains(string(g.Body), "Before") {
				t.Fatalf("GET %s: %s", u, g)
			}
		}
	}
	hits := 0
	for _, u := range rest {
		if request("GET", u, nil, nil).Header.Get("X-Cache") == "hit" {
			hits++
		}
	}
	t.Logf("edge cache: %d of %d gateway pods answered the old post from their cache before the write", hits, len(rest))
	w := request("POST", gws[0]+"/cms-json/cms/v2/posts/"+id, []byte(`{"title":"After the write"}`), rs.auth(jsonHeader.Clone()))
	if w.Status != 200 {
		t.Fatalf("update through %s: %s", gws[0], w)
	}
	has := func(r response) bool { return r.Status == 200 && strings.Contains(string(r.Body), "After the write") }
	staleREST := freshEverywhere(t, "REST read", rest, 2*time.Second, has)
	stalePages := freshEverywhere(t, "website page", pages, 2*time.Second, has)
	t.Logf("after the write through %s: stale REST answers %d (of %d gateway pods), stale pages %d (of %d gateway and content pods)",
		gws[0], staleREST, len(rest), stalePages, len(pages))
	if staleREST+stalePages > 0 {
		t.Errorf("%d stale answers after the write: want the next request on every pod to see it", staleREST+stalePages)
	}
}

// settingsEverywhere changes two settings through one gateway pod and asks
// every pod at once: the tagline in each gateway's REST index (kept per
// change generation) and on the website's front page through every gateway
// and every content pod, and the time zone of each content replica (kept in
// its memory, reloaded on the settings notification), seen in a post's
// local date read on every content pod directly.
func (rs *replicaSite) settingsEverywhere(t *testing.T) {
	jsonHeader := http.Header{"Content-Type": {"application/json"}}
	p := request("POST", rs.gw+"/cms-json/cms/v2/posts", []byte(`{"title":"Dated","status":"publish"}`), rs.auth(jsonHeader.Clone()))
	if p.Status != 201 {
		t.Fatalf("create: %s", p)
	}
	id := fmt.Sprint(p.JSON()["id"])
	tagline, zone, offset := "Tagline "+randomHex(4), "Asia/Tokyo", 9*time.Hour
	gws, contents := rs.pods(t, contract.ServiceGateway), rs.pods(t, contract.ServiceContent)
	var index, dates, pages []string
	for _, gw := range gws {
		index = append(index, gw+"/cms-json/")
		pages = append(pages, gw+"/")
	}
	for _, c := range contents { // content serves REST routes at their own path, pages under contract.SitePath
		dates = append(dates, c+"/cms/v2/posts/"+id+"?_fields=date,date_gmt")
		pages = append(pages, c+contract.SitePath+"/")
	}
	// every replica holds the old settings (each edge cache and website
	// snapshot the old front page)
	for _, u := range append(append(append([]string{}, index...), dates...), pages...) {
		if r := request("GET", u, nil, nil); r.Status != 200 {
			t.Fatalf("GET %s: %s", u, r)
		}
	}
	w := request("POST", gws[len(gws)-1]+"/cms-json/cms/v2/settings", []byte(fmt.Sprintf(`{"description":%q,"timezone":%q}`, tagline, zone)),
		rs.auth(jsonHeader.Clone()))
	if w.Status != 200 {
		t.Fatalf("settings update: %s", w)
	}
	staleIndex := freshEverywhere(t, "index description", index, 2*time.Second, func(r response) bool { return r.JSON()["description"] == tagline })
	staleDates := freshEverywhere(t, "post date in the new time zone", dates, 2*time.Second, func(r response) bool {
		local, err1 := time.Parse("2006-01-02T15:04:05", fmt.Sprint(r.JSON()["date"]))
		gmt, err2 := time.Parse("2006-01-02T15:04:05", fmt.Sprint(r.JSON()["date_gmt"]))
		return r.Status == 200 && err1 == nil && err2 == nil && local.Sub(gmt) == offset
	})
	// the website's tagline (the site-tagline block) follows the setting too
	stalePages := freshEverywhere(t, "website tagline", pages, 2*time.Second, func(r response) bool {
		return r.Status == 200 && strings.Contains(string(r.Body), tagline+"</p>")
	})
	t.Logf("after the settings write: stale index answers %d (of %d gateway pods), stale dates %d (of %d content pods), stale pages %d (of %d gateway and content pods)",
		staleIndex, len(index), staleDates, len(dates), stalePages, len(pages))
	if staleIndex+staleDates+stalePages > 0 {
		t.Errorf("%d stale answers after the settings write: want the next request on every pod to see it", staleIndex+staleDates+stalePages)
	}
}
