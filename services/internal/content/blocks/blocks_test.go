package blocks

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // a compact dump of the tree
	}{
		{"freeform", "<p>hi</p>", `"<p>hi</p>"`},
		{"void", `<!-- wp:site-title {"level":0} /-->`, `core/site-title{level:0}[]`},
		{"namespaced", `<!-- wp:acme/box /-->`, `acme/box{}[]`},
		{"nested", "<!-- wp:group -->\n<div><!-- wp:paragraph -->\n<p>a</p>\n<!-- /wp:paragraph --></div>\n<!-- /wp:group -->",
			`core/group{}["\n<div>" core/paragraph{}["\n<p>a</p>\n"] "</div>\n"]`},
		{"bad json attrs are empty", `<!-- wp:paragraph {"a": } /-->`, `core/paragraph{}[]`},
		{"unclosed block ends at end", "<!-- wp:group --><div>x</div>", `core/group{}["<div>x</div>"]`},
		{"stray closer dropped", "a<!-- /wp:group -->b", `"a" "b"`},
		{"attrs with braces inside strings", `<!-- wp:heading {"content":"a } b"} /-->`, `core/heading{content:a } b}[]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := dump(Parse(tt.src)); got != tt.want {
				t.Errorf("Parse(%q)\n got %s\nwant %s", tt.src, got, tt.want)
			}
		})
	}
}

func dump(nodes []Node) string {
	var parts []string
	for _, n := range nodes {
		if n.Block == nil {
			parts = append(parts, strconv.Quote(n.HTML))
			continue
		}
		var attrs []string
		for _, k := range sortedKeys(n.Block.Attrs) {
			attrs = append(attrs, fmt.Sprintf("%s:%v", k, n.Block.Attrs[k]))
		}
		parts = append(parts, n.Block.Name+"{"+strings.Join(attrs, ",")+"}["+dump(n.Block.Parts)+"]")
	}
	return strings.Join(parts, " ")
}
