// Package servicetest starts a service in-process exactly as its main does
// (service.Run: configuration, migrations, identity, server), for tests that
// check a service's wiring end to end.
package servicetest

import (
	"context"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/service"
	"siteplane.dev/services/pkg/contract"
)

// Start runs the service with env on free loopback ports and returns its base
// URL; it is stopped, and its shutdown checked, when t ends. Listen and
// metrics addresses default to free ports; nothing else is defaulted, so a
// test says which configuration it runs with.
func Start(t testing.TB, opts service.Options, env map[string]string, register service.Register) string {
	t.Helper()
	full := map[string]string{contract.EnvListenAddr: "127.0.0.1:0", contract.EnvMetricsAddr: "127.0.0.1:0"}
	for k, v := range env {
		full[k] = v
	}
	lookup := func(k string) (string, bool) { v, ok := full[k]; return v, ok }
	ctx, cancel := context.WithCancel(context.Background())
	addrc, done := make(chan string, 1), make(chan error, 1)
	go func() { done <- service.Run(ctx, opts, lookup, register, func(a string) { addrc <- a }) }()
	select {
	case a := <-addrc:
		t.Cleanup(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("%s shutdown: %v", opts.Name, err)
			}
		})
		return "http://" + a
	case err := <-done:
		cancel()
		t.Fatalf("%s exited at start-up: %v", opts.Name, err)
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatalf("%s did not start within 30s", opts.Name)
	}
	return ""
}

// Run is service.Run with env, for tests that expect start-up to fail.
func Run(opts service.Options, env map[string]string, register service.Register) error {
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return service.Run(ctx, opts, lookup, register, nil)
}
