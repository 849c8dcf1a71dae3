package logging

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// countingWriter records what reaches the log's destination and in how
// many writes (each a system call on a file or pipe).
type countingWriter struct {
	mu     sync.Mutex
	buf    bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes++
	return c.buf.Write(p)
}

func (c *countingWriter) state() (string, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String(), c.writes
}

func TestBatchedLoggerWritesInfoLinesTogether(t *testing.T) {
	var out countingWriter
	logger, b := NewBatched(&out, "gateway", "info")
	defer b.Close()
	for i := range 100 {
		logger.Info("request", "n", i)
	}
	if s, n := out.state(); n != 0 || s != "" {
		t.Fatalf("info lines were written at once (%d writes), want them held for the batch", n)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		s, n := out.state()
		if strings.Count(s, "\n") == 100 {
			if n != 1 {
				t.Errorf("100 info lines took %d writes, want 1", n)
			}
			lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
			for i, l := range lines {
				var rec struct {
					Msg     string `json:"msg"`
					Service string `json:"service"`
					N       int    `json:"n"`
				}
				if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.N != i || rec.Service != "gateway" {
					t.Fatalf("line %d = %q (%v), want record %d of gateway in order", i, l, err, i)
				}
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 5 s %d lines written, want all 100 within the flush interval", strings.Count(s, "\n"))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestBatchedLoggerWritesWarningsAtOnce(t *testing.T) {
	var out countingWriter
	logger, b := NewBatched(&out, "content", "info")
	defer b.Close()
	logger.Info("first")
	logger.With("request_id", "r1").Warn("identity header rejected")
	s, n := out.state()
	if n != 1 || !strings.Contains(s, `"msg":"first"`) || !strings.Contains(s, `"msg":"identity header rejected"`) ||
		strings.Index(s, `"first"`) > strings.Index(s, "identity header rejected") {
		t.Fatalf("after a warning: %d writes of %q, want the pending info line and the warning, in order, in one write", n, s)
	}
	logger.Error("exit")
	if s, _ := out.state(); !strings.Contains(s, `"msg":"exit"`) {
		t.Fatalf("an error was held: %q", s)
	}
	logger.Debug("hidden")
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if s, _ := out.state(); strings.Contains(s, "hidden") {
		t.Fatalf("a debug line passed the info level: %q", s)
	}
}

func TestBufferedFlushesLargeBatchesAndOnClose(t *testing.T) {
	var out countingWriter
	b := NewBuffered(&out, time.Hour) // only size and Close flush here
	line := strings.Repeat("x", 1023) + "\n"
	for range 31 {
		fmt.Fprint(b, line)
	}
	if _, n := out.state(); n != 0 {
		t.Fatalf("31 KiB pending: %d writes, want 0", n)
	}
	fmt.Fprint(b, line) // 32 KiB
	if s, n := out.state(); n != 1 || len(s) != 32<<10 {
		t.Fatalf("32 KiB pending: %d writes of %d bytes, want one of 32768", n, len(s))
	}
	fmt.Fprint(b, "tail\n")
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if s, n := out.state(); n != 2 || !strings.HasSuffix(s, "x\ntail\n") {
		t.Fatalf("after Close: %d writes, ends %q; want the pending line written", n, s[len(s)-10:])
	}
	fmt.Fprint(b, "late\n") // a goroutine logging after shutdown
	if s, n := out.state(); n != 3 || !strings.HasSuffix(s, "late\n") {
		t.Fatalf("a line after Close was held (%d writes)", n)
	}
}

func TestBufferedKeepsConcurrentLinesWhole(t *testing.T) {
	var out countingWriter
	logger, b := NewBatched(&out, "gateway", "info")
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				logger.Info("request", "g", g, "i", i, "path", strings.Repeat("p", i%300))
			}
		}()
	}
	wg.Wait()
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	s, n := out.state()
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines) != 4000 {
		t.Fatalf("%d lines, want 4000", len(lines))
	}
	for _, l := range lines {
		if !json.Valid([]byte(l)) {
			t.Fatalf("a line is not whole JSON: %q", l)
		}
	}
	if n >= 4000/10 {
		t.Errorf("4000 lines took %d writes, want them batched", n)
	}
}
