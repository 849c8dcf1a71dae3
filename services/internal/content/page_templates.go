package content

import (
	"context"
	"slices"
	"strings"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/content/theme"
	"siteplane.dev/services/internal/platform/rest"
)

// pageTemplates is get_page_templates() for a block theme: the templates a
// post of postType may name in its template field. They are the custom
// templates the site stored (newest first; WordPress offers a template made
// in the site editor to every post type), then the theme's own
// customTemplates whose postTypes include postType (["page"] when theme.json
// names none, as WordPress defaults them).
func (s *Service) pageTemplates(ctx context.Context, q store.Querier, postType string) ([]string, error) {
	th := s.activeTheme()
	rows, err := store.ListTmplRows(ctx, q, "wp_template", th.Stylesheet)
	if err != nil {
		return nil, err
	}
	var out []string
	for i := len(rows) - 1; i >= 0; i-- {
		slug := rows[i].Slug
		if _, file := th.Template(slug); !file && theme.IsCustomSlug(slug) && !slices.Contains(out, slug) {
			out = append(out, slug)
		}
	}
	for _, f := range th.Templates {
		if !f.Custom {
			continue
		}
		types := f.PostTypes
		if len(types) == 0 {
			types = []string{"page"}
		}
		if slices.Contains(types, postType) && !slices.Contains(out, f.Slug) {
			out = append(out, f.Slug)
		}
	}
	return out, nil
}

// checkTemplate is check_template, the template argument's validation: the
// empty string, the post's current template (kept even when the theme no
// longer offers it) or one of pageTemplates.
func (s *Service) checkTemplate(c *rest.Request, pt *store.PostType, current string) error {
	// only a write validates it: the Allow header of a GET runs the write
	// permission checks too, and a stray ?template= must not hide POST
	if !c.Has("template") || c.Method == "GET" || c.Method == "HEAD" {
		return nil
	}
	t := c.String("template")
	if t == "" || t == current {
		return nil
	}
	allowed, err := s.pageTemplates(c.Context(), s.db(c.Context()), pt.Name)
	if err != nil {
		return err
	}
	if slices.Contains(allowed, t) {
		return nil
	}
	// WordPress joins the names with commas only (no "and" before the last).
	return invalidParam("template", "rest_invalid_param", "template is not one of "+strings.Join(allowed, ", ")+".", nil)
}
