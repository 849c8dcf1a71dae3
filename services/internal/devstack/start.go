package devstack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"siteplane.dev/services/pkg/contract"
)

// startServices starts each built service in contract order and waits for
// it to be ready before the next.
func (st *Stack) startServices(ctx context.Context, l *layout, sum *Summary) error {
	tuning := processTuningEnv()
	for _, kv := range tuning {
		st.say("passing %s to the services", kv)
	}
	for _, name := range contract.Services {
		bin, ok := l.bins[name]
		if !ok {
			continue
		}
		if name == contract.ServiceMedia {
			if err := st.prepareMedia(sum); err != nil {
				return err
			}
		}
		if err := st.startService(ctx, l, name, bin, tuning); err != nil {
			return err
		}
	}
	return nil
}

// portAttempts bounds the retries of a service whose port another process
// took between choosePorts and its start (seeding runs in between, and a
// loaded machine with parallel test suites hands out ports quickly).
const portAttempts = 3

// startService starts one service and waits for it to be ready. A backend
// that fails because its port was taken meanwhile gets another port (the
// gateway's route file follows, as the gateway starts last); the gateway's
// own port is the site's address, baked into the seeded data, so it is not
// moved.
func (st *Stack) startService(ctx context.Context, l *layout, name, bin string, tuning []string) error {
	logFile := filepath.Join(l.logDir, name+".log")
	for attempt := 1; ; attempt++ {
		var offset int64
		if fi, err := os.Stat(logFile); err == nil {
			offset = fi.Size()
		}
		metricsPort, err := FreePort()
		if err != nil {
			return err
		}
		env := append(st.serviceEnv(l, name, metricsPort), tuning...) // tuning last, so that it wins
		st.say("starting %s on %s", name, l.urls[name])
		p, err := StartProc(name, bin, nil, env, logFile)
		if err != nil {
			return err
		}
		err = WaitReady(ctx, l.urls[name]+contract.ReadyzPath, p, st.opts.ReadyTimeout)
		if err == nil {
			st.procs = append(st.procs, p)
			return nil
		}
		_ = p.Stop(5 * time.Second)
		tail := logTail(logFile, offset, 12)
		if attempt == portAttempts || name == contract.ServiceGateway || !strings.Contains(tail, "address already in use") {
			return fmt.Errorf("%w (log: %s)\n%s", err, logFile, indent(tail))
		}
		st.say("%s: a port was taken by another process meanwhile; trying other ports", name)
		if err := l.movePort(name); err != nil {
			return err
		}
		if err := st.writeRoutes(l); err != nil {
			return err
		}
	}
}

func (st *Stack) serviceEnv(l *layout, name string, metricsPort int) []string {
	env := contract.ServiceEnv(name, contract.ServiceConfig{
		Listen: fmt.Sprintf("127.0.0.1:%d", l.ports[name]), Metrics: fmt.Sprintf("127.0.0.1:%d", metricsPort),
		DatabaseURL: l.dsn, InternalKey: l.secrets.InternalKey, SiteFile: l.siteFile, LogLevel: "info",
		RoutesFile: l.routesFile, AdminUser: l.secrets.AdminUser, AdminEmail: l.secrets.AdminEmail,
		AdminPassword: l.secrets.AdminAppPassword, AdminLoginPassword: l.secrets.AdminLoginPassword, MediaDir: filepath.Join(st.runDir, "uploads"),
		GatewayURL: l.internalURL, InternalListen: strings.TrimPrefix(l.internalURL, "http://"),
		GatewaySecret: l.secrets.GatewaySecret, ContentURL: l.urls[contract.ServiceContent],
		ThemesDir: st.themesDir(),
	})
	if name == contract.ServiceMedia {
		env = append(env, mediaStorageEnv(os.LookupEnv)...)
	}
	return env
}

// movePort gives a backend a new free port.
func (l *layout) movePort(name string) error {
	p, err := FreePort()
	if err != nil {
		return err
	}
	l.ports[name], l.urls[name] = p, fmt.Sprintf("http://127.0.0.1:%d", p)
	return nil
}

// logTail returns the last n lines a process wrote to path after offset:
// the reason a service would not start belongs in the message that says so.
func logTail(path string, offset int64, n int) string {
	data, err := os.ReadFile(path)
	if err != nil || offset > int64(len(data)) {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(data[offset:]), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func indent(s string) string {
	if s == "" {
		return "  (the log is empty)"
	}
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}

// prepareMedia says where uploads go and writes the sample image the
// summary's upload example sends.
func (st *Stack) prepareMedia(sum *Summary) error {
	if os.Getenv(contract.EnvMediaStorage) == contract.MediaStorageS3 {
		st.say("media files go to the S3 bucket %s at %s", os.Getenv(contract.EnvMediaS3Bucket), os.Getenv(contract.EnvMediaS3Endpoint))
	} else {
		sum.UploadsDir = filepath.Join(st.runDir, "uploads")
	}
	sample := filepath.Join(st.runDir, "sample.jpg")
	if err := writeSampleImage(sample); err != nil {
		return err
	}
	sum.SampleImage = sample
	return nil
}

// themesDir is the directory holding Options.Theme ("" without one).
func (st *Stack) themesDir() string {
	if st.opts.Theme == "" {
		return ""
	}
	abs, err := filepath.Abs(st.opts.Theme)
	if err != nil {
		return filepath.Dir(filepath.Clean(st.opts.Theme))
	}
	return filepath.Dir(abs)
}
