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
		term := func(tax *Taxonomy, name string, parent int64) (int64, error) {
			var id int64
			err := tx.QueryRow(ctx, `INSERT INTO terms (taxonomy, name, slug, parent) VALUES ($1, $2, $3, $4)
				ON CONFLICT (taxonomy, slug) DO UPDATE SET name = EXCLUDED.name RETURNING id`,
				tax.Name, name, SanitizeTitle(name), parent).Scan(&id)
			return id, err
		}
		var cats, tags, patternCats []int64
		for _, name := range []string{"Uncategorized", "News", "Engineering", "Design", "Business", "Culture"} {
			id, err := term(Category, name, 0)
			if err != nil {
				return err
			}
			cats = append(cats, id)
		}
		for _, name := range []string{"Go", "PostgreSQL", "Kubernetes"} {
			id, err := term(Category, name, cats[2])
			if err != nil {
				return err
			}
			cats = append(cats, id)
		}
		for i := 1; i <= 15; i++ {
			id, err := term(Tag, fmt.Sprintf("Tag %d", i), 0)
			if err != nil {
				return err
			}
			tags = append(tags, id)
		}
		for _, name := range []string{"Headers", "Call to action"} {
			id, err := term(PatternCategory, name, 0)
			if err != nil {
				return err
			}
			patternCats = append(patternCats, id)
		}
		if _, err := term(Menu, "Main menu", 0); err != nil {
			return err
		}
		counts.Categories, counts.Tags = len(cats), len(tags)

		insert := func(p *Post, terms ...int64) error {
			if err := InsertPost(ctx, tx, p); err != nil {
				return err
			}
			for _, t := range terms {
				if _, err := tx.Exec(ctx, `INSERT INTO term_relationships (post_id, term_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, p.ID, t); err != nil {
					return err
				}
			}
			return nil
		}
		base := func(pt *PostType, title, slug string, at time.Time) *Post {
			return &Post{Type: pt.Name, Status: "publish", Author: demoAuthor, DateGMT: at, ModifiedGMT: at, Slug: slug,
				Title: title, CommentStatus: pt.DefaultCommentStatus, PingStatus: pt.DefaultCommentStatus, Format: "standard"}
		}
		for i := 1; i <= 200; i++ {
			at := now.Add(-time.Duration(201-i) * 6 * time.Hour)
			p := base(TypePost, fmt.Sprintf("Demo post %d", i), fmt.Sprintf("demo-post-%d", i), at)
			p.PingStatus = "open"
			p.Content = fmt.Sprintf("<!-- wp:paragraph -->\n<p>%s</p>\n<!-- /wp:paragraph -->\n\n<!-- wp:paragraph -->\n<p>%s</p>\n<!-- /wp:paragraph -->",
				demoText(i, 40), demoText(i+1, 50))
			p.Sticky = i == 200 || i == 150
			if i%25 == 0 {
				p.Format = "aside"
			}
			if err := insert(p, cats[i%len(cats)], tags[i%len(tags)], tags[(i*3)%len(tags)]); err != nil {
				return err
			}
			counts.Posts++
		}
		var parents []int64
		for i := 1; i <= 20; i++ {
			at := now.Add(-time.Duration(21-i) * 24 * time.Hour)
			p := base(TypePage, fmt.Sprintf("Demo page %d", i), fmt.Sprintf("demo-page-%d", i), at)
			p.Content = "<!-- wp:paragraph -->\n<p>" + demoText(i*5, 60) + "</p>\n<!-- /wp:paragraph -->"
			p.MenuOrder = i
			if i > 5 {
				p.Parent = parents[i%5]
			}
			if err := insert(p); err != nil {
				return err
			}
			if i <= 5 {
				parents = append(parents, p.ID)
			}
			counts.Pages++
		}
		for i, name := range []string{"Hero header", "Newsletter signup", "Contact call to action"} {
			p := base(TypeBlock, name, SanitizeTitle(name), now.Add(-time.Duration(i)*time.Hour))
			p.Content = "<!-- wp:heading -->\n<h2>" + name + "</h2>\n<!-- /wp:heading -->"
			if i == 1 {
				p.SyncStatus = "unsynced"
			}
			if err := insert(p, patternCats[i%len(patternCats)]); err != nil {
				return err
			}
			counts.Blocks++
		}
		nav := base(TypeNavigation, "Main navigation", "main-navigation", now)
		var links []string
		for i := 1; i <= 3; i++ {
			links = append(links, fmt.Sprintf(`<!-- wp:navigation-link {"label":"Demo page %d","type":"page","id":%d,"kind":"post-type"} /-->`, i, parents[i-1]))
		}
		nav.Content = strings.Join(links, "\n")
		if err := insert(nav); err != nil {
			return err
		}
		counts.Navigation = 1
		return nil
	})
	return counts, err
}
