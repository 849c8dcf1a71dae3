package stack

import (
	"bytes"
	"encoding/xml"
	"net/url"
	"testing"
	"time"
)

// The rules of the feed and sitemap formats, checked on the documents the
// website serves: what each format's specification requires, element by
// element (RSS 2.0 has no official schema; Atom is RFC 4287; sitemaps
// follow sitemaps.org's 0.9 schema).

const (
	atomNS    = "http://www.w3.org/2005/Atom"
	sitemapNS = "http://www.sitemaps.org/schemas/sitemap/0.9"
)

func absoluteURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// checkRSS: rss version 2.0 with one channel that has title, link and
// description; items with a title or description, absolute links, RFC 822
// dates, a guid; the atom:link self reference.
func checkRSS(t *testing.T, raw []byte) {
	t.Helper()
	var doc struct {
		XMLName  xml.Name `xml:"rss"`
		Version  string   `xml:"version,attr"`
		Channels []struct {
			// before Link: a field without a namespace takes the
			// element in any namespace, the first matching field wins
			Self []struct {
				Href string `xml:"href,attr"`
				Rel  string `xml:"rel,attr"`
			} `xml:"http://www.w3.org/2005/Atom link"`
			Title       *string `xml:"title"`
			Link        string  `xml:"link"`
			Description *string `xml:"description"`
			LastBuild   string  `xml:"lastBuildDate"`
			Items       []struct {
				Title       *string `xml:"title"`
				Description *string `xml:"description"`
				Link        string  `xml:"link"`
				PubDate     string  `xml:"pubDate"`
				GUID        string  `xml:"guid"`
			} `xml:"item"`
		} `xml:"channel"`
	}
	if err := xml.Unmarshal(raw, &doc); err != nil || doc.Version != "2.0" || len(doc.Channels) != 1 {
		t.Fatalf("not an RSS 2.0 document (%v): %.200s", err, raw)
	}
	ch := doc.Channels[0]
	if ch.Title == nil || ch.Description == nil || !absoluteURL(ch.Link) {
		t.Errorf("channel lacks title, description or an absolute link")
	}
	if _, err := time.Parse(time.RFC1123Z, ch.LastBuild); err != nil {
		t.Errorf("lastBuildDate %q: %v", ch.LastBuild, err)
	}
	if len(ch.Self) != 1 || ch.Self[0].Rel != "self" || !absoluteURL(ch.Self[0].Href) {
		t.Errorf("atom:link self: %+v", ch.Self)
	}
	for i, it := range ch.Items {
		if it.Title == nil && it.Description == nil {
			t.Errorf("item %d has neither title nor description", i)
		}
		if !absoluteURL(it.Link) || it.GUID == "" {
			t.Errorf("item %d: link %q guid %q", i, it.Link, it.GUID)
		}
		if _, err := time.Parse(time.RFC1123Z, it.PubDate); err != nil {
			t.Errorf("item %d pubDate %q: %v", i, it.PubDate, err)
		}
	}
}

// checkAtom (RFC 4287 §4.1): the feed has one id, title and updated, an
// author unless every entry has one; every entry has one id, title and
// updated (RFC 3339) and an alternate link; text constructs are typed.
func checkAtom(t *testing.T, raw []byte) {
	t.Helper()
	type text struct {
		Type string `xml:"type,attr"`
	}
	type link struct {
		Rel  string `xml:"rel,attr"`
		Href string `xml:"href,attr"`
	}
	var doc struct {
		XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
		IDs     []string `xml:"id"`
		Titles  []text   `xml:"title"`
		Updated []string `xml:"updated"`
		Authors []struct {
			Name string `xml:"name"`
		} `xml:"author"`
		Links   []link `xml:"link"`
		Entries []struct {
			IDs     []string `xml:"id"`
			Titles  []text   `xml:"title"`
			Updated []string `xml:"updated"`
			Authors []struct {
				Name string `xml:"name"`
			} `xml:"author"`
			Links   []link `xml:"link"`
			Summary *text  `xml:"summary"`
			Content *text  `xml:"content"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("not an Atom feed: %v", err)
	}
	textType := func(x *text) bool {
		return x == nil || x.Type == "" || x.Type == "text" || x.Type == "html" || x.Type == "xhtml"
	}
	if len(doc.IDs) != 1 || !absoluteURL(doc.IDs[0]) || len(doc.Titles) != 1 || !textType(&doc.Titles[0]) || len(doc.Updated) != 1 {
		t.Errorf("feed id/title/updated: %v %v %v", doc.IDs, doc.Titles, doc.Updated)
	}
	if _, err := time.Parse(time.RFC3339, doc.Updated[0]); err != nil {
		t.Errorf("feed updated: %v", err)
	}
	self := false
	for _, l := range doc.Links {
		self = self || (l.Rel == "self" && absoluteURL(l.Href))
	}
	if !self {
		t.Error("no self link")
	}
	for i, e := range doc.Entries {
		if len(e.IDs) != 1 || len(e.Titles) != 1 || !textType(&e.Titles[0]) || len(e.Updated) != 1 {
			t.Errorf("entry %d id/title/updated", i)
			continue
		}
		if _, err := time.Parse(time.RFC3339, e.Updated[0]); err != nil {
			t.Errorf("entry %d updated: %v", i, err)
		}
		if len(doc.Authors) == 0 && (len(e.Authors) == 0 || e.Authors[0].Name == "") {
			t.Errorf("entry %d has no author and the feed none", i)
		}
		alt := false
		for _, l := range e.Links {
			alt = alt || ((l.Rel == "" || l.Rel == "alternate") && absoluteURL(l.Href))
		}
		if !alt || !textType(e.Summary) || !textType(e.Content) {
			t.Errorf("entry %d: alternate link or text types", i)
		}
	}
}

// checkSitemap (sitemaps.org 0.9): a urlset or sitemapindex in the 0.9
// namespace whose entries have exactly one absolute loc under 2048
// characters, an optional W3C-datetime lastmod, and nothing else we do not
// know; at most 50,000 entries. It returns the locs.
func checkSitemap(t *testing.T, raw []byte, root string) []string {
	t.Helper()
	entry := map[string]string{"urlset": "url", "sitemapindex": "sitemap"}[root]
	allowed := map[string]bool{"loc": true, "lastmod": true}
	if root == "urlset" {
		allowed["changefreq"], allowed["priority"] = true, true
	}
	dec := xml.NewDecoder(bytes.NewReader(raw))
	var path []string
	var locs []string
	count := map[string]int{}
	var chars string
	for {
		tok, err := dec.Token()
		if err != nil {
			if err.Error() != "EOF" {
				t.Fatalf("sitemap: %v", err)
			}
			break
		}
		switch tk := tok.(type) {
		case xml.StartElement:
			if tk.Name.Space != sitemapNS {
				t.Fatalf("element %v outside the sitemap namespace", tk.Name)
			}
			path = append(path, tk.Name.Local)
			chars = ""
			switch len(path) {
			case 1:
				if tk.Name.Local != root {
					t.Fatalf("root %s, want %s", tk.Name.Local, root)
				}
			case 2:
				if tk.Name.Local != entry {
					t.Fatalf("%s inside %s", tk.Name.Local, root)
				}
				count = map[string]int{}
			case 3:
				if !allowed[tk.Name.Local] {
					t.Fatalf("%s inside %s", tk.Name.Local, entry)
				}
				count[tk.Name.Local]++
			default:
				t.Fatalf("element nested too deep: %v", path)
			}
		case xml.CharData:
			chars += string(tk)
		case xml.EndElement:
			switch {
			case len(path) == 3 && tk.Name.Local == "loc":
				if !absoluteURL(chars) || len(chars) >= 2048 {
					t.Errorf("loc %q", chars)
				}
				locs = append(locs, chars)
			case len(path) == 3 && tk.Name.Local == "lastmod":
				if _, err := time.Parse(time.RFC3339, chars); err != nil {
					t.Errorf("lastmod %q: %v", chars, err)
				}
			case len(path) == 2:
				if count["loc"] != 1 || count["lastmod"] > 1 {
					t.Errorf("%s with %v", entry, count)
				}
			}
			path = path[:len(path)-1]
		}
	}
	if len(locs) > 50000 {
		t.Errorf("%d entries", len(locs))
	}
	return locs
}
