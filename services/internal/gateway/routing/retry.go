package routing

import (
	"errors"
	"io"
	"net/http"
	"syscall"
	"time"
)

// retryRefused is a transport that retries a refused connection for up to
// budget. In a cluster a Service's new endpoints reach the node's proxy
// rules a moment after the pod turns ready (a new Site, a rolling update, a
// scale-up), and until then connections to it are refused. Nothing of the
// request was sent on a refused connection, so the retry is safe for every
// method, writes included; a service that stays down is answered 503 once
// the budget is spent, and always before the request's own deadline would
// turn that answer into a 504.
type retryRefused struct {
	next   http.RoundTripper
	budget time.Duration
}

func (t retryRefused) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.budget <= 0 {
		return t.next.RoundTrip(req)
	}
	deadline := time.Now().Add(t.budget)
	if dl, ok := req.Context().Deadline(); ok && dl.Add(-10*time.Millisecond).Before(deadline) {
		deadline = dl.Add(-10 * time.Millisecond)
	}
	body := req.Body
	if body != nil && body != http.NoBody {
		// The transport closes the body of a failed attempt; the client's
		// body must stay open for the next one.
		defer body.Close()
		req.Body = keepOpen{body}
	}
	wait := 25 * time.Millisecond
	for {
		res, err := t.next.RoundTrip(req)
		if err == nil || !errors.Is(err, syscall.ECONNREFUSED) || time.Now().Add(wait).After(deadline) {
			return res, err
		}
		timer := time.NewTimer(wait)
		select {
		case <-req.Context().Done():
			timer.Stop()
			return nil, err
		case <-timer.C:
		}
		wait = min(2*wait, 200*time.Millisecond)
	}
}

type keepOpen struct{ io.ReadCloser }

func (keepOpen) Close() error { return nil }
