package gateway

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"

	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/pkg/contract"
)

// Content's embed endpoint (contract.EmbedPath; docs/performance.md,
// _embed): the same reads as a batch of GETs, answered as each response's
// status and body framed one after the other. Through BatchPath the gateway
// validated the whole ~500 KB JSON answer of a 100-post page, scanned it
// apart and decoded each response's headers, which _embed never uses: a
// fifth of its CPU on such a page. The framed bodies are sliced out by
// their lengths and embedded as they are, as the batch's were.

// framedAnswer is one response of an EmbedPath answer.
type framedAnswer struct {
	status int
	body   []byte
}

var errFrame = errors.New("malformed embed answer")

// postEmbed runs targets on b's EmbedPath; an error (a service without
// the endpoint answers 404, an old replica during a rollout) sends the
// caller back to BatchPath.
// The answer is read into a buffer of bufs.
func (g *Gateway) postEmbed(ctx context.Context, b *routing.Backend, targets []embedTarget, bufs *embedBuffers) ([]framedAnswer, error) {
	var lines bytes.Buffer
	size := 0
	for _, t := range targets {
		size += len(t.route) + len(t.query) + 6
	}
	lines.Grow(size)
	for _, t := range targets {
		lines.WriteString("GET ")
		lines.WriteString(t.route)
		if t.query != "" {
			lines.WriteByte('?')
			lines.WriteString(t.query)
		}
		lines.WriteByte('\n')
	}
	body, ctype, err := g.postInternalRaw(ctx, b, contract.EmbedPath, lines.Bytes(), contract.EmbedRequestType, bufs)
	if err != nil {
		return nil, err
	}
	if ctype != contract.EmbedContentType {
		return nil, fmt.Errorf("%s%s answered %q", b.Name, contract.EmbedPath, ctype)
	}
	return splitFramed(body, len(targets))
}

// splitFramed splits an EmbedPath answer into its n responses; the bodies
// are slices of b.
func splitFramed(b []byte, n int) ([]framedAnswer, error) {
	out := make([]framedAnswer, 0, n)
	for len(b) > 0 {
		line, rest, ok := bytes.Cut(b, []byte{'\n'})
		if !ok {
			return nil, errFrame
		}
		st, size, ok := bytes.Cut(line, []byte{' '})
		if !ok {
			return nil, errFrame
		}
		status, err := strconv.Atoi(string(st))
		if err != nil || status < 100 || status > 999 {
			return nil, errFrame
		}
		length, err := strconv.Atoi(string(size))
		if err != nil || length < 0 || length > len(rest) {
			return nil, errFrame
		}
		out = append(out, framedAnswer{status: status, body: rest[:length:length]})
		b = rest[length:]
	}
	if len(out) != n {
		return nil, errFrame
	}
	return out, nil
}

// readBody reads at most limit bytes of r, whose length is n when n >= 0
// (a Content-Length): into one buffer of that size rather than through
// io.ReadAll's doublings, which were a third of the bytes the gateway
// allocated on an _embed page (its list and content's embed answer).
func readBody(r io.Reader, n, limit int64) ([]byte, error) {
	return readBodyInto(r, n, limit, nil)
}

// readBodyInto is readBody into a buffer of bufs (embedpool.go).
func readBodyInto(r io.Reader, n, limit int64, bufs *embedBuffers) ([]byte, error) {
	if n < 0 || n > limit {
		return io.ReadAll(io.LimitReader(r, limit))
	}
	buf := bufs.get(int(n))
	if _, err := io.ReadFull(r, buf); err != nil {
		return nil, err
	}
	return buf, nil
}
