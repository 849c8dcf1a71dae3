package blocks

// presetPaths are theme.json's preset lists (WP_Theme_JSON::PRESETS_METADATA),
// as group.key.
var presetPaths = [][2]string{
	{"color", "palette"}, {"color", "gradients"}, {"color", "duotone"},
	{"typography", "fontSizes"}, {"typography", "fontFamilies"},
	{"spacing", "spacingSizes"}, {"shadow", "presets"},
	{"dimensions", "aspectRatios"}, {"border", "radiusSizes"},
}

// presetOrigins are the origins of a preset list in the order WordPress
// prints them: a later origin's slug overrides an earlier one's.
var presetOrigins = []string{"default", "theme", "custom"}

// OriginPresets is settings with each preset list of a theme's file (a
// plain array) keyed by its origin, {"theme": [...]}, the shape WordPress's
// WP_Theme_JSON keeps (and the REST API and the editor use): a user's
// global styles then add a "custom" list beside the theme's instead of
// replacing it when merged by MergeStyles. Lists already keyed stay; the
// per-block settings (settings.blocks) are converted too.
func OriginPresets(settings map[string]any) map[string]any {
	out := make(map[string]any, len(settings))
	for k, v := range settings {
		out[k] = v
	}
	for _, p := range presetPaths {
		group, ok := out[p[0]].(map[string]any)
		if !ok {
			continue
		}
		list, ok := group[p[1]].([]any)
		if !ok {
			continue
		}
		g := make(map[string]any, len(group))
		for k, v := range group {
			g[k] = v
		}
		g[p[1]] = map[string]any{"theme": list}
		out[p[0]] = g
	}
	if bl, ok := out["blocks"].(map[string]any); ok {
		nb := make(map[string]any, len(bl))
		for name, v := range bl {
			if m, ok := v.(map[string]any); ok {
				v = OriginPresets(m)
			}
			nb[name] = v
		}
		out["blocks"] = nb
	}
	return out
}

// presetItems is one preset list: a plain array, or the lists of an
// origin-keyed object in WordPress's order.
func presetItems(v any) []any {
	if list, ok := v.([]any); ok {
		return list
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	var out []any
	for _, o := range presetOrigins {
		if list, ok := m[o].([]any); ok {
			out = append(out, list...)
		}
	}
	return out
}
