package content

import (
	"context"
	"net/http"
	"strings"

	"siteplane.dev/services/internal/content/store"
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

// createType is the post type a batch call creates a post of, or nil when
// the call is anything else. The query must be empty and no method
// override header present (either could turn the POST into another method).
func createType(c rest.Call) *store.PostType {
	if c.Method != http.MethodPost || strings.Contains(c.Path, "?") || c.Header.Get("X-HTTP-Method-Override") != "" {
		return nil
	}
	base, ok := strings.CutPrefix(c.Path, "/"+Namespace+"/")
	if !ok {
		return nil
	}
	for _, pt := range store.PostTypes {
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
		out = append(out, store.SanitizeTitle(s))
	}
	switch t := body["title"].(type) {
	case string:
		out = append(out, store.SanitizeTitle(t))
	case map[string]any:
		if raw, ok := t["raw"].(string); ok {
			out = append(out, store.SanitizeTitle(raw))
		}
	}
	return out
}

// readSlugsAhead returns the slug set of a batch made only of creates (nil
// for any other batch, or one with nothing to guess), read in one
// statement through q.
func readSlugsAhead(ctx context.Context, q store.Querier, calls []rest.Call) (*store.SlugSet, error) {
	type base struct {
		pt   *store.PostType
		slug string
	}
	at := map[base]int{}
	var guesses []store.SlugGuess
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
			i, ok := at[b]
			if !ok {
				i = len(guesses)
				at[b] = i
				guesses = append(guesses, store.SlugGuess{Pt: pt, Slug: slug})
			}
			guesses[i].Uses++
		}
	}
	if len(guesses) == 0 {
		return nil, nil
	}
	return store.ReadSlugSet(ctx, q, guesses)
}
