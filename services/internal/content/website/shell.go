package website

import (
	"html/template"
	"net/url"
	"strings"
)

// The page shell — the document head, the body's opening and the skip
// link — goes through html/template, as the gateway's sign-in pages do:
// every value is escaped for where it stands (text, attribute, URL), not
// by each line remembering to. The body between is the blocks' output
// (blocks.Render escapes what it writes), written after it as it is.
var shellTemplate = template.Must(template.New("shell").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<link rel="icon" href="data:,">
{{if .Noindex}}<meta name="robots" content="noindex, follow">
{{end}}{{with .Description}}<meta name="description" content="{{.}}">
{{end}}{{with .Canonical}}<link rel="canonical" href="{{.}}">
{{end}}{{range .OpenGraph}}<meta property="og:{{.Key}}" content="{{.Value}}">
{{end}}<link rel="https://api.w.org/" href="{{.APIRoot}}">
<link rel="alternate" type="application/rss+xml" title="{{.SiteTitle}} » Feed" href="{{.SiteFeed}}">
{{if .FeedURL}}<link rel="alternate" type="application/rss+xml" title="{{.SiteTitle}} » {{.FeedTitle}}" href="{{.FeedURL}}">
{{end}}{{with .Post}}<link rel="alternate" title="JSON" type="application/json" href="{{.REST}}">
<link rel="shortlink" href="{{.Shortlink}}">
{{with .OEmbed}}<link rel="alternate" title="oEmbed (JSON)" type="application/json+oembed" href="{{.}}">
<link rel="alternate" title="oEmbed (XML)" type="text/xml+oembed" href="{{.}}&amp;format=xml">
{{end}}{{end}}<style id="global-styles-inline-css">{{.CSS}}</style>
</head>
<body class="{{.BodyClass}}">
<a class="skip-link screen-reader-text" href="#wp--skip-link--target">Skip to content</a>
<div class="wp-site-blocks">
`))

// shell is what the page shell shows.
type shell struct {
	Title, Description, Canonical string
	Noindex                       bool
	OpenGraph                     []ogProperty
	APIRoot, SiteTitle, SiteFeed  string
	FeedTitle, FeedURL            string
	Post                          *shellPost
	// CSS is the global styles stylesheet, made by the theme code from
	// theme.json data (the theme's and an administrator's)
	CSS       template.CSS
	BodyClass string
}

type ogProperty struct{ Key, Value string }

// shellPost is what a singular page's head links to.
type shellPost struct {
	REST, Shortlink string
	OEmbed          string // "" unless published
}

// writeShell writes the page shell of sp, up to the blocks' output.
func (s *Handler) writeShell(sb *strings.Builder, sp *sitePage, css, stylesheet string) error {
	title := s.site.Title
	if sp.title != "" {
		title = sp.title + " – " + s.site.Title
	} else if s.site.Description != "" {
		title = s.site.Title + " – " + s.site.Description
	}
	d := shell{Title: title, Description: sp.description, Canonical: sp.canonical, Noindex: sp.noindex,
		APIRoot: s.restRoot + "/", SiteTitle: s.site.Title, SiteFeed: s.site.URL + "/feed/",
		FeedTitle: sp.feedTitle, FeedURL: sp.feedURL, CSS: template.CSS(css), //nolint:gosec // our stylesheet, see shell.CSS
		BodyClass: strings.TrimSpace(sp.bodyClass + " wp-theme-" + stylesheet)}
	for _, p := range []ogProperty{{"type", sp.ogType}, {"title", title}, {"url", sp.canonical},
		{"site_name", s.site.Title}, {"description", sp.description}} {
		if p.Value != "" {
			d.OpenGraph = append(d.OpenGraph, p)
		}
	}
	if p := sp.post; p != nil {
		d.Post = &shellPost{REST: s.permalinks.PostREST(sp.pt, p.ID), Shortlink: s.permalinks.GUID(sp.pt, p)}
		if p.Status == "publish" {
			d.Post.OEmbed = s.restRoot + "/oembed/1.0/embed?url=" + url.QueryEscape(s.permalinks.Post(sp.pt, p))
		}
	}
	return shellTemplate.Execute(sb, d)
}
