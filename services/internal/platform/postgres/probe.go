package postgres

import (
	"context"
	"sync"

	"github.com/jackc/pgx/v5"
)

// Probe answers the readiness check on a connection of its own, so that a
// saturated pool (every connection busy with slow requests) does not make
// the probe wait, time out and take a healthy replica out of service, and
// a dead server is noticed within the probe's own deadline.
//
// An unreachable server fails the check only until it has passed once. The
// database is the same for every replica of a service: a check that failed
// on it would take all of them out of their Service together (during a
// failover, for the 10 to 40 seconds a new primary takes), and clients would
// meet refused connections where each request gets an answer, 503 with
// Retry-After, from a replica left in service (issue 33). A schema that is
// dirty or behind fails the check always.
type Probe struct {
	dsn, schema string
	st          Settings
	want        int64

	mu     sync.Mutex
	conn   *pgx.Conn
	passed bool // the check has passed once
}

// NewProbe returns a probe of schema at migration version want or later.
func NewProbe(dsn, schema string, want int64, st Settings) *Probe {
	return &Probe{dsn: dsn, schema: schema, want: want, st: st.withDefaults()}
}

// Check connects if needed and runs CheckMigrated; a failure drops the
// connection so the next check starts afresh. Once the check has passed,
// an unreachable server no longer fails it (the type's comment says why).
func (p *Probe) Check(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	lost, err := p.check(ctx)
	switch {
	case err == nil:
		p.passed = true
	case p.passed && lost:
		return nil
	}
	return err
}

// check is Check without the rule; lost says that the server could not be
// reached or the connection broke (not that it answered with an error).
func (p *Probe) check(ctx context.Context) (lost bool, err error) {
	if p.conn == nil || p.conn.IsClosed() {
		cfg, err := poolConfig(p.dsn, p.schema, p.st)
		if err != nil {
			return false, err
		}
		cfg.ConnConfig.RuntimeParams["application_name"] = "siteplane-" + p.schema + "-probe"
		conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
		if err != nil {
			return true, errUnreachable
		}
		p.conn = conn
	}
	if err := CheckMigrated(ctx, p.conn, p.want); err != nil {
		// pgx closes a connection whose query broke off (the server went,
		// the deadline passed); an answered query leaves it open.
		lost = p.conn.IsClosed()
		p.conn.Close(context.Background())
		p.conn = nil
		return lost, err
	}
	return false, nil
}

// Close closes the probe's connection.
func (p *Probe) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn != nil {
		p.conn.Close(context.Background())
		p.conn = nil
	}
}
