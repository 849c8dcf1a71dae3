package content

import (
	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
)

// The variations WordPress builds in PHP from the site rather than reading
// from block.json: navigation links to each type and taxonomy shown in
// menus, post-terms for each public taxonomy, and the template-part areas
// and parts of the theme (block_core_navigation_link_build_variations,
// block_core_post_terms_build_variations,
// build_template_part_block_variations).

// templatePartAreas are get_allowed_block_template_part_areas.
var templatePartAreas = []struct{ area, label, description, icon string }{
	{"uncategorized", "General", "General templates often perform a specific role like displaying post content, and are not tied to any particular area.", "layout"},
	{"header", "Header", "The Header template defines a page area that typically contains a title, logo, and main navigation.", "header"},
	{"footer", "Footer", "The Footer template defines a page area that typically contains site credits, social links, or any other combination of blocks.", "footer"},
}

// navigationLinkVariations: post, page, category, tag (Siteplane has no
// post formats, WordPress's fifth).
func navigationLinkVariations() []any {
	v := func(name, title, desc, typ, kind string) rest.Object {
		return rest.Object{{Key: "name", Value: name}, {Key: "title", Value: title}, {Key: "description", Value: desc},
			{Key: "attributes", Value: rest.Object{{Key: "type", Value: typ}, {Key: "kind", Value: kind}}}}
	}
	return []any{
		v("post", "Post Link", "A link to a post.", "post", "post-type"),
		v("page", "Page Link", "A link to a page.", "page", "post-type"),
		v("category", "Category Link", "A link to a category.", "category", "taxonomy"),
		v("tag", "Tag Link", "A link to a tag.", "tag", "taxonomy"),
	}
}

func postTermsVariations() []any {
	var out []any
	for i, tax := range []struct{ name, label string }{{store.Category.Name, "Categories"}, {store.Tag.Name, "Tags"}} {
		o := rest.Object{{Key: "name", Value: tax.name}, {Key: "title", Value: tax.label},
			{Key: "description", Value: "Display a list of assigned terms from the taxonomy: " + tax.label},
			{Key: "attributes", Value: rest.Object{{Key: "term", Value: tax.name}}}, {Key: "isActive", Value: []any{"term"}},
			{Key: "scope", Value: []any{"inserter", "transform"}}}
		if i == 0 {
			o = append(o, rest.Member{Key: "isDefault", Value: true})
		}
		out = append(out, o)
	}
	return out
}

// templatePartVariations are one variation per area but uncategorized
// (offered in the inserter only while no part has that area), then one per
// template part. WordPress's part descriptions are PHP's `$description ||
// '&nbsp;'`, a boolean, so every one reads "1".
func (s *Service) templatePartVariations(r *rest.Request) ([]any, error) {
	parts, err := s.allTemplates(r, kindPart)
	if err != nil {
		return nil, err
	}
	icons := map[string]any{}
	for _, a := range templatePartAreas {
		icons[a.area] = a.icon
	}
	var areas, instances []any
	has := map[string]bool{}
	for _, p := range parts {
		has[p.Area] = true
		attrs := rest.Object{{Key: "slug", Value: p.Slug}, {Key: "theme", Value: p.Theme}, {Key: "area", Value: p.Area}}
		instances = append(instances, rest.Object{{Key: "name", Value: "instance_" + store.SanitizeTitle(p.Slug)}, {Key: "title", Value: p.Title},
			{Key: "description", Value: "1"}, {Key: "attributes", Value: attrs}, {Key: "scope", Value: []any{"inserter"}},
			{Key: "icon", Value: icons[p.Area]}, {Key: "example", Value: rest.Object{{Key: "attributes", Value: attrs}}}})
	}
	for _, a := range templatePartAreas[1:] {
		scope := []any{"inserter"}
		if has[a.area] {
			scope = []any{}
		}
		areas = append(areas, rest.Object{{Key: "name", Value: "area_" + a.area}, {Key: "title", Value: a.label}, {Key: "description", Value: a.description},
			{Key: "attributes", Value: rest.Object{{Key: "area", Value: a.area}}}, {Key: "scope", Value: scope}, {Key: "icon", Value: a.icon}})
	}
	return append(areas, instances...), nil
}

// withSiteVariations replaces the variations of the three blocks whose
// variations come from the site.
func (s *Service) withSiteVariations(r *rest.Request, name string, data rest.Object) (rest.Object, error) {
	var v []any
	switch name {
	case "core/navigation-link":
		v = navigationLinkVariations()
	case "core/post-terms":
		v = postTermsVariations()
	case "core/template-part":
		parts, err := r.Memo("template-part variations", func() (any, error) { return s.templatePartVariations(r) })
		if err != nil {
			return nil, err
		}
		v = parts.([]any)
	default:
		return data, nil
	}
	out := make(rest.Object, len(data))
	copy(out, data)
	return out.With("variations", v), nil
}
