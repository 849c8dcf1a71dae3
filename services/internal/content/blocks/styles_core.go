package blocks

// coreButtonStyles is the button element of WordPress 6.9's own theme.json
// (wp-includes/theme.json, styles.elements.button): the core origin under
// every theme's styles. The website prints it as the block library's rule
// in libraryCSS, under the theme's element rules; the site editor builds
// its canvas from the theme route's styles, so the route must carry it too
// or the canvas's buttons are unstyled where the website's are not.
var coreButtonStyles = map[string]any{
	"color": map[string]any{"text": "#fff", "background": "#32373c"},
	"spacing": map[string]any{"padding": map[string]any{
		"top": "calc(0.667em + 2px)", "right": "calc(1.333em + 2px)", "bottom": "calc(0.667em + 2px)", "left": "calc(1.333em + 2px)"}},
	"typography": map[string]any{"fontSize": "inherit", "fontFamily": "inherit", "fontStyle": "inherit", "fontWeight": "inherit",
		"letterSpacing": "inherit", "textTransform": "inherit", "lineHeight": "inherit", "textDecoration": "none"},
	"border": map[string]any{"width": "0"},
}

// WithCoreStyles is a theme's styles over WordPress's own button element,
// as WP_Theme_JSON_Resolver::get_merged_data merges the theme origin over
// the core one for `GET global-styles/themes/{theme}`.
func WithCoreStyles(styles map[string]any) map[string]any {
	return MergeStyles(map[string]any{"elements": map[string]any{"button": coreButtonStyles}}, styles)
}
