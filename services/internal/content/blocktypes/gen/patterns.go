package main

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
)

// WordPress's core block patterns and pattern categories: block-patterns.php
// registers the categories and, for a theme with core-block-patterns (every
// theme, by default), the six query patterns of block-patterns/*.php.
// Remote patterns (the pattern directory) are off: Siteplane fetches
// nothing from wordpress.org.

var (
	categoryRe     = regexp.MustCompile(`register_block_pattern_category\(\s*'([^']+)',\s*array\(\s*'label'\s*=>\s*_x\(\s*'((?:[^'\\]|\\.)*)'[^)]*\),\s*'description'\s*=>\s*__\(\s*'((?:[^'\\]|\\.)*)'\s*\)`)
	corePatternsRe = regexp.MustCompile(`(?s)\$core_block_patterns = array\((.*?)\);`)
	quotedRe       = regexp.MustCompile(`'((?:[^'\\]|\\.)*)'`)
	patternKeyRe   = func(key, value string) *regexp.Regexp {
		return regexp.MustCompile(`(?s)'` + key + `'\s*=>\s*` + value)
	}
	titleRe      = patternKeyRe("title", `_x\(\s*'((?:[^'\\]|\\.)*)'`)
	contentRe    = patternKeyRe("content", `'((?:[^'\\]|\\.)*)'`)
	blockTypesRe = patternKeyRe("blockTypes", `array\(([^)]*)\)`)
	categoriesRe = patternKeyRe("categories", `array\(([^)]*)\)`)
	// delimiterRe is a block comment delimiter (content/blocks' grammar).
	delimiterRe = regexp.MustCompile(`(?s)<!--\s+(/)?wp:([a-z][a-z0-9_-]*(?:/[a-z][a-z0-9_-]*)?)\s+(\{.*?\}\s+)?(/)?-->`)
	// categoriesMigration is the patterns controller's renaming of old
	// category names.
	categoriesMigration = map[string]string{"buttons": "call-to-action", "columns": "text", "query": "posts"}
)

// phpString unquotes a single-quoted PHP string's body.
func phpString(s string) string {
	return strings.NewReplacer(`\'`, `'`, `\\`, `\`).Replace(s)
}

func phpList(s string) []any {
	out := []any{}
	for _, m := range quotedRe.FindAllStringSubmatch(s, -1) {
		out = append(out, phpString(m[1]))
	}
	return out
}

// coreCategories are block-patterns.php's categories, in order.
func coreCategories(php []byte) []any {
	var out []any
	for _, m := range categoryRe.FindAllSubmatch(php, -1) {
		out = append(out, object{{Key: "name", Value: string(m[1])}, {Key: "label", Value: phpString(string(m[2]))}, {Key: "description", Value: phpString(string(m[3]))}})
	}
	return out
}

// corePatterns are the core patterns as the patterns controller answers
// them: categories migrated, content parsed and serialized again.
func corePatterns(php []byte, files map[string][]byte) ([]any, error) {
	m := corePatternsRe.FindSubmatch(php)
	if m == nil {
		return nil, fmt.Errorf("block-patterns.php lists no core patterns")
	}
	var out []any
	for _, n := range phpList(string(m[1])) {
		name := n.(string)
		src, ok := files[name]
		if !ok {
			return nil, fmt.Errorf("block-patterns/%s.php is missing", name)
		}
		title, content := titleRe.FindSubmatch(src), contentRe.FindSubmatch(src)
		types, cats := blockTypesRe.FindSubmatch(src), categoriesRe.FindSubmatch(src)
		if title == nil || content == nil || types == nil || cats == nil {
			return nil, fmt.Errorf("block-patterns/%s.php: title, content, blockTypes or categories not found", name)
		}
		categories := phpList(string(cats[1]))
		for i, c := range categories {
			if to, ok := categoriesMigration[c.(string)]; ok {
				categories[i] = to
			}
		}
		body, err := reserialize(phpString(string(content[1])))
		if err != nil {
			return nil, fmt.Errorf("block-patterns/%s.php: %w", name, err)
		}
		out = append(out, object{{Key: "name", Value: "core/" + name}, {Key: "title", Value: phpString(string(title[1]))}, {Key: "content", Value: body},
			{Key: "categories", Value: categories}, {Key: "block_types", Value: phpList(string(types[1]))}, {Key: "source", Value: "core"}})
	}
	return out, nil
}

// reserialize rewrites each block delimiter as serialize_block writes it:
// one space each side, "core/" dropped, attributes re-encoded in order with
// serialize_block_attributes' escapes. The HTML between stays as it was.
func reserialize(content string) (string, error) {
	var failed error
	out := delimiterRe.ReplaceAllStringFunc(content, func(d string) string {
		sm := delimiterRe.FindStringSubmatch(d)
		name := strings.TrimPrefix(sm[2], "core/")
		if sm[1] == "/" {
			return "<!-- /wp:" + name + " -->"
		}
		s := "<!-- wp:" + name + " "
		if attrs := strings.TrimSpace(sm[3]); attrs != "" {
			v, err := decodeOrdered([]byte(attrs))
			if err != nil {
				failed = err
				return d
			}
			if o, ok := v.(object); ok && len(o) > 0 {
				var b bytes.Buffer
				if err := writeValue(&b, v); err != nil {
					failed = err
					return d
				}
				s += attributeEscapes.Replace(b.String()) + " "
			}
		}
		if sm[4] == "/" {
			return s + "/-->"
		}
		return s + "-->"
	})
	return out, failed
}

// attributeEscapes are serialize_block_attributes' replacements, which keep
// the JSON from closing the comment or being read as HTML.
var attributeEscapes = strings.NewReplacer("--", `\u002d\u002d`, "<", `\u003c`, ">", `\u003e`, "&", `\u0026`, `\"`, `\u0022`)
