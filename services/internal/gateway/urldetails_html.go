package gateway

import (
	"html"
	"net/url"
	"regexp"
	"strings"
)

// The page reading of url-details, as WordPress's controller does it with
// regular expressions over the document's head (not an HTML parser: the
// same pages give the same answers).

// urlDetails is the route's answer, in WordPress's field order.
type urlDetails struct {
	Title       string `json:"title"`
	Icon        string `json:"icon"`
	Description string `json:"description"`
	Image       string `json:"image"`
}

var (
	titleRe    = regexp.MustCompile(`(?is)<title[^>]*>(.*?)<\s*/\s*title>`)
	iconLinkRe = regexp.MustCompile(`(?is)<link\s[^>]*?rel=["']?\s*(?:icon|shortcut icon|icon shortcut)\s*["']?[^>]*?/?>`)
	metaRe     = regexp.MustCompile(`(?is)<meta\s[^>]*?/?>`)
	tagRe      = regexp.MustCompile(`(?s)<[^>]*>`)
)

// pageDetails reads the title, icon, description and image of page,
// fetched from pageURL.
func pageDetails(page, pageURL string) urlDetails {
	head := documentHead(page)
	d := urlDetails{}
	if m := titleRe.FindStringSubmatch(head); m != nil {
		d.Title = metadataText(strings.TrimSpace(m[1]))
	}
	if link := iconLinkRe.FindString(head); link != "" {
		d.Icon = iconHref(strings.TrimSpace(link), pageURL)
	}
	metas := metaRe.FindAllString(head, -1)
	if desc := metaContent(metas, "name", "description", "og:description"); desc != "" {
		d.Description = metadataText(desc)
	}
	if img := metaContent(metas, "property", "og:image", "og:image:url"); img != "" {
		d.Image = absoluteFromRoot(img, pageURL)
	}
	return d
}

// documentHead is get_document_head: from "<head" on, as many bytes as
// "</head>" (else "<body") is from the start — WordPress passes that
// offset to substr as a length — plus "</head>"; the whole page when there
// is no head.
func documentHead(page string) string {
	start := strings.Index(page, "<head")
	if start < 0 {
		return page
	}
	end := strings.Index(page, "</head>")
	if end < 0 {
		if end = strings.Index(page, "<body"); end < 0 {
			return page
		}
	}
	return page[start:min(len(page), start+end)] + "</head>"
}

// metadataText is prepare_metadata_for_output: entities decoded, tags
// stripped.
func metadataText(s string) string {
	return strings.TrimSpace(tagRe.ReplaceAllString(html.UnescapeString(s), ""))
}

// attrValue finds name= in a tag (case-insensitively) and reads its value:
// quoted, or up to a space, quote or ">".
func attrValue(tag, name string) (string, bool) {
	lower := strings.ToLower(tag)
	from := 0
	for {
		i := strings.Index(lower[from:], name+"=")
		if i < 0 {
			return "", false
		}
		i += from
		from = i + len(name) + 1
		if i > 0 && !strings.ContainsRune(" \t\n\r\"'", rune(lower[i-1])) {
			continue // "data-content=" is not "content="
		}
		rest := tag[from:]
		if rest != "" && (rest[0] == '"' || rest[0] == '\'') {
			if end := strings.IndexByte(rest[1:], rest[0]); end >= 0 {
				return rest[1 : 1+end], true
			}
			return "", false
		}
		end := strings.IndexAny(rest, " \t\n\r\">")
		if end < 0 {
			end = len(rest)
		}
		return rest[:end], true
	}
}

// metaContent is the content of the first meta element whose attr is one
// of values (get_metadata_from_meta_element), trimmed.
func metaContent(metas []string, attr string, values ...string) string {
	for _, m := range metas {
		content, ok := attrValue(m, "content")
		if !ok {
			continue // not a meta element with content
		}
		v, ok := attrValue(m, attr)
		if !ok {
			continue
		}
		for _, want := range values {
			if strings.EqualFold(strings.TrimSpace(v), want) {
				return strings.TrimSpace(content)
			}
		}
	}
	return ""
}

// iconHref is get_icon: the link's href, absolute against the page's root
// unless it is a data: URL.
func iconHref(link, pageURL string) string {
	href, ok := attrValue(link, "href")
	if href = strings.TrimSpace(href); !ok || href == "" {
		return ""
	}
	if strings.HasPrefix(strings.ToLower(href), "data:") {
		return href
	}
	return absoluteFromRoot(href, pageURL)
}

// absoluteFromRoot is WP_Http::make_absolute_url against scheme://host/ of
// the page.
func absoluteFromRoot(ref, pageURL string) string {
	base, err := url.Parse(pageURL)
	if err != nil || base.Scheme == "" || base.Host == "" {
		return ref
	}
	r, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	root := &url.URL{Scheme: base.Scheme, Host: base.Host, Path: "/"}
	return root.ResolveReference(r).String()
}
