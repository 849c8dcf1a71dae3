package content

import (
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/identity"
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
	}
	for _, c := range cases {
		if got := renderContent(c.in); got != c.want {
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
	if got := renderExcerpt("", long, 0); got != want {
		t.Errorf("generated excerpt = %q", got)
	}
	if got := renderExcerpt("", long, 3); got != "<p>w w w [&hellip;]</p>\n" {
		t.Errorf("excerpt_length 3 = %q", got)
	}
	if got := renderExcerpt("", "<b>short</b> text", 0); got != "<p>short text</p>\n" {
		t.Errorf("short = %q", got)
	}
	if got := renderExcerpt("Mine", long, 0); got != "<p>Mine</p>\n" {
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
	}
	for in, want := range cases {
		if got := sanitizeTitle(in); got != want {
			t.Errorf("sanitizeTitle(%q) = %q, want %q", in, got, want)
		}
	}
	if !reservedSlug("page2", true) || reservedSlug("page2", false) || !reservedSlug("feed", false) || reservedSlug("pager", true) {
		t.Error("reservedSlug")
	}
	if got := slugCandidate(strings.Repeat("a", 250), 12); len(got) != 200 || !strings.HasSuffix(got, "-12") {
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
		got, ok := parseDate(c.in, paris)
		if ok != c.ok || (ok && formatGMT(got) != c.want) {
			t.Errorf("parseDate(%q) = %v %v, want %v %v", c.in, formatGMT(got), ok, c.want, c.ok)
		}
	}
}

func TestSearchTerms(t *testing.T) {
	got := searchTerms(`apple "pie crust" -pear, plum`)
	if strings.Join(got, "|") != "apple|pie crust|-pear|plum" {
		t.Errorf("searchTerms = %q", got)
	}
}

func TestValidateMessages(t *testing.T) {
	args := []P{{"n", &S{Type: "integer", Minimum: num(1)}}, {"b", &S{Type: "boolean"}}, {"e", &S{Type: "string", Enum: strEnum("a", "b")}},
		{"l", &S{Type: "array", Items: &S{Type: "integer"}}}, {"u", &S{Type: "array", UniqueItems: true, Items: &S{Type: "string"}}}}
	cases := []struct {
		raw  map[string]any
		want string
	}{
		{map[string]any{"n": "0"}, "n must be greater than or equal to 1"},
		{map[string]any{"n": "1.5"}, "n is not of type integer."},
		{map[string]any{"b": "yes"}, "b is not of type boolean."},
		{map[string]any{"e": "c"}, "e is not one of a and b."},
		{map[string]any{"l": "1,x"}, "l[1] is not of type integer."},
		{map[string]any{"u": "a,a"}, "u has duplicate items."},
	}
	for _, c := range cases {
		_, err := validateArgs(args, c.raw, identity.Identity{})
		if err == nil {
			t.Errorf("%v: no error", c.raw)
			continue
		}
		for _, v := range err.Data["params"].(map[string]any) {
			if v != c.want {
				t.Errorf("%v: %q, want %q", c.raw, v, c.want)
			}
		}
	}
	out, err := validateArgs(args, map[string]any{"n": "5", "b": "FALSE", "l": "1 2,3"}, identity.Identity{})
	if err != nil || out["n"] != int64(5) || out["b"] != false || len(out["l"].([]any)) != 3 {
		t.Errorf("coercion: %v %v", out, err)
	}
}
