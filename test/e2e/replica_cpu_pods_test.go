//go:build e2e

package e2e

import (
	"bufio"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"siteplane.dev/services/pkg/contract"
)

// cpuIdle is how long TestReplicaCPU watches the pods with no request just
// before each measurement: the kubelet's probes, the services' timers and
// the listeners' pings, GC and PostgreSQL's background workers cost CPU
// whatever the requests, and more pods cost more of it. That rate times the
// measurement's length is subtracted from each pod's CPU (a correction of
// the method: the idle CPU is the product's, but not per request).
const cpuIdle = 5 * time.Second

// componentLabel is the label that names a pod's component.
const componentLabel = "app.kubernetes.io/component"

// podUse is one pod's cumulative CPU time (its cgroup's cpuacct.usage).
type podUse struct {
	component string // gateway, content or postgres
	cpu       time.Duration
}

// sitePods is the CPU each of the Site's gateway and content pods and the
// suite's PostgreSQL pod have used so far, by pod name.
func sitePods(t *testing.T, ns, site string) map[string]podUse {
	t.Helper()
	out := map[string]podUse{}
	add := func(ns, selector, component string) {
		list, err := env.kube.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range list.Items {
			if p.Status.Phase != corev1.PodRunning { // the database's finished psql Jobs
				continue
			}
			c := podCPU(string(p.UID))
			if c < 0 {
				t.Fatalf("no cgroup for pod %s/%s", p.Namespace, p.Name)
			}
			comp := component
			if comp == "" {
				comp = p.Labels[componentLabel]
			}
			out[p.Name] = podUse{comp, c}
		}
	}
	add(ns, instanceLabel+"="+site+","+componentLabel+" in ("+contract.ServiceGateway+","+contract.ServiceContent+")", "")
	add(dbNamespace, "", "postgres")
	return out
}

// servedBy counts, by pod name, the requests of method each of the Site's
// gateway and content pods has served so far (siteplane_http_requests_total
// from the pod's own metrics listener, the probes left out): which replica
// served the load and which only heard of it.
func servedBy(t *testing.T, ns, site, method string) map[string]float64 {
	t.Helper()
	list, err := env.kube.CoreV1().Pods(ns).List(context.Background(), metav1.ListOptions{
		LabelSelector: instanceLabel + "=" + site + "," + componentLabel + " in (" + contract.ServiceGateway + "," + contract.ServiceContent + ")"})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, p := range list.Items {
		if p.Status.Phase != corev1.PodRunning || p.Status.PodIP == "" {
			continue
		}
		r := request("GET", fmt.Sprintf("http://%s:%d%s", p.Status.PodIP, contract.DefaultMetricsPort, contract.MetricsPath), nil, nil)
		if r.Status != 200 {
			t.Fatalf("scrape %s: %s", p.Name, r)
		}
		out[p.Name] = requestCount(string(r.Body), method)
	}
	return out
}

// requestCount sums siteplane_http_requests_total of method in a scrape,
// leaving out the kubelet's probes.
func requestCount(scrape, method string) float64 {
	total := 0.0
	sc := bufio.NewScanner(strings.NewReader(scrape))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "siteplane_http_requests_total{")
		if !ok {
			continue
		}
		labels, value, ok := strings.Cut(line, "} ")
		v, err := strconv.ParseFloat(value, 64)
		if !ok || err != nil || !strings.Contains(labels, `method="`+method+`"`) ||
			strings.Contains(labels, `route="`+contract.HealthzPath+`"`) || strings.Contains(labels, `route="`+contract.ReadyzPath+`"`) {
			continue
		}
		total += v
	}
	return total
}

// podRound is one pod's share of a measurement.
type podRound struct {
	name, component string
	busy            time.Duration // CPU during the measurement
	idle            time.Duration // its idle rate times the measurement's length
	served          float64       // requests of the measured method it served
}

// cpuRound is one measurement: n requests with replicas of gateway and
// content.
type cpuRound struct {
	replicas int32
	loadPod  bool // 4 connections to each gateway pod, not 4 through the Service
	what     string
	n        int
	elapsed  time.Duration
	pods     []podRound
}

// measureRound watches the pods idle for cpuIdle, then runs the requests
// (run) and takes each pod's CPU and served count meanwhile. The scrapes
// are made outside both windows, so their own CPU is in neither.
func measureRound(t *testing.T, ns, site, method string, n int, run func()) cpuRound {
	t.Helper()
	s0 := servedBy(t, ns, site, method)
	a, ta := sitePods(t, ns, site), time.Now()
	time.Sleep(cpuIdle)
	b, tb := sitePods(t, ns, site), time.Now()
	run()
	c, tc := sitePods(t, ns, site), time.Now()
	s1 := servedBy(t, ns, site, method)
	r := cpuRound{n: n, elapsed: tc.Sub(tb)}
	for name, end := range c {
		before, ok1 := b[name]
		first, ok2 := a[name]
		if !ok1 || !ok2 {
			t.Fatalf("pod %s appeared during the measurement", name)
		}
		rate := float64(before.cpu-first.cpu) / float64(tb.Sub(ta))
		r.pods = append(r.pods, podRound{name: name, component: end.component, busy: end.cpu - before.cpu,
			idle: time.Duration(rate * float64(r.elapsed)), served: s1[name] - s0[name]})
	}
	sort.Slice(r.pods, func(i, j int) bool { return r.pods[i].name < r.pods[j].name })
	return r
}

// label names the round's replicas and load.
func (r cpuRound) label() string {
	if r.loadPod {
		return fmt.Sprintf("%d + %d, %d connections to each gateway pod", r.replicas, r.replicas, cpuWorkers)
	}
	return fmt.Sprintf("%d + %d", r.replicas, r.replicas)
}

// kind is 0 for 1 + 1, 1 for 3 + 3 through the Service, 2 for 3 + 3 with
// the load per pod.
func (r cpuRound) kind() int {
	switch {
	case r.replicas == 1:
		return 0
	case r.loadPod:
		return 2
	}
	return 1
}

// sum adds up the busy and idle CPU of the pods of the given components.
func (r cpuRound) sum(components ...string) (busy, idle time.Duration) {
	for _, p := range r.pods {
		for _, c := range components {
			if p.component == c {
				busy, idle = busy+p.busy, idle+p.idle
			}
		}
	}
	return busy, idle
}

// per is ms of CPU per request.
func (r cpuRound) per(d time.Duration) float64 {
	return float64(d) / float64(time.Millisecond) / float64(r.n)
}

// row is the round's line of the table: raw and idle-corrected.
func (r cpuRound) row() string {
	sb, si := r.sum(contract.ServiceGateway, contract.ServiceContent)
	gb, gi := r.sum(contract.ServiceGateway)
	pb, pi := r.sum("postgres")
	return fmt.Sprintf("| %s | %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.0f |", r.label(), r.what, r.n,
		r.per(sb), r.per(gb), r.per(pb), r.per(sb-si), r.per(gb-gi), r.per(pb-pi), float64(r.n)/r.elapsed.Seconds())
}

// perPod is the round's per-pod decomposition: what each pod served and
// its CPU per request of the round, raw and less its idle rate.
func (r cpuRound) perPod() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %s, %d requests in %.1fs; per pod: served, ms CPU per request of the round (raw / idle-corrected):",
		r.label(), r.what, r.n, r.elapsed.Seconds())
	for _, p := range r.pods {
		fmt.Fprintf(&b, "\n    %-9s %-40s %5.0f  %.3f / %.3f", p.component, p.name, p.served, r.per(p.busy), r.per(p.busy-p.idle))
	}
	return b.String()
}

// cpuRatios compares each 3 + 3 round of what with the 1 + 1 round before
// it, and all 3 + 3 rounds of a kind with all 1 + 1 rounds (the CPU summed,
// so a burst of the machine's other load weighs as little as it lasted):
// the goal is a ratio within 1.10.
func cpuRatios(rounds []cpuRound, what string) string {
	type sums struct{ busy, idle, gbusy, gidle time.Duration }
	var all [3]sums // by kind
	var one sums
	ratio := func(a, b sums) string {
		return fmt.Sprintf("%.2f × raw, %.2f × idle-corrected (gateway %.2f ×)", float64(b.busy)/float64(a.busy),
			float64(b.busy-b.idle)/float64(a.busy-a.idle), float64(b.gbusy-b.gidle)/float64(a.gbusy-a.gidle))
	}
	var parts []string
	for _, r := range rounds {
		if r.what != what {
			continue
		}
		var s sums
		s.busy, s.idle = r.sum(contract.ServiceGateway, contract.ServiceContent)
		s.gbusy, s.gidle = r.sum(contract.ServiceGateway)
		k := r.kind()
		all[k] = sums{all[k].busy + s.busy, all[k].idle + s.idle, all[k].gbusy + s.gbusy, all[k].gidle + s.gidle}
		if k == 0 {
			one = s
			continue
		}
		if one.busy > 0 {
			parts = append(parts, r.label()+": "+ratio(one, s))
		}
	}
	// every round sends the same number of requests, and there are as
	// many rounds of each kind
	return fmt.Sprintf("%s, 3 + 3 ÷ 1 + 1 (goal ≤ 1.10): %s; all rounds through the Service: %s; all rounds with the load per pod: %s",
		what, strings.Join(parts, "; "), ratio(all[0], all[1]), ratio(all[0], all[2]))
}
