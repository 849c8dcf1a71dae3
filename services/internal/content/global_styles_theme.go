package content

import (
	"siteplane.dev/services/internal/content/blocks"
)

// The theme's global styles as WordPress's REST API gives them
// (WP_REST_Global_Styles_Controller::get_theme_item and
// get_theme_items): the settings of WP_Theme_JSON_Resolver::get_merged_data
// for the theme origin, not the theme file's raw object. The site editor
// builds the canvas's stylesheet and its Styles panels from them: without
// preset lists keyed by origin it prints no --wp--preset--* variables (the
// canvas falls back to the browser's fonts and colours), and without
// WordPress's default flags it hides the text and background colour
// controls.

// coreSettingFlags are the boolean settings of WordPress 6.9's own
// theme.json (wp-includes/theme.json, the default origin) that the editor's
// panels read; the theme's file overrides them.
// The default* flags (defaultPalette, defaultFontSizes…) come with
// WordPress's own preset lists (blocks.WithDefaultPresets).
var coreSettingFlags = map[string]map[string]any{
	"color": {"background": true, "button": true, "caption": true, "custom": true, "customDuotone": true,
		"customGradient": true, "heading": true, "link": false, "text": true},
	"border":  {"color": false, "radius": false, "style": false, "width": false},
	"spacing": {"margin": false, "padding": false, "customSpacingSize": true},
	"typography": {"customFontSize": true, "dropCap": true, "fontStyle": true,
		"fontWeight": true, "letterSpacing": true, "lineHeight": false, "textAlign": true, "textDecoration": true,
		"textTransform": true, "writingMode": false},
}

// appearanceToolsOptIns are WP_Theme_JSON::APPEARANCE_TOOLS_OPT_INS: what
// "appearanceTools": true turns on where the theme left it unset.
var appearanceToolsOptIns = [][2]string{
	{"background", "backgroundImage"}, {"background", "backgroundSize"},
	{"border", "color"}, {"border", "radius"}, {"border", "style"}, {"border", "width"},
	{"color", "link"}, {"color", "heading"}, {"color", "button"}, {"color", "caption"},
	{"dimensions", "aspectRatio"}, {"dimensions", "minHeight"}, {"position", "sticky"},
	{"spacing", "blockGap"}, {"spacing", "margin"}, {"spacing", "padding"}, {"typography", "lineHeight"},
}

// themeRESTSettings is a theme file's settings as the theme origin's
// merged settings: WordPress's default flags under the theme's, the
// appearance tools opted in (appearanceTools itself removed, as
// WP_Theme_JSON::do_opt_in_into_settings does), the preset lists keyed by
// origin, WordPress's own presets (the core palette, gradients, duotone,
// font sizes, spacing sizes, shadows, aspect ratios) as the "default"
// origin beside the theme's, as the website prints them.
func themeRESTSettings(settings map[string]any) map[string]any {
	out := blocks.WithDefaultPresets(blocks.OriginPresets(settings))
	if on, _ := out["appearanceTools"].(bool); on {
		for _, p := range appearanceToolsOptIns {
			group := groupCopy(out, p[0])
			if _, set := group[p[1]]; !set {
				group[p[1]] = true
			}
		}
	}
	delete(out, "appearanceTools")
	for name, flags := range coreSettingFlags {
		group := groupCopy(out, name)
		for k, v := range flags {
			if _, set := group[k]; !set {
				group[k] = v
			}
		}
	}
	return out
}

// groupCopy replaces settings[name] with a copy of it (a new object when
// absent) and returns the copy, so the theme's decoded file stays as read.
func groupCopy(settings map[string]any, name string) map[string]any {
	old, _ := settings[name].(map[string]any)
	g := make(map[string]any, len(old)+4)
	for k, v := range old {
		g[k] = v
	}
	settings[name] = g
	return g
}

// themeRESTVariation is a style variation as WordPress's
// WP_Theme_JSON_Resolver::get_style_variations gives it: its settings'
// preset lists keyed by origin (the theme's), the rest as in the file.
func themeRESTVariation(data map[string]any) map[string]any {
	out := make(map[string]any, len(data))
	for k, v := range data {
		out[k] = v
	}
	if s, ok := data["settings"].(map[string]any); ok {
		out["settings"] = blocks.OriginPresets(s)
	}
	return out
}
