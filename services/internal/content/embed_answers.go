package content

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// The gateway's _embed reads (contract.EmbedPath; docs/performance.md,
// _embed). A page of 100 posts embeds ~300 lookups of content —
// categories?post=ID, tags?post=ID, comments?post=ID — which the batch
// endpoint ran one by one through the route kit (matching, parsing and
// validating the query, the permission check, encoding the list): two
// thirds of content's CPU on such a page, for answers that rarely change.
// The embed endpoint reads the page's posts, terms and replies ahead in
// three statements, as the batch does (terms_ahead.go), and answers an
// anonymous caller's plain lookup from the answer the kit gave last time,
// kept with what it was made from (the post, the rows the lookup lists,
// the time zone) and used only while what was read now equals that field
// for field, like the encoded posts and terms (post_cache.go,
// term_cache.go): a change made anywhere, even in SQL, is answered anew by
// the next read that sees it, and nothing needs invalidating. Every other
// call, and every call of a logged-in caller, runs through the kit as on
// the batch endpoint. The answer is each response's status and body,
// framed, not JSON: the gateway copies the bodies without scanning them.

// maxEmbedBody bounds the request: a thousand lookups (the gateway's cap on
// one answer's links) are ~100 KB.
const maxEmbedBody = 4 << 20

// embedAnswersMax bounds the kept answers: a lookup's is a few hundred
// bytes to a few KB (three comments), so at most a few MiB.
const embedAnswersMax = 4096

// embedAnswer is a lookup's answer with what it was made from.
type embedAnswer struct {
	loc      *time.Location
	post     *store.Post // postOf's copy; nil: no such post
	terms    []store.Term
	comments []store.Comment
	status   int
	body     []byte
}

// embedAnswers is the cache (Service.embedAnswers), keyed by method and
// path, and the posts its answers were made of (postOf).
type embedAnswers struct {
	mu    sync.RWMutex
	m     map[string]*embedAnswer
	posts map[int64]*store.Post
	// gen: the answers of the current change generation (embed_generation.go)
	gen *embedGenAnswers
}

// EmbedHandler serves contract.EmbedPath with srv's routes.
func (s *Service) EmbedHandler(srv *rest.Server) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			rest.WriteError(w, rest.NoRoute())
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, maxEmbedBody))
		if err != nil {
			rest.WriteErrorCode(w, r, http.StatusBadRequest, "rest_invalid_param", "The embed request could not be read.")
			return
		}
		anonymous := !identity.FromContext(r.Context()).LoggedIn()
		gen, keep := s.embedGenerationOf(r.Context(), anonymous)
		if keep {
			if frame, ok := s.genFrame(gen, body); ok {
				writeFrame(w, frame)
				return
			}
		}
		lines, ok := embedLines(string(body))
		if !ok {
			rest.WriteErrorCode(w, r, http.StatusBadRequest, "rest_invalid_param", "The embed endpoint runs reads only.")
			return
		}
		var answers []genAnswer
		kept := false
		if keep {
			answers, kept = s.genAnswers(gen, lines)
		}
		loc := s.location()
		if !kept {
			answers = s.embedRound(r.Context(), srv, callsOf(lines), anonymous)
		}
		frame := frameAnswers(answers)
		if keep {
			s.keepGenAnswers(gen, loc, lines, answers, string(body), frame)
		}
		writeFrame(w, frame)
	})
}

// frameAnswers is the endpoint's answer: each read's status and body,
// framed (contract.EmbedPath).
func frameAnswers(answers []genAnswer) []byte {
	size := 0
	for _, a := range answers {
		size += len(a.body) + 16
	}
	out := make([]byte, 0, size) // one allocation, not a page's worth of doublings
	for _, a := range answers {
		out = strconv.AppendInt(out, int64(a.status), 10)
		out = append(out, ' ')
		out = strconv.AppendInt(out, int64(len(a.body)), 10)
		out = append(out, '\n')
		out = append(out, a.body...)
	}
	return out
}

// writeFrame sends a framed answer.
func writeFrame(w http.ResponseWriter, frame []byte) {
	w.Header().Set("Content-Type", contract.EmbedContentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(frame)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(frame)
}

// embedRound answers calls as the batch endpoint would: the page's
// posts, terms and replies read ahead, each call answered from the kept
// answers or by the kit.
func (s *Service) embedRound(ctx context.Context, srv *rest.Server, calls []rest.Call, anonymous bool) []genAnswer {
	ctx = s.readAhead(ctx, calls)
	round := &embedRound{anonymous: anonymous, posts: map[int64]*store.Post{}}
	answers := make([]genAnswer, len(calls))
	for i, call := range calls {
		answers[i].status, answers[i].body = s.embedAnswer(ctx, srv, call, round)
	}
	return answers
}

// embedCalls are the in-process calls of the request's lines
// (contract.EmbedPath), as the batch endpoint makes them; ok is false when
// one is not a read.
func embedCalls(body string) ([]rest.Call, bool) {
	lines, ok := embedLines(body)
	if !ok {
		return nil, false
	}
	return callsOf(lines), true
}

// embedLines are the request's lines, each "METHOD /path?query" (what the
// kept answers are keyed by); ok is false when one is not a read.
func embedLines(body string) ([]string, bool) {
	lines := make([]string, 0, strings.Count(body, "\n")+1)
	for line := range strings.SplitSeq(strings.TrimSuffix(body, "\n"), "\n") {
		method, path, _ := strings.Cut(line, " ")
		if (method != http.MethodGet && method != http.MethodHead) || !strings.HasPrefix(path, "/") {
			return nil, false
		}
		lines = append(lines, line)
	}
	return lines, true
}

// callsOf are the calls of valid lines (embedLines).
func callsOf(lines []string) []rest.Call {
	calls := make([]rest.Call, len(lines))
	for i, line := range lines {
		method, path, _ := strings.Cut(line, " ")
		calls[i] = rest.Call{Method: method, Path: path, Header: http.Header{}}
	}
	return calls
}

// embedRound is one call of the endpoint: whether its caller is anonymous
// and the posts it read ahead as kept answers hold them (postOf).
type embedRound struct {
	anonymous bool
	posts     map[int64]*store.Post
}

// postOf is the kept copy of p (nil for none) when it equals the row read
// now, else a new copy, which the answers made of it keep: a page's three
// lookups of a post compare its row once, and their kept answers by
// pointer.
func (s *Service) postOf(round *embedRound, id int64, p *store.Post) *store.Post {
	if p == nil {
		return nil
	}
	if kept, ok := round.posts[id]; ok {
		return kept
	}
	s.embedAnswers.mu.RLock()
	kept := s.embedAnswers.posts[id]
	s.embedAnswers.mu.RUnlock()
	if kept == nil || !reflect.DeepEqual(kept, p) {
		row := *p
		kept = &row
		s.embedAnswers.mu.Lock()
		if s.embedAnswers.posts == nil || len(s.embedAnswers.posts) >= embedAnswersMax {
			s.embedAnswers.posts = make(map[int64]*store.Post)
		}
		s.embedAnswers.posts[id] = kept
		s.embedAnswers.mu.Unlock()
	}
	round.posts[id] = kept
	return kept
}

// embedAnswer is call's status and body: kept, or from the kit.
func (s *Service) embedAnswer(ctx context.Context, srv *rest.Server, call rest.Call, round *embedRound) (int, []byte) {
	now, keyable := s.embedInputs(ctx, call, round)
	if keyable {
		now.loc = s.location()
		key := call.Method + " " + call.Path
		s.embedAnswers.mu.RLock()
		kept := s.embedAnswers.m[key]
		s.embedAnswers.mu.RUnlock()
		if kept != nil && sameInputs(kept, now) {
			return kept.status, kept.body
		}
		now.status, now.body = kitAnswer(ctx, srv, call)
		s.keepEmbedAnswer(key, now)
		return now.status, now.body
	}
	return kitAnswer(ctx, srv, call)
}

// kitAnswer runs call through the route kit, as the batch endpoint does.
func kitAnswer(ctx context.Context, srv *rest.Server, call rest.Call) (int, []byte) {
	res := srv.Do(ctx, call)
	if len(bytes.TrimSpace(res.Body)) == 0 {
		return res.Status, []byte("null")
	}
	return res.Status, res.Body
}

// embedInputs is what call's answer is made of, read ahead: ok is false
// when the answer may depend on more (a logged-in caller's capabilities, a
// call that is not a plain lookup, a post or rows not read ahead).
func (s *Service) embedInputs(ctx context.Context, call rest.Call, round *embedRound) (*embedAnswer, bool) {
	a, _ := ctx.Value(termsAheadKey{}).(*termsAhead)
	if !round.anonymous || a == nil {
		return nil, false
	}
	base, id := postLookup(call)
	p, ok := a.posts[id]
	if base == "" || !ok {
		return nil, false
	}
	in := &embedAnswer{post: s.postOf(round, id, p)}
	switch tax := taxonomyOf(base); {
	case base == "comments" && a.replied[id]:
		for _, m := range a.replies[id] {
			in.comments = append(in.comments, *m)
		}
	case tax != nil && a.taxes[tax.Name]:
		for _, t := range a.terms[tax.Name][id] {
			in.terms = append(in.terms, *t)
		}
	default:
		return nil, false
	}
	return in, true
}

// sameInputs reports whether kept was made from what was read now.
func sameInputs(kept, now *embedAnswer) bool {
	return kept.loc == now.loc && kept.post == now.post &&
		reflect.DeepEqual(kept.terms, now.terms) && reflect.DeepEqual(kept.comments, now.comments)
}

// keepEmbedAnswer keeps an answer; a full cache is emptied first.
func (s *Service) keepEmbedAnswer(key string, a *embedAnswer) {
	s.embedAnswers.mu.Lock()
	defer s.embedAnswers.mu.Unlock()
	if s.embedAnswers.m == nil || len(s.embedAnswers.m) >= embedAnswersMax {
		s.embedAnswers.m = make(map[string]*embedAnswer)
	}
	s.embedAnswers.m[key] = a
}
