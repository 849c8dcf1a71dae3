//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// httpClient is bounded: a hung Service fails the request, not the suite.
var httpClient = &http.Client{Timeout: 15 * time.Second}

// serviceURL is http://<ClusterIP>:<port> of a Service: the local
// provider's host routes Service VIPs through kube-proxy, like a pod does.
func serviceURL(t *testing.T, ns, name string, port int32) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	svc, err := env.kube.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("http://%s:%d", svc.Spec.ClusterIP, port)
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

// request sends one request; a transport error is a response with status 0.
func request(method, url string, body []byte, header http.Header) response {
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
