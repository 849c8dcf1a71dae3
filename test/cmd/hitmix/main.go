// Command hitmix measures the gateway edge cache's hit ratio for an
// anonymous read mix spread over N gateway replicas: it draws -requests
// URLs from a Zipf distribution over the -urls list (the same sequence for
// a given -seed, so runs over 1 and over 3 gateways ask the same things),
// sends request i to gateway i mod N (-route rr, a Service balancing
// requests) or to the gateway a hash of the URL picks (-route hash, an
// ingress routing by URL), and counts the X-Cache answers.
//
//	hitmix -urls urls.txt -gateways http://127.0.0.1:8080,http://127.0.0.1:8081 -requests 20000
//
// Each line of -urls is a path (and query) appended to a gateway's base
// URL. It prints one Markdown row: the requests, the distinct URLs drawn,
// the hits, misses, the hit ratio, and the best ratio any cache of
// unbounded size could reach for that sequence and routing (every distinct
// URL missing once per gateway that is asked for it) and the busiest
// gateway's share of the requests. hack/replica-bench.sh
// runs it; docs/operator.md shows the figures. With -dry it sends nothing
// and prints the best possible ratio alone: the measured ratios stay within
// a point of it, so -dry extrapolates to 10 or 100 gateways. Load is bounded by
// -requests; every answer but a 200 is counted as failed (exit 1).
package main

import (
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	urlsFile := flag.String("urls", "", "file of URL paths, one a line")
	gateways := flag.String("gateways", "", "comma-separated gateway base URLs")
	requests := flag.Int("requests", 20000, "requests to send (at most 200,000)")
	zipfS := flag.Float64("zipf", 1.1, "Zipf exponent s (> 1) of the URLs' popularity")
	seed := flag.Int64("seed", 1, "seed of the URL sequence")
	conc := flag.Int("concurrency", 4, "concurrent requests")
	route := flag.String("route", "rr", "rr: round robin over the gateways; hash: a hash of the URL picks the gateway")
	label := flag.String("label", "", "the row's first cell")
	dry := flag.Bool("dry", false, "send nothing: print only the best possible ratio (any -gateways, e.g. a,b,c)")
	flag.Parse()
	raw, err := os.ReadFile(*urlsFile)
	bases := strings.Split(*gateways, ",")
	if err != nil || *gateways == "" || *requests < 1 || *requests > 200000 || *zipfS <= 1 || *conc < 1 || *conc > 64 ||
		(*route != "rr" && *route != "hash") {
		fmt.Fprintln(os.Stderr, "hitmix: need -urls FILE, -gateways, -requests 1..200000, -zipf > 1, -concurrency 1..64, -route rr|hash;", err)
		os.Exit(2)
	}
	urls := strings.Fields(string(raw))
	seq := draw(len(urls), *requests, *zipfS, *seed)
	pick := func(i, _ int) int { return i % len(bases) }
	if *route == "hash" {
		pick = func(_, u int) int {
			h := fnv.New32a()
			_, _ = h.Write([]byte(urls[u]))
			return int(h.Sum32() % uint32(len(bases)))
		}
	}
	start := time.Now()
	c := &counts{}
	if !*dry {
		c = run(seq, *conc, func(i, u int) string { return bases[pick(i, u)] + urls[u] })
	}
	distinct, pairs, load := map[int]bool{}, map[[2]int]bool{}, make([]int, len(bases))
	for i, u := range seq {
		g := pick(i, u)
		distinct[u], pairs[[2]int{g, u}] = true, true
		load[g]++
	}
	n := float64(len(seq))
	fmt.Printf("| %s | %d | %d | %d | %d | %d | %.1f %% | %.1f %% | %.0f %% | %d | %.1f s |\n", *label, len(bases), len(seq), len(distinct),
		c.hit.Load(), c.miss.Load(), 100*float64(c.hit.Load())/n, 100*(1-float64(len(pairs))/n), 100*float64(slices.Max(load))/n,
		c.failed.Load(), time.Since(start).Seconds())
	if c.failed.Load() > 0 {
		os.Exit(1)
	}
}

// draw returns n indexes into a list of size urls, Zipf-distributed; rank
// r is mapped to a shuffled index so that popularity does not follow the
// list's order (REST answers and pages alike among the popular ones).
func draw(urls, n int, s float64, seed int64) []int {
	r := rand.New(rand.NewSource(seed))
	perm := r.Perm(urls)
	z := rand.NewZipf(r, s, 1, uint64(urls-1))
	out := make([]int, n)
	for i := range out {
		out[i] = perm[z.Uint64()]
	}
	return out
}

type counts struct{ hit, miss, failed atomic.Int64 }

// run sends the requests in order over conc workers and counts X-Cache.
func run(seq []int, conc int, target func(i, u int) string) *counts {
	var c counts
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: conc},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range conc {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(seq); i = int(next.Add(1) - 1) {
				res, err := client.Get(target(i, seq[i]))
				if err != nil {
					c.failed.Add(1)
					continue
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				switch {
				case res.StatusCode != http.StatusOK:
					c.failed.Add(1)
				case res.Header.Get("X-Cache") == "hit":
					c.hit.Add(1)
				default:
					c.miss.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return &c
}
