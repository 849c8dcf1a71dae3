package content

import (
	"context"
	"fmt"
)

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

// slugGuess is a slug a batch's creates will likely look up, and how many
// of them may.
type slugGuess struct {
	pt   *PostType
	slug string
	uses int
}

// readSlugSet reads, in one statement, every post holding one of the
// guessed slugs or their suffixed forms.
func readSlugSet(ctx context.Context, q querier, guesses []slugGuess) (*slugSet, error) {
	set := &slugSet{covered: map[string]map[string]bool{}, rows: map[string][]slugRow{}}
	var types, slugs []string
	for _, b := range guesses {
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
		for _, c := range roundCandidates(b.pt, w, 0, b.uses+1) {
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

type slugSetKey struct{}
