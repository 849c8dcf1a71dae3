// Package metrics defines the HTTP metrics every service exports and the
// registry they live in.
package metrics

import (
	"context"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// HTTP holds the request counters and histograms.
type HTTP struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// NewRegistry returns a registry with the Go runtime and process collectors.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// NewHTTP registers the HTTP metrics on reg. Labels: service, route (the
// route template, never the raw path: raw paths would make the series count
// unbounded and could carry secrets), method and code.
func NewHTTP(reg prometheus.Registerer) *HTTP {
	m := &HTTP{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "siteplane_http_requests_total",
			Help: "HTTP requests served, by service, route template, method and status code.",
		}, []string{"service", "route", "method", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "siteplane_http_request_duration_seconds",
			Help:    "HTTP request latency, by service, route template, method and status code.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"service", "route", "method", "code"}),
	}
	reg.MustRegister(m.requests, m.duration)
	return m
}

// Observe records one request.
func (m *HTTP) Observe(service, route, method string, code int, d time.Duration) {
	method = methodLabel(method)
	c := strconv.Itoa(code)
	m.requests.WithLabelValues(service, route, method, c).Inc()
	m.duration.WithLabelValues(service, route, method, c).Observe(d.Seconds())
}

// routeKey carries a *string the router (or the route kit) fills with the
// matched route template.
type routeKey struct{}

// WithRouteSlot returns a context with an empty route-template slot.
func WithRouteSlot(ctx context.Context) (context.Context, *string) {
	s := new(string)
	return context.WithValue(ctx, routeKey{}, s), s
}

// SetRoute records the matched route template for the request's metrics and
// access log. Routers that match below gorilla/mux (the route kit) call it.
func SetRoute(ctx context.Context, template string) {
	if s, ok := ctx.Value(routeKey{}).(*string); ok {
		*s = template
	}
}

// PoolCollector exports pgxpool statistics.
type PoolCollector struct {
	pool  *pgxpool.Pool
	descs map[string]*prometheus.Desc
}

// NewPoolCollector returns a collector reading pool's statistics at scrape time.
func NewPoolCollector(service string, pool *pgxpool.Pool) *PoolCollector {
	labels := prometheus.Labels{"service": service}
	d := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc("siteplane_db_pool_"+name, help, nil, labels)
	}
	return &PoolCollector{pool: pool, descs: map[string]*prometheus.Desc{
		"acquired": d("acquired_connections", "Connections currently in use."),
		"idle":     d("idle_connections", "Idle connections."),
		"total":    d("total_connections", "Open connections."),
		"max":      d("max_connections", "Maximum pool size."),
		"acquires": d("acquires_total", "Successful acquires."),
		"empty":    d("empty_acquires_total", "Acquires that waited for a connection."),
		"wait":     d("acquire_wait_seconds_total", "Time spent waiting for a connection."),
		"canceled": d("canceled_acquires_total", "Acquires canceled by their context."),
	}}
}

// Describe implements prometheus.Collector.
func (c *PoolCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range c.descs {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (c *PoolCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.pool.Stat()
	g := func(k string, v float64) { ch <- prometheus.MustNewConstMetric(c.descs[k], prometheus.GaugeValue, v) }
	n := func(k string, v float64) { ch <- prometheus.MustNewConstMetric(c.descs[k], prometheus.CounterValue, v) }
	g("acquired", float64(s.AcquiredConns()))
	g("idle", float64(s.IdleConns()))
	g("total", float64(s.TotalConns()))
	g("max", float64(s.MaxConns()))
	n("acquires", float64(s.AcquireCount()))
	n("empty", float64(s.EmptyAcquireCount()))
	n("wait", s.AcquireDuration().Seconds())
	n("canceled", float64(s.CanceledAcquireCount()))
}

// methodLabel keeps the standard methods and folds anything else a client
// invents into "other": like raw paths, free-form methods would make the
// number of series unbounded.
func methodLabel(m string) string {
	switch m {
	case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "CONNECT", "TRACE":
		return m
	}
	return "other"
}

// Identity counts the signed identity headers a service checks: verified
// ones by the id of the key that signed them (a non-secret hash, one series
// per key a rotation introduces), refused ones by reason. During an
// internal-key rotation the verified series of the new key id starts
// growing when the senders switch (docs/security.md).
type Identity struct {
	verified *prometheus.CounterVec
	rejected *prometheus.CounterVec
}

// NewIdentity registers the identity metrics on reg.
func NewIdentity(reg prometheus.Registerer) *Identity {
	m := &Identity{
		verified: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "siteplane_identity_verified_total",
			Help: "Signed identity headers verified, by receiving service and the id of the internal key that signed them.",
		}, []string{"service", "key_id"}),
		rejected: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "siteplane_identity_rejected_total",
			Help: "Signed identity headers refused, by receiving service and reason (unknown_key, signature, expired, lifetime, audience, malformed).",
		}, []string{"service", "reason"}),
	}
	reg.MustRegister(m.verified, m.rejected)
	return m
}

// Verified records a header verified with the key keyID.
func (m *Identity) Verified(service, keyID string) { m.verified.WithLabelValues(service, keyID).Inc() }

// Rejected records a header refused for reason.
func (m *Identity) Rejected(service, reason string) {
	m.rejected.WithLabelValues(service, reason).Inc()
}

// NewQueryCounter registers siteplane_db_queries_total on reg and returns,
// for a pool name ("primary", "read"), the function its pool calls after
// each statement (postgres.Settings.CountQuery): with a read pool, the
// share of statements the replicas serve.
func NewQueryCounter(reg prometheus.Registerer, service string) func(pool string) func() {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "siteplane_db_queries_total",
		Help: "Statements sent to PostgreSQL, by service and pool (primary, or read: the read-only replica pool).",
	}, []string{"service", "pool"})
	reg.MustRegister(c)
	return func(pool string) func() { return c.WithLabelValues(service, pool).Inc }
}
