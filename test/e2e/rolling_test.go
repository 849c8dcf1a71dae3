//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

// mixedLoad sends anonymous reads, authenticated creates and media uploads
// through the gateway Service, each kind from its own workers, until stop;
// any answer but the expected status fails (a 503 with Retry-After too),
// taken as is, without a retry.
type mixedLoad struct {
	mu       sync.Mutex
	sent     map[string]int
	failed   map[string]int
	failures []string
	done     chan struct{}
	wg       sync.WaitGroup
}

func (rs *replicaSite) startMixedLoad(t *testing.T) *mixedLoad {
	l := &mixedLoad{sent: map[string]int{}, failed: map[string]int{}, done: make(chan struct{})}
	img := testJPEG(t, 7)
	kinds := []struct {
		name    string
		workers int
		want    int
		send    func(i int) response
	}{
		{"read", 3, 200, func(int) response {
			return requestOnce("GET", rs.gw+"/cms-json/cms/v2/posts?per_page=5&_fields=id,title", nil, nil)
		}},
		{"write", 1, 201, func(i int) response {
			return requestOnce("POST", rs.gw+"/cms-json/cms/v2/posts", []byte(fmt.Sprintf(`{"title":"Load %d","status":"publish"}`, i)),
				rs.auth(http.Header{"Content-Type": {"application/json"}}))
		}},
		{"upload", 1, 201, func(i int) response {
			return requestOnce("POST", rs.gw+"/cms-json/cms/v2/media", img, rs.auth(http.Header{"Content-Type": {"image/jpeg"},
				"Content-Disposition": {fmt.Sprintf(`attachment; filename="load-%d.jpg"`, i)}}))
		}},
	}
	for _, k := range kinds {
		for range k.workers {
			l.wg.Add(1)
			go func() {
				defer l.wg.Done()
				for i := 0; ; i++ {
					select {
					case <-l.done:
						return
					default:
					}
					r := k.send(i)
					l.mu.Lock()
					l.sent[k.name]++
					if r.Status != k.want {
						l.failed[k.name]++
						if len(l.failures) < 5 {
							l.failures = append(l.failures, fmt.Sprintf("%s %s: %s", time.Now().UTC().Format("15:04:05.000"), k.name, r))
						}
					}
					l.mu.Unlock()
				}
			}()
		}
	}
	return l
}

// stop ends the load and checks it: no failed request, and enough of each
// kind that the load covered the step.
func (l *mixedLoad) stop(t *testing.T, step string) {
	t.Helper()
	select {
	case <-l.done:
		return
	default:
	}
	close(l.done)
	l.wg.Wait()
	t.Logf("%s under load: reads %d (%d failed), writes %d (%d failed), uploads %d (%d failed)", step,
		l.sent["read"], l.failed["read"], l.sent["write"], l.failed["write"], l.sent["upload"], l.failed["upload"])
	total := l.failed["read"] + l.failed["write"] + l.failed["upload"]
	if total > 0 {
		t.Errorf("%s: %d requests failed; first: %v", step, total, l.failures)
	}
	if l.sent["read"] < 50 || l.sent["write"] < 5 || l.sent["upload"] < 3 {
		t.Errorf("%s: the load sent too little to cover the step: %v", step, l.sent)
	}
}

// underLoad runs step with the mixed load running around it.
func (rs *replicaSite) underLoad(t *testing.T, name string, step func(t *testing.T)) {
	t.Run(name, func(t *testing.T) {
		l := rs.startMixedLoad(t)
		defer l.stop(t, name)
		t0 := time.Now()
		step(t)
		t.Logf("%s took %.1fs", name, time.Since(t0).Seconds())
	})
}

func (rs *replicaSite) rollingUnderLoad(t *testing.T) {
	rs.underLoad(t, "rolling restart of every component", func(t *testing.T) {
		before := podsByComponent(t, rs.ns, rs.name)
		stamp := time.Now().UTC().Format(time.RFC3339)
		for _, c := range components {
			patch := fmt.Sprintf(`{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":%q}}}}}`, stamp)
			if _, err := env.kube.AppsV1().Deployments(rs.ns).Patch(context.Background(), componentName(rs.name, c),
				types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
				t.Fatal(err)
			}
		}
		rs.waitRolled(t, before)
	})
	rs.underLoad(t, "eviction of one pod of each component", func(t *testing.T) {
		before := podsByComponent(t, rs.ns, rs.name)
		for _, c := range components {
			rs.evictOne(t, c)
		}
		rs.waitFull(t, before)
	})
	rs.underLoad(t, "image upgrade of the whole Site (a new tag of each image)", func(t *testing.T) {
		before := podsByComponent(t, rs.ns, rs.name)
		tags := contentTags(t)
		var patch []string
		for _, c := range components {
			patch = append(patch, fmt.Sprintf(`%q:{"image":%q}`, c, tags[c]))
		}
		var s sitev1.Site
		s.Name, s.Namespace = rs.name, rs.ns
		if err := env.c.Patch(context.Background(), &s, client.RawPatch(types.MergePatchType,
			[]byte(`{"spec":{"components":{`+strings.Join(patch, ",")+`}}}`))); err != nil {
			t.Fatal(err)
		}
		waitReady(t, rs.ns, rs.name, 4*time.Minute)
		rs.waitRolled(t, before)
		for _, c := range components {
			if img := deployment(t, rs.ns, componentName(rs.name, c)).Spec.Template.Spec.Containers[0].Image; img != tags[c] {
				t.Errorf("%s runs %s, want %s", c, img, tags[c])
			}
		}
	})
}

// waitRolled waits until every component's pods are all new (none of
// before left, even terminating) and its Deployment is rolled out.
func (rs *replicaSite) waitRolled(t *testing.T, before map[string][]string) {
	t.Helper()
	eventually(t, "every component rolled", 5*time.Minute, func() (bool, string) {
		for _, c := range components {
			if d := deployment(t, rs.ns, componentName(rs.name, c)); !rolledOut(d) {
				return false, c + " rolling"
			}
			if anyPodLeft(t, rs.ns, before[c]) {
				return false, c + ": a pod from before is left"
			}
		}
		return true, ""
	})
}

// waitFull waits until every component has its replicas ready again and
// one pod of each was replaced.
func (rs *replicaSite) waitFull(t *testing.T, before map[string][]string) {
	t.Helper()
	eventually(t, "every component back to its replicas", 3*time.Minute, func() (bool, string) {
		now := podsByComponent(t, rs.ns, rs.name)
		for _, c := range components {
			if d := deployment(t, rs.ns, componentName(rs.name, c)); !rolledOut(d) {
				return false, c + " not full"
			}
			if len(now[c]) != len(before[c]) || !anyPodLeft(t, rs.ns, before[c]) {
				return false, c + ": pods " + fmt.Sprint(len(now[c]))
			}
		}
		return true, ""
	})
}

// evictOne evicts one pod of component through the Eviction API, as a
// node drain does: the PodDisruptionBudget (maxUnavailable 1) may refuse it
// for a while (429), then it is retried.
func (rs *replicaSite) evictOne(t *testing.T, component string) {
	t.Helper()
	pods := podsByName(t, rs.ns, rs.name, component)
	if len(pods) == 0 {
		t.Fatalf("%s: no pod to evict", component)
	}
	ev := &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: pods[0], Namespace: rs.ns}}
	eventually(t, "evict "+pods[0], time.Minute, func() (bool, string) {
		err := env.kube.CoreV1().Pods(rs.ns).EvictV1(context.Background(), ev)
		return err == nil, fmt.Sprint(err)
	})
	t.Logf("evicted %s", pods[0])
}

func podsByName(t *testing.T, ns, site, component string) []string {
	t.Helper()
	list, err := env.kube.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{
		LabelSelector: instanceLabel + "=" + site + ",app.kubernetes.io/component=" + component})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	var out []string
	for i := range list.Items {
		if p := &list.Items[i]; p.DeletionTimestamp == nil && podReady(p) {
			out = append(out, p.Name)
		}
	}
	return out
}

// contentTags reads, from the images.txt `make images` wrote, each
// component's second reference: the same image under its content tag
// (<release>-<digest prefix>), a tag the Site has not run yet.
func contentTags(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(env.root, ".cache", "images", "images.txt"))
	if err != nil {
		t.Skipf("no images index to take new tags from: %v", err)
	}
	defer f.Close()
	tags := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 3 {
			tags[strings.TrimSuffix(fields[0], ".tar")] = fields[2]
		}
	}
	for _, c := range components {
		if tags[c] == "" {
			t.Skipf("images.txt names no content tag for %s", c)
		}
	}
	return tags
}
