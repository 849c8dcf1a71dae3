package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Demo data for `make run` (subcommand seed-demo). Idempotent: a database
// that already holds the demo posts is left alone. Everything is written in
// one transaction, by the bootstrap administrator (user id 1).

// SeedCounts is what SeedDemo wrote (zero when it found the data present).
type SeedCounts struct {
	Posts, Pages, Categories, Tags, Blocks, Navigation int
}

const demoAuthor = 1

var demoWords = strings.Fields(`lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor
incididunt ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco laboris nisi
aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate velit esse cillum fugiat nulla pariatur`)

func demoText(seed, words int) string {
	out := make([]string, words)
	for i := range out {
		out[i] = demoWords[(seed*7+i*3)%len(demoWords)]
	}
	return strings.Join(out, " ")
}

// SeedDemo writes the demo site: 200 posts, 20 pages, categories, tags, a
// navigation and a few reusable blocks with pattern categories.
func SeedDemo(ctx context.Context, pool *pgxpool.Pool, now time.Time) (SeedCounts, error) {
	var counts SeedCounts
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		// serialise concurrent seeders; the check below makes reruns no-ops
		if _, err := tx.Exec(ctx, `LOCK TABLE posts IN EXCLUSIVE MODE`); err != nil {
			return err
		}
		var existing int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM posts WHERE type = 'post' AND slug LIKE 'demo-post-%'`).Scan(&existing); err != nil {
			return err
		}
		if existing > 0 {
			return nil
		}
		d := &demoSeeder{ctx: ctx, tx: tx, now: now, counts: &counts}
		for _, step := range []func() error{d.terms, d.posts, d.pages, d.blocks, d.navigation} {
			if err := step(); err != nil {
				return err
			}
		}
		return nil
	})
	return counts, err
}

// demoSeeder writes the demo site's parts in one transaction, each step
// using the ids the ones before it wrote.
type demoSeeder struct {
	ctx                     context.Context
	tx                      pgx.Tx
	now                     time.Time
	counts                  *SeedCounts
	cats, tags, patternCats []int64
	parents                 []int64 // the top-level pages
}

func (d *demoSeeder) term(tax *Taxonomy, name string, parent int64) (int64, error) {
	var id int64
	err := d.tx.QueryRow(d.ctx, `INSERT INTO terms (taxonomy, name, slug, parent) VALUES ($1, $2, $3, $4)
				ON CONFLICT (taxonomy, slug) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
		tax.Name, name, SanitizeTitle(name), parent).Scan(&id)
	return id, err
}

// terms writes the categories (three below Engineering), tags, pattern
// categories and the main menu.
func (d *demoSeeder) terms() error {
	for _, t := range []struct {
		tax    *Taxonomy
		names  []string
		parent func() int64
		into   *[]int64
	}{
		{Category, []string{"Uncategorized", "News", "Engineering", "Design", "Business", "Culture"}, func() int64 { return 0 }, &d.cats},
		{Category, []string{"Go", "PostgreSQL", "Kubernetes"}, func() int64 { return d.cats[2] }, &d.cats},
		{Tag, tagNames(15), func() int64 { return 0 }, &d.tags},
		{PatternCategory, []string{"Headers", "Call to action"}, func() int64 { return 0 }, &d.patternCats},
		{Menu, []string{"Main menu"}, func() int64 { return 0 }, new([]int64)},
	} {
		for _, name := range t.names {
			id, err := d.term(t.tax, name, t.parent())
			if err != nil {
				return err
			}
			*t.into = append(*t.into, id)
		}
	}
	d.counts.Categories, d.counts.Tags = len(d.cats), len(d.tags)
	return nil
}

func tagNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("Tag %d", i+1)
	}
	return out
}

func (d *demoSeeder) insert(p *Post, terms ...int64) error {
	if err := InsertPost(d.ctx, d.tx, p); err != nil {
		return err
	}
	for _, t := range terms {
		if _, err := d.tx.Exec(d.ctx, `INSERT INTO term_relationships (post_id, term_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, p.ID, t); err != nil {
			return err
		}
	}
	return nil
}

func demoPost(pt *PostType, title, slug string, at time.Time) *Post {
	return &Post{Type: pt.Name, Status: "publish", Author: demoAuthor, DateGMT: at, ModifiedGMT: at, Slug: slug,
		Title: title, CommentStatus: pt.DefaultCommentStatus, PingStatus: pt.DefaultCommentStatus, Format: "standard"}
}

func (d *demoSeeder) posts() error {
	cats, tags := d.cats, d.tags
	for i := 1; i <= 200; i++ {
		at := d.now.Add(-time.Duration(201-i) * 6 * time.Hour)
		p := demoPost(TypePost, fmt.Sprintf("Demo post %d", i), fmt.Sprintf("demo-post-%d", i), at)
		p.PingStatus = "open"
		p.Content = fmt.Sprintf("<!-- wp:paragraph -->\n<p>%s</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:paragraph -->\n<p>%s</p>\n<!-- /wp:paragraph -->",
			demoText(i, 40), demoText(i+1, 50))
		p.Sticky = i == 200 || i == 150
		if i%25 == 0 {
			p.Format = "aside"
		}
		if err := d.insert(p, cats[i%len(cats)], tags[i%len(tags)], tags[(i*3)%len(tags)]); err != nil {
			return err
		}
		d.counts.Posts++
	}
	return nil
}

func (d *demoSeeder) pages() error {
	for i := 1; i <= 20; i++ {
		at := d.now.Add(-time.Duration(21-i) * 24 * time.Hour)
		p := demoPost(TypePage, fmt.Sprintf("Demo page %d", i), fmt.Sprintf("demo-page-%d", i), at)
		p.Content = "<!-- wp:paragraph -->\n<p>" + demoText(i*5, 60) + "</p>\n<!-- /wp:paragraph -->"
		p.MenuOrder = i
		if i > 5 {
			p.Parent = d.parents[i%5]
		}
		if err := d.insert(p); err != nil {
			return err
		}
		if i <= 5 {
			d.parents = append(d.parents, p.ID)
		}
		d.counts.Pages++
	}
	return nil
}

func (d *demoSeeder) blocks() error {
	for i, name := range []string{"Hero header", "Newsletter signup", "Contact call to action"} {
		p := demoPost(TypeBlock, name, SanitizeTitle(name), d.now.Add(-time.Duration(i)*time.Hour))
		p.Content = "<!-- wp:heading -->\n<h2>" + name + "</h2>\n<!-- /wp:heading -->"
		if i == 1 {
			p.SyncStatus = "unsynced"
		}
		if err := d.insert(p, d.patternCats[i%len(d.patternCats)]); err != nil {
			return err
		}
		d.counts.Blocks++
	}
	return nil
}

func (d *demoSeeder) navigation() error {
	nav := demoPost(TypeNavigation, "Main navigation", "main-navigation", d.now)
	var links []string
	for i := 1; i <= 3; i++ {
		// The url as the editor writes one (the website follows the id): a
		// link without it is "Select page" in the site editor's canvas.
		links = append(links, fmt.Sprintf(`<!-- wp:navigation-link {"label":"Demo page %d","type":"page","id":%d,"url":"/?page_id=%d","kind":"post-type"} /-->`,
			i, d.parents[i-1], d.parents[i-1]))
	}
	nav.Content = strings.Join(links, "\n")
	if err := d.insert(nav); err != nil {
		return err
	}
	d.counts.Navigation = 1
	return nil
}
