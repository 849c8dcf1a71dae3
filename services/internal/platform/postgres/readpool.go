package postgres

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// A read pool is a second pool on a read-only PostgreSQL (a streaming
// replica) that anonymous reads use, so that the primary serves the writes
// and the readers who must see them. A replica replays the primary's WAL a
// little late, so what is derived from its answers and kept (the gateway's
// edge cache, the website's snapshot) is kept only when the replica had
// replayed the newest write heard of: positions in the WAL (LSN) compare
// the two. The newest write's position comes from the change listener (one
// query on the primary per notification, ChangeListener.Position); a
// replica connection's replay position is asked only when the last one it
// reported is older than what a request needs, so a caught-up replica
// costs no query per request (docs/operator.md, read pool).

// Headers between the gateway and the services. The gateway sends the
// position it needs a cacheable answer to reflect; a service that read from
// a replica answers with that replica's replay position (what it had
// replayed before the reads), and the gateway keeps the answer only when
// that reaches the position of the write that started its generation.
const (
	HeaderWantLSN = "X-Siteplane-Want-Lsn"
	HeaderReadLSN = "X-Siteplane-Read-Lsn"
)

// LSN is a position in PostgreSQL's write-ahead log. Zero is "none".
type LSN uint64

// UnknownLSN is the position of a write heard of whose position is not
// known yet: no replica reaches it.
const UnknownLSN = LSN(1<<64 - 1)

// ParseLSN reads PostgreSQL's text form "X/Y" (two hexadecimal halves).
func ParseLSN(s string) (LSN, error) {
	hi, lo, ok := strings.Cut(s, "/")
	if !ok {
		return 0, fmt.Errorf("not a WAL position: %q", s)
	}
	h, err := strconv.ParseUint(hi, 16, 32)
	if err != nil {
		return 0, fmt.Errorf("not a WAL position: %q", s)
	}
	l, err := strconv.ParseUint(lo, 16, 32)
	if err != nil {
		return 0, fmt.Errorf("not a WAL position: %q", s)
	}
	return LSN(h<<32 | l), nil
}

// String is PostgreSQL's text form.
func (l LSN) String() string { return fmt.Sprintf("%X/%X", uint64(l)>>32, uint64(l)&0xffffffff) }

// replayedSQL is how far a server's data goes: a replica's replay
// position, or, on a primary (a replica promoted by a failover), its
// current WAL position.
const replayedSQL = `SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_insert_lsn() END)::text`

// CurrentLSN returns the primary's current WAL position: after a commit,
// at or past its commit record.
func CurrentLSN(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}) (LSN, error) {
	var s *string
	if err := q.QueryRow(ctx, replayedSQL).Scan(&s); err != nil {
		return 0, fmt.Errorf("wal position: %w", err)
	}
	if s == nil {
		return 0, nil
	}
	return ParseLSN(*s)
}

// replayKey is where a read connection keeps the last replay position
// its server reported (pgconn's per-connection data).
const replayKey = "siteplane.replayed"

// Position is the newest write position a process has heard of: the
// listener records it, readers compare against it. The zero value knows no
// write (every replica reaches it).
type Position struct {
	mu  sync.Mutex
	lsn LSN
}

// Heard records that a write was heard whose position is not known yet.
func (p *Position) Heard() {
	p.mu.Lock()
	p.lsn = UnknownLSN
	p.mu.Unlock()
}

// Set records the position of the newest write heard (CurrentLSN asked
// after the notification arrived).
func (p *Position) Set(l LSN) {
	p.mu.Lock()
	p.lsn = l
	p.mu.Unlock()
}

// Get returns the newest write's position (UnknownLSN while it is asked).
func (p *Position) Get() LSN {
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lsn
}

// routeKey marks a request's context with its Route.
type routeKey struct{}

// Route is where one request's reads go: a connection of the read pool,
// taken at the first read and held until the request ends (so every read
// of the answer comes from one server, whose replay position the answer
// reports), or the primary once the request wrote.
type Route struct {
	pool    *pgxpool.Pool
	want    LSN
	header  http.Header
	conn    *pgxpool.Conn
	failed  bool
	wrote   bool
	replied LSN
}

// WithRoute returns ctx whose reads go to pool (the read pool); want is
// the position the caller asked the answer to reflect (HeaderWantLSN), and
// header is the answer's, where HeaderReadLSN is set when a replica is
// used. Release the Route when the request ends.
func WithRoute(ctx context.Context, pool *pgxpool.Pool, want LSN, header http.Header) (context.Context, *Route) {
	r := &Route{pool: pool, want: want, header: header}
	return context.WithValue(ctx, routeKey{}, r), r
}

// RouteFrom returns ctx's Route (nil: every read goes to the primary).
func RouteFrom(ctx context.Context) *Route {
	r, _ := ctx.Value(routeKey{}).(*Route)
	return r
}

// Wrote records that the request wrote on the primary: its later reads
// must see that write, so they go to the primary too.
func (r *Route) Wrote() {
	if r != nil {
		r.wrote = true
	}
}

// Reader returns the read connection (taking it on first use), or nil when
// the request's reads belong on the primary: no Route, it wrote, or the
// read pool cannot serve (a replica that is down must not fail reads the
// primary can answer).
func (r *Route) Reader(ctx context.Context) *pgxpool.Conn {
	if r == nil || r.wrote || r.failed {
		return nil
	}
	if r.conn != nil {
		return r.conn
	}
	conn, err := r.pool.Acquire(ctx)
	if err != nil {
		r.failed = true
		return nil
	}
	at, err := replayed(ctx, conn, r.want)
	if err != nil {
		conn.Release()
		r.failed = true
		return nil
	}
	r.conn, r.replied = conn, at
	r.header.Set(HeaderReadLSN, at.String())
	return conn
}

// Reached reports whether what the request reads from now on reflects
// every write up to lsn: true on the primary, else whether the replica
// has replayed lsn (asked again, one query, only when the position it last
// reported is older). The answer's HeaderReadLSN keeps the position taken
// before the first read: reads made before this call may be older.
func (r *Route) Reached(ctx context.Context, lsn LSN) bool {
	conn := r.Reader(ctx)
	switch {
	case conn == nil:
		return true
	case lsn == UnknownLSN:
		return false
	case r.replied >= lsn:
		return true
	}
	at, err := replayed(ctx, conn, lsn)
	if err != nil {
		return false
	}
	r.replied = at
	return at >= lsn
}

// Release returns the read connection to its pool.
func (r *Route) Release() {
	if r != nil && r.conn != nil {
		r.conn.Release()
		r.conn = nil
	}
}

// replayed returns conn's server's replay position: the one it last
// reported when that reaches want, else asked anew (one query).
func replayed(ctx context.Context, conn *pgxpool.Conn, want LSN) (LSN, error) {
	data := conn.Conn().PgConn().CustomData()
	if at, ok := data[replayKey].(LSN); ok && (at >= want || want == UnknownLSN && at > 0) {
		return at, nil
	}
	at, err := CurrentLSN(ctx, conn)
	if err != nil {
		return 0, err
	}
	data[replayKey] = at
	return at, nil
}

// OpenRead connects the read pool: like OpenWith, on a server that may be
// (and normally is) read-only. Every transaction of its sessions is read
// only, so a write routed there by mistake fails instead of splitting
// the data.
func OpenRead(ctx context.Context, dsn, schema string, st Settings) (*pgxpool.Pool, error) {
	cfg, err := poolConfig(dsn, schema, st.withDefaults())
	if err != nil {
		return nil, err
	}
	cfg.ConnConfig.RuntimeParams["default_transaction_read_only"] = "on"
	if cfg.ConnConfig.RuntimeParams["application_name"] == "siteplane-"+schema {
		cfg.ConnConfig.RuntimeParams["application_name"] = "siteplane-" + schema + "-read"
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open read pool: %w", redact(err))
	}
	// Not pinged: a replica that is down at start-up must not stop a
	// service whose primary serves every read meanwhile (Route.Reader).
	return pool, nil
}
