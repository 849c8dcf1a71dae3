package website

import (
	"net/http"
	"strings"

	"siteplane.dev/services/internal/content/blocks"
)

// Every website answer carries a Content-Security-Policy that would stop
// script in content even if some got through the filters (the one script
// that runs is the navigation's overlay menu's, allowed by its hash; style
// attributes of blocks need 'unsafe-inline' for styles), nosniff, a
// referrer policy, and frame protection. The /embed/ pages are made to be framed by other sites (the
// oEmbed iframe), so they alone leave framing open, as WordPress does.

// pageCSP is the policy of website answers.
var pageCSP = "default-src 'self'; script-src " + blocks.NavScriptHash() + "; object-src 'none'; base-uri 'none'; form-action 'self'; " +
	"frame-ancestors 'self'; img-src 'self' https: data:; media-src 'self' https:; style-src 'self' 'unsafe-inline'"

// embedCSP is pageCSP without frame-ancestors: any site may frame an embed.
var embedCSP = strings.Replace(pageCSP, " frame-ancestors 'self';", "", 1)

// setPageHeaders sets the security headers of an answer for path (below
// contract.SitePath); before anything is written, so that every answer,
// the 404 and errors included, has them.
func setPageHeaders(h http.Header, path string) {
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
	if isEmbedPath(path) {
		h.Set("Content-Security-Policy", embedCSP)
		return
	}
	h.Set("Content-Security-Policy", pageCSP)
	h.Set("X-Frame-Options", "SAMEORIGIN")
}

// isEmbedPath reports whether path is a post's /embed/ page (as serveSite
// routes it: a last segment "embed" below at least one other).
func isEmbedPath(path string) bool {
	// Without splitting the path: this runs on every website answer.
	p := strings.Trim(path, "/")
	i := strings.LastIndexByte(p, '/')
	return i >= 0 && p[i+1:] == "embed"
}
