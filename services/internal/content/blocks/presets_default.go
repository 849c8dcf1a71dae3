package blocks

import (
	_ "embed"
	"encoding/json"
	"slices"
	"strings"
)

// defaultPresetsJSON are WordPress 6.9's own preset lists (the "default"
// origin of wp-includes/theme.json, as the WordPress 6.9.7 peer's
// `GET wp/v2/global-styles/themes/twentytwentyfive` answers them, the
// spacing sizes computed from the default spacingScale): the core
// palette, gradients, duotone filters, font sizes, spacing sizes, shadows
// and aspect ratios.
//
//go:embed default_presets.json
var defaultPresetsJSON []byte

// defaultPresets is defaultPresetsJSON decoded once; never written.
var defaultPresets = func() map[string]any {
	var m map[string]any
	if err := json.Unmarshal(defaultPresetsJSON, &m); err != nil {
		panic("blocks: default_presets.json: " + err.Error())
	}
	return m
}()

// defaultPresetFlags name, for each preset list WordPress has defaults of,
// the setting that lets the defaults prevail (WP_Theme_JSON::PRESETS_METADATA's
// prevent_override); all are true in WordPress's own theme.json.
var defaultPresetFlags = []struct{ group, list, flag string }{
	{"dimensions", "aspectRatios", "defaultAspectRatios"},
	{"color", "palette", "defaultPalette"},
	{"color", "gradients", "defaultGradients"},
	{"color", "duotone", "defaultDuotone"},
	{"typography", "fontSizes", "defaultFontSizes"},
	{"spacing", "spacingSizes", "defaultSpacingSizes"},
	{"shadow", "presets", "defaultPresets"},
}

// WithDefaultPresets is a theme's settings, preset lists keyed by origin
// (OriginPresets), merged over WordPress's own as
// WP_Theme_JSON_Resolver::get_merged_data merges the theme origin over the
// core one: each list gets WordPress's presets as its "default" origin
// (whatever the theme's flags: they say what the editor offers, and
// WordPress prints the defaults' CSS variables either way), the default*
// flags the theme leaves unset are true, and while a flag is true a theme
// preset whose slug is one of WordPress's is dropped (WP_Theme_JSON::merge's
// filter_slugs: the default keeps its value).
func WithDefaultPresets(settings map[string]any) map[string]any {
	out := make(map[string]any, len(settings)+4)
	for k, v := range settings {
		out[k] = v
	}
	groups := map[string]map[string]any{}
	group := func(name string) map[string]any {
		if g, ok := groups[name]; ok {
			return g
		}
		old, _ := out[name].(map[string]any)
		g := make(map[string]any, len(old)+3)
		for k, v := range old {
			g[k] = v
		}
		out[name], groups[name] = g, g
		return g
	}
	for _, p := range defaultPresetFlags {
		g := group(p.group)
		on, set := g[p.flag].(bool)
		if !set {
			on = true
			g[p.flag] = true
		}
		defaults, _ := obj(defaultPresets, p.group)[p.list].([]any)
		byOrigin := make(map[string]any, 3)
		if old, ok := g[p.list].(map[string]any); ok {
			for k, v := range old {
				byOrigin[k] = v
			}
		}
		byOrigin["default"] = defaults
		if theme, ok := byOrigin["theme"].([]any); ok && on {
			byOrigin["theme"] = withoutSlugs(theme, defaults)
		}
		g[p.list] = byOrigin
	}
	sp := group("spacing")
	if _, ok := sp["spacingScale"]; !ok {
		sp["spacingScale"] = map[string]any{"default": obj(defaultPresets, "spacing")["spacingScale"]}
	}
	return out
}

// withoutSlugs is list without the presets whose slug is one of taken's.
func withoutSlugs(list, taken []any) []any {
	var slugs []any
	for _, it := range taken {
		if m, ok := it.(map[string]any); ok {
			slugs = append(slugs, m["slug"])
		}
	}
	out := make([]any, 0, len(list))
	for _, it := range list {
		if m, ok := it.(map[string]any); ok && slices.Contains(slugs, m["slug"]) {
			continue
		}
		out = append(out, it)
	}
	return out
}

// presetVars are the preset lists WordPress prints as custom properties,
// in its order (WP_Theme_JSON::PRESETS_METADATA; duotone filters are
// printed only where a block uses one).
var presetVars = []struct{ path, key, value, prefix string }{
	{"dimensions.aspectRatios", "slug", "ratio", "aspect-ratio"},
	{"color.palette", "slug", "color", "color"},
	{"color.gradients", "slug", "gradient", "gradient"},
	{"typography.fontSizes", "slug", "size", "font-size"},
	{"typography.fontFamilies", "slug", "fontFamily", "font-family"},
	{"spacing.spacingSizes", "slug", "size", "spacing"},
	{"shadow.presets", "slug", "shadow", "shadow"},
}

// presetClasses are the classes WordPress prints for the presets, in its
// order: a block's "textColor": "vivid-red" is the class has-vivid-red-color.
var presetClasses = []struct{ path, suffix, prop, prefix string }{
	{"color.palette", "-color", "color", "color"},
	{"color.palette", "-background-color", "background-color", "color"},
	{"color.palette", "-border-color", "border-color", "color"},
	{"color.gradients", "-gradient-background", "background", "gradient"},
	{"typography.fontSizes", "-font-size", "font-size", "font-size"},
	{"typography.fontFamilies", "-font-family", "font-family", "font-family"},
}

// presetClassesCSS writes the presets' classes.
func presetClassesCSS(sb *strings.Builder, settings map[string]any) {
	for _, c := range presetClasses {
		for _, it := range presetList(settings, c.path) {
			s := cssIdent(it["slug"])
			sb.WriteString(".has-" + s + c.suffix + "{" + c.prop + ":var(--wp--preset--" + c.prefix + "--" + s + ") !important}")
		}
	}
}
