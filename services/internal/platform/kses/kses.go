// Package kses filters user-supplied HTML the way WordPress's kses does:
// callers without the unfiltered_html capability may only store the
// elements, attributes, URL protocols and CSS properties of an allowlist
// (allowed.json, derived from WordPress's rules); everything else is
// removed before it is stored, so it never reaches another user as script.
// The parsing and sanitising are bluemonday's (a maintained HTML
// sanitiser); this package only turns the allowlist into its policies.
package kses

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/microcosm-cc/bluemonday"
)

// Context names an allowlist, as wp_kses_allowed_html does.
type Context string

const (
	// Post is for post content, excerpts and captions (wp_filter_post_kses).
	Post Context = "post"
	// Data is for titles, comments, term names and descriptions and user
	// profile fields (wp_filter_kses: a few inline elements).
	Data Context = "data"
)

// Capability is what lets a caller store HTML unfiltered.
const Capability = "unfiltered_html"

// Caller is who writes: anything that answers capability checks.
type Caller interface{ Can(capability string) bool }

//go:embed allowed.json
var allowedJSON []byte

type contextRules struct {
	GlobalAttributes []string            `json:"globalAttributes"`
	DataAttributes   bool                `json:"dataAttributes"`
	Styles           []string            `json:"styles"`
	Elements         map[string][]string `json:"elements"`
}

type allowlist struct {
	Protocols []string                 `json:"protocols"`
	Contexts  map[Context]contextRules `json:"contexts"`
}

var (
	rules    = mustAllowlist(allowedJSON)
	policies = mustPolicies(rules)
)

// uriAttributes are the allowlist's URL attributes other than href and src
// (which bluemonday checks against the allowed protocols itself).
var uriAttributes = map[string]bool{"cite": true, "data": true, "longdesc": true, "poster": true, "usemap": true}

// safeURL is an http(s), protocol-relative or relative URL without blanks.
var safeURL = regexp.MustCompile(`^(?i:https?://|//|/|#|\./|[a-z0-9._~-]+(/|#|$))[^\s\x00-\x08\x0e-\x1f]*$`)

func mustAllowlist(raw []byte) allowlist {
	var al allowlist
	if err := json.Unmarshal(raw, &al); err != nil {
		panic(fmt.Sprintf("kses: allowed.json: %v", err))
	}
	return al
}

func mustPolicies(al allowlist) map[Context]*bluemonday.Policy {
	out := make(map[Context]*bluemonday.Policy, len(al.Contexts))
	for name, rules := range al.Contexts {
		out[name] = policyOf(al.Protocols, rules)
	}
	if out[Post] == nil || out[Data] == nil {
		panic("kses: allowed.json lacks the post or data context")
	}
	return out
}

func policyOf(protocols []string, rules contextRules) *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowURLSchemes(protocols...)
	p.AllowRelativeURLs(true)
	p.RequireParseableURLs(true)
	// Block markup lives in comments (<!-- wp:paragraph -->); kses keeps them.
	p.AllowComments()
	names := make([]string, 0, len(rules.Elements))
	for el := range rules.Elements {
		names = append(names, el)
	}
	sort.Strings(names)
	for _, el := range names {
		p.AllowElements(el)
		for _, attr := range rules.Elements[el] {
			if uriAttributes[attr] {
				// URL attributes for kses that bluemonday does not check
				// against the protocols: only http(s) and relative URLs.
				p.AllowAttrs(attr).Matching(safeURL).OnElements(el)
				continue
			}
			p.AllowAttrs(attr).OnElements(el)
		}
	}
	if len(rules.GlobalAttributes) > 0 {
		p.AllowAttrs(rules.GlobalAttributes...).OnElements(names...)
	}
	if rules.DataAttributes {
		p.AllowDataAttributes()
	}
	if len(rules.Styles) > 0 {
		p.AllowStyles(rules.Styles...).OnElements(names...)
	}
	return p
}

// Filter keeps only what ctx allows in s. Text without a '<' holds no
// markup and is returned as it is (kses would only normalise its entities),
// so plain titles keep their quotes and ampersands byte for byte.
func Filter(s string, ctx Context) string {
	if strings.IndexByte(s, '<') < 0 {
		return s
	}
	p := policies[ctx]
	if p == nil {
		p = policies[Data]
	}
	return p.Sanitize(s)
}

// strict removes every element (and the content of script and style).
var strict = bluemonday.StrictPolicy()

// Text is what WordPress stores for one-line names (term names, user
// display, first, last and nick names: sanitize_text_field, kses and
// _wp_specialchars run on them for every caller): every tag removed, with
// the content of script and style, and the text left escaped for HTML
// (quotes stay as they are). Text without a '<' is returned as it is.
func Text(s string) string {
	if strings.IndexByte(s, '<') < 0 {
		return s
	}
	out := strict.Sanitize(s)
	out = strings.NewReplacer("&#34;", `"`, "&#39;", "'").Replace(out)
	return strings.TrimSpace(out)
}

// ForCaller is Filter unless the caller may post unfiltered HTML
// (administrators and editors on a single site), whose text is kept as is.
func ForCaller(c Caller, s string, ctx Context) string {
	if c != nil && c.Can(Capability) {
		return s
	}
	return Filter(s, ctx)
}
