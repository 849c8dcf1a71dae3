package gateway

import (
	"bytes"
	"sync"
)

// The big buffers of an embedded answer come from a pool (docs/performance.md,
// _embed): a 100-post page reads the list (~270 KB) and content's embed
// answer (~250 KB) and builds the embedded answer (~500 KB), 2 MB a request
// with the buffers' growth, and the collector tracing what that allocation
// rate set off was a fifth of the gateway's CPU on such a page. The buffers
// are taken when the answer is read and built, and given back when the
// proxy closes the answer's body, after its last byte was written; nothing
// keeps a slice of them past that (the edge cache copies what it records,
// and an embedded answer the edge cache keeps is not read into one).

// embedPoolMax is the largest buffer given back: a rare huge answer is
// left to the collector rather than held.
const embedPoolMax = 4 << 20

// embedPoolMin is the smallest buffer taken, so that the pool's buffers
// fit most of a page's needs.
const embedPoolMin = 64 << 10

var embedPool sync.Pool // of *[]byte

// embedBuffers are the pooled buffers one embedded answer holds; a nil
// *embedBuffers allocates plainly.
type embedBuffers struct {
	held []*[]byte
}

// get returns a buffer of length n, held until release.
func (b *embedBuffers) get(n int) []byte {
	if b == nil || n > embedPoolMax {
		return make([]byte, n)
	}
	p, _ := embedPool.Get().(*[]byte)
	if p == nil || cap(*p) < n {
		if p != nil {
			embedPool.Put(p) // another need may fit it
		}
		buf := make([]byte, max(n, embedPoolMin))
		p = &buf
	}
	b.held = append(b.held, p)
	return (*p)[:n]
}

// release gives every held buffer back; the caller no longer uses any.
func (b *embedBuffers) release() {
	if b == nil {
		return
	}
	for _, p := range b.held {
		if cap(*p) <= embedPoolMax {
			embedPool.Put(p)
		}
	}
	b.held = nil
}

// pooledBody is an embedded answer's body: its buffers go back to the
// pool when the proxy closes it.
type pooledBody struct {
	*bytes.Reader
	bufs *embedBuffers
}

func (p *pooledBody) Close() error {
	p.bufs.release()
	p.bufs = nil
	return nil
}
