package stack

import (
	"strings"
	"testing"
)

// The schema validation the website tests rely on tells a valid feed or
// sitemap from a broken one: each schema accepts a minimal valid document
// and rejects the same document with one rule of its format broken.
func TestXMLSchemasTellValidFromBroken(t *testing.T) {
	const (
		rss = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel>
<title>Site</title><atom:link href="http://example.com/feed/" rel="self" type="application/rss+xml"/>
<link>http://example.com/</link><description>Tagline</description>
<lastBuildDate>Mon, 23 Nov 2026 00:41:56 +0000</lastBuildDate><language>en</language>
<item><title>Post</title><link>http://example.com/post/</link><pubDate>Mon, 23 Nov 2026 00:41:56 +0000</pubDate>
<guid isPermaLink="false">http://example.com/?p=1</guid><category><![CDATA[News]]></category><description>Text</description></item>
</channel></rss>`
		atom = `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en"><title type="text">Site</title>
<updated>2026-11-23T00:41:56Z</updated><id>http://example.com/feed/atom/</id>
<link rel="self" type="application/atom+xml" href="http://example.com/feed/atom/"/>
<entry><author><name>admin</name></author><title type="html">Post</title>
<link rel="alternate" type="text/html" href="http://example.com/post/"/><id>http://example.com/?p=1</id>
<updated>2026-11-23T00:41:56Z</updated><published>2026-11-23T00:41:56Z</published>
<category term="News"/><summary type="text">Text</summary><content type="html">&lt;p&gt;Text&lt;/p&gt;</content></entry>
</feed>`
		urlset = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>http://example.com/post/</loc><lastmod>2026-11-23T00:41:56Z</lastmod></url>
</urlset>`
		index = `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>http://example.com/cms-sitemap-posts-post-1.xml</loc></sitemap>
</sitemapindex>`
	)
	tests := []struct {
		name, kind, doc string
		edits           []string // old, new, …: the edits that break doc (none keeps it valid)
	}{
		{"rss valid", "rss", rss, nil},
		{"rss without a channel title", "rss", rss, []string{"<title>Site</title>", ""}},
		{"rss channel link not a URL", "rss", rss, []string{"<link>http://example.com/</link>", "<link>home</link>"}},
		{"rss item without title or description", "rss", rss, []string{"<title>Post</title>", "", "<description>Text</description>", ""}},
		{"rss pubDate not RFC 822", "rss", rss, []string{"<pubDate>Mon, 23 Nov 2026 00:41:56 +0000</pubDate>", "<pubDate>2026-11-23</pubDate>"}},
		{"rss two channel titles", "rss", rss, []string{"<title>Site</title>", "<title>Site</title><title>Again</title>"}},
		{"rss unknown element", "rss", rss, []string{"<language>en</language>", "<language>en</language><color>red</color>"}},
		{"rss version 0.91", "rss", rss, []string{`version="2.0"`, `version="0.91"`}},
		{"atom valid", "atom", atom, nil},
		{"atom entry without id", "atom", atom, []string{"<id>http://example.com/?p=1</id>", ""}},
		{"atom feed without updated", "atom", atom, []string{"<updated>2026-11-23T00:41:56Z</updated><id>", "<id>"}},
		{"atom date without time zone", "atom", atom, []string{"<published>2026-11-23T00:41:56Z", "<published>2026-11-23T00:41:56"}},
		{"atom link without href", "atom", atom, []string{`<link rel="alternate" type="text/html" href="http://example.com/post/"/>`, `<link rel="alternate"/>`}},
		{"atom bad text type", "atom", atom, []string{`<summary type="text">`, `<summary type="markdown">`}},
		{"atom category without term", "atom", atom, []string{`<category term="News"/>`, `<category/>`}},
		{"urlset valid", "urlset", urlset, nil},
		{"urlset loc too short", "urlset", urlset, []string{"<loc>http://example.com/post/</loc>", "<loc>/post/</loc>"}},
		{"urlset lastmod not a W3C date", "urlset", urlset, []string{"2026-11-23T00:41:56Z", "23 Nov 2026"}},
		{"urlset without loc", "urlset", urlset, []string{"<loc>http://example.com/post/</loc>", ""}},
		{"index valid", "sitemapindex", index, nil},
		{"index with a url entry", "sitemapindex", index, []string{"<sitemap>", "<url>", "</sitemap>", "</url>"}},
		{"index loc too short", "sitemapindex", index, []string{"http://example.com/cms-sitemap-posts-post-1.xml", "x"}},
		{"index in no namespace", "sitemapindex", index, []string{` xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`, ""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := tc.doc
			for i := 0; i+1 < len(tc.edits); i += 2 {
				if !strings.Contains(doc, tc.edits[i]) {
					t.Fatalf("the edit's text %q is not in the document", tc.edits[i])
				}
				doc = strings.Replace(doc, tc.edits[i], tc.edits[i+1], 1)
			}
			err := validateXML(t, []byte(doc), tc.kind)
			if valid := len(tc.edits) == 0; valid != (err == nil) {
				t.Errorf("valid %v, validator said %v", valid, err)
			}
		})
	}
}
