package routing

import (
	"bytes"
	"context"
	"crypto/sha256"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"siteplane.dev/services/pkg/contract"
)

// Source holds the current table and reloads it from a file. Readers call
// Current on every request; a reload swaps the pointer atomically.
type Source struct {
	path    string
	logger  *slog.Logger
	current atomic.Pointer[Table]

	mu        sync.Mutex
	lastSum   [32]byte
	listeners []func(*Table)
}

// NewStatic returns a source that never reloads (tests, no route file).
func NewStatic(t *Table) *Source {
	s := &Source{logger: slog.Default()}
	s.current.Store(t)
	return s
}

// Load reads path and returns a source serving it. The first read must
// succeed: a gateway without a valid table has nothing to serve.
func Load(path string, logger *slog.Logger) (*Source, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := contract.ParseRouteFile(data)
	if err != nil {
		return nil, err
	}
	t, err := Compile(*f)
	if err != nil {
		return nil, err
	}
	s := &Source{path: path, logger: logger, lastSum: sha256.Sum256(data)}
	s.current.Store(t)
	return s, nil
}

// Current returns the table in force.
func (s *Source) Current() *Table { return s.current.Load() }

// OnChange registers f to run after every successful swap.
func (s *Source) OnChange(f func(*Table)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.listeners = append(s.listeners, f)
}

// Watch polls the file every interval until ctx ends. Polling the content
// (not inotify) is what survives Kubernetes ConfigMap updates, which swap a
// symlink of a directory rather than writing the file.
func (s *Source) Watch(ctx context.Context, interval time.Duration) {
	if s.path == "" {
		return
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			s.Reload()
		}
	}
}

// Reload reads the file once and swaps the table when the content changed
// and is valid. An invalid file is logged (once per distinct content) and
// the last good table stays in force. It reports whether a swap happened.
func (s *Source) Reload() bool {
	data, err := os.ReadFile(s.path)
	if err != nil {
		s.logger.Warn("route file unreadable; keeping the last good table", "path", s.path, "error", err.Error())
		return false
	}
	sum := sha256.Sum256(data)
	s.mu.Lock()
	defer s.mu.Unlock()
	if bytes.Equal(sum[:], s.lastSum[:]) {
		return false
	}
	s.lastSum = sum
	f, err := contract.ParseRouteFile(data)
	var t *Table
	if err == nil {
		t, err = Compile(*f)
	}
	if err != nil {
		s.logger.Error("route file rejected; keeping the last good table", "path", s.path, "error", err.Error())
		return false
	}
	s.current.Store(t)
	s.logger.Info("route file reloaded", "path", s.path, "services", len(f.Services), "routes", len(f.Routes))
	for _, l := range s.listeners {
		l(t)
	}
	return true
}
