//go:build e2e

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// httpClient is bounded: a hung Service fails the request, not the suite.
var httpClient = &http.Client{Timeout: 15 * time.Second}

// serviceURL is http:// and an address reaching port of Service ns/name:
// its ClusterIP on the local provider (the host routes Service VIPs through
// kube-proxy, as a pod does), else a port-forward.
func serviceURL(t *testing.T, ns, name string, port int32) string {
	t.Helper()
	return "http://" + serviceAddr(t, ns, name, port)
}

type response struct {
	Status int
	Header http.Header
	Body   []byte
}

func (r response) JSON() map[string]any {
	var o map[string]any
	_ = json.Unmarshal(r.Body, &o)
	return o
}

func (r response) String() string {
	b := string(r.Body)
	if len(b) > 300 {
		b = b[:300] + "…"
	}
	return fmt.Sprintf("%d %s", r.Status, strings.TrimSpace(b))
}

// request sends one request; a transport error is a response with status
// 0. There is no retry: a Site is Ready only once its Exposed condition is
// True (the gateway Service has ready endpoints and answered the operator's
// request for the REST index through the Service), so a test that waited for
// Ready may expect the Service to answer.
func request(method, url string, body []byte, header http.Header) response {
	return requestOnce(method, url, body, header)
}

func requestOnce(method, url string, body []byte, header http.Header) response {
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		return response{Body: []byte(err.Error())}
	}
	for k, v := range header {
		req.Header[k] = v
	}
	res, err := httpClient.Do(req)
	if err != nil {
		return response{Body: []byte(err.Error())}
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	return response{Status: res.StatusCode, Header: res.Header, Body: b}
}
