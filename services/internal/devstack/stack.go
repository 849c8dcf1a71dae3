package devstack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/pkg/contract"
)

// Options configure a local stack.
type Options struct {
	// Root is the repository root (hack/postgres.sh, .cache/ and bin/ live there).
	Root string
	// Port is the gateway's preferred port; a free one is used when it is taken.
	Port int
	// Out receives the progress lines and the summary.
	Out io.Writer
	// ReadyTimeout bounds each service's start-up.
	ReadyTimeout time.Duration
	// Name names the stack: its PostgreSQL instance (hack/postgres.sh) and
	// its directory .cache/<Name>. "run" (the default) is `make run`'s, whose
	// data people keep; `make bench` uses its own so that it never touches it.
	Name string
	// WPAlias turns on the site's wp/v2 alias (`make run WP_ALIAS=1`).
	WPAlias bool
	// Theme is a block theme directory the site uses (`make run
	// THEME=dir`): its name is the stylesheet, its parent the themes
	// directory. "" keeps the built-in theme.
	Theme string
}

// DefaultName is the name of `make run`'s stack.
const DefaultName = "run"

// Stack is a running local stack.
type Stack struct {
	opts    Options
	runDir  string
	procs   []*Proc
	pgName  string
	Summary Summary
}

// Summary is what `make run` prints and writes to .cache/run/env.
type Summary struct {
	GatewayURL       string
	RESTRoot         string
	AdminUser        string
	AdminAppPassword string
	// AdminLoginPassword is for the sign-in page (/cms-login.php).
	AdminLoginPassword string
	MarketplaceKey     string
	ServiceURLs        map[string]string // service name → base URL
	DatabaseURL        string
	InternalKey        string
	GatewaySecret      string
	LogDir             string
	// UploadsDir is where the media service keeps uploaded files, and
	// SampleImage a JPEG written for the printed upload example ("" when
	// the media service is not built).
	UploadsDir  string
	SampleImage string
}

const database = "siteplane"

// Start brings the stack up; on error everything started so far is stopped.
// The steps: PostgreSQL and the database, a port for each built service,
// the site and route files, the demo data, then each service in turn.
func Start(ctx context.Context, opts Options) (st *Stack, err error) {
	if opts.ReadyTimeout == 0 {
		opts.ReadyTimeout = 60 * time.Second
	}
	if opts.Name == "" {
		opts.Name = DefaultName
	}
	st = &Stack{opts: opts, runDir: filepath.Join(opts.Root, ".cache", opts.Name), pgName: opts.Name}
	defer func() {
		if err != nil {
			st.Stop()
		}
	}()
	l := &layout{logDir: filepath.Join(st.runDir, "logs")}
	if err := os.MkdirAll(l.logDir, 0o755); err != nil {
		return st, err
	}
	_ = os.Remove(filepath.Join(st.runDir, "env"))
	if l.secrets, err = LoadOrCreateSecrets(filepath.Join(st.runDir, "secrets.json")); err != nil {
		return st, err
	}
	if l.dsn, err = st.startPostgres(ctx); err != nil {
		return st, err
	}
	if l.bins = st.builtServices(); len(l.bins) == 0 {
		return st, errors.New("no service binary in bin/: run `make build` first")
	}
	if err := l.choosePorts(opts.Port); err != nil {
		return st, err
	}
	if err := st.writeSiteAndRoutes(l); err != nil {
		return st, err
	}
	sum := Summary{AdminUser: l.secrets.AdminUser, AdminAppPassword: l.secrets.AdminAppPassword, AdminLoginPassword: l.secrets.AdminLoginPassword,
		ServiceURLs: l.urls, DatabaseURL: l.dsn, InternalKey: l.secrets.InternalKey, GatewaySecret: l.secrets.GatewaySecret, LogDir: l.logDir}
	if sum.MarketplaceKey, err = st.seed(ctx, l); err != nil {
		return st, err
	}
	if err := st.startServices(ctx, l, &sum); err != nil {
		return st, err
	}
	if u := l.urls[contract.ServiceGateway]; u != "" {
		sum.GatewayURL, sum.RESTRoot = u, u+"/cms-json"
	}
	st.Summary = sum
	if err := os.WriteFile(filepath.Join(st.runDir, "env"), []byte(sum.EnvFile()), 0o600); err != nil {
		return st, err
	}
	return st, nil
}

// layout is what Start's steps decide and the later steps read: where
// things are, which binaries there are and where each service listens.
type layout struct {
	logDir      string
	secrets     Secrets
	dsn         string            // the stack's database
	bins        map[string]string // service name → binary
	ports       map[string]int    // service name → listening port
	urls        map[string]string // service name → base URL
	internalURL string            // the gateway's internal listener ("" without a gateway)
	siteURL     string
	siteFile    string
	routesFile  string
}

// startPostgres starts the stack's PostgreSQL (restarting one that an
// earlier release started with durability off) and returns the DSN of the
// stack's database, created when missing.
func (st *Stack) startPostgres(ctx context.Context) (string, error) {
	st.say("starting PostgreSQL (hack/postgres.sh start %s)", st.pgName)
	adminDSN, err := st.postgres(ctx, "start")
	if err != nil {
		return "", err
	}
	if durable, err := Durable(ctx, adminDSN); err != nil {
		return "", err
	} else if !durable {
		// Started by an earlier release with durability off: restart it
		// with the settings hack/postgres.sh gives it now.
		st.say("restarting PostgreSQL with fsync and synchronous_commit on")
		if _, err := st.postgres(ctx, "stop"); err != nil {
			return "", err
		}
		if adminDSN, err = st.postgres(ctx, "start"); err != nil {
			return "", err
		}
	}
	return ensureDatabase(ctx, adminDSN, database)
}

// choosePorts gives each built service a free port (the gateway the
// preferred one when it is free) and the gateway its internal listener.
func (l *layout) choosePorts(preferred int) error {
	l.ports, l.urls = map[string]int{}, map[string]string{}
	for _, name := range contract.Services {
		if _, ok := l.bins[name]; !ok {
			continue
		}
		p := preferred
		if name != contract.ServiceGateway || p == 0 || !PortFree(p) {
			var err error
			if p, err = FreePort(); err != nil {
				return err
			}
		}
		l.ports[name] = p
		l.urls[name] = fmt.Sprintf("http://127.0.0.1:%d", p)
	}
	// The gateway's internal listener: content looks authors up there.
	if _, ok := l.bins[contract.ServiceGateway]; ok {
		p, err := FreePort()
		if err != nil {
			return err
		}
		l.internalURL = fmt.Sprintf("http://127.0.0.1:%d", p)
	}
	l.siteURL = l.urls[contract.ServiceGateway]
	if l.siteURL == "" {
		l.siteURL = fmt.Sprintf("http://127.0.0.1:%d", preferred)
	}
	return nil
}

// writeSiteAndRoutes writes the site file (the demo site's settings) and the
// gateway's route file (every other service behind it).
func (st *Stack) writeSiteAndRoutes(l *layout) error {
	site := contract.DefaultSite(l.siteURL)
	site.Title, site.Description = "Siteplane Demo", "A local Siteplane site with demo content"
	site.WPAlias = st.opts.WPAlias
	if st.opts.Theme != "" {
		site.Theme = filepath.Base(filepath.Clean(st.opts.Theme))
	}
	l.siteFile = filepath.Join(st.runDir, contract.SiteFileName)
	if err := writeJSON(l.siteFile, site); err != nil {
		return err
	}
	return st.writeRoutes(l)
}

// writeRoutes writes the gateway's route file: every other service behind it.
func (st *Stack) writeRoutes(l *layout) error {
	backends := map[string]string{}
	for name, u := range l.urls {
		if name != contract.ServiceGateway {
			backends[name] = u
		}
	}
	data, err := contract.DefaultRoutes(backends).Marshal()
	if err != nil {
		return err
	}
	l.routesFile = filepath.Join(st.runDir, contract.RoutesFileName)
	return os.WriteFile(l.routesFile, data, 0o644)
}

// seed loads the demo data (each seed subcommand migrates its own schema)
// and returns the marketplace API key the marketplace's seed prints.
func (st *Stack) seed(ctx context.Context, l *layout) (marketplaceKey string, err error) {
	common := []string{
		contract.EnvDatabaseURL + "=" + l.dsn,
		contract.EnvInternalKey + "=" + l.secrets.InternalKey,
		contract.EnvSiteFile + "=" + l.siteFile,
		contract.EnvLogLevel + "=info",
	}
	seedLog, err := os.OpenFile(filepath.Join(l.logDir, "seed.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return "", err
	}
	defer seedLog.Close()
	for _, name := range []string{contract.ServiceMarketplace, contract.ServiceContent} {
		bin, ok := l.bins[name]
		if !ok {
			continue
		}
		st.say("seeding %s demo data", name)
		out, err := RunOutput(ctx, bin, []string{"seed-demo"}, common, seedLog)
		if err != nil {
			return "", fmt.Errorf("%s seed-demo failed (see %s): %w", name, seedLog.Name(), err)
		}
		if name == contract.ServiceMarketplace {
			marketplaceKey = strings.TrimSpace(out)
		}
	}
	return marketplaceKey, nil
}

// Wait blocks until ctx is done or a child exits on its own (an error).
func (st *Stack) Wait(ctx context.Context) error {
	exited := make(chan error, len(st.procs))
	for _, p := range st.procs {
		go func() {
			select {
			case err := <-p.Done():
				exited <- fmt.Errorf("%s exited unexpectedly (%v); see %s", p.Name, err, filepath.Join(st.runDir, "logs", p.Name+".log"))
				p.done <- err
			case <-ctx.Done():
			}
		}()
	}
	select {
	case <-ctx.Done():
		return nil
	case err := <-exited:
		return err
	}
}

// Stop stops the services in reverse start order, then PostgreSQL.
func (st *Stack) Stop() {
	for i := len(st.procs) - 1; i >= 0; i-- {
		p := st.procs[i]
		if err := p.Stop(25 * time.Second); err != nil {
			st.say("%s stopped: %v", p.Name, err)
		}
	}
	st.procs = nil
	_ = os.Remove(filepath.Join(st.runDir, "env"))
	if _, err := st.postgres(context.Background(), "stop"); err != nil {
		st.say("stopping PostgreSQL: %v", err)
	}
}

func (st *Stack) builtServices() map[string]string {
	found := map[string]string{}
	for _, name := range contract.Services {
		bin := filepath.Join(st.opts.Root, "bin", name)
		if fi, err := os.Stat(bin); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			found[name] = bin
		}
	}
	return found
}

func (st *Stack) postgres(ctx context.Context, verb string) (string, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(st.opts.Root, "hack", "postgres.sh"), verb, st.pgName)
	cmd.Stderr = st.opts.Out
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("hack/postgres.sh %s %s: %w", verb, st.pgName, err)
	}
	return strings.TrimSpace(string(out)), nil
}

func (st *Stack) say(format string, args ...any) {
	fmt.Fprintf(st.opts.Out, "siteplane-run: "+format+"\n", args...)
}

// ensureDatabase creates db on the server when missing and returns its DSN.
func ensureDatabase(ctx context.Context, adminDSN, db string) (string, error) {
	conn, err := pgx.Connect(ctx, adminDSN)
	if err != nil {
		return "", fmt.Errorf("connect to the local PostgreSQL: %w", err)
	}
	defer conn.Close(context.Background())
	var exists bool
	if err := conn.QueryRow(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", db).Scan(&exists); err != nil {
		return "", err
	}
	if !exists {
		if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{db}.Sanitize()); err != nil {
			return "", err
		}
	}
	return withDatabase(adminDSN, db), nil
}

func withDatabase(dsn, db string) string {
	// hack/postgres.sh prints postgres://user@host:port/postgres?params
	head, tail, _ := strings.Cut(dsn, "?")
	i := strings.LastIndex(head, "/")
	out := head[:i+1] + db
	if tail != "" {
		out += "?" + tail
	}
	return out
}

// EnvFile renders the shell-sourceable env file.
func (s Summary) EnvFile() string {
	var b strings.Builder
	line := func(k, v string) {
		if v != "" {
			fmt.Fprintf(&b, "export %s=%s\n", k, shellQuote(v))
		}
	}
	b.WriteString("# Written by `make run` (siteplane-run); removed when the stack stops.\n")
	line("GATEWAY_URL", s.GatewayURL)
	line("REST_ROOT", s.RESTRoot)
	line("ADMIN_USER", s.AdminUser)
	line("ADMIN_APP_PASSWORD", s.AdminAppPassword)
	line("ADMIN_LOGIN_PASSWORD", s.AdminLoginPassword)
	line("MARKETPLACE_API_KEY", s.MarketplaceKey)
	names := make([]string, 0, len(s.ServiceURLs))
	for n := range s.ServiceURLs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		line(strings.ToUpper(n)+"_URL", s.ServiceURLs[n])
	}
	line(contract.EnvDatabaseURL, s.DatabaseURL)
	line(contract.EnvInternalKey, s.InternalKey)
	line(contract.EnvGatewaySecret, s.GatewaySecret)
	return b.String()
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func writeJSON(path string, v any) error {
	data, err := jsonIndent(v)
	if err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// Durable reports whether the server at dsn keeps committed data through a
// crash: fsync, synchronous_commit and full_page_writes all on. make run's
// PostgreSQL must (people put real content in it); only the test instance
// trades durability for speed.
func Durable(ctx context.Context, dsn string) (bool, error) {
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return false, fmt.Errorf("connect to the local PostgreSQL: %w", err)
	}
	defer conn.Close(context.Background())
	var fsync, syncCommit, fullPages string
	if err := conn.QueryRow(ctx, "SELECT current_setting('fsync'), current_setting('synchronous_commit'), current_setting('full_page_writes')").
		Scan(&fsync, &syncCommit, &fullPages); err != nil {
		return false, fmt.Errorf("read durability settings: %w", err)
	}
	return fsync == "on" && syncCommit == "on" && fullPages == "on", nil
}
