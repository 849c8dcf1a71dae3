package store

import (
	"strings"
	"testing"
	"time"
)

func TestRenderContent(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"Hello", "<p>Hello</p>\n"},
		{"One\n\nTwo", "<p>One</p>\n<p>Two</p>\n"},
		{"line one\nline two", "<p>line one<br />\nline two</p>\n"},
		{"<!-- wp:paragraph -->\n<p>Para</p>\n<!-- /wp:paragraph -->", "<p>Para</p>\n"},
		{"<!-- wp:heading {\"level\":3} -->\n<h3>H</h3>\n<!-- /wp:heading -->\n\ntext", "<h3>H</h3>\n<p>text</p>\n"},
		{`<!-- wp:navigation-link {"label":"Home"} /-->`, ""},
		{"<!--more-->\n\nText", "<p><!--more--></p>\n<p>Text</p>\n"},
		{"<!--   /wp:group -->x<!-- wp:unclosed", "<p>x<!-- wp:unclosed</p>\n"},
	}
	for _, c := range cases {
		if got := RenderContent(c.in); got != c.want {
			t.Errorf("renderContent(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestRenderExcerpt(t *testing.T) {
	words := make([]string, 60)
	for i := range words {
		words[i] = "w"
	}
	long := "<!-- wp:paragraph --><p>" + strings.Join(words, " ") + "</p><!-- /wp:paragraph -->"
	want := "<p>" + strings.Join(words[:55], " ") + " [&hellip;]</p>\n"
	if got := RenderExcerpt("", long, 0); got != want {
		t.Errorf("generated excerpt = %q", got)
	}
	if got := RenderExcerpt("", long, 3); got != "<p>w w w [&hellip;]</p>\n" {
		t.Errorf("excerpt_length 3 = %q", got)
	}
	if got := RenderExcerpt("", "<b>short</b> text", 0); got != "<p>short text</p>\n" {
		t.Errorf("short = %q", got)
	}
	if got := RenderExcerpt("Mine", long, 0); got != "<p>Mine</p>\n" {
		t.Errorf("explicit = %q", got)
	}
}

func TestSanitizeTitle(t *testing.T) {
	cases := map[string]string{
		"Hello World":         "hello-world",
		"  Héllo  Wörld!  ":   "hello-world",
		"a.b/c":               "a-b-c",
		"Ça va? Ça va.":       "ca-va-ca-va",
		"<b>Bold</b> move":    "bold-move",
		"under_score--dashes": "under_score-dashes",
		"Straße":              "strasse",
		"!!!":                 "",
		"a<b>c</b>":           "ac",
	}
	for in, want := range cases {
		if got := SanitizeTitle(in); got != want {
			t.Errorf("sanitizeTitle(%q) = %q, want %q", in, got, want)
		}
	}
	if !ReservedSlug("page2", true) || ReservedSlug("page2", false) || !ReservedSlug("feed", false) || ReservedSlug("pager", true) {
		t.Error("reservedSlug")
	}
	if got := SlugCandidate(strings.Repeat("a", 250), 12); len(got) != 200 || !strings.HasSuffix(got, "-12") {
		t.Errorf("slugCandidate length %d %q", len(got), got[190:])
	}
}

func TestParseDate(t *testing.T) {
	paris, _ := time.LoadLocation("Europe/Paris")
	cases := []struct {
		in   string
		ok   bool
		want string // UTC
	}{
		{"2024-01-15T10:30:00", true, "2024-01-15T09:30:00"},
		{"2024-01-15 10:30:00", true, "2024-01-15T09:30:00"},
		{"2024-01-15T10:30:00Z", true, "2024-01-15T10:30:00"},
		{"2024-01-15T10:30:00.123+02:00", true, "2024-01-15T08:30:00"},
		{"2024-01-15T10:30:00-0530", true, "2024-01-15T16:00:00"},
		{"2024-02-31T10:30:00", false, ""},
		{"2024-01-15", false, ""},
		{"yesterday", false, ""},
	}
	for _, c := range cases {
		got, ok := ParseDate(c.in, paris)
		if ok != c.ok || (ok && FormatGMT(got) != c.want) {
			t.Errorf("parseDate(%q) = %v %v, want %v %v", c.in, FormatGMT(got), ok, c.want, c.ok)
		}
	}
}

func TestSearchWords(t *testing.T) {
	got := SearchWords(`apple "pie crust" -pear, plum`)
	if strings.Join(got, "|") != "apple|pie crust|-pear|plum" {
		t.Errorf("searchTerms = %q", got)
	}
}
