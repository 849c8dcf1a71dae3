package content

// Taxonomy labels as WordPress 6.9's get_taxonomy_labels builds them: the
// generic tag (flat) or category (hierarchical) defaults of
// WP_Taxonomy::get_default_labels, in their order, overridden by the labels
// a taxonomy registers; then the keys _get_custom_object_labels derives
// (name_admin_bar, and archives only when the taxonomy named itself), then
// template_name. So category and post_tag (which register no labels) have
// no archives entry and their name_admin_bar is the taxonomy's name, and
// the navigation menus' search label is "Search Tags", as WordPress has it.

const (
	labelNameDesc   = "The name is how it appears on your site."
	labelSlugDesc   = "The &#8220;slug&#8221; is the URL-friendly version of the name. It is usually all lowercase and contains only letters, numbers, and hyphens."
	labelParentDesc = "Assign a parent term to create a hierarchy. The term Jazz, for example, would be the parent of Bebop and Big Band."
	labelDescDesc   = "The description is not prominent by default; however, some themes may show it."
)

// taxDefaultLabels is get_default_labels: key, flat value, hierarchical
// value (nil: null), with menu_name (the name's) last.
var taxDefaultLabels = []struct {
	key        string
	flat, hier any
}{
	{"name", "Tags", "Categories"},
	{"singular_name", "Tag", "Category"},
	{"search_items", "Search Tags", "Search Categories"},
	{"popular_items", "Popular Tags", nil},
	{"all_items", "All Tags", "All Categories"},
	{"parent_item", nil, "Parent Category"},
	{"parent_item_colon", nil, "Parent Category:"},
	{"name_field_description", labelNameDesc, labelNameDesc},
	{"slug_field_description", labelSlugDesc, labelSlugDesc},
	{"parent_field_description", nil, labelParentDesc},
	{"desc_field_description", labelDescDesc, labelDescDesc},
	{"edit_item", "Edit Tag", "Edit Category"},
	{"view_item", "View Tag", "View Category"},
	{"update_item", "Update Tag", "Update Category"},
	{"add_new_item", "Add Tag", "Add Category"},
	{"new_item_name", "New Tag Name", "New Category Name"},
	{"separate_items_with_commas", "Separate tags with commas", nil},
	{"add_or_remove_items", "Add or remove tags", nil},
	{"choose_from_most_used", "Choose from the most used tags", nil},
	{"not_found", "No tags found.", "No categories found."},
	{"no_terms", "No tags", "No categories"},
	{"filter_by_item", nil, "Filter by category"},
	{"items_list_navigation", "Tags list navigation", "Categories list navigation"},
	{"items_list", "Tags list", "Categories list"},
	{"most_used", "Most Used", "Most Used"},
	{"back_to_items", "&larr; Go to Tags", "&larr; Go to Categories"},
	{"item_link", "Tag Link", "Category Link"},
	{"item_link_description", "A link to a tag.", "A link to a category."},
	{"menu_name", "Tags", "Categories"},
}

// taxRegisteredLabels are the labels each taxonomy registers
// (create_initial_taxonomies); category and post_tag register none.
var taxRegisteredLabels = map[string]map[string]string{
	"nav_menu": {"name": "Navigation Menus", "singular_name": "Navigation Menu"},
	"cms_pattern_category": {
		"name": "Pattern Categories", "singular_name": "Pattern Category", "add_new_item": "Add Category",
		"add_or_remove_items": "Add or remove pattern categories", "back_to_items": "&larr; Go to Pattern Categories",
		"choose_from_most_used": "Choose from the most used pattern categories", "edit_item": "Edit Pattern Category",
		"item_link": "Pattern Category Link", "item_link_description": "A link to a pattern category.",
		"items_list": "Pattern Categories list", "items_list_navigation": "Pattern Categories list navigation",
		"new_item_name": "New Pattern Category Name", "no_terms": "No pattern categories",
		"not_found": "No pattern categories found.", "popular_items": "Popular Pattern Categories",
		"search_items": "Search Pattern Categories", "separate_items_with_commas": "Separate pattern categories with commas",
		"update_item": "Update Pattern Category", "view_item": "View Pattern Category",
	},
}

func taxLabels(t *taxInfo) []labelPair {
	own := map[string]any{}
	for k, v := range taxRegisteredLabels[t.tax.Name] {
		own[k] = v
	}
	// _get_custom_object_labels: what a taxonomy's own name implies
	nameAdminBar := any(t.tax.Name)
	if name, ok := own["name"]; ok {
		if _, ok := own["singular_name"]; !ok {
			own["singular_name"] = name
		}
		own["menu_name"], own["all_items"] = name, name
		own["archives"] = name
	}
	if sing, ok := own["singular_name"]; ok {
		nameAdminBar = sing
	}
	out := make([]labelPair, 0, len(taxDefaultLabels)+3)
	var singular any
	for _, d := range taxDefaultLabels {
		v := d.flat
		if t.tax.Hierarchical {
			v = d.hier
		}
		if o, ok := own[d.key]; ok {
			v = o
		}
		if d.key == "singular_name" {
			singular = v
		}
		out = append(out, labelPair{d.key, v})
	}
	out = append(out, labelPair{"name_admin_bar", nameAdminBar})
	if a, ok := own["archives"]; ok {
		out = append(out, labelPair{"archives", a})
	}
	return append(out, labelPair{"template_name", singular.(string) + " Archives"})
}
