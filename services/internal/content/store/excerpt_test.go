package store

import (
	"strconv"
	"strings"
	"testing"
)

// GenerateExcerpt reads a prefix of long content: its excerpt must be the
// one the whole content's text gives, wherever the prefix's end falls (in
// a word, a tag, a block comment, a comment with '>' in its attributes, a
// tag a block comment's removal leaves open). Each content is tried at
// every excerpt length from 1 to 80 words, which moves the prefix's end
// across it.
func TestGenerateExcerptFromPrefix(t *testing.T) {
	para := func(i int) string {
		return "<!-- wp:paragraph {\"className\":\"a>b\"} -->\n<p>Word" + strings.Repeat(" lorem ipsum", i%7+1) +
			" <a href=\"/x?a=1&amp;b=2\" title=\"1 > 0\">linked text</a> é—ü</p>\n<!-- /wp:paragraph -->\n"
	}
	junk := ""
	for i := 0; i < 30; i++ {
		junk += " j" + strconv.Itoa(i)
	}
	var long strings.Builder
	for i := 0; i < 120; i++ {
		long.WriteString(para(i))
	}
	contents := map[string]string{
		"paragraphs":      long.String(),
		"one long word":   strings.Repeat("x", 5000) + " after",
		"markup only":     strings.Repeat("<div class=\"w\"><span></span></div>", 300) + " one two three",
		"unclosed at end": strings.Repeat("alpha beta ", 400) + "<b never closed",
		"more tag":        strings.Repeat("gamma <!--more--> delta ", 300),
		"html comment":    "<!-- a note > with a bracket -->" + strings.Repeat(" eps", 800),
		"comment in tag":  strings.Repeat("<b <!-- wp:x --> c> zeta eta ", 200),
		"literal less":    strings.Repeat("1 < 2 and 3 > 2 theta ", 200),
		"short":           "just a few words",
		"just past":       strings.Repeat("kappa ", 140),
		// few words a prefix, and many word-like tokens in what a wrong cut
		// would take for text
		"json with >":     strings.Repeat(`<!-- wp:paragraph {"a":"> `+junk+`"} --><p>real</p><!-- /wp:paragraph -->`, 60),
		"open tag":        strings.Repeat(`<span data-a="1" `+junk+`>real</span>`, 60),
		"comment in open": strings.Repeat(`<b <!-- wp:x --> `+junk+`>real`, 60),
	}
	for name, raw := range contents {
		for words := 1; words <= 80; words++ {
			want := trimWords(StripTags(stripBlocks(raw), " "), words, false)
			if got := GenerateExcerpt(raw, words); got != want {
				t.Fatalf("%s, %d words:\n got %q\nwant %q", name, words, got, want)
			}
		}
	}
}
