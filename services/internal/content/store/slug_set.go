package store

import (
	"context"
	"fmt"
)

// SlugRow is one post holding a slug.
type SlugRow struct {
	ID, parent int64
	Slug       string
}

// SlugSet is what a batch knows about the slugs of its post types: for
// each type, the slugs all of whose posts it holds (covered), and those
// posts.
type SlugSet struct {
	Covered map[string]map[string]bool // type → slug
	Rows    map[string][]SlugRow       // type → posts holding a covered slug (and those the batch wrote)
}

// WithSlugSet returns ctx carrying the batch's slug set.
func WithSlugSet(ctx context.Context, s *SlugSet) context.Context {
	return context.WithValue(ctx, slugSetKey{}, s)
}

// SlugSetFrom is the slug set ctx carries; nil outside a batch of creates.
func SlugSetFrom(ctx context.Context) *SlugSet {
	s, _ := ctx.Value(slugSetKey{}).(*SlugSet)
	return s
}

// Free is freeSlugs for one want, from the set: the first candidate (in
// wp_unique_post_slug's order) no other post of the scope holds. ok is
// false when a candidate it reaches is not covered (the database decides).
func (s *SlugSet) Free(pt *PostType, w SlugWant) (slug string, ok bool) {
	covered := s.Covered[pt.Name]
	if covered == nil {
		return "", false
	}
	rows := s.Rows[pt.Name]
	taken := func(c string) bool {
		for _, r := range rows {
			if r.Slug == c && r.ID != w.id && (!pt.Hierarchical || r.parent == w.Parent) {
				return true
			}
		}
		return false
	}
	for n := 0; ; n++ {
		var c string
		switch {
		case n == 0:
			first := RoundCandidates(pt, w, 0, 0) // the slug itself, unless WordPress never hands it out
			if len(first) == 0 {
				continue
			}
			c = first[0]
		case n == 1:
			continue // suffixes start at -2
		default:
			c = SlugCandidate(w.Slug, n)
		}
		if !covered[c] {
			return "", false
		}
		if !taken(c) {
			return c, true
		}
	}
}

// Add records a post the batch wrote.
func (s *SlugSet) Add(pt *PostType, id, parent int64, slug string) {
	if slug != "" && s.Covered[pt.Name] != nil {
		s.Rows[pt.Name] = append(s.Rows[pt.Name], SlugRow{ID: id, parent: parent, Slug: slug})
	}
}

// SlugGuess is a slug a batch's creates will likely look up, and how many
// of them may.
type SlugGuess struct {
	Pt   *PostType
	Slug string
	Uses int
}

// ReadSlugSet reads, in one statement, every post holding one of the
// guessed slugs or their suffixed forms.
func ReadSlugSet(ctx context.Context, q Querier, guesses []SlugGuess) (*SlugSet, error) {
	set := &SlugSet{Covered: map[string]map[string]bool{}, Rows: map[string][]SlugRow{}}
	var types, slugs []string
	for _, b := range guesses {
		cov := set.Covered[b.Pt.Name]
		if cov == nil {
			cov = map[string]bool{}
			set.Covered[b.Pt.Name] = cov
		}
		// the slug and as many suffixed forms as the batch has creates of it,
		// plus one (a title already taken once is common). A slug with more
		// rivals than that is looked up in the database; reading more ahead
		// for every title cost more than those lookups.
		w := SlugWant{Slug: b.Slug}
		for _, c := range RoundCandidates(b.Pt, w, 0, b.Uses+1) {
			if !cov[c] {
				cov[c] = true
				types, slugs = append(types, b.Pt.Name), append(slugs, c)
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
		var r SlugRow
		if err := rows.Scan(&typ, &r.ID, &r.parent, &r.Slug); err != nil {
			return nil, fmt.Errorf("read slugs ahead: %w", err)
		}
		set.Rows[typ] = append(set.Rows[typ], r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read slugs ahead: %w", err)
	}
	return set, nil
}

type slugSetKey struct{}
