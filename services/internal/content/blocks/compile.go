package blocks

import "strings"

// Compile pre-renders what is the same on every page of a site until its
// next change, so that Render only does the rest per page: static blocks
// with no dynamic block inside, and the site-wide dynamic blocks (site
// title and tagline, navigation and its links, template parts made only of
// those) rendered with env's site fields, Navigation and Part. What a page
// varies by (the post, the query, the search box) stays a block.
//
// Render(Compile(nodes, env), pageEnv) equals Render(nodes, pageEnv) when
// pageEnv has env's site fields, navigation and parts.
func Compile(nodes []Node, env *Env) []Node {
	if env == nil {
		env = &Env{}
	}
	if env.modals == nil { // shared with the parts compiled inside
		env.modals = new(int)
	}
	out := make([]Node, 0, len(nodes))
	for _, n := range nodes {
		if n.Block != nil {
			if html, ok := compileBlock(n.Block, env, &n); ok {
				n = Node{HTML: html}
			}
		}
		if n.Block == nil && len(out) > 0 && out[len(out)-1].Block == nil {
			out[len(out)-1].HTML += n.HTML
			continue
		}
		out = append(out, n)
	}
	return out
}

// siteWide are the dynamic blocks whose output depends only on the site:
// its title, tagline, home URL, navigation menus and template parts.
var siteWide = map[string]bool{
	"core/site-title":      true,
	"core/site-tagline":    true,
	"core/navigation":      true,
	"core/navigation-link": true,
	"core/home-link":       true,
	"core/template-part":   true,
}

// compiledName names the stand-in block that holds a pre-rendered subtree
// where a dynamic parent expects blocks (it renders its inner blocks only).
const compiledName = "siteplane/compiled"

// compileBlock returns b's HTML when it is the same on every page (ok),
// else sets *n to b with its inner blocks compiled.
func compileBlock(b *Block, env *Env, n *Node) (string, bool) {
	if b.Name == "core/template-part" {
		html, ok := compilePart(b, env)
		if !ok {
			*n = Node{Block: b}
		}
		return html, ok
	}
	_, isDynamic := dynamic[b.Name]
	parts := make([]Node, 0, len(b.Parts))
	constant := true
	for _, p := range b.Parts {
		if p.Block == nil {
			parts = append(parts, p)
			continue
		}
		var child Node
		if html, ok := compileBlock(p.Block, env, &child); ok {
			if isDynamic {
				// a dynamic block renders only its inner blocks
				child = Node{Block: &Block{Name: compiledName, Parts: []Node{{HTML: html}}}}
			} else {
				child = Node{HTML: html}
			}
		} else {
			constant = false
		}
		parts = append(parts, child)
	}
	c := &Block{Name: b.Name, Attrs: b.Attrs, Parts: parts}
	if constant && (!isDynamic || siteWide[b.Name]) {
		return renderBlock(c, env), true
	}
	if !isDynamic {
		c = foldWrapper(c)
	}
	*n = Node{Block: c}
	return "", false
}

// foldWrapper applies a static block's layout class and spacing style to
// its opening tag now, when that tag is in its leading HTML, so that the
// page render writes the block in place (writeBlock): the result is a
// block without attributes.
func foldWrapper(b *Block) *Block {
	cls, st := layoutClass(b), spacingStyle(b)
	if len(b.Parts) == 0 || b.Parts[0].Block != nil {
		if cls == "" && st == "" {
			return &Block{Name: compiledName, Parts: b.Parts}
		}
		return b
	}
	head := b.Parts[0].HTML
	open := strings.IndexByte(head, '<')
	if open < 0 || strings.IndexByte(head[open:], '>') < 0 {
		if cls == "" && st == "" {
			return &Block{Name: compiledName, Parts: b.Parts}
		}
		return b
	}
	if cls != "" {
		head = addClass(head, cls)
	}
	if st != "" {
		head = addStyle(head, st)
	}
	parts := append([]Node{{HTML: head}}, b.Parts[1:]...)
	return &Block{Name: compiledName, Parts: parts}
}

// compilePart pre-renders a template part whose blocks are all the same on
// every page; a part that shows anything of the page stays dynamic.
func compilePart(b *Block, env *Env) (string, bool) {
	if env.Part == nil || env.depth > 8 {
		return "", true // renders nothing, on every page
	}
	nodes, ok := env.Part(str(b, "slug", ""))
	if !ok {
		return "", true
	}
	sub := *env
	sub.depth++
	compiled := Compile(nodes, &sub)
	if len(compiled) > 1 || (len(compiled) == 1 && compiled[0].Block != nil) {
		return "", false
	}
	return renderBlock(b, &Env{Part: func(string) ([]Node, bool) { return compiled, true }, depth: env.depth}), true
}
