package blocks

import "siteplane.dev/services/internal/platform/kses"

// Sanitize returns nodes with their saved HTML (every block's own HTML and
// the HTML between blocks) filtered by kses's post allowlist, for content
// whose author may not post unfiltered HTML. Content is filtered when it is
// written too; filtering it again when it is rendered makes content stored
// before a fix of the allowlist (or written around the REST API) as safe
// as new content. Block attributes need no filter here: the renderer
// escapes every one it writes.
//
// Only the HTML is filtered, never the block comments: kses would escape
// the "&" and ">" of their JSON again on every pass. Each piece is filtered
// on its own, which is safe because kses's output is complete tags and
// escaped text (a tag cut by a block comment is dropped), and changes
// nothing of content kses already filtered (its output filters to itself).
// nodes is left as it is (it may be a cached tree).
func Sanitize(nodes []Node) []Node {
	out := make([]Node, len(nodes))
	for i, n := range nodes {
		if n.Block == nil {
			out[i] = Node{HTML: kses.Filter(n.HTML, kses.Post)}
			continue
		}
		b := *n.Block
		b.Parts = Sanitize(b.Parts)
		out[i] = Node{Block: &b}
	}
	return out
}
