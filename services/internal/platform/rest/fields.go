package rest

import "strings"

// fieldSet is the parsed _fields parameter: a tree of accepted keys
// (rest_filter_response_fields). A nil *fieldSet accepts everything.
type fieldSet struct {
	list  []string
	nodes []fieldNode // nodes[0] is the root

	// Inline storage: a typical _fields fits, so parsing allocates once.
	listBuf  [8]string
	nodesBuf [10]fieldNode
	// index finds a node by parent and name once there are many, so that
	// parsing a long _fields stays linear.
	index map[fieldKey]int
}

type fieldKey struct {
	parent int
	name   string
}

type fieldNode struct {
	name   string
	parent int
	leaf   bool // the whole value is accepted
}

func parseFields(v any) *fieldSet {
	if v == nil {
		return nil
	}
	fs := &fieldSet{}
	list := fs.listBuf[:0]
	if str, ok := v.(string); ok {
		// wp_parse_list without boxing every piece.
		start := -1
		for i := 0; i <= len(str); i++ {
			if i == len(str) || str[i] == ',' || isPHPWhitespace(str[i]) {
				if start >= 0 {
					list = append(list, str[start:i])
					start = -1
				}
			} else if start < 0 {
				start = i
			}
		}
	} else {
		for _, f := range toList(v) {
			s := strings.TrimSpace(phpString(f))
			if s != "" {
				list = append(list, s)
			}
		}
	}
	if len(list) == 0 {
		return nil
	}
	fs.list = list
	fs.nodes = append(fs.nodesBuf[:0], fieldNode{parent: -1})
fields:
	for _, f := range list {
		ref := 0
		for {
			dot := strings.IndexByte(f, '.')
			if dot < 0 {
				break
			}
			next := f[:dot]
			f = f[dot+1:]
			c := fs.child(ref, next)
			if c >= 0 && fs.nodes[c].leaf {
				// WordPress leaves the whole loop here (a "break 2"), so
				// later fields are ignored; kept for compatibility.
				break fields
			}
			if c < 0 {
				c = fs.add(fieldNode{name: next, parent: ref})
			}
			ref = c
		}
		c := fs.child(ref, f)
		if c < 0 {
			fs.add(fieldNode{name: f, parent: ref, leaf: true})
			continue
		}
		// The whole value is accepted now; its children no longer matter
		// (the encoder and later fields stop at a leaf).
		fs.nodes[c].leaf = true
	}
	return fs
}

// add appends a node and returns its index.
func (fs *fieldSet) add(n fieldNode) int {
	fs.nodes = append(fs.nodes, n)
	i := len(fs.nodes) - 1
	switch {
	case fs.index != nil:
		fs.index[fieldKey{n.parent, n.name}] = i
	case len(fs.nodes) > 16:
		fs.index = make(map[fieldKey]int, 2*len(fs.nodes))
		for j := 1; j < len(fs.nodes); j++ {
			k := fieldKey{fs.nodes[j].parent, fs.nodes[j].name}
			if _, dup := fs.index[k]; !dup {
				fs.index[k] = j
			}
		}
	}
	return i
}

// child returns the index of the node under parent named name, or -1.
func (fs *fieldSet) child(parent int, name string) int {
	if fs.index != nil {
		if i, ok := fs.index[fieldKey{parent, name}]; ok {
			return i
		}
		return -1
	}
	for i := 1; i < len(fs.nodes); i++ {
		if fs.nodes[i].parent == parent && fs.nodes[i].name == name {
			return i
		}
	}
	return -1
}

// includes is rest_is_field_included.
func (fs *fieldSet) includes(field string) bool {
	if fs == nil {
		return true
	}
	for _, f := range fs.list {
		if f == field {
			return true
		}
		if len(f) > len(field) && f[len(field)] == '.' && strings.HasPrefix(f, field) {
			return true
		}
		if len(field) > len(f) && field[len(f)] == '.' && strings.HasPrefix(field, f) {
			return true
		}
	}
	return false
}

// singleItem is the set applied to a single (non-list) response. WordPress
// keeps a single item's links apart from its data, so _fields cannot remove
// them, and controllers compute them when _links or _embedded is asked for:
// "_fields=id,_embedded" keeps "_links" (and so can be embedded). Items of a
// list carry their links inside their data, where _fields applies as usual.
func (fs *fieldSet) singleItem() *fieldSet {
	if fs == nil || fs.child(0, "_embedded") < 0 || fs.child(0, "_links") >= 0 {
		return fs
	}
	c := &fieldSet{list: append(append([]string(nil), fs.list...), "_links")}
	c.nodes = append(make([]fieldNode, 0, len(fs.nodes)+1), fs.nodes[0])
	for _, n := range fs.nodes[1:] {
		c.add(n)
	}
	c.add(fieldNode{name: "_links", parent: 0, leaf: true})
	return c
}
