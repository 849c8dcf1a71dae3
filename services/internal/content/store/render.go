package store

import (
	"regexp"
	"strings"
)

// Rendering is deliberately simple and deterministic (it is not a port of
// WordPress's PHP filters):
//
//   - block comment delimiters (<!-- wp:name {...} -->, <!-- /wp:name -->,
//     self-closing <!-- wp:name /-->) are removed;
//   - the remaining text is split into blocks at blank lines; a block that
//     does not start with a block-level HTML tag is wrapped in <p>…</p>, and
//     single line breaks inside it become <br />; blocks are joined by "\n"
//     and the result ends with "\n" (wpautop's shape);
//   - title.rendered is the raw title;
//   - a generated excerpt is the content without block delimiters and tags,
//     cut to 55 words (or excerpt_length) followed by " [&hellip;]" when
//     longer, then wrapped as a paragraph.

var blankLines = regexp.MustCompile(`\n[ \t]*\n`)
var blockLevelStart = regexp.MustCompile(`(?i)^<(/?)(p|div|h[1-6]|ul|ol|li|dl|dt|dd|blockquote|pre|figure|figcaption|table|thead|tbody|tr|td|th|hr|section|nav|header|footer|main|article|aside|form|details|summary|address|hgroup|fieldset|legend|style|script|iframe|video|audio|picture|select|option|math|svg)[\s/>]`)

// stripBlocks removes block comment delimiters: "<!--", optional blanks,
// an optional "/", "wp:", then everything up to the next "-->". (A scanner
// rather than a regular expression: it runs for every post of every page.)
func stripBlocks(s string) string {
	i := strings.Index(s, "<!--")
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i >= 0 {
		b.WriteString(s[:i])
		rest := strings.TrimLeft(s[i+4:], " \t\r\n")
		rest = strings.TrimPrefix(rest, "/")
		if end := strings.Index(rest, "-->"); strings.HasPrefix(rest, "wp:") && end >= 0 {
			s = rest[end+3:]
		} else {
			b.WriteString("<!--")
			s = s[i+4:]
		}
		i = strings.Index(s, "<!--")
	}
	b.WriteString(s)
	return b.String()
}

// HasBlocks reports whether content has a block delimiter.
func HasBlocks(s string) bool { return len(stripBlocks(s)) != len(s) }

// StripTags replaces every <…> tag with repl (" " to count words, "" as
// strip_tags does).
func StripTags(s, repl string) string {
	if strings.IndexByte(s, '<') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], '>')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		b.WriteString(repl)
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

// Autop wraps text blocks in paragraphs.
func Autop(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	if strings.TrimSpace(s) == "" {
		return ""
	}
	var out []string
	for _, chunk := range blankLines.Split(s, -1) {
		chunk = strings.TrimSpace(chunk)
		if chunk == "" {
			continue
		}
		if blockLevelStart.MatchString(chunk) {
			out = append(out, chunk)
			continue
		}
		out = append(out, "<p>"+strings.ReplaceAll(chunk, "\n", "<br />\n")+"</p>")
	}
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}

// RenderContent is content.rendered.
func RenderContent(raw string) string { return Autop(stripBlocks(raw)) }

// DefaultExcerptWords is WordPress's excerpt_length.
const DefaultExcerptWords = 55

// RenderExcerpt is excerpt.rendered: the raw excerpt as a paragraph, or one
// generated from the content with at most words words.
func RenderExcerpt(rawExcerpt, rawContent string, words int) string {
	if strings.TrimSpace(rawExcerpt) != "" {
		return Autop(rawExcerpt)
	}
	return Autop(GenerateExcerpt(rawContent, words))
}

// GenerateExcerpt trims the content's text to words words (wp_trim_words),
// reading only as far as it needs: the text of a prefix of long content
// first (a listing page's ten excerpts stripped their posts' whole content,
// a tenth of content's CPU for the front page at 100,000 posts), the whole
// content when the prefix holds too few words.
func GenerateExcerpt(rawContent string, words int) string {
	if words <= 0 {
		words = DefaultExcerptWords
	}
	// about twice the bytes 16-byte words need (a huge excerpt_length
	// must not overflow)
	if words < len(rawContent)/64 {
		if n := 32*words + 512; n < len(rawContent) {
			if e, ok := prefixExcerpt(rawContent, n, words); ok {
				return e
			}
		}
	}
	return trimWords(StripTags(stripBlocks(rawContent), " "), words, false)
}

// prefixExcerpt is GenerateExcerpt's answer from rawContent's first n
// bytes, ok false when they hold too few words to know it. The prefix is
// cut before a block comment it would end inside, and its text before a
// tag left open, so that the text is the start of the whole content's
// text; its last word may be cut short, so it counts only if more than
// words words come before it.
func prefixExcerpt(rawContent string, n, words int) (string, bool) {
	p := rawContent[:n]
	if i := strings.LastIndex(p, "<!--"); i >= 0 && !strings.Contains(p[i:], "-->") {
		p = p[:i]
	}
	text := StripTags(stripBlocks(p), " ")
	// a '<' is left only where no '>' follows it in the prefix: a block
	// comment removed from inside a tag took that tag's '>' with it
	// ("<b <!-- wp:x --> c>"), and the whole content may close it later
	if i := strings.IndexByte(text, '<'); i >= 0 {
		text = text[:i]
	}
	fields := 0
	for range strings.FieldsSeq(text) {
		if fields++; fields > words+1 {
			return trimWords(text, words, true), true
		}
	}
	return "", false
}

// trimWords is text's first words words, then " [&hellip;]" when more
// follow (more: they do).
func trimWords(text string, words int, more bool) string {
	var b strings.Builder
	if words < len(text)/16 {
		b.Grow(16 * words)
	} else {
		b.Grow(len(text))
	}
	n := 0
	for field := range strings.FieldsSeq(text) {
		if n == words {
			more = true
			break
		}
		if n > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(field)
		n++
	}
	if more {
		b.WriteString(" [&hellip;]")
	}
	return b.String()
}

// NormalizeWhitespace is WordPress's normalize_whitespace, used to decide
// whether a revision differs from the last one.
func NormalizeWhitespace(s string) string {
	s = newlineRuns.ReplaceAllString(strings.TrimSpace(s), "\n")
	return spaceRuns.ReplaceAllString(s, " ")
}

var (
	spaceRuns   = regexp.MustCompile(`[ \t]+`)
	newlineRuns = regexp.MustCompile(`[\r\n]+`)
)
