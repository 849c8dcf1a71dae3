package content

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"siteplane.dev/services/internal/platform/rest"
)

// Slugs read ahead for an all-or-nothing batch of creates
// (docs/performance.md#batches-of-creates). Every create looks up the slugs
// in use before its one write statement (uniqueSlug); in a batch of 25
// creates that was 25 extra round trips. When every request of the batch is
// a create, beginBatch reads, in one statement, every post holding one of
// the slugs the creates will most likely ask about (each title's slug and
// its suffixed forms, as many as the batch could need). uniqueSlug answers
// from that set as long as every candidate it has to look at is in it, and
// each create adds the post it wrote, so item k sees items 1..k-1 exactly as
// a statement would. Anything it does not cover (a title kses changed, more
// rivals than read ahead) goes to the database as before: the set only
// saves statements, it never decides on partial knowledge.
//
// Only batches made of creates get one: a create writes nothing but its own
// post, so no other statement of the batch can change which slugs are taken.

// slugRow is one post holding a slug.
type slugRow struct {
	id, parent int64
	slug       string
}

// slugSet is what a batch knows about the slugs of its post types: for
// each type, the slugs all of whose posts it holds (covered), and those
// posts.
type slugSet struct {
	covered map[string]map[string]bool // type → slug
	rows    map[string][]slugRow       // type → posts holding a covered slug (and those the batch wrote)
}

type slugSetKey struct{}

func withSlugSet(ctx context.Context, s *slugSet) context.Context {
	return context.WithValue(ctx, slugSetKey{}, s)
}

func slugSetFrom(ctx context.Context) *slugSet {
	s, _ := ctx.Value(slugSetKey{}).(*slugSet)
	return s
}

// free is freeSlugs for one want, from the set: the first candidate (in
// wp_unique_post_slug's order) no other post of the scope holds. ok is
// false when a candidate it reaches is not covered (the database decides).
func (s *slugSet) free(pt *PostType, w slugWant) (slug string, ok bool) {
	covered := s.covered[pt.Name]
	if covered == nil {
		return "", false
	}
	rows := s.rows[pt.Name]
	taken := func(c string) bool {
		for _, r := range rows {
			if r.slug == c && r.id != w.id && (!pt.Hierarchical || r.parent == w.parent) {
				return true
			}
		}
		return false
	}
	for n := 0; ; n++ {
		var c string
		switch {
		case n == 0:
			first := roundCandidates(pt, w, 0, 0) // the slug itself, unless WordPress never hands it out
			if len(first) == 0 {
				continue
			}
			c = first[0]
		case n == 1:
			continue // suffixes start at -2
		default:
			c = slugCandidate(w.slug, n)
		}
		if !covered[c] {
			return "", false
		}
		if !taken(c) {
			return c, true
		}
	}
}

// add records a post the batch wrote.
func (s *slugSet) add(pt *PostType, id, parent int64, slug string) {
	if slug != "" && s.covered[pt.Name] != nil {
		s.rows[pt.Name] = append(s.rows[pt.Name], slugRow{id: id, parent: parent, slug: slug})
	}
}

// createType is the post type a batch call creates a post of, or nil when
// the call is anything else. The query must be empty and no method
// override header present (either could turn the POST into another method).
func createType(c rest.Call) *PostType {
	if c.Method != http.MethodPost || strings.Contains(c.Path, "?") || c.Header.Get("X-HTTP-Method-Override") != "" {
		return nil
	}
	base, ok := strings.CutPrefix(c.Path, "/"+Namespace+"/")
	if !ok {
		return nil
	}
	for _, pt := range PostTypes {
		if pt.Base == base {
			return pt
		}
	}
	return nil
}

// guessSlugs are the slugs a create will most likely look up: its slug
// parameter's and its title's (generated_slug starts from the title even
// when a slug is given). Titles are taken before kses; when kses changes
// one, the guess just misses.
func guessSlugs(body map[string]any) []string {
	var out []string
	if s, ok := body["slug"].(string); ok {
		out = append(out, sanitizeTitle(s))
	}
	switch t := body["title"].(type) {
	case string:
		out = append(out, sanitizeTitle(t))
	case map[string]any:
		if raw, ok := t["raw"].(string); ok {
			out = append(out, sanitizeTitle(raw))
		}
	}
	return out
}

// readSlugsAhead returns the slug set of a batch made only of creates (nil
// for any other batch, or one with nothing to guess), read in one
// statement through q.
func readSlugsAhead(ctx context.Context, q querier, calls []rest.Call) (*slugSet, error) {
	type base struct {
		pt   *PostType
		slug string
	}
	uses := map[base]int{}
	var order []base
	for _, c := range calls {
		pt := createType(c)
		if pt == nil {
			return nil, nil
		}
		for _, slug := range guessSlugs(c.Body) {
			b := base{pt, slug}
			if b.slug == "" {
				continue
			}
			if uses[b] == 0 {
				order = append(order, b)
			}
			uses[b]++
		}
	}
	if len(order) == 0 {
		return nil, nil
	}
	set := &slugSet{covered: map[string]map[string]bool{}, rows: map[string][]slugRow{}}
	var types, slugs []string
	for _, b := range order {
		cov := set.covered[b.pt.Name]
		if cov == nil {
			cov = map[string]bool{}
			set.covered[b.pt.Name] = cov
		}
		// the slug and as many suffixed forms as the batch has creates of it,
		// plus one (a title already taken once is common). A slug with more
		// rivals than that is looked up in the database; reading more ahead
		// for every title cost more than those lookups.
		w := slugWant{slug: b.slug}
		for _, c := range roundCandidates(b.pt, w, 0, uses[b]+1) {
			if !cov[c] {
				cov[c] = true
				types, slugs = append(types, b.pt.Name), append(slugs, c)
			}
		}
	}
	rows, err := q.Query(ctx, `SELECT p.type, p.id, p.parent, p.slug FROM unnest($1::text[], $2::text[]) w(type, slug)
		JOIN posts p ON p.type = w.type AND p.slug = w.slug`, types, slugs)
	if err != nil {
		return nil, fmt.Errorf("read slugs ahead: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var typ string
		var r slugRow
		if err := rows.Scan(&typ, &r.id, &r.parent, &r.slug); err != nil {
			return nil, fmt.Errorf("read slugs ahead: %w", err)
		}
		set.rows[typ] = append(set.rows[typ], r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read slugs ahead: %w", err)
	}
	return set, nil
}
