// Package stack runs the real service binaries as processes against a real
// PostgreSQL and talks to them through the gateway, the way clients do.
//
// TestMain builds the binaries once (go build), creates a fresh database on
// the server named by SITEPLANE_TEST_DATABASE_URL, and starts the stack; each
// test uses the shared stack and creates its own data.
package stack

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/pkg/contract"
)

// stack is the running system shared by the tests.
var st *Stack

func TestMain(m *testing.M) {
	dsn := os.Getenv("SITEPLANE_TEST_DATABASE_URL")
	if dsn == "" {
		if os.Getenv("CI") != "" {
			fmt.Fprintln(os.Stderr, "SITEPLANE_TEST_DATABASE_URL is not set")
			os.Exit(1)
		}
		fmt.Fprintln(os.Stderr, "stack tests skipped: SITEPLANE_TEST_DATABASE_URL is not set (run `make test`)")
		os.Exit(0)
	}
	s, err := Start(dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, "stack:", err)
		if s != nil {
			s.DumpLogs(os.Stderr)
			s.Stop()
		}
		os.Exit(1)
	}
	st = s
	code := m.Run()
	if code != 0 {
		s.DumpLogs(os.Stderr)
	}
	s.Stop()
	os.Exit(code)
}

// Stack is a set of running services.
type Stack struct {
	dir       string
	serverDSN string
	dbName    string
	dsn       string
	// readDSN is the database on a replica that content and media read
	// anonymous requests from ("" for none: readpool_test.go), and
	// contentMetrics content's metrics listener in a test's own stack
	// (host:port; "" for none)
	readDSN, contentMetrics string
	key                     string
	bins                    map[string]string
	procs                   map[string]*exec.Cmd
	urls                    map[string]string
	// Gateway is the base URL clients use; RoutesFile the live route file.
	Gateway string
	// GatewayInternal is the gateway's internal listener (/internal/).
	GatewayInternal string
	RoutesFile      string
	SiteURL         string
	AdminUser       string
	AdminPass       string
}

// services to build and start, in start order. Every one must build, or a
// broken service would silently skip its own tests and leave the suite green.
var wanted = []string{contract.ServiceMarketplace, contract.ServiceContent, contract.ServiceMedia, contract.ServiceGateway}

// Start builds and starts every available service.
func Start(serverDSN string) (*Stack, error) {
	return StartWith(serverDSN, "", nil)
}

// StartWith is Start with content and media reading anonymous requests
// from readServerDSN (a streaming replica of serverDSN; "" for none) and,
// when bins is set, the binaries already built for another stack.
func StartWith(serverDSN, readServerDSN string, bins map[string]string) (*Stack, error) {
	dir, err := os.MkdirTemp("", "siteplane-stack-")
	if err != nil {
		return nil, err
	}
	s := &Stack{dir: dir, serverDSN: serverDSN, bins: map[string]string{}, procs: map[string]*exec.Cmd{}, urls: map[string]string{}}
	if bins != nil {
		s.bins = bins
	} else if err := s.build(); err != nil {
		return s, err
	}
	if err := s.createDatabase(); err != nil {
		return s, err
	}
	if readServerDSN != "" {
		if s.readDSN, err = replicaDatabase(readServerDSN, s.dbName); err != nil {
			return s, err
		}
	}
	if bins != nil {
		// a test's own stack: content's statements are counted by pool
		port, err := freePort()
		if err != nil {
			return s, err
		}
		s.contentMetrics = fmt.Sprintf("127.0.0.1:%d", port)
	}
	s.key = randomHex(32)
	s.AdminUser, s.AdminPass = "admin", randomAlnum(24)
	for _, name := range wanted {
		if _, ok := s.bins[name]; !ok || name == contract.ServiceGateway {
			continue
		}
		port, err := freePort()
		if err != nil {
			return s, err
		}
		s.urls[name] = fmt.Sprintf("http://127.0.0.1:%d", port)
	}
	gwPort, err := freePort()
	if err != nil {
		return s, err
	}
	s.Gateway = fmt.Sprintf("http://127.0.0.1:%d", gwPort)
	internalPort, err := freePort()
	if err != nil {
		return s, err
	}
	s.GatewayInternal = fmt.Sprintf("http://127.0.0.1:%d", internalPort)
	s.SiteURL = s.Gateway
	site := contract.DefaultSite(s.SiteURL)
	site.Title, site.Description = "Stack Test", "Siteplane under test"
	// The wp/v2 alias is on (alias_test.go); off by default in the product,
	// and the cms/v2 answers do not change with it.
	site.WPAlias = true
	if err := writeJSON(filepath.Join(dir, "site.json"), site); err != nil {
		return s, err
	}
	s.RoutesFile = filepath.Join(dir, "routes.json")
	if err := s.WriteRoutes(contract.DefaultRoutes(s.urls)); err != nil {
		return s, err
	}
	for _, name := range wanted {
		if _, ok := s.bins[name]; !ok {
			continue
		}
		if err := s.StartService(name); err != nil {
			return s, err
		}
	}
	return s, nil
}

// Has reports whether the service was built and started.
func (s *Stack) Has(name string) bool { _, ok := s.bins[name]; return ok }

// URL is a service's direct base URL.
func (s *Stack) URL(name string) string {
	if name == contract.ServiceGateway {
		return s.Gateway
	}
	return s.urls[name]
}

func (s *Stack) build() error {
	for _, name := range wanted {
		out := filepath.Join(s.dir, "bin", name)
		cmd := exec.Command("go", "build", "-o", out, "siteplane.dev/services/cmd/"+name)
		cmd.Env = os.Environ()
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("build %s: %v\n%s", name, err, b)
		}
		s.bins[name] = out
	}
	return nil
}

func (s *Stack) createDatabase() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, s.serverDSN)
	if err != nil {
		return fmt.Errorf("connect to the test server: %w", err)
	}
	defer conn.Close(ctx)
	s.dbName = "stack_" + randomHex(6)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+s.dbName); err != nil {
		return err
	}
	u, err := url.Parse(s.serverDSN)
	if err != nil {
		return err
	}
	u.Path = "/" + s.dbName
	s.dsn = u.String()
	return nil
}

// env is the environment of a service process.
func (s *Stack) env(name string) []string {
	env := contract.ServiceEnv(name, contract.ServiceConfig{
		Listen: strings.TrimPrefix(s.URL(name), "http://"), Metrics: "off",
		DatabaseURL: s.dsn, InternalKey: s.key, SiteFile: filepath.Join(s.dir, "site.json"),
		LogLevel: "debug", ShutdownTimeout: "2s",
		RoutesFile: s.RoutesFile, AdminUser: s.AdminUser, AdminEmail: "admin@example.com", AdminPassword: s.AdminPass,
		MediaDir: filepath.Join(s.dir, "media"), GatewayURL: s.GatewayInternal, ContentURL: s.URL(contract.ServiceContent),
		InternalListen: strings.TrimPrefix(s.GatewayInternal, "http://"),
	})
	if s.readDSN != "" && (name == contract.ServiceContent || name == contract.ServiceMedia) {
		env = append(env, contract.EnvDatabaseReadURL+"="+s.readDSN)
	}
	if s.contentMetrics != "" && name == contract.ServiceContent {
		env = append(env, contract.EnvMetricsAddr+"="+s.contentMetrics)
	}
	if name == contract.ServiceGateway {
		// The oEmbed proxy tests run their providers on loopback.
		env = append(env, "SITEPLANE_GATEWAY_OEMBED_ALLOW_LOOPBACK_FOR_TESTS=true")
	}
	return append(env, "PATH="+os.Getenv("PATH"), "HOME="+os.Getenv("HOME"))
}

// StartService starts (or restarts) one service and waits until it is ready.
func (s *Stack) StartService(name string) error {
	logf, err := os.OpenFile(filepath.Join(s.dir, name+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(s.bins[name])
	cmd.Env = s.env(name)
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return err
	}
	s.procs[name] = cmd
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait(); logf.Close() }()
	deadline := time.Now().Add(30 * time.Second)
	client := &http.Client{Timeout: time.Second}
	for time.Now().Before(deadline) {
		res, err := client.Get(s.URL(name) + contract.ReadyzPath)
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				go func() { <-exited }()
				return nil
			}
		}
		select {
		case err := <-exited:
			return fmt.Errorf("%s exited during start-up: %v", name, err)
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("%s not ready within 30s", name)
}

// StopService stops one service (SIGTERM) and waits for its port to close.
func (s *Stack) StopService(name string) {
	cmd := s.procs[name]
	if cmd == nil || cmd.Process == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", strings.TrimPrefix(s.URL(name), "http://"), 200*time.Millisecond)
		if err != nil {
			break
		}
		c.Close()
		time.Sleep(50 * time.Millisecond)
	}
	delete(s.procs, name)
}

// WriteRoutes replaces the route file atomically (rename), as a ConfigMap
// update does.
func (s *Stack) WriteRoutes(f contract.RouteFile) error {
	b, err := f.Marshal()
	if err != nil {
		return err
	}
	return writeAtomic(s.RoutesFile, b)
}

// Stop ends every process and drops the database.
func (s *Stack) Stop() {
	for name := range s.procs {
		s.StopService(name)
	}
	if s.dbName != "" {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if conn, err := pgx.Connect(ctx, s.serverDSN); err == nil {
			_, _ = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+s.dbName+" WITH (FORCE)")
			conn.Close(ctx)
		}
	}
	os.RemoveAll(s.dir)
}

// DumpLogs prints the tail of every service log (on failure).
func (s *Stack) DumpLogs(w *os.File) {
	for _, name := range wanted {
		b, err := os.ReadFile(filepath.Join(s.dir, name+".log"))
		if err != nil {
			continue
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) > 40 {
			lines = lines[len(lines)-40:]
		}
		fmt.Fprintf(w, "----- %s log (tail) -----\n%s\n", name, strings.Join(lines, "\n"))
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func randomAlnum(n int) string {
	const a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	_, _ = rand.Read(b)
	for i := range b {
		b[i] = a[int(b[i])%len(a)]
	}
	return string(b)
}
