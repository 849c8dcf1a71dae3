// Command loadgen drives HTTP load against a running Siteplane stack and
// prints a results table. It is what `make bench` runs; it only ever targets
// the URLs it is given (loopback in hack/bench.sh), and every run is bounded
// by -duration.
//
//	loadgen -duration 10s -concurrency 16 -target 'posts=GET http://127.0.0.1:8080/cms-json/cms/v2/posts' ...
//
// A target is NAME=METHOD URL, optionally followed by " BODY" (sent as JSON).
// A URL of "@path" names a file of URLs on one host, one per line: the
// target's requests take them in turn (a page kind measured over many
// pages, so that nothing the server keeps per URL answers every request).
// -header adds a header to every request of every target; -target-header
// 'NAME=Header: value' adds one to the requests of target NAME only (a
// credential for one API need not reach the others).
//
// A BODY of "@path" sends the file's bytes as they are (set its
// Content-Type with -target-header). -target-concurrency 'NAME=N' gives one
// target its own connection count, and -rss 'NAME=PID' samples that
// process's resident memory (/proc/PID/status) while NAME runs and reports
// the peak: the upload scenario of `make bench` measures the media service
// this way. -write-jpeg PATH writes a -jpeg-size photo-like JPEG and exits
// (the upload scenario's file).
//
// Server cost: -cpu 'LABEL=pid:N' (or tree:N for a process and its
// children, or comm:NAME|NAME for every process so named) reads each set's
// CPU time (utime+stime) from /proc before and after every target and
// reports it per request; -mem 'LABEL=pid:N' samples resident memory over
// the whole run and reports each set's peak and the peak of their sum.
// -expect 'NAME=400' makes another status than 2xx the expected answer of
// target NAME. A BODY's "{{seq}}" is replaced by a number unique to each
// request. -json FILE writes the results for -compare A.json,B.json,
// which prints two runs side by side with their ratios (with -growth F, a
// scaling table of the same targets at two content sizes, flagging those
// whose cost grew more than F times). -title names a run.
//
// Each connection is one goroutine with its own small HTTP/1.1 client
// (client.go): the target's request is serialised once, answers are read
// through a 64 KiB buffer looking only at the headers that frame them
// (answer.go), bodies are discarded (Content-Length, chunked or until
// close), and a connection the server closes is replaced. Latency runs from the start of a request (including
// any connect) to the end of its answer's body. HTTP/1.1 only; redirects
// are not followed (a 3xx is an unexpected status unless -expect names it).
//
// The exit status is 0 when every request of every target got a 2xx answer,
// 1 when any request failed or got another status (the table is printed
// first), and 2 for a usage error.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/jpeg"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

type target struct {
	name, method, url, body string
	urls                    []string      // "@file" as the URL: these, in turn (url is the first)
	file                    []byte        // body read from "@path"
	concurrency             int           // 0: the -concurrency flag
	duration                time.Duration // 0: the -duration flag
	rssPID                  int           // sample this process's RSS while running
	expect                  int           // the expected status; 0: any 2xx
}

type result struct {
	target    target
	latencies []time.Duration
	errors    int
	non2xx    int
	elapsed   time.Duration
	peakRSS   int64 // bytes; 0 when not sampled
	conc      int
	cpu       []time.Duration // CPU time of each -cpu set during the target
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
	var targetConc, rssPIDs, targetDur multiFlag
	timeout := flag.Duration("timeout", 10*time.Second, "per-request timeout")
	flag.Var(&targetDur, "target-duration", "NAME=DURATION to load target NAME (repeatable)")
	flag.Var(&targetConc, "target-concurrency", "NAME=N connections for target NAME (repeatable)")
	flag.Var(&rssPIDs, "rss", "NAME=PID: report the peak resident memory of process PID while NAME runs (repeatable)")
	writeJPEG := flag.String("write-jpeg", "", "write a photo-like JPEG to this path and exit")
	jpegSize := flag.String("jpeg-size", "4000x3000", "size of the -write-jpeg image, WxH")
	var cpuSpecs, memSpecs, expects multiFlag
	flag.Var(&cpuSpecs, "cpu", "LABEL=pid:N|tree:N|comm:NAME: report this set's server CPU per request (repeatable)")
	flag.Var(&memSpecs, "mem", "LABEL=pid:N|tree:N|comm:NAME: report this set's peak RSS over the run (repeatable)")
	flag.Var(&expects, "expect", "NAME=STATUS: the expected status of target NAME (default any 2xx)")
	jsonOut := flag.String("json", "", "also write the results as JSON to this file")
	title := flag.String("title", "", "a title printed above the table")
	compare := flag.String("compare", "", "A.json,B.json: print two runs side by side and exit")
	growth := flag.Float64("growth", 0, "with -compare: print a scaling table instead, flagging targets whose cost grows more than this factor from A to B")
	flag.Parse()
	if *compare != "" {
		if err := compareReports(*compare, *markdown, *growth); err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			os.Exit(2)
		}
		return
	}
	if *writeJPEG != "" {
		if err := writePhoto(*writeJPEG, *jpegSize); err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			os.Exit(1)
		}
		return
	}
	if len(targets) == 0 || *duration <= 0 || *duration > 10*time.Minute || *concurrency < 1 || *concurrency > 512 {
		fmt.Fprintln(os.Stderr, "loadgen: need at least one -target, a -duration up to 10m and -concurrency 1..512")
		os.Exit(2)
	}
	parsed, own, err := parseTargets(targets, targetHeaders)
	if err == nil {
		err = applyOptions(parsed, targetConc, rssPIDs)
	}
	if err == nil {
		err = applyDurations(parsed, targetDur)
	}
	if err == nil {
		err = applyExpects(parsed, expects)
	}
	var cpuSets, memSets []procSet
	for _, spec := range cpuSpecs {
		ps, perr := parseProcSet(spec)
		cpuSets, err = append(cpuSets, ps), errors.Join(err, perr)
	}
	for _, spec := range memSpecs {
		ps, perr := parseProcSet(spec)
		memSets, err = append(memSets, ps), errors.Join(err, perr)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(2)
	}
	mem := watchMemory(memSets, 100*time.Millisecond)
	results := loadEach(parsed, loadDefaults{headers: headers, own: own, duration: *duration, concurrency: *concurrency, timeout: *timeout}, cpuSets)
	peaks, peakTotal := mem.Stop()
	rep := summarise(*title, results, cpuSets, memSets, peaks, peakTotal)
	table := fmt.Sprintf("\n%d connections per target unless noted, %s each unless noted\n", *concurrency, *duration) + renderReport(rep)
	if *jsonOut != "" {
		if err := writeJSON(*jsonOut, rep); err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			os.Exit(1)
		}
	}
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

// loadDefaults is what every target gets unless its own flags say otherwise.
type loadDefaults struct {
	headers     []string            // -header, on every request
	own         map[string][]string // -target-header, by target name
	duration    time.Duration
	concurrency int
	timeout     time.Duration
}

// loadEach loads the targets one after another, measuring the CPU of
// cpuSets around each.
func loadEach(targets []target, def loadDefaults, cpuSets []procSet) []result {
	var results []result
	for _, t := range targets {
		conc := def.concurrency
		if t.concurrency > 0 {
			conc = t.concurrency
		}
		d := def.duration
		if t.duration > 0 {
			d = t.duration
		}
		fmt.Fprintf(os.Stderr, "loadgen: %s for %s with %d connections\n", t.name, d, conc)
		before := takeCPU(cpuSets)
		r := runWith(t, append(slices.Clip(def.headers), def.own[t.name]...), d, conc, def.timeout)
		if cpuSets != nil {
			r.cpu = cpuSince(before, takeCPU(cpuSets))
		}
		results = append(results, r)
	}
	return results
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
	if path, ok := strings.CutPrefix(t.url, "@"); ok {
		urls, err := readURLs(path)
		if err != nil {
			return target{}, fmt.Errorf("target %q: %w", name, err)
		}
		t.url, t.urls = urls[0], urls
	}
	if len(parts) == 3 {
		t.body = parts[2]
		if path, ok := strings.CutPrefix(t.body, "@"); ok {
			data, err := os.ReadFile(path)
			if err != nil {
				return target{}, fmt.Errorf("target %q: %w", name, err)
			}
			t.file = data
		}
	}
	return t, nil
}

func run(t target, headers []string, d time.Duration, conc int) result {
	return runWith(t, headers, d, conc, 10*time.Second)
}

func runWith(t target, headers []string, d time.Duration, conc int, timeout time.Duration) result {
	res := result{target: t, conc: conc}
	wire, err := newWireRequests(t, headers)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		res.errors = 1
		return res
	}
	var mu sync.Mutex
	var stopRSS func()
	if t.rssPID > 0 {
		done := make(chan struct{})
		peak := make(chan int64, 1)
		go func() { peak <- samplePeakRSS(t.rssPID, done) }()
		stopRSS = func() { close(done); res.peakRSS = <-peak }
	}
	var seq atomic.Int64
	stop := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lc := newLoadConn(wire, timeout, &seq)
			defer lc.Close()
			var lat []time.Duration
			var errs, bad int
			for time.Now().Before(stop) {
				t0 := time.Now()
				status, err := lc.Do()
				if err != nil {
					errs++
					continue
				}
				lat = append(lat, time.Since(t0))
				if !expected(t.expect, status) {
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
	if stopRSS != nil {
		stopRSS()
	}
	return res
}

// withSeq replaces every {{seq}} in body with a number unique to this
// request of the run (so that, say, created posts get distinct titles).
func withSeq(body string, seq *atomic.Int64) string {
	if !strings.Contains(body, "{{seq}}") {
		return body
	}
	return strings.ReplaceAll(body, "{{seq}}", strconv.FormatInt(seq.Add(1), 10))
}

// expected reports whether status is the answer wanted: want, or any 2xx
// when want is 0.
func expected(want, status int) bool {
	if want != 0 {
		return status == want
	}
	return status >= 200 && status < 300
}

// applyExpects sets per-target expected statuses.
func applyExpects(targets []target, specs []string) error {
	for _, spec := range specs {
		name, v, ok := strings.Cut(spec, "=")
		code, err := strconv.Atoi(v)
		found := false
		for i := range targets {
			if targets[i].name == name && ok && err == nil && code >= 100 && code <= 599 {
				targets[i].expect, found = code, true
			}
		}
		if !found {
			return fmt.Errorf("%q: want NAME=STATUS for a given target", spec)
		}
	}
	return nil
}

// compareReports prints (and with -markdown writes) two -json runs side by
// side, or their scaling table when growth is set.
func compareReports(spec, markdown string, growth float64) error {
	a, b, ok := strings.Cut(spec, ",")
	if !ok {
		return fmt.Errorf("-compare %q: want A.json,B.json", spec)
	}
	ra, err := readReport(a)
	if err != nil {
		return err
	}
	rb, err := readReport(b)
	if err != nil {
		return err
	}
	out := renderComparison(ra, rb)
	if growth > 0 {
		out = renderScaling(ra, rb, growth)
	}
	fmt.Print(out)
	if markdown != "" {
		return os.WriteFile(markdown, []byte(out), 0o644)
	}
	return nil
}

// applyDurations sets per-target load durations (at most 10 minutes).
func applyDurations(targets []target, specs []string) error {
	for _, spec := range specs {
		name, v, ok := strings.Cut(spec, "=")
		d, err := time.ParseDuration(v)
		found := false
		for i := range targets {
			if targets[i].name == name && ok && err == nil && d > 0 && d <= 10*time.Minute {
				targets[i].duration, found = d, true
			}
		}
		if !found {
			return fmt.Errorf("%q: want NAME=DURATION (up to 10m) for a given target", spec)
		}
	}
	return nil
}

// applyOptions sets per-target connection counts and RSS sampling.
func applyOptions(targets []target, conc, rss []string) error {
	index := map[string]*target{}
	for i := range targets {
		index[targets[i].name] = &targets[i]
	}
	for _, spec := range append(slices.Clone(conc), rss...) {
		name, v, ok := strings.Cut(spec, "=")
		n, err := strconv.Atoi(v)
		t := index[name]
		if !ok || err != nil || n < 1 || t == nil {
			return fmt.Errorf("%q: want NAME=N for a given target", spec)
		}
		if slices.Contains(conc, spec) {
			if n > 512 {
				return fmt.Errorf("%q: at most 512 connections", spec)
			}
			t.concurrency = n
		} else {
			t.rssPID = n
		}
	}
	return nil
}

// writePhoto writes a JPEG of size "WxH" with smooth gradients and fine
// texture, so that it decodes and compresses like a photograph rather than
// a flat test card.
func writePhoto(path, size string) error {
	var w, h int
	if _, err := fmt.Sscanf(size, "%dx%d", &w, &h); err != nil || w < 1 || h < 1 || w*h > 100_000_000 {
		return fmt.Errorf("-jpeg-size %q: want WxH, at most 100 megapixels", size)
	}
	img := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	seed := uint32(2463534242)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			seed ^= seed << 13
			seed ^= seed >> 17
			seed ^= seed << 5
			img.Y[img.YOffset(x, y)] = uint8((x*200/w + y*55/h) + int(seed%24))
		}
	}
	for y := 0; y < h/2; y++ {
		for x := 0; x < w/2; x++ {
			i := img.COffset(x*2, y*2)
			img.Cb[i] = uint8(96 + x*64/(w/2))
			img.Cr[i] = uint8(160 - y*64/(h/2))
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func pct(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1) * p)
	return sorted[i]
}

func render(results []result, conc int, d time.Duration) string {
	return fmt.Sprintf("\n%d connections per target unless noted, %s each unless noted\n", conc, d) +
		renderReport(summarise("", results, nil, nil, nil, 0))
}
