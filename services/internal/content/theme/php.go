package theme

import (
	"errors"
	"fmt"
	"html"
	"regexp"
	"strconv"
	"strings"
)

// Published block themes write their patterns as PHP files whose code is
// almost always a translation or escaping call around a string literal
// (esc_html_e( 'Search', 'twentytwentythree' )). Siteplane runs no PHP: it
// evaluates exactly that static subset — string literals, concatenation,
// the i18n and escaping functions, sprintf/printf and the theme's own URI —
// and refuses the rest (variables, control flow, any other function), so a
// pattern that needs general PHP is skipped with the reason instead of being
// shown half-rendered. Translations are the source strings: Siteplane sites
// are in English, as WordPress is without a language pack.

// errGeneralPHP marks code outside the static subset.
var errGeneralPHP = errors.New("needs general PHP")

// phpBlock matches one <?php … ?> block (or one running to the end).
var phpBlock = regexp.MustCompile(`(?s)<\?(?:php\b|=)(.*?)(?:\?>|$)`)

// renderPHP replaces every PHP block of src with its output. themeURI is
// what get_template_directory_uri() answers.
func renderPHP(src, themeURI string) (string, error) {
	var firstErr error
	out := phpBlock.ReplaceAllStringFunc(src, func(block string) string {
		if firstErr != nil {
			return ""
		}
		m := phpBlock.FindStringSubmatch(block)
		code := m[1]
		if strings.HasPrefix(block, "<?=") {
			code = "echo " + code
		}
		s, err := runPHP(code, themeURI)
		if err != nil {
			firstErr = fmt.Errorf("%w: %q: %w", errGeneralPHP, shorten(strings.TrimSpace(code)), err)
		}
		return s
	})
	if firstErr != nil {
		return "", firstErr
	}
	return out, nil
}

func shorten(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// token kinds of the subset
const (
	tEOF = iota
	tIdent
	tString
	tPunct // one of ( ) , . ;
)

type token struct {
	kind int
	text string
}

// lexPHP splits code into tokens, dropping whitespace and comments.
func lexPHP(code string) ([]token, error) {
	var out []token
	for i := 0; i < len(code); {
		c := code[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case strings.HasPrefix(code[i:], "/*"):
			end := strings.Index(code[i+2:], "*/")
			if end < 0 {
				return nil, errors.New("unterminated comment")
			}
			i += end + 4
		case strings.HasPrefix(code[i:], "//") || c == '#':
			end := strings.IndexByte(code[i:], '\n')
			if end < 0 {
				end = len(code) - i
			}
			i += end
		case c == '\'' || c == '"':
			s, n, err := lexString(code[i:])
			if err != nil {
				return nil, err
			}
			out = append(out, token{tString, s})
			i += n
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i + 1
			for j < len(code) && (code[j] == '_' || code[j] >= 'a' && code[j] <= 'z' || code[j] >= 'A' && code[j] <= 'Z' || code[j] >= '0' && code[j] <= '9') {
				j++
			}
			out = append(out, token{tIdent, code[i:j]})
			i = j
		case strings.IndexByte("(),.;", c) >= 0:
			out = append(out, token{tPunct, string(c)})
			i++
		default:
			return nil, fmt.Errorf("unsupported %q", string(c))
		}
	}
	return append(out, token{kind: tEOF}), nil
}

// lexString reads a quoted literal at the start of s: single quotes know
// only \' and \\; double quotes the common escapes and no interpolation.
func lexString(s string) (string, int, error) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q:
			return b.String(), i + 1, nil
		case q == '"' && c == '$':
			return "", 0, errors.New("string interpolation")
		case c == '\\' && i+1 < len(s):
			n := s[i+1]
			switch {
			case n == q || n == '\\':
				b.WriteByte(n)
				i++
			case q == '"' && n == 'n':
				b.WriteByte('\n')
				i++
			case q == '"' && n == 't':
				b.WriteByte('\t')
				i++
			default:
				b.WriteByte(c)
			}
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, errors.New("unterminated string")
}

// phpRun evaluates statements over the token list.
type phpRun struct {
	toks     []token
	pos      int
	themeURI string
	out      strings.Builder
}

func runPHP(code, themeURI string) (string, error) {
	toks, err := lexPHP(code)
	if err != nil {
		return "", err
	}
	r := &phpRun{toks: toks, themeURI: themeURI}
	for r.peek().kind != tEOF {
		if r.accept(";") {
			continue
		}
		if err := r.statement(); err != nil {
			return "", err
		}
	}
	return r.out.String(), nil
}

func (r *phpRun) peek() token { return r.toks[r.pos] }

func (r *phpRun) accept(p string) bool {
	if t := r.peek(); t.kind == tPunct && t.text == p {
		r.pos++
		return true
	}
	return false
}

func (r *phpRun) expect(p string) error {
	if !r.accept(p) {
		return fmt.Errorf("expected %q", p)
	}
	return nil
}

// statement is "echo expr[, expr]" or a call of an output function.
func (r *phpRun) statement() error {
	if t := r.peek(); t.kind == tIdent && strings.EqualFold(t.text, "echo") {
		r.pos++
		for {
			v, err := r.expr()
			if err != nil {
				return err
			}
			r.out.WriteString(v)
			if !r.accept(",") {
				return nil
			}
		}
	}
	t := r.peek()
	if t.kind != tIdent {
		return fmt.Errorf("unexpected %q", t.text)
	}
	r.pos++
	args, err := r.args()
	if err != nil {
		return err
	}
	if t.text == "printf" {
		s, err := sprintf(args)
		r.out.WriteString(s)
		return err
	}
	f, ok := outputFuncs[t.text]
	if !ok {
		return fmt.Errorf("function %s", t.text)
	}
	s, err := f(args)
	r.out.WriteString(s)
	return err
}

// expr is term ("." term)*.
func (r *phpRun) expr() (string, error) {
	v, err := r.term()
	for err == nil && r.accept(".") {
		var w string
		w, err = r.term()
		v += w
	}
	return v, err
}

func (r *phpRun) term() (string, error) {
	t := r.peek()
	switch {
	case t.kind == tString:
		r.pos++
		return t.text, nil
	case t.kind == tPunct && t.text == "(":
		r.pos++
		v, err := r.expr()
		if err != nil {
			return "", err
		}
		return v, r.expect(")")
	case t.kind == tIdent:
		r.pos++
		args, err := r.args()
		if err != nil {
			return "", err
		}
		return r.call(t.text, args)
	}
	return "", fmt.Errorf("unexpected %q", t.text)
}

// args reads "(expr, …)".
func (r *phpRun) args() ([]string, error) {
	if err := r.expect("("); err != nil {
		return nil, err
	}
	var out []string
	for !r.accept(")") {
		if len(out) > 0 {
			if err := r.expect(","); err != nil {
				return nil, err
			}
		}
		v, err := r.expr()
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// call evaluates a value-returning function of the subset.
func (r *phpRun) call(name string, args []string) (string, error) {
	switch name {
	case "get_template_directory_uri", "get_stylesheet_directory_uri":
		return r.themeURI, nil
	case "get_theme_file_uri", "get_parent_theme_file_uri":
		if len(args) == 0 {
			return r.themeURI, nil
		}
		return r.themeURI + "/" + strings.TrimLeft(args[0], "/"), nil
	case "sprintf":
		return sprintf(args)
	}
	f, ok := valueFuncs[name]
	if !ok {
		return "", fmt.Errorf("function %s", name)
	}
	return f(args)
}

type phpFunc func(args []string) (string, error)

// first is a translation function: the source string is the translation.
func first(esc func(string) string) phpFunc {
	return func(args []string) (string, error) {
		if len(args) == 0 {
			return "", errors.New("missing argument")
		}
		return esc(args[0]), nil
	}
}

func same(s string) string { return s }

// valueFuncs return their result; outputFuncs print it.
var (
	valueFuncs = map[string]phpFunc{
		"__": first(same), "_x": first(same), "esc_html__": first(escHTML), "esc_html_x": first(escHTML),
		"esc_attr__": first(escHTML), "esc_attr_x": first(escHTML), "esc_html": first(escHTML),
		"esc_attr": first(escHTML), "esc_url": first(escURL), "esc_url_raw": first(same),
		// the theme's own static markup: kept as written
		"wp_kses_post": first(same),
	}
	outputFuncs = map[string]phpFunc{
		"_e": first(same), "_ex": first(same), "esc_html_e": first(escHTML), "esc_attr_e": first(escHTML),
	}
)

// entity matches a character reference esc_html leaves alone (it does not
// double-encode).
var entity = regexp.MustCompile(`^&(?:[a-zA-Z][a-zA-Z0-9]*|#[0-9]+|#[xX][0-9a-fA-F]+);`)

// escHTML is WordPress's esc_html/esc_attr: the five special characters
// encoded, existing entities kept.
func escHTML(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			if entity.MatchString(s[i:]) {
				b.WriteByte(c)
			} else {
				b.WriteString("&amp;")
			}
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#039;")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// escURL is esc_url for the literal URLs patterns hold: spaces encoded,
// & and ' as WordPress writes them, and only http(s), mailto and relative
// URLs kept.
func escURL(s string) string {
	s = strings.ReplaceAll(strings.TrimSpace(s), " ", "%20")
	if i := strings.IndexByte(s, ':'); i >= 0 && !strings.ContainsAny(s[:i], "/?#") {
		switch strings.ToLower(s[:i]) {
		case "http", "https", "mailto", "tel":
		default:
			return ""
		}
	}
	s = strings.ReplaceAll(html.UnescapeString(s), "&", "&#038;")
	return strings.ReplaceAll(s, "'", "&#039;")
}

// printfVerb is a conversion: %s, %d or %2$s, or %%.
var printfVerb = regexp.MustCompile(`%(?:(\d+)\$)?([sd%])`)

// sprintf is PHP's sprintf for %s, %d, numbered arguments and %%.
func sprintf(args []string) (string, error) {
	if len(args) == 0 {
		return "", errors.New("missing format")
	}
	next, bad := 1, false
	out := printfVerb.ReplaceAllStringFunc(args[0], func(v string) string {
		m := printfVerb.FindStringSubmatch(v)
		if m[2] == "%" {
			return "%"
		}
		i := next
		if m[1] != "" {
			i, _ = strconv.Atoi(m[1])
		} else {
			next++
		}
		if i < 1 || i >= len(args) {
			bad = true
			return ""
		}
		return args[i]
	})
	if bad {
		return "", errors.New("too few arguments")
	}
	return out, nil
}
