package content

import (
	"log/slog"

	"siteplane.dev/services/internal/content/theme"
)

// SelectTheme loads the site file's theme from themesDir and makes it the
// site's theme, for the REST routes and the website alike (before serving).
// A theme that cannot be used — no such directory, a theme.json that does
// not parse, no templates/index.html — is refused with one error line and
// the built-in theme serves instead: a broken theme directory must not make
// every page a 5xx. What a usable theme had to leave out (a style variation,
// a pattern needing general PHP) is logged as a warning each.
func (s *Service) SelectTheme(themesDir string, logger *slog.Logger) {
	want := s.site.Theme
	th, err := theme.Select(themesDir, want, s.site.URL)
	if err != nil {
		logger.Error("theme refused: serving the built-in theme instead", "theme", want, "reason", err.Error(),
			"builtin", theme.BuiltinStylesheet)
		th, err = theme.Builtin()
		if err != nil {
			panic("content: the embedded theme does not load: " + err.Error())
		}
	}
	for _, w := range th.Warnings {
		logger.Warn("theme degraded", "theme", th.Stylesheet, "reason", w)
	}
	s.SetTheme(th)
	if want != "" {
		logger.Info("theme selected", "theme", th.Stylesheet, "name", th.Name, "version", th.Version,
			"templates", len(th.Templates), "parts", len(th.Parts), "patterns", len(th.Patterns), "variations", len(th.Variations))
	}
}

// SetTheme makes th the site's theme (before serving).
func (s *Service) SetTheme(th *theme.Theme) {
	s.theme = th
	s.web.SetTheme(th)
}
