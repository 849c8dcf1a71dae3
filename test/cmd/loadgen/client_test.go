package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// testServer is a real server on loopback that counts the connections
// opened to it.
type testServer struct {
	url   string
	conns atomic.Int64
}

// startHTTP serves handler with net/http; keepAlive false makes every
// answer carry Connection: close and end its connection.
func startHTTP(t *testing.T, handler http.HandlerFunc, keepAlive bool) *testServer {
	t.Helper()
	ts := &testServer{}
	srv := httptest.NewUnstartedServer(handler)
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			ts.conns.Add(1)
		}
	}
	srv.Config.SetKeepAlivesEnabled(keepAlive)
	srv.Start()
	t.Cleanup(srv.Close)
	ts.url = srv.URL
	return ts
}

// startRaw answers each request with the bytes answer returns, written as
// they are, and closes the connection after them when answer says so
// (without a Connection: close header unless the bytes hold one).
func startRaw(t *testing.T, answer func(*http.Request) (wire string, closeAfter bool)) *testServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ts := &testServer{url: "http://" + l.Addr().String()}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var open []net.Conn
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range open {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			ts.conns.Add(1)
			mu.Lock()
			open = append(open, c)
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					if _, err := io.Copy(io.Discard, req.Body); err != nil {
						return
					}
					wire, closeAfter := answer(req)
					if _, err := io.WriteString(c, wire); err != nil || closeAfter {
						return
					}
				}
			}()
		}
	}()
	return ts
}

// chunkedAnswer is a 200 whose body (40,000 bytes) comes in chunks of
// several sizes, with a chunk extension and a trailer.
func chunkedAnswer() string {
	var b strings.Builder
	b.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n")
	for _, n := range []int{1, 4095, 16384, 19520} {
		b.WriteString(strconv.FormatInt(int64(n), 16) + ";ext=1\r\n" + strings.Repeat("c", n) + "\r\n")
	}
	b.WriteString("0\r\nX-Trailer: done\r\n\r\n")
	return b.String()
}

func TestClientAgainstServers(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 8<<16) // 8 MiB
	bigSum := sha256.Sum256(big)
	bigFile := t.TempDir() + "/big.bin"
	if err := os.WriteFile(bigFile, big, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		server  func(t *testing.T) *testServer
		target  string // METHOD PATH [BODY]
		headers []string
		expect  int
		conc    int
		timeout time.Duration
		// what run must report
		wantRequests bool // at least one answered request
		wantErrors   bool // every request failed
		wantNon2xx   bool // every answer was unexpected
		// connections opened: conc (kept alive) or one per request
		wantConns string // "conc", "per-request", "" (not checked)
	}{
		{
			name: "Content-Length body, kept alive",
			server: func(t *testing.T) *testServer {
				body := strings.Repeat("l", 20000)
				return startHTTP(t, func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Length", strconv.Itoa(len(body)))
					io.WriteString(w, body)
				}, true)
			},
			target: "GET /list?per_page=10", conc: 3, wantRequests: true, wantConns: "conc",
		},
		{
			name: "chunked body from net/http (flushed pieces), kept alive",
			server: func(t *testing.T) *testServer {
				return startHTTP(t, func(w http.ResponseWriter, r *http.Request) {
					for range 3 {
						io.WriteString(w, strings.Repeat("p", 15000))
						w.(http.Flusher).Flush()
					}
				}, true)
			},
			target: "GET /chunked", conc: 2, wantRequests: true, wantConns: "conc",
		},
		{
			name: "chunked body with extensions and a trailer, kept alive",
			server: func(t *testing.T) *testServer {
				return startRaw(t, func(*http.Request) (string, bool) { return chunkedAnswer(), false })
			},
			target: "GET /raw-chunked", conc: 2, wantRequests: true, wantConns: "conc",
		},
		{
			name: "keep-alive off: Connection: close after every answer",
			server: func(t *testing.T) *testServer {
				return startHTTP(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "one answer") }, false)
			},
			target: "GET /close", conc: 2, wantRequests: true, wantConns: "per-request",
		},
		{
			name: "server closes silently after every answer (no Connection: close)",
			server: func(t *testing.T) *testServer {
				return startRaw(t, func(*http.Request) (string, bool) {
					return "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", true
				})
			},
			target: "GET /silent", conc: 2, wantRequests: true, wantConns: "per-request",
		},
		{
			name: "body until the connection ends (no length, HTTP/1.0)",
			server: func(t *testing.T) *testServer {
				return startRaw(t, func(*http.Request) (string, bool) {
					return "HTTP/1.0 200 OK\r\n\r\n" + strings.Repeat("u", 5000), true
				})
			},
			target: "GET /until-close", conc: 1, wantRequests: true, wantConns: "per-request",
		},
		{
			name: "HEAD: a Content-Length but no body",
			server: func(t *testing.T) *testServer {
				return startHTTP(t, func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Length", "100000")
				}, true)
			},
			target: "HEAD /head", conc: 2, wantRequests: true, wantConns: "conc",
		},
		{
			name: "201 expected",
			server: func(t *testing.T) *testServer {
				return startHTTP(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusCreated) }, true)
			},
			target: `POST /create {"title":"t {{seq}}"}`, expect: 201, conc: 2, wantRequests: true, wantConns: "conc",
		},
		{
			name: "201 when 200 is expected",
			server: func(t *testing.T) *testServer {
				return startHTTP(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusCreated) }, true)
			},
			target: `POST /create {}`, expect: 200, conc: 2, wantRequests: true, wantNon2xx: true, wantConns: "conc",
		},
		{
			name: "400 when any 2xx is expected",
			server: func(t *testing.T) *testServer {
				return startHTTP(t, func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusBadRequest) }, true)
			},
			target: "GET /bad", conc: 1, wantRequests: true, wantNon2xx: true, wantConns: "conc",
		},
		{
			name: "large POST body (8 MiB) arrives whole",
			server: func(t *testing.T) *testServer {
				return startHTTP(t, func(w http.ResponseWriter, r *http.Request) {
					h := sha256.New()
					n, err := io.Copy(h, r.Body)
					if err != nil || n != int64(len(big)) || r.ContentLength != n || !bytes.Equal(h.Sum(nil), bigSum[:]) ||
						r.Header.Get("Content-Type") != "image/jpeg" {
						w.WriteHeader(http.StatusBadRequest)
						return
					}
					w.WriteHeader(http.StatusCreated)
				}, true)
			},
			target: "POST /media @" + bigFile, headers: []string{"Content-Type: image/jpeg"}, expect: 201, conc: 2,
			wantRequests: true, wantConns: "conc",
		},
		{
			name: "server closes without answering: errors",
			server: func(t *testing.T) *testServer {
				return startRaw(t, func(*http.Request) (string, bool) { return "", true })
			},
			target: "GET /nothing", conc: 1, wantErrors: true,
		},
		{
			name: "answer slower than -timeout: errors",
			server: func(t *testing.T) *testServer {
				return startHTTP(t, func(w http.ResponseWriter, r *http.Request) {
					select {
					case <-time.After(2 * time.Second):
					case <-r.Context().Done():
					}
				}, true)
			},
			target: "GET /slow", conc: 1, timeout: 30 * time.Millisecond, wantErrors: true,
		},
		{
			name: "truncated Content-Length body: errors",
			server: func(t *testing.T) *testServer {
				return startRaw(t, func(*http.Request) (string, bool) {
					return "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nshort", true
				})
			},
			target: "GET /truncated", conc: 1, wantErrors: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := tt.server(t)
			method, rest, _ := strings.Cut(tt.target, " ")
			path, body, _ := strings.Cut(rest, " ")
			tg, err := parseTarget("t=" + method + " " + ts.url + path + " " + body)
			if err != nil {
				t.Fatal(err)
			}
			tg.expect = tt.expect
			timeout := tt.timeout
			if timeout == 0 {
				timeout = 5 * time.Second
			}
			res := runWith(tg, tt.headers, 150*time.Millisecond, tt.conc, timeout)
			n := len(res.latencies)
			switch {
			case tt.wantRequests && n == 0:
				t.Fatalf("no request answered (errors %d)", res.errors)
			case tt.wantErrors && (n != 0 || res.errors == 0):
				t.Fatalf("%d answered, %d errors; want only errors", n, res.errors)
			case !tt.wantErrors && res.errors != 0:
				t.Fatalf("%d errors (%d answered)", res.errors, n)
			case tt.wantNon2xx && res.non2xx != n:
				t.Fatalf("%d of %d answers unexpected, want all", res.non2xx, n)
			case !tt.wantNon2xx && res.non2xx != 0:
				t.Fatalf("%d of %d answers unexpected, want none", res.non2xx, n)
			}
			conns := int(ts.conns.Load())
			switch tt.wantConns {
			case "conc": // every connection kept alive: the framing was read right
				if conns != tt.conc {
					t.Fatalf("%d connections for %d requests, want %d (kept alive)", conns, n, tt.conc)
				}
			case "per-request": // a new connection for every answer, none failed
				if conns < n || conns > n+tt.conc {
					t.Fatalf("%d connections for %d requests, want one per request", conns, n)
				}
			}
		})
	}
}

// Each request's {{seq}} is its own number, and its Content-Length fits
// the rendered body.
func TestClientRendersSeqBodies(t *testing.T) {
	var mu sync.Mutex
	seen := map[int]bool{}
	dup := false
	ts := startHTTP(t, func(w http.ResponseWriter, r *http.Request) {
		var v struct{ Title string }
		b, err := io.ReadAll(r.Body)
		if err != nil || json.Unmarshal(b, &v) != nil || r.ContentLength != int64(len(b)) {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		n, err := strconv.Atoi(strings.TrimPrefix(v.Title, "post "))
		if err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		mu.Lock()
		dup = dup || seen[n]
		seen[n] = true
		mu.Unlock()
		w.WriteHeader(http.StatusCreated)
	}, true)
	// a second: 150 ms gave 3 requests on a loaded machine (two cores, load 12)
	res := run(target{name: "c", method: "POST", url: ts.url + "/posts", body: `{"title":"post {{seq}}"}`}, nil, time.Second, 3)
	n := len(res.latencies)
	mu.Lock()
	defer mu.Unlock()
	// numbers up to 9 and then 10 and more: two body lengths at least
	if n < 10 || res.errors != 0 || res.non2xx != 0 || dup || len(seen) != n || !seen[1] || !seen[n] {
		t.Fatalf("%d requests, %d errors, %d unexpected, %d distinct numbers (duplicate %v)", n, res.errors, res.non2xx, len(seen), dup)
	}
}

// The request is serialised once, as net/http would have sent it.
func TestWireRequest(t *testing.T) {
	tests := []struct {
		name    string
		target  target
		headers []string
		want    string // the request; BODY stands for the body when it is written apart
		wantErr bool
	}{
		{
			name:   "GET",
			target: target{name: "a", method: "GET", url: "http://127.0.0.1:8080/cms-json/cms/v2/posts?per_page=10&search=a%20b"},
			want:   "GET /cms-json/cms/v2/posts?per_page=10&search=a%20b HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: Go-http-client/1.1\r\n\r\n",
		},
		{
			name:    "virtual host, later headers win, sorted",
			target:  target{name: "a", method: "GET", url: "http://127.0.0.1:8081/"},
			headers: []string{"Host: siteplane-bench", "X-B: 1", "authorization: Basic x", "X-B: 2"},
			want:    "GET / HTTP/1.1\r\nHost: siteplane-bench\r\nAuthorization: Basic x\r\nUser-Agent: Go-http-client/1.1\r\nX-B: 2\r\n\r\n",
		},
		{
			name:   "JSON body",
			target: target{name: "a", method: "POST", url: "http://h/p", body: `{"a":1}`},
			want:   "POST /p HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nUser-Agent: Go-http-client/1.1\r\nContent-Length: 7\r\n\r\n{\"a\":1}",
		},
		{
			name:   "POST without a body",
			target: target{name: "a", method: "POST", url: "http://h/p"},
			want:   "POST /p HTTP/1.1\r\nHost: h\r\nUser-Agent: Go-http-client/1.1\r\nContent-Length: 0\r\n\r\n",
		},
		{
			name:    "file body, its own Content-Type",
			target:  target{name: "a", method: "POST", url: "http://h/m", body: "@f", file: bytes.Repeat([]byte("j"), inlineBody+1)},
			headers: []string{"Content-Type: image/jpeg", "User-Agent: bench"},
			want:    "POST /m HTTP/1.1\r\nHost: h\r\nContent-Type: image/jpeg\r\nUser-Agent: bench\r\nContent-Length: 65537\r\n\r\nBODY",
		},
		{name: "bad URL", target: target{name: "a", method: "GET", url: "ftp://h/"}, wantErr: true},
		{name: "bad method", target: target{name: "a", method: "GE T", url: "http://h/"}, wantErr: true},
		{name: "header with a line break", target: target{name: "a", method: "GET", url: "http://h/"}, headers: []string{"X-A: 1\r\nX-B: 2"}, wantErr: true},
		{name: "framing header", target: target{name: "a", method: "GET", url: "http://h/"}, headers: []string{"Transfer-Encoding: chunked"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, err := newWireRequest(tt.target, tt.headers)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			got := string(w.fixed)
			if w.body != nil {
				if !bytes.Equal(w.body, tt.target.file) {
					t.Fatal("the file body is not written as it is")
				}
				got += "BODY"
			}
			if got != tt.want {
				t.Fatalf("request\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// An answer with Connection: close ends the connection at once; a kept-alive
// one leaves it open for the next request.
func TestClientConnectionClose(t *testing.T) {
	for _, keepAlive := range []bool{true, false} {
		ts := startHTTP(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "x") }, keepAlive)
		w, err := newWireRequest(target{name: "a", method: "GET", url: ts.url + "/"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		lc := newLoadConn(w, 5*time.Second, new(atomic.Int64))
		status, err := lc.Do()
		if err != nil || status != 200 || (lc.conn != nil) != keepAlive {
			t.Errorf("keep-alive %v: status %d, error %v, connection open %v", keepAlive, status, err, lc.conn != nil)
		}
		lc.Close()
	}
}
