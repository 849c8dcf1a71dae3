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
type Probe struct {
	dsn, schema string
	st          Settings
	want        int64

	mu   sync.Mutex
	conn *pgx.Conn
}

// NewProbe returns a probe of schema at migration version want or later.
func NewProbe(dsn, schema string, want int64, st Settings) *Probe {
	return &Probe{dsn: dsn, schema: schema, want: want, st: st.withDefaults()}
}

// Check connects if needed and runs CheckMigrated; a failure drops the
// connection so the next check starts afresh.
func (p *Probe) Check(ctx context.Context) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.conn == nil || p.conn.IsClosed() {
		cfg, err := poolConfig(p.dsn, p.schema, p.st)
		if err != nil {
			return err
		}
		cfg.ConnConfig.RuntimeParams["application_name"] = "siteplane-" + p.schema + "-probe"
		conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
		if err != nil {
			return errUnreachable
		}
		p.conn = conn
	}
	if err := CheckMigrated(ctx, p.conn, p.want); err != nil {
		p.conn.Close(context.Background())
		p.conn = nil
		return err
	}
	return nil
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
