package routing

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"strings"
	"sync"
	"syscall"
	"time"

	"siteplane.dev/services/internal/platform/postgres"
)

// ProxyConfig tunes the reverse proxy.
type ProxyConfig struct {
	// Timeout bounds one upstream exchange, from dialing to the end of the
	// response headers and body.
	Timeout time.Duration
	// DialTimeout bounds connecting to a service.
	DialTimeout time.Duration
	// MaxIdlePerHost is the keep-alive pool size per service.
	MaxIdlePerHost int
	// RefusedRetry is how long a refused connection is retried before the
	// request is answered 503. Default 1s; negative: no retry.
	RefusedRetry time.Duration
}

// ErrorFunc writes a gateway error (WordPress envelope) for status/code/message.
type ErrorFunc func(w http.ResponseWriter, r *http.Request, status int, code, message string)

// Proxy forwards requests to services over pooled keep-alive connections.
type Proxy struct {
	cfg        ProxyConfig
	transport  *http.Transport
	forward    http.RoundTripper // transport, retrying refused connections
	writeError ErrorFunc
	onError    func(r *http.Request, status int, err error)
}

// NewProxy returns a proxy; writeError writes upstream failures, onError (may be
// nil) observes them for logging.
func NewProxy(cfg ProxyConfig, writeError ErrorFunc, onError func(r *http.Request, status int, err error)) *Proxy {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 60 * time.Second
	}
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = 3 * time.Second
	}
	if cfg.MaxIdlePerHost <= 0 {
		cfg.MaxIdlePerHost = 64
	}
	if cfg.RefusedRetry == 0 {
		cfg.RefusedRetry = time.Second
	}
	dialer := &net.Dialer{Timeout: cfg.DialTimeout, KeepAlive: 30 * time.Second}
	t := &http.Transport{
		Proxy:                 nil, // services are reached directly, never through HTTP_PROXY
		DialContext:           dialer.DialContext,
		MaxIdleConns:          cfg.MaxIdlePerHost * 8,
		MaxIdleConnsPerHost:   cfg.MaxIdlePerHost,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: cfg.Timeout,
		ExpectContinueTimeout: time.Second,
		// Bodies are passed through as the service encoded them.
		DisableCompression: true,
		// A service's answer (a list of posts is ~17 KB, a block theme's
		// page 40–60 KB) is read in one or two reads rather than in 4 KiB
		// pieces, each a read system call and, copied on, a write to the
		// client.
		ReadBufferSize: copyBufferSize,
	}
	return &Proxy{cfg: cfg, transport: t, forward: retryRefused{next: t, budget: cfg.RefusedRetry},
		writeError: writeError, onError: onError}
}

// copyBuffers lends the buffers the reverse proxy copies bodies with,
// rather than allocating one per request.
var copyBuffers = &bufferPool{}

// copyBufferSize is the size of those buffers and of a connection's read
// buffer: a page of a block theme (Twenty Twenty-Three's are 40–60 KB) is
// read from the service and written to the client at once (fillingBody).
// At 32 KiB such a page took two reads and three writes (strace: 5 reads
// and 4 writes a page in all, against 4 and 3 at 64 KiB).
const copyBufferSize = 64 << 10

type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() []byte {
	if v, ok := b.p.Get().(*[]byte); ok {
		return *v
	}
	return make([]byte, copyBufferSize)
}

func (b *bufferPool) Put(buf []byte) { b.p.Put(&buf) }

// Transport is the pooled transport (the index fetcher shares it).
func (p *Proxy) Transport() *http.Transport { return p.transport }

// Target describes one forwarded request.
type Target struct {
	Backend *Backend
	// Path is the upstream URL path (already decoded form); RawQuery the
	// upstream query string.
	Path     string
	RawQuery string
	// SetHeaders are set on the upstream request (the signed identity).
	SetHeaders http.Header
	// DropHeaders are removed from the upstream request (credentials the
	// gateway already checked).
	DropHeaders []string
	// ModifyResponse may adjust the upstream response before it is copied.
	ModifyResponse func(*http.Response) error
	// Errors, when set, writes this request's upstream failure instead of
	// the proxy's ErrorFunc.
	Errors ErrorFunc
}

// Forward proxies r to t and writes the answer to w. A service that is
// down or refuses yields 503, one that times out 504, any other transport
// failure 502 — each in the WordPress error envelope.
func (p *Proxy) Forward(w http.ResponseWriter, r *http.Request, t Target) {
	ctx, cancel := context.WithTimeout(r.Context(), p.cfg.Timeout)
	defer cancel()
	inFwd := r.Header.Get("X-Forwarded-For")
	askedReadLSN := r.Header.Get(postgres.HeaderWantLSN) != ""
	// A failure to read the client's body (a malformed chunked encoding, a
	// connection cut mid-body) is the client's error, answered 400, not a
	// failure of the service (502).
	var body *clientBody
	if r.Body != nil && r.Body != http.NoBody {
		body = &clientBody{ReadCloser: r.Body}
		r = r.Clone(r.Context())
		r.Body = body
	}
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			base := t.Backend.Base
			pr.Out.URL.Scheme, pr.Out.URL.Host = base.Scheme, base.Host
			pr.Out.URL.Path = base.Path + t.Path
			pr.Out.URL.RawPath = ""
			pr.Out.URL.RawQuery = t.RawQuery
			pr.Out.Host = base.Host
			pr.SetXForwarded()
			if inFwd != "" {
				// Keep the chain of proxies in front of the gateway (ingress).
				pr.Out.Header.Set("X-Forwarded-For", inFwd+", "+pr.Out.Header.Get("X-Forwarded-For"))
			}
			for _, k := range t.DropHeaders {
				pr.Out.Header.Del(k)
			}
			for k, v := range t.SetHeaders {
				pr.Out.Header[k] = v
			}
		},
		Transport:  p.forward,
		BufferPool: copyBuffers,
		ModifyResponse: func(res *http.Response) error {
			// a service's replica position is for the edge cache, which
			// asked it (postgres.HeaderWantLSN) and takes it out itself
			if !askedReadLSN {
				res.Header.Del(postgres.HeaderReadLSN)
			}
			if res.ContentLength > 0 && res.ContentLength <= copyBufferSize {
				res.Body = fillingBody{res.Body}
			}
			if t.ModifyResponse != nil {
				return t.ModifyResponse(res)
			}
			return nil
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			status, code, msg := Classify(err)
			if body != nil && body.err != nil && status != http.StatusRequestEntityTooLarge {
				status, code, msg = http.StatusBadRequest, "rest_invalid_body", "The request body could not be read."
			}
			if p.onError != nil {
				p.onError(r, status, err)
			}
			if t.Errors != nil {
				t.Errors(w, r, status, code, msg)
				return
			}
			p.writeError(w, r, status, code, msg)
		},
	}
	rp.ServeHTTP(w, r.WithContext(ctx))
}

// Classify maps a transport error to the gateway's status, code and message.
func Classify(err error) (status int, code, message string) {
	var mbe *http.MaxBytesError
	var dnsErr *net.DNSError
	var netErr net.Error
	switch {
	case errors.As(err, &mbe):
		return http.StatusRequestEntityTooLarge, "rest_request_too_large", "The request body is too large."
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return http.StatusGatewayTimeout, "rest_upstream_timeout", "The service that owns this route did not answer in time."
	case errors.Is(err, syscall.ECONNREFUSED), errors.As(err, &dnsErr), isDialError(err):
		return http.StatusServiceUnavailable, "rest_service_unavailable", "The service that owns this route is unavailable."
	default:
		return http.StatusBadGateway, "rest_bad_gateway", "The service that owns this route sent an invalid response."
	}
}

func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial" || strings.Contains(err.Error(), "connection refused")
}

// fillingBody is the body of an answer that fits one copy buffer (its
// length known): each Read fills p unless the body ends first, so the
// proxy's copy loop reads it whole and writes it to the client in one
// write, not in as many pieces as the service's writes arrived in. A
// streamed answer (no length) is copied as it comes.
type fillingBody struct{ io.ReadCloser }

func (b fillingBody) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		m, err := b.ReadCloser.Read(p[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// clientBody records the first error reading the client's request body.
type clientBody struct {
	io.ReadCloser
	err error
}

func (b *clientBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF && b.err == nil {
		b.err = err
	}
	return n, err
}
