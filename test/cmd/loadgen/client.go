package main

// A lean HTTP/1.1 client, one per load connection. net/http's Transport
// runs a read-loop and a write-loop goroutine per connection and hands every
// request and answer between them and the caller over channels; on the
// 2-core bench machine that bookkeeping cost the load generator about a fifth
// of the machine it was measuring (docs/performance.md, "The load
// generator"). Here one goroutine owns its connection: it writes a request
// serialised once per target, reads the answer through a buffer sized for
// the answers the bench gets, looking only at what frames it (answer.go),
// discards the body (Content-Length, chunked or until close) inside that
// buffer, and reconnects when the server closes.

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// readBuffer holds a whole list answer (17–28 KB) so that one read system
// call usually takes all of it.
const readBuffer = 64 << 10

// inlineBody is the largest fixed body copied into the serialised request;
// a larger one (an upload) is written from its own slice with writev.
const inlineBody = 64 << 10

// userAgent is what net/http sent, kept so that the servers (and their
// access logs) see the same requests as before.
const userAgent = "Go-http-client/1.1"

// wireRequest is one target's request, serialised once.
type wireRequest struct {
	addr     string      // host:port to dial
	tls      *tls.Config // nil for http
	head     []byte      // request line and headers, without Content-Length and the blank line
	fixed    []byte      // the whole request when its body never changes (head, length, body)
	body     []byte      // a body too large to inline, written after fixed
	template string      // a body holding {{seq}}: rendered per request
	variants [][]byte    // whole requests of a URL list, taken in turn (urls.go)
	lengthed bool        // the request carries Content-Length (a body, or POST/PUT/PATCH)
	isHead   bool        // a HEAD request: answers have no body
}

// newWireRequest serialises t's request with the given "Name: value"
// headers the way net/http would have sent it: the last value of a header
// wins, "Host:" names a virtual host on the URL's address, a text body is
// sent as application/json unless a header says otherwise, and no
// Accept-Encoding is sent.
func newWireRequest(t target, headers []string) (*wireRequest, error) {
	u, err := url.Parse(t.url)
	if err != nil {
		return nil, fmt.Errorf("target %q: %w", t.name, err)
	}
	if u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("target %q: %q is no http(s) URL", t.name, t.url)
	}
	if !validToken(t.method) {
		return nil, fmt.Errorf("target %q: invalid method %q", t.name, t.method)
	}
	w := &wireRequest{addr: u.Host, isHead: t.method == "HEAD"}
	if u.Port() == "" {
		port := "80"
		if u.Scheme == "https" {
			port = "443"
		}
		w.addr = net.JoinHostPort(u.Hostname(), port)
	}
	if u.Scheme == "https" {
		w.tls = &tls.Config{ServerName: u.Hostname(), NextProtos: []string{"http/1.1"}}
	}
	host := strings.TrimSuffix(u.Host, ":")
	hdr := http.Header{}
	if t.body != "" {
		hdr.Set("Content-Type", "application/json")
	}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ":")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !validToken(k) || strings.ContainsAny(v, "\r\n\x00") {
			return nil, fmt.Errorf("target %q: invalid header %q", t.name, h)
		}
		switch http.CanonicalHeaderKey(k) {
		case "Host":
			host = v // a virtual host on the same address
		case "Content-Length", "Transfer-Encoding", "Connection":
			return nil, fmt.Errorf("target %q: header %q is the client's to set", t.name, k)
		default:
			hdr.Set(k, v)
		}
	}
	if hdr.Get("User-Agent") == "" {
		hdr.Set("User-Agent", userAgent)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", t.method, u.RequestURI(), host)
	for _, k := range slices.Sorted(maps.Keys(hdr)) {
		for _, v := range hdr[k] {
			fmt.Fprintf(&b, "%s: %s\r\n", k, v)
		}
	}
	w.head = b.Bytes()
	body := []byte(t.body)
	if t.file != nil {
		body = t.file
	}
	switch t.method {
	case "POST", "PUT", "PATCH":
		w.lengthed = true // net/http sends Content-Length: 0 for these without a body
	}
	w.lengthed = w.lengthed || len(body) > 0
	if t.file == nil && strings.Contains(t.body, "{{seq}}") {
		w.template = t.body
		return w, nil
	}
	if len(body) > inlineBody {
		w.fixed, w.body = w.withLength(len(body), nil), body
		return w, nil
	}
	w.fixed = w.withLength(len(body), body)
	return w, nil
}

// withLength is head, the Content-Length line when the request has one, the
// blank line and body, in a new slice.
func (w *wireRequest) withLength(n int, body []byte) []byte {
	out := make([]byte, 0, len(w.head)+32+len(body))
	return w.appendTo(out, n, body)
}

func (w *wireRequest) appendTo(out []byte, n int, body []byte) []byte {
	out = append(out, w.head...)
	if w.lengthed {
		out = append(out, "Content-Length: "...)
		out = strconv.AppendInt(out, int64(n), 10)
		out = append(out, "\r\n"...)
	}
	out = append(out, "\r\n"...)
	return append(out, body...)
}

// validToken reports whether s is a non-empty HTTP token (a method or a
// header name).
func validToken(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

// loadConn is one load connection: used by one goroutine only.
type loadConn struct {
	req     *wireRequest
	timeout time.Duration // per request, from its start to its body's end; 0: none
	seq     *atomic.Int64
	conn    net.Conn
	br      *bufio.Reader
	reused  bool   // conn has answered a request: the server may have closed it since
	scratch []byte // the request when its body is rendered per request
	bufs    [2][]byte
}

func newLoadConn(req *wireRequest, timeout time.Duration, seq *atomic.Int64) *loadConn {
	return &loadConn{req: req, timeout: timeout, seq: seq, br: bufio.NewReaderSize(nil, readBuffer)}
}

// Close closes the connection, if one is open.
func (lc *loadConn) Close() {
	if lc.conn != nil {
		_ = lc.conn.Close()
		lc.conn, lc.reused = nil, false
	}
}

// Do sends one request and reads its whole answer, connecting first when
// no connection is open, and returns the answer's status. A connection the
// server closed while idle (a reused connection that ends before the first
// byte of an answer) is replaced and the request sent once more, as
// net/http did; any other failure closes the connection and is returned.
func (lc *loadConn) Do() (int, error) {
	var deadline time.Time
	if lc.timeout > 0 {
		deadline = time.Now().Add(lc.timeout)
	}
	wire, extra := lc.render()
	for attempt := 0; ; attempt++ {
		status, err := lc.roundTrip(wire, extra, deadline)
		if err == nil {
			return status, nil
		}
		var na noAnswer
		retry := lc.reused && attempt == 0 && errors.As(err, &na) && closedIdle(na.err)
		lc.Close()
		if !retry {
			return 0, err
		}
	}
}

// render returns the request's bytes: the pre-serialised request, or one
// with this request's {{seq}} number, and a large body to write after it.
func (lc *loadConn) render() ([]byte, []byte) {
	r := lc.req
	if len(r.variants) > 0 {
		return r.variants[(lc.seq.Add(1)-1)%int64(len(r.variants))], nil
	}
	if r.template == "" {
		return r.fixed, r.body
	}
	body := withSeq(r.template, lc.seq)
	lc.scratch = r.appendTo(lc.scratch[:0], len(body), []byte(body))
	return lc.scratch, nil
}

// noAnswer is a failure before the first byte of an answer: writing the
// request, or waiting for the answer.
type noAnswer struct{ err error }

func (e noAnswer) Error() string { return e.err.Error() }
func (e noAnswer) Unwrap() error { return e.err }

// closedIdle reports whether err means that the server closed the
// connection before answering: end of stream before any byte, or a reset.
func closedIdle(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

func (lc *loadConn) roundTrip(wire, extra []byte, deadline time.Time) (int, error) {
	if lc.conn == nil {
		if err := lc.dial(deadline); err != nil {
			return 0, err
		}
	}
	if err := lc.conn.SetDeadline(deadline); err != nil {
		return 0, err
	}
	if err := lc.write(wire, extra); err != nil {
		// The server may have answered before reading the whole body (a
		// 413, say) and closed: that answer is the request's outcome.
		if status, rerr := lc.readAnswer(time.Now().Add(50 * time.Millisecond)); rerr == nil {
			lc.Close()
			return status, nil
		}
		return 0, noAnswer{fmt.Errorf("write request: %w", err)}
	}
	return lc.readAnswer(time.Time{})
}

func (lc *loadConn) dial(deadline time.Time) error {
	d := net.Dialer{Deadline: deadline}
	c, err := d.Dial("tcp", lc.req.addr)
	if err != nil {
		return err
	}
	if lc.req.tls != nil {
		tc := tls.Client(c, lc.req.tls)
		_ = tc.SetDeadline(deadline)
		if err := tc.Handshake(); err != nil {
			_ = c.Close()
			return err
		}
		c = tc
	}
	lc.conn, lc.reused = c, false
	lc.br.Reset(c)
	return nil
}

func (lc *loadConn) write(wire, extra []byte) error {
	if extra == nil {
		_, err := lc.conn.Write(wire)
		return err
	}
	lc.bufs = [2][]byte{wire, extra}
	bufs := net.Buffers(lc.bufs[:])
	_, err := bufs.WriteTo(lc.conn)
	return err
}

// readAnswer reads one answer (skipping interim 1xx ones) and its whole
// body, and closes the connection when the answer says so. A non-zero
// deadline replaces the request's.
func (lc *loadConn) readAnswer(deadline time.Time) (int, error) {
	if !deadline.IsZero() {
		if err := lc.conn.SetDeadline(deadline); err != nil {
			return 0, err
		}
	}
	// An answer that never began (io.EOF, a reset) may mean a connection
	// the server closed while idle: noAnswer lets Do retry it.
	if _, err := lc.br.Peek(1); err != nil {
		return 0, noAnswer{fmt.Errorf("read answer: %w", err)}
	}
	status, closeAfter, err := readAnswer(lc.br, lc.req.isHead)
	if err != nil {
		return 0, fmt.Errorf("read answer: %w", err)
	}
	lc.reused = true
	if closeAfter {
		lc.Close()
	}
	return status, nil
}
