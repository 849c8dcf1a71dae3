// Package logging builds the JSON slog logger every service uses and carries
// the request id through contexts.
package logging

import (
	"context"
	"io"
	"log/slog"
	"strings"
)

// New returns a JSON logger at level ("debug", "info", "warn", "error";
// anything else means info) with the service name on every line.
func New(w io.Writer, service, level string) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: parseLevel(level)})).With("service", service)
}

// NewBatched is New writing through a Buffered writer on w: info and debug
// lines (the access log) are written in batches, at most FlushInterval
// late; a warning or an error writes everything pending at once. Close the
// Buffered writer before exiting so that nothing pending is lost.
func NewBatched(w io.Writer, service, level string) (*slog.Logger, *Buffered) {
	b := NewBuffered(w, FlushInterval)
	h := slog.NewJSONHandler(b, &slog.HandlerOptions{Level: parseLevel(level)})
	return slog.New(flushAbove{Handler: h, level: slog.LevelWarn, b: b}).With("service", service), b
}

func parseLevel(level string) slog.Level {
	var l slog.Level
	switch strings.ToLower(level) {
	case "debug":
		l = slog.LevelDebug
	case "warn":
		l = slog.LevelWarn
	case "error":
		l = slog.LevelError
	default:
		l = slog.LevelInfo
	}
	return l
}

type requestIDKey struct{}

// WithRequestID stores the request id in ctx.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID returns the request id stored in ctx, or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// FromContext returns base with the request id attached, for logging inside a handler.
func FromContext(ctx context.Context, base *slog.Logger) *slog.Logger {
	if id := RequestID(ctx); id != "" {
		return base.With("request_id", id)
	}
	return base
}
