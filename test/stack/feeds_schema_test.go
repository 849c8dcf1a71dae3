package stack

import (
	"bytes"
	"encoding/xml"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The feeds and sitemaps the website serves are checked twice: validated
// against their XML schemas by a real validator (xmllint, below), and by the
// rules of their specifications that a schema cannot express, coded here
// element by element (checkRSS, checkAtom, checkSitemap).
//
// The schemas (docs/website.md says where each comes from):
//   - sitemap (urlset): sitemaps.org's sitemap.xsd, from the npm package
//     sitemap, pinned and installed by hack/xmlschemas.sh into
//     bin/xmlschemas (SITEPLANE_XML_SCHEMAS);
//   - sitemap index: testdata/xmlschema/siteindex.xsd, the project's, which
//     includes that sitemap.xsd for its loc and lastmod types (no package
//     reachable here ships sitemaps.org's siteindex.xsd);
//   - Atom: testdata/xmlschema/atom.rng, the project's RELAX NG of RFC 4287's
//     normative text (the RFC's informative schema ships in no package here);
//   - RSS 2.0: testdata/xmlschema/rss2.rng, the project's RELAX NG of the RSS
//     2.0 specification (RSS has no official schema).

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
	// What the feed and each entry both carry (RFC 4287 §4.1.1, §4.1.2).
	type common struct {
		IDs     []string `xml:"id"`
		Titles  []text   `xml:"title"`
		Updated []string `xml:"updated"`
		Authors []struct {
			Name string `xml:"name"`
		} `xml:"author"`
		Links []link `xml:"link"`
	}
	var doc struct {
		XMLName xml.Name `xml:"http://www.w3.org/2005/Atom feed"`
		common
		Entries []struct {
			common
			Summary *text `xml:"summary"`
			Content *text `xml:"content"`
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

// xmlSchemas is where the validator and the schemas are, found once.
var xmlSchemas struct {
	once    sync.Once
	xmllint string
	dir     string // sitemap.xsd and siteindex.xsd side by side
	err     string
}

// schemaKinds maps a document kind to its schema file and xmllint's flag.
var schemaKinds = map[string]struct{ file, flag string }{
	"rss":          {"rss2.rng", "--relaxng"},
	"atom":         {"atom.rng", "--relaxng"},
	"urlset":       {"sitemap.xsd", "--schema"},
	"sitemapindex": {"siteindex.xsd", "--schema"},
}

// schemaSetup finds xmllint and the installed sitemap.xsd, and lays out a
// directory with every schema (siteindex.xsd includes sitemap.xsd by a
// relative location). Outside CI a missing validator or schema skips;
// under CI it fails.
func schemaSetup(t *testing.T) (xmllint, dir string) {
	t.Helper()
	s := &xmlSchemas
	s.once.Do(func() {
		var err error
		if s.xmllint, err = exec.LookPath("xmllint"); err != nil {
			s.err = "xmllint is not installed (run hack/xmlschemas.sh)"
			return
		}
		installed := os.Getenv("SITEPLANE_XML_SCHEMAS")
		if installed == "" {
			installed, _ = filepath.Abs("../../bin/xmlschemas")
		}
		sitemap, err := os.ReadFile(filepath.Join(installed, "sitemap.xsd"))
		if err != nil {
			s.err = "sitemaps.org's sitemap.xsd is not installed (run hack/xmlschemas.sh): " + err.Error()
			return
		}
		dir, err := os.MkdirTemp("", "siteplane-xmlschemas-")
		if err != nil {
			s.err = err.Error()
			return
		}
		files := map[string][]byte{"sitemap.xsd": sitemap}
		for _, f := range []string{"siteindex.xsd", "atom.rng", "rss2.rng"} {
			if files[f], err = os.ReadFile(filepath.Join("testdata", "xmlschema", f)); err != nil {
				s.err = err.Error()
				return
			}
		}
		for name, b := range files {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				s.err = err.Error()
				return
			}
		}
		s.dir = dir
	})
	if s.err != "" {
		if os.Getenv("CI") != "" {
			t.Fatal(s.err)
		}
		t.Skip(s.err)
	}
	return s.xmllint, s.dir
}

// validateXML validates raw against the schema of kind ("rss", "atom",
// "urlset", "sitemapindex") with xmllint; the error holds xmllint's report.
func validateXML(t *testing.T, raw []byte, kind string) error {
	t.Helper()
	xmllint, dir := schemaSetup(t)
	k, ok := schemaKinds[kind]
	if !ok {
		t.Fatalf("no schema for %q", kind)
	}
	cmd := exec.Command(xmllint, "--noout", "--nonet", k.flag, filepath.Join(dir, k.file), "-")
	cmd.Stdin = bytes.NewReader(raw)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return &schemaError{kind: kind, report: strings.TrimSpace(string(out))}
	}
	return nil
}

type schemaError struct{ kind, report string }

func (e *schemaError) Error() string { return "not a valid " + e.kind + " document: " + e.report }

// checkSchema fails t when raw is not valid against kind's schema.
func checkSchema(t *testing.T, raw []byte, kind, what string) {
	t.Helper()
	if err := validateXML(t, raw, kind); err != nil {
		t.Errorf("%s: %v\n%.600s", what, err, raw)
	}
}
