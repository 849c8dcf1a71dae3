// Package failover is the client load of the failover tests (test/e2e's
// CloudNativePG step, test/stack's primary switch): writers that create
// posts with an Idempotency-Key, each create retried with the same key
// until it is acknowledged, and anonymous readers, through a site's
// gateway; then the checks: no acknowledged write lost, no key with two
// posts, no answer but 2xx or 503 with Retry-After, and how long writes
// failed after the primary went.
package failover

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// TitlePrefix starts the title of every post the writers create; a post's
// title is its key.
const TitlePrefix = "fo_"

// timeout is the client's own deadline: a request without an answer by
// then is given up (and retried), which Counts says apart from a request
// the system left without an answer.
const timeout = 15 * time.Second

var client = &http.Client{}

// Attempt is one request of the load: when it ran and what came back
// (status 0: no answer, Err says why; GaveUp: the client's own deadline
// passed first).
type Attempt struct {
	Write        bool
	Method, Path string
	Start, End   time.Time
	Status       int
	RetryAfter   bool
	Code         string // the answer's "code" member, if any
	Err          string
	GaveUp       bool
}

// Load runs the writers and readers.
type Load struct {
	gw, auth string
	stop     chan struct{}
	wg       sync.WaitGroup

	mu       sync.Mutex
	attempts []Attempt
	acked    map[string]float64 // key → id of the acknowledged post
	retried  int                // creates sent more than once
}

// Start sends the load to the gateway at gw (http://host:port); auth is
// the Authorization header of the writers.
func Start(gw, auth string, writers, readers int) *Load {
	l := &Load{gw: gw, auth: auth, stop: make(chan struct{}), acked: map[string]float64{}}
	for w := range writers {
		l.wg.Add(1)
		go l.writer(w)
	}
	for range readers {
		l.wg.Add(1)
		go l.reader()
	}
	return l
}

// Stop ends the load and waits for the writers to have every create in
// flight acknowledged.
func (l *Load) Stop() {
	close(l.stop)
	l.wg.Wait()
}

// Acked is the acknowledged posts by key; Retried how many creates were
// sent more than once.
func (l *Load) Acked() (acked map[string]float64, retried int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	acked = make(map[string]float64, len(l.acked))
	for k, v := range l.acked {
		acked[k] = v
	}
	return acked, l.retried
}

func (l *Load) stopped() bool {
	select {
	case <-l.stop:
		return true
	default:
		return false
	}
}

// answer is what one request got: the status (0: none, err says why) and
// whether the client's own deadline passed first.
type answer struct {
	status int
	header http.Header
	body   []byte
	err    error
	gaveUp bool
}

func send(method, url string, body []byte, header http.Header) answer {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return answer{header: http.Header{}, err: err}
	}
	req.Header = header
	res, err := client.Do(req)
	if err != nil {
		return answer{header: http.Header{}, err: err, gaveUp: ctx.Err() != nil}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, 8<<20))
	if err != nil {
		// The status came but the body broke off: no answer either.
		return answer{header: http.Header{}, err: err, gaveUp: ctx.Err() != nil}
	}
	return answer{status: res.StatusCode, header: res.Header, body: b}
}

func (l *Load) do(write bool, method, path string, body []byte, header http.Header) (int, []byte) {
	a := Attempt{Write: write, Method: method, Path: path, Start: time.Now()}
	got := send(method, l.gw+path, body, header)
	a.End, a.Status, a.RetryAfter, a.GaveUp = time.Now(), got.status, got.header.Get("Retry-After") != "", got.gaveUp
	if got.err != nil {
		a.Err = got.err.Error()
	}
	var wpErr struct {
		Code string `json:"code"`
	}
	if json.Unmarshal(got.body, &wpErr) == nil {
		a.Code = wpErr.Code
	}
	l.mu.Lock()
	l.attempts = append(l.attempts, a)
	l.mu.Unlock()
	return got.status, got.body
}

// writer creates posts until stopped; a create in flight is retried with
// its key until acknowledged, even after stop (an unacknowledged write is
// the client's to finish).
func (l *Load) writer(w int) {
	defer l.wg.Done()
	for n := 0; !l.stopped(); n++ {
		key := fmt.Sprintf("%sw%d_n%d", TitlePrefix, w, n)
		body := fmt.Appendf(nil, `{"title":%q,"content":"failover","status":"publish"}`, key)
		for try := 0; ; try++ {
			if try == 1 {
				l.mu.Lock()
				l.retried++
				l.mu.Unlock()
			}
			status, b := l.do(true, "POST", "/cms-json/cms/v2/posts", body, http.Header{
				"Content-Type": {"application/json"}, "Idempotency-Key": {key}, "Authorization": {l.auth}})
			if status == http.StatusCreated || status == http.StatusOK {
				var post struct {
					ID float64 `json:"id"`
				}
				_ = json.Unmarshal(b, &post)
				l.mu.Lock()
				l.acked[key] = post.ID
				l.mu.Unlock()
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
}

func (l *Load) reader() {
	defer l.wg.Done()
	for !l.stopped() {
		// Each query new (m=...): the read reaches content, not the edge cache.
		path := fmt.Sprintf("/cms-json/cms/v2/posts?per_page=5&m=%d", time.Now().UnixNano())
		if status, _ := l.do(false, "GET", path, nil, http.Header{}); status != http.StatusOK {
			time.Sleep(200 * time.Millisecond)
		}
	}
}

// Counts summarises the attempts around the moment the primary went.
type Counts struct {
	Writes, Reads map[int]int // attempts by status (0: no answer)
	// Classes are the attempts that were not 2xx, by kind, in the order
	// each kind first happened.
	Classes []Class
	// Bad is how many attempts broke the rules: an answer neither 2xx nor
	// 503 with Retry-After, or no answer at all; GaveUp how many the client
	// itself gave up at its deadline (not bad, said apart).
	Bad, GaveUp int
	// FirstFail is when the first write failed after the primary went, -1
	// when none did; Recovered when the first write acknowledged after the
	// last failed one ended (0: no write acknowledged since).
	FirstFail, Recovered time.Duration
}

// Class is one kind of attempt that was not 2xx (writes answered 404,
// reads with no answer, ...): how many and the first of them.
type Class struct {
	Name    string
	Bad     bool
	N       int
	Example string
}

func (c Class) String() string {
	return fmt.Sprintf("%d %s (the first: %s)", c.N, c.Name, c.Example)
}

// classify names the kind of a's outcome and whether it breaks the rules
// ("" for a 2xx).
func classify(a Attempt) (name string, bad bool) {
	kind := "reads"
	if a.Write {
		kind = "writes"
	}
	switch {
	case a.GaveUp:
		return kind + " given up by the client at its deadline of " + timeout.String(), false
	case a.Status == 0:
		return kind + " with no answer", true
	case a.Status >= 200 && a.Status < 300:
		return "", false
	case a.Status == http.StatusServiceUnavailable && a.RetryAfter:
		return kind + " answered 503 with Retry-After", false
	case a.Status == http.StatusServiceUnavailable:
		return kind + " answered 503 without Retry-After", true
	}
	return fmt.Sprintf("%s answered %d", kind, a.Status), true
}

// example is a for the test log: when, the request, what came back.
func example(a Attempt) string {
	got := fmt.Sprintf("%d %q", a.Status, a.Code)
	if a.Status == 0 {
		got = a.Err
	}
	return fmt.Sprintf("%s %s %s → %s", a.Start.UTC().Format("15:04:05.000"), a.Method, a.Path, got)
}

// Counts summarises the attempts so far against went, when the primary
// was stopped or deleted.
func (l *Load) Counts(went time.Time) Counts {
	l.mu.Lock()
	defer l.mu.Unlock()
	return summarise(l.attempts, went)
}

func summarise(attempts []Attempt, went time.Time) Counts {
	c := Counts{Writes: map[int]int{}, Reads: map[int]int{}, FirstFail: -1}
	index := map[string]int{}
	var lastFail time.Time
	for _, a := range attempts {
		m := c.Reads
		if a.Write {
			m = c.Writes
		}
		m[a.Status]++
		if name, bad := classify(a); name != "" {
			i, seen := index[name]
			if !seen {
				i, index[name] = len(c.Classes), len(c.Classes)
				c.Classes = append(c.Classes, Class{Name: name, Bad: bad, Example: example(a)})
			}
			c.Classes[i].N++
			switch {
			case bad:
				c.Bad++
			case a.GaveUp:
				c.GaveUp++
			}
		}
		if a.Write && !ok(a.Status) && a.End.After(went) {
			if c.FirstFail < 0 {
				c.FirstFail = a.End.Sub(went)
			}
			if a.End.After(lastFail) {
				lastFail = a.End
			}
		}
	}
	for _, a := range attempts {
		if a.Write && ok(a.Status) && a.Start.After(lastFail) && a.Start.After(went) &&
			(c.Recovered == 0 || a.End.Sub(went) < c.Recovered) {
			c.Recovered = a.End.Sub(went)
		}
	}
	return c
}

func ok(status int) bool { return status == http.StatusOK || status == http.StatusCreated }

// Check lists the site's posts (with auth: from the primary) and returns
// the keys whose acknowledged post is missing, and the keys with more
// than one post.
func Check(gw, auth string, acked map[string]float64) (lost, dups []string, err error) {
	byTitle := map[string][]float64{}
	for page := 1; ; page++ {
		url := fmt.Sprintf("%s/cms-json/cms/v2/posts?per_page=100&page=%d&context=edit&_fields=id,title&m=%d", gw, page, time.Now().UnixNano())
		got := send("GET", url, nil, http.Header{"Authorization": {auth}})
		h, b := got.header, got.body
		if got.status != http.StatusOK {
			return nil, nil, fmt.Errorf("list page %d: %d %v %.300s", page, got.status, got.err, b)
		}
		var posts []struct {
			ID    float64 `json:"id"`
			Title struct {
				Raw string `json:"raw"`
			} `json:"title"`
		}
		if err := json.Unmarshal(b, &posts); err != nil {
			return nil, nil, fmt.Errorf("list page %d: %w", page, err)
		}
		for _, p := range posts {
			if strings.HasPrefix(p.Title.Raw, TitlePrefix) {
				byTitle[p.Title.Raw] = append(byTitle[p.Title.Raw], p.ID)
			}
		}
		if pages, _ := strconv.Atoi(h.Get("X-WP-TotalPages")); page >= pages {
			break
		}
	}
	for key, id := range acked {
		found := false
		for _, got := range byTitle[key] {
			found = found || got == id
		}
		if !found {
			lost = append(lost, key)
		}
	}
	for key, ids := range byTitle {
		if len(ids) > 1 {
			dups = append(dups, key)
		}
	}
	sort.Strings(lost)
	sort.Strings(dups)
	return lost, dups, nil
}

// Result is what a failover run measured and found.
type Result struct {
	Counts
	Acked, Retried int
	Lost, Dups     []string
}

// Run sends the load (4 writers, 2 readers) to gw for warm, then calls
// fail, which makes the primary go; it waits until writes have been
// acknowledged again for settle and done (nil: always) says the system
// has settled, at most timeout, then stops the load and checks the posts.
func Run(gw, auth string, warm, settle, timeout time.Duration, fail func() error, done func() (bool, string)) (Result, error) {
	l := Start(gw, auth, 4, 2)
	time.Sleep(warm)
	went := time.Now()
	if err := fail(); err != nil {
		l.Stop()
		return Result{}, err
	}
	deadline := went.Add(timeout)
	for {
		c := l.Counts(went)
		settled, why := true, ""
		if done != nil {
			settled, why = done()
		}
		if settled && c.Recovered > 0 && time.Since(went.Add(c.Recovered)) > settle {
			break
		}
		if time.Now().After(deadline) {
			l.Stop()
			return Result{Counts: c}, fmt.Errorf("writes not acknowledged again for %s within %s (writes %v, %s)", settle, timeout, c.Writes, why)
		}
		time.Sleep(500 * time.Millisecond)
	}
	l.Stop()
	r := Result{Counts: l.Counts(went)}
	acked, retried := l.Acked()
	r.Acked, r.Retried = len(acked), retried
	var err error
	r.Lost, r.Dups, err = Check(gw, auth, acked)
	return r, err
}

// String is the figures of a run, for the test log, with every kind of
// attempt that was not 2xx and an example of each.
func (r Result) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "writes by status %v, reads by status %v, creates retried %d, acknowledged %d, lost %d, keys with two posts %d; "+
		"first failed write %v after the primary went, writes acknowledged again %v after it",
		r.Writes, r.Reads, r.Retried, r.Acked, len(r.Lost), len(r.Dups), r.FirstFail.Round(time.Millisecond), r.Recovered.Round(time.Millisecond))
	for _, c := range r.Classes {
		fmt.Fprintf(&b, "\n  %s", c)
	}
	return b.String()
}

// Problems lists what breaks the rules: lost or duplicated writes, answers
// other than 2xx or 503 with Retry-After, requests with no answer (those
// the client gave up at its own deadline are in String, not here); nil for
// none.
func (r Result) Problems() []string {
	var p []string
	for _, c := range r.Classes {
		if c.Bad {
			p = append(p, c.String())
		}
	}
	if len(r.Lost) > 0 {
		p = append(p, fmt.Sprintf("%d acknowledged writes lost: %v", len(r.Lost), r.Lost[:min(5, len(r.Lost))]))
	}
	if len(r.Dups) > 0 {
		p = append(p, fmt.Sprintf("%d keys with more than one post: %v", len(r.Dups), r.Dups[:min(5, len(r.Dups))]))
	}
	return p
}
