// Package blocks parses block markup (the <!-- wp:name {attrs} --> comment
// delimiters of the block editor) into a tree and renders that tree to HTML
// on the server. Everything here is a pure function of its inputs: the data
// a dynamic block needs (the site title, the current post, the main query)
// comes in an Env the caller fills.
package blocks

import (
	"encoding/json"
	"regexp"
	"strings"
)

// Block is one parsed block. Parts interleave the block's own HTML with its
// inner blocks, in document order (WordPress's innerContent).
type Block struct {
	Name  string // always namespaced: "core/paragraph"
	Attrs map[string]any
	Parts []Node
}

// Node is either literal HTML (Block nil) or an inner block.
type Node struct {
	HTML  string
	Block *Block
}

// Inner returns the block's inner blocks.
func (b *Block) Inner() []*Block {
	var out []*Block
	for _, n := range b.Parts {
		if n.Block != nil {
			out = append(out, n.Block)
		}
	}
	return out
}

// delimiter matches an opening, closing or void block comment. The
// attributes are a JSON object ending right before whitespace and "-->".
var delimiter = regexp.MustCompile(`(?s)<!--\s+(/)?wp:([a-z][a-z0-9_-]*(?:/[a-z][a-z0-9_-]*)?)\s+(\{.*?\}\s+)?(/)?-->`)

// Parse turns block markup into a list of top-level nodes. Text outside
// any block is kept as HTML nodes; an unclosed block ends at the end of
// input; a stray closer is dropped; attributes that are not valid JSON are
// treated as empty (as the editor's parser does).
func Parse(src string) []Node {
	root := &Block{}
	stack := []*Block{root}
	top := func() *Block { return stack[len(stack)-1] }
	addHTML := func(s string) {
		if s != "" {
			top().Parts = append(top().Parts, Node{HTML: s})
		}
	}
	pos := 0
	for _, m := range delimiter.FindAllStringSubmatchIndex(src, -1) {
		addHTML(src[pos:m[0]])
		pos = m[1]
		closer := m[2] >= 0
		name := normalizeName(src[m[4]:m[5]])
		void := m[8] >= 0
		if closer {
			// close the innermost open block of that name (and any
			// unclosed blocks inside it)
			for i := len(stack) - 1; i > 0; i-- {
				if stack[i].Name == name {
					stack = stack[:i]
					break
				}
			}
			continue
		}
		b := &Block{Name: name, Attrs: map[string]any{}}
		if m[6] >= 0 {
			var attrs map[string]any
			if json.Unmarshal([]byte(strings.TrimSpace(src[m[6]:m[7]])), &attrs) == nil {
				b.Attrs = attrs
			}
		}
		top().Parts = append(top().Parts, Node{Block: b})
		if !void {
			stack = append(stack, b)
		}
	}
	addHTML(src[pos:])
	return root.Parts
}

func normalizeName(n string) string {
	if !strings.Contains(n, "/") {
		return "core/" + n
	}
	return n
}
