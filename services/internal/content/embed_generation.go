package content

import (
	"context"
	"strings"
	"time"

	"siteplane.dev/services/internal/platform/postgres"
)

// Embed answers kept for one change generation (docs/performance.md,
// _embed). The kept answers of embed_answers.go are checked field by field
// against rows read ahead: three statements for every page, which were most
// of PostgreSQL's and a third of content's CPU on a 100-post _embed whose
// answers had not changed. An anonymous caller's answer to a read is a
// function of the site's data only, and every committed write of any
// service is announced on the site's change channel, whose generation the
// website's snapshot follows (website.Handler.Generation: a notification,
// this service's own commit, a settings swap, the listener going on or off
// line each start a new one). So, as the website's snapshot and the
// gateway's edge cache do, the answers an anonymous embed call gave are
// kept for the generation read before its reads, and a call whose every
// read has an answer of the current generation is answered from them
// without a statement. A write committed before a read began is in it; one
// committed after moves the generation past the answers, which are never
// used again. While the listener is offline, or when the reads may go to a
// replica (its replay position is not compared with the newest write's, as
// the website's snapshot does), nothing is kept and every call reads as
// before.

// embedGenMaxBytes bounds one generation's kept answers: a 100-post page's
// are ~250 KB; past the bound answers are not kept (computed again next
// time), as the website's snapshot stops growing.
const embedGenMaxBytes = 8 << 20

// embedGenAnswers are the answers of one generation (embedAnswers.gen).
type embedGenAnswers struct {
	gen uint64
	loc *time.Location
	m   map[string]genAnswer // by line: method and path
	// frames are whole answers by request: a page asked again is one
	// lookup and one write
	frames map[string][]byte
	bytes  int
}

// genAnswer is one read's status and body.
type genAnswer struct {
	status int
	body   []byte
}

// embedGenerationOf is the generation whose answers the call may use and
// keep; ok is false when none may be (a logged-in caller, the listener
// offline, reads that may go to a replica). The generation is read after
// the listener's state and before any read: a change either way moves it.
func (s *Service) embedGenerationOf(ctx context.Context, anonymous bool) (uint64, bool) {
	if !anonymous || s.web == nil || postgres.RouteFrom(ctx) != nil || !s.web.Online() {
		return 0, false
	}
	return s.web.Generation(), true
}

// currentGen is the kept answers when they are gen's and may be used
// (the caller holds embedAnswers.mu); nil otherwise.
func (s *Service) currentGen(gen uint64) *embedGenAnswers {
	g := s.embedAnswers.gen
	if g == nil || g.gen != gen || g.loc != s.location() || !s.web.Online() {
		return nil
	}
	return g
}

// genAnswers are the answers of every line (embedLines) kept for gen, in
// order; ok is false when one is missing (the call is then answered as
// before, and its answers kept).
func (s *Service) genAnswers(gen uint64, lines []string) ([]genAnswer, bool) {
	s.embedAnswers.mu.RLock()
	defer s.embedAnswers.mu.RUnlock()
	g := s.currentGen(gen)
	if g == nil {
		return nil, false
	}
	out := make([]genAnswer, len(lines))
	for i, line := range lines {
		ans, ok := g.m[line]
		if !ok {
			return nil, false
		}
		out[i] = ans
	}
	return out, true
}

// genFrame is the whole answer kept for gen to the request body.
func (s *Service) genFrame(gen uint64, body []byte) ([]byte, bool) {
	s.embedAnswers.mu.RLock()
	defer s.embedAnswers.mu.RUnlock()
	g := s.currentGen(gen)
	if g == nil {
		return nil, false
	}
	f, ok := g.frames[string(body)] // looked up without a copy of body
	return f, ok
}

// keepGenAnswers keeps a call's answers, and its whole answer (frame, to
// the request body), for gen (read before its reads): those a failure may
// have made (5xx) are not kept, nor a frame holding one. A generation that
// has moved on meanwhile keeps nothing; a newer one replaces the older.
func (s *Service) keepGenAnswers(gen uint64, loc *time.Location, lines []string, answers []genAnswer, body string, frame []byte) {
	if s.web.Generation() != gen {
		return
	}
	a := &s.embedAnswers
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.gen == nil || a.gen.gen < gen || a.gen.loc != loc {
		a.gen = &embedGenAnswers{gen: gen, loc: loc, m: make(map[string]genAnswer, len(lines)), frames: map[string][]byte{}}
	}
	g := a.gen
	if g.gen != gen {
		return // a newer generation's answers are kept already
	}
	whole := true
	for i, line := range lines {
		ans := answers[i]
		if ans.status >= 500 || g.bytes+len(ans.body) > embedGenMaxBytes {
			whole = false
			continue
		}
		if _, ok := g.m[line]; !ok {
			key := strings.Clone(line) // not a slice of the whole request
			g.m[key] = ans
			g.bytes += len(key) + len(ans.body)
		}
	}
	if _, ok := g.frames[body]; whole && !ok && g.bytes+len(body)+len(frame) <= embedGenMaxBytes {
		g.frames[body] = frame
		g.bytes += len(body) + len(frame)
	}
}
