package logging

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"time"
)

// Batching of log lines. Every request writes an access-log line; written
// one by one, that is one write system call per request in each service a
// request crosses (a third of the gateway's and of content's writes under a
// read load, ~3 % of their CPU), and in a container one wake-up of the
// runtime's log collector reading the pipe. Lines are collected instead and
// written together, as nginx's `access_log ... buffer= flush=` and zap's
// BufferedWriteSyncer do.
const (
	// FlushInterval bounds how long an info line waits before it is written.
	FlushInterval = 100 * time.Millisecond
	// flushBytes is written at once, without waiting for the interval.
	flushBytes = 32 << 10
)

// Buffered collects whole lines (slog's handlers write each record with one
// Write) and writes them to the underlying writer when flushBytes are
// pending, every FlushInterval, on Flush and on Close. Safe for concurrent
// use.
type Buffered struct {
	mu  sync.Mutex
	w   io.Writer
	buf []byte
	err error // the last write's error, returned by the next Write
	// closed: every Write is written at once (after Close).
	closed bool
	stop   chan struct{}
	done   chan struct{}
	once   sync.Once
}

// NewBuffered returns a Buffered writer on w that flushes every interval
// (FlushInterval when interval <= 0) until Close.
func NewBuffered(w io.Writer, interval time.Duration) *Buffered {
	if interval <= 0 {
		interval = FlushInterval
	}
	b := &Buffered{w: w, buf: make([]byte, 0, flushBytes), stop: make(chan struct{}), done: make(chan struct{})}
	go b.loop(interval)
	return b
}

func (b *Buffered) loop(interval time.Duration) {
	defer close(b.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
			_ = b.Flush()
		}
	}
}

// Write appends p; it writes everything pending once flushBytes are.
func (b *Buffered) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if err := b.err; err != nil {
		b.err = nil
		return 0, err
	}
	b.buf = append(b.buf, p...)
	if b.closed || len(b.buf) >= flushBytes {
		b.flushLocked()
	}
	return len(p), nil
}

// Flush writes everything pending.
func (b *Buffered) Flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
	err := b.err
	b.err = nil
	return err
}

func (b *Buffered) flushLocked() {
	if len(b.buf) == 0 {
		return
	}
	if _, err := b.w.Write(b.buf); err != nil {
		b.err = err
	}
	if cap(b.buf) > 4*flushBytes { // a burst of huge lines: do not keep its buffer
		b.buf = make([]byte, 0, flushBytes)
		return
	}
	b.buf = b.buf[:0]
}

// Close stops the periodic flush and writes everything pending. Lines
// written after Close are written at once.
func (b *Buffered) Close() error {
	b.once.Do(func() {
		close(b.stop)
		<-b.done
	})
	b.mu.Lock()
	defer b.mu.Unlock()
	b.flushLocked()
	b.closed = true
	err := b.err
	b.err = nil
	return err
}

// flushAbove is a slog handler that flushes its Buffered writer after every
// record at or above level, so that warnings and errors are written when
// they happen, in order after the info lines before them.
type flushAbove struct {
	slog.Handler
	level slog.Level
	b     *Buffered
}

func (h flushAbove) Handle(ctx context.Context, r slog.Record) error {
	err := h.Handler.Handle(ctx, r)
	if r.Level >= h.level {
		if ferr := h.b.Flush(); err == nil {
			err = ferr
		}
	}
	return err
}

func (h flushAbove) WithAttrs(as []slog.Attr) slog.Handler {
	return flushAbove{Handler: h.Handler.WithAttrs(as), level: h.level, b: h.b}
}

func (h flushAbove) WithGroup(name string) slog.Handler {
	return flushAbove{Handler: h.Handler.WithGroup(name), level: h.level, b: h.b}
}
