package stack

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The read pool's effect on the primary (docs/operator.md, read pool):
// the same anonymous list reads against a stack without and with the read
// pool, on one primary/replica pair, counting the CPU time of each
// server's processes and the statements of content's pools. It measures;
// it asserts nothing about speed. Run it with
//
//	SITEPLANE_MEASURE_READPOOL=1000 go test -count=1 -v -run TestMeasureReadPool ./test/stack/
func TestMeasureReadPool(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("SITEPLANE_MEASURE_READPOOL"))
	if n <= 0 {
		t.Skip("a measurement: set SITEPLANE_MEASURE_READPOOL to the number of reads")
	}
	pair := startReplicaPair(t)
	t.Logf("| pool | reads | primary CPU ms | ms/read | replica CPU ms | content statements primary / read | reads/s |")
	for _, readServer := range []string{"", pair.replica} {
		s, err := StartWith(pair.primary, readServer, st.bins)
		if err != nil {
			t.Fatal(err)
		}
		as := []string{s.AdminUser, s.AdminPass}
		for i := range 20 {
			sendJSONTo(t, s.Gateway, "POST", "/cms-json/cms/v2/posts", map[string]any{"title": fmt.Sprintf("m%d", i), "status": "publish", "content": "<p>body</p>"}, as)
		}
		time.Sleep(time.Second) // the replica replays the seed
		p0, r0 := pair.cpu(t, pair.name), pair.cpu(t, pair.name+"-replica")
		q0, rq0 := queriesOf(t, s, "primary"), queriesOf(t, s, "read")
		began := time.Now()
		for i := range n {
			// a query of its own: every read reaches content (no edge-cache hit)
			if r := sendTo(t, s.Gateway, "GET", fmt.Sprintf("/cms-json/cms/v2/posts?per_page=10&m=%d", i), nil, nil); r.Status != http.StatusOK {
				t.Fatalf("read: %d", r.Status)
			}
		}
		took := time.Since(began)
		p1, r1 := pair.cpu(t, pair.name), pair.cpu(t, pair.name+"-replica")
		q1, rq1 := queriesOf(t, s, "primary"), queriesOf(t, s, "read")
		label := "primary only"
		if readServer != "" {
			label = "read pool"
		}
		t.Logf("| %s | %d | %d | %.3f | %d | %.0f / %.0f | %.0f |", label, n, p1-p0, float64(p1-p0)/float64(n), r1-r0,
			q1-q0, rq1-rq0, float64(n)/took.Seconds())
		s.Stop()
	}
}

// cpu is the CPU time (ms, user and system) of instance name's server
// processes: its postmaster's children (backends, WAL sender or receiver,
// startup process) and itself.
func (p *replicaPair) cpu(t *testing.T, name string) int64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(), ".cache", "postgres", name, "data", "postmaster.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pm := strings.SplitN(string(b), "\n", 2)[0]
	var ticks int64
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		raw, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// fields after the command's closing parenthesis: state ppid ... utime(12) stime(13)
		rest := string(raw[strings.LastIndexByte(string(raw), ')')+2:])
		fields := strings.Fields(rest)
		if len(fields) < 13 || (fields[1] != pm && filepath.Base(filepath.Dir(f)) != pm) {
			continue
		}
		u, _ := strconv.ParseInt(fields[11], 10, 64)
		s, _ := strconv.ParseInt(fields[12], 10, 64)
		ticks += u + s
	}
	return ticks * 10 // USER_HZ is 100 on Linux
}
