// Command loadgen drives HTTP load against a running Siteplane stack and
// prints a results table. It is what `make bench` runs; it only ever targets
// the URLs it is given (loopback in hack/bench.sh), and every run is bounded
// by -duration.
//
//	loadgen -duration 10s -concurrency 16 -target 'posts=GET http://127.0.0.1:8080/cms-json/cms/v2/posts' ...
//
// A target is NAME=METHOD URL, optionally followed by " BODY" (sent as JSON).
// -header adds a header to every request of every target; -target-header
// 'NAME=Header: value' adds one to the requests of target NAME only (a
// credential for one API need not reach the others).
//
// The exit status is 0 when every request of every target got a 2xx answer,
// 1 when any request failed or got another status (the table is printed
// first), and 2 for a usage error.
package main

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

type target struct {
	name, method, url, body string
}

type result struct {
	target    target
	latencies []time.Duration
	errors    int
	non2xx    int
	elapsed   time.Duration
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ", ") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func main() {
	var targets, headers, targetHeaders multiFlag
	duration := flag.Duration("duration", 10*time.Second, "how long to load each target")
	concurrency := flag.Int("concurrency", 16, "concurrent connections per target")
	markdown := flag.String("markdown", "", "also write the table as Markdown to this file")
	flag.Var(&targets, "target", "NAME=METHOD URL [BODY] (repeatable)")
	flag.Var(&headers, "header", "Name: value added to every request (repeatable)")
	flag.Var(&targetHeaders, "target-header", "NAME=Name: value added to target NAME's requests (repeatable)")
	flag.Parse()
	if len(targets) == 0 || *duration <= 0 || *duration > 10*time.Minute || *concurrency < 1 || *concurrency > 512 {
		fmt.Fprintln(os.Stderr, "loadgen: need at least one -target, a -duration up to 10m and -concurrency 1..512")
		os.Exit(2)
	}
	parsed, own, err := parseTargets(targets, targetHeaders)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(2)
	}
	var results []result
	for _, t := range parsed {
		fmt.Fprintf(os.Stderr, "loadgen: %s for %s with %d connections\n", t.name, *duration, *concurrency)
		results = append(results, run(t, append(slices.Clip(headers), own[t.name]...), *duration, *concurrency))
	}
	table := render(results, *concurrency, *duration)
	fmt.Print(table)
	if *markdown != "" {
		if err := os.WriteFile(*markdown, []byte(table), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			os.Exit(1)
		}
	}
	if failed(results) {
		os.Exit(1)
	}
}

// failed reports whether any request failed or answered other than 2xx.
func failed(results []result) bool {
	for _, r := range results {
		if r.errors > 0 || r.non2xx > 0 {
			return true
		}
	}
	return false
}

// parseTargets parses the target specs and sorts each NAME=Header: value
// to its target's headers (by name); a header for an unknown target is an
// error, as is a repeated target name.
func parseTargets(specs, targetHeaders []string) ([]target, map[string][]string, error) {
	var out []target
	own := map[string][]string{}
	for _, spec := range specs {
		t, err := parseTarget(spec)
		if err != nil {
			return nil, nil, err
		}
		if _, dup := own[t.name]; dup {
			return nil, nil, fmt.Errorf("target %q given twice", t.name)
		}
		own[t.name] = nil
		out = append(out, t)
	}
	for _, h := range targetHeaders {
		name, header, ok := strings.Cut(h, "=")
		_, known := own[name]
		if !ok || !known || !strings.Contains(header, ":") {
			return nil, nil, fmt.Errorf("target header %q: want NAME=Header: value for a given target", h)
		}
		own[name] = append(own[name], header)
	}
	return out, own, nil
}

func parseTarget(spec string) (target, error) {
	name, rest, ok := strings.Cut(spec, "=")
	parts := strings.SplitN(strings.TrimSpace(rest), " ", 3)
	if !ok || name == "" || len(parts) < 2 {
		return target{}, fmt.Errorf("target %q: want NAME=METHOD URL [BODY]", spec)
	}
	t := target{name: name, method: strings.ToUpper(parts[0]), url: parts[1]}
	if len(parts) == 3 {
		t.body = parts[2]
	}
	return t, nil
}

func run(t target, headers []string, d time.Duration, conc int) result {
	tr := &http.Transport{MaxIdleConnsPerHost: conc, MaxConnsPerHost: conc, DisableCompression: true}
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	defer tr.CloseIdleConnections()
	var mu sync.Mutex
	res := result{target: t}
	stop := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lat []time.Duration
			var errs, bad int
			for time.Now().Before(stop) {
				var body io.Reader
				if t.body != "" {
					body = strings.NewReader(t.body)
				}
				req, err := http.NewRequest(t.method, t.url, body)
				if err != nil {
					errs++
					break
				}
				if t.body != "" {
					req.Header.Set("Content-Type", "application/json")
				}
				for _, h := range headers {
					k, v, _ := strings.Cut(h, ":")
					req.Header.Set(strings.TrimSpace(k), strings.TrimSpace(v))
				}
				t0 := time.Now()
				r, err := client.Do(req)
				if err != nil {
					errs++
					continue
				}
				_, _ = io.Copy(io.Discard, r.Body)
				r.Body.Close()
				lat = append(lat, time.Since(t0))
				if r.StatusCode < 200 || r.StatusCode >= 300 {
					bad++
				}
			}
			mu.Lock()
			res.latencies = append(res.latencies, lat...)
			res.errors += errs
			res.non2xx += bad
			mu.Unlock()
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(start)
	return res
}

func pct(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1) * p)
	return sorted[i]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d.Microseconds())/1000) }

func render(results []result, conc int, d time.Duration) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n%d connections per target, %s each\n\n", conc, d)
	b.WriteString("| target | requests | req/s | p50 ms | p90 ms | p99 ms | max ms | non-2xx | errors |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range results {
		sort.Slice(r.latencies, func(i, j int) bool { return r.latencies[i] < r.latencies[j] })
		n := len(r.latencies)
		rps := float64(n) / r.elapsed.Seconds()
		fmt.Fprintf(&b, "| %s | %d | %.0f | %s | %s | %s | %s | %d | %d |\n", r.target.name, n, rps,
			ms(pct(r.latencies, .50)), ms(pct(r.latencies, .90)), ms(pct(r.latencies, .99)), ms(pct(r.latencies, 1)), r.non2xx, r.errors)
	}
	return b.String()
}
