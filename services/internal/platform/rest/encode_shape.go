package rest

import (
	"slices"
	"sort"
)

// Shaping a response while it is written: context filtering by the
// route's item schema, _fields, and the top-level list/item layout.

// childSchema finds the schema of member key of an object schema.
func childSchema(s *Schema, key string) *Schema {
	if s == nil {
		return nil
	}
	if c := s.prop(key); c != nil {
		return c
	}
	if len(s.PatternProperties) > 0 {
		if c := patternPropertySchema(key, s); c != nil {
			return c
		}
	}
	if c, ok := s.AdditionalProperties.(*Schema); ok {
		return c
	}
	return nil
}

// hidden reports whether a member with schema c is filtered out by context.
func (e *encoder) hidden(c *Schema) bool {
	return e.ctx != "" && c != nil && c.Context != nil && !slices.Contains(c.Context, e.ctx)
}

// member decides whether key is kept by _fields and returns the nested set.
func member(fs *fieldSet, node int, key string) (keep bool, childFs *fieldSet, child int) {
	if fs == nil {
		return true, nil, 0
	}
	c := fs.child(node, key)
	if c < 0 {
		return false, nil, 0
	}
	if fs.nodes[c].leaf {
		return true, nil, 0
	}
	return true, fs, c
}

// object writes o filtered by schema s (context) and fields node; links
// (when non-nil) are folded in as "_links".
func (e *encoder) object(o Object, s *Schema, fs *fieldSet, node int, links Links, isItem bool) {
	e.openObject()
	for _, m := range o {
		var c *Schema
		if s != nil {
			c = childSchema(s, m.Key)
			if e.hidden(c) {
				continue
			}
		}
		keep, cfs, cn := member(fs, node, m.Key)
		if !keep {
			continue
		}
		e.key(m.Key)
		e.filtered(m.Value, c, cfs, cn)
	}
	// Links are kept when _fields lists them (a single item's set lists
	// them when _embedded is asked for, see fieldSet.singleItem).
	if isItem && len(links) > 0 && (fs == nil || fs.child(node, "_links") >= 0) {
		e.key("_links")
		e.appendLinks(links)
	}
	e.closeObject()
}

func (e *encoder) mapValue(m map[string]any, s *Schema, fs *fieldSet, node int) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	e.openObject()
	for _, k := range keys {
		var c *Schema
		if s != nil {
			c = childSchema(s, k)
			if e.hidden(c) {
				continue
			}
		}
		keep, cfs, cn := member(fs, node, k)
		if !keep {
			continue
		}
		e.key(k)
		e.filtered(m[k], c, cfs, cn)
	}
	e.closeObject()
}

// filtered writes v applying schema context filtering and _fields.
func (e *encoder) filtered(v any, s *Schema, fs *fieldSet, node int) {
	if e.ctx == "" {
		s = nil
	}
	switch x := v.(type) {
	case Item:
		e.item(&x, fs, node)
		return
	case *Item:
		e.item(x, fs, node)
		return
	}
	if s == nil && fs == nil {
		e.value(v)
		return
	}
	if s != nil && (len(s.AnyOf) > 0 || len(s.OneOf) > 0) {
		s = resolveCombining(v, s)
	}
	switch x := v.(type) {
	case Object:
		e.object(x, s, fs, node, nil, false)
	case map[string]any:
		e.mapValue(x, s, fs, node)
	case []any, []Object:
		var items *Schema
		if s != nil {
			items = s.Items
		}
		if e.hidden(items) {
			e.buf = append(e.buf, "[]"...)
			return
		}
		e.openArray()
		if list, ok := x.([]Object); ok {
			for _, el := range list {
				e.element()
				e.object(el, items, nil, 0, nil, false)
			}
		} else {
			for _, el := range x.([]any) {
				e.element()
				e.filtered(el, items, nil, 0)
			}
		}
		e.closeArray()
	default:
		e.value(v)
	}
}

// item writes one resource: its fields filtered by the route schema and
// context, then its links.
func (e *encoder) item(it *Item, fs *fieldSet, node int) {
	s := e.schema
	if e.ctx == "" {
		s = nil
	}
	e.object(it.Data, s, fs, node, it.Links, true)
}

// top writes a response body: _fields applies to each element of a list,
// otherwise to the object itself.
func (e *encoder) top(v any, fs *fieldSet) {
	switch x := v.(type) {
	case []Item:
		e.openArray()
		for i := range x {
			e.element()
			e.item(&x[i], fs, 0)
		}
		e.closeArray()
	case []any:
		e.openArray()
		for _, el := range x {
			e.element()
			e.filtered(el, nil, fs, 0)
		}
		e.closeArray()
	case []Object:
		e.openArray()
		for _, el := range x {
			e.element()
			e.object(el, nil, fs, 0, nil, false)
		}
		e.closeArray()
	default:
		e.filtered(v, nil, fs.singleItem(), 0)
	}
}

// resolveCombining picks the anyOf/oneOf candidate that the value matches,
// as rest_filter_response_by_context does, so its properties drive the
// context filtering. Without a match the schema is used as it is.
func resolveCombining(v any, s *Schema) *Schema {
	var m *Schema
	var err *Error
	if len(s.AnyOf) > 0 {
		m, err = findAny(v, s, quietRoot)
	} else {
		m, err = findOne(v, s, quietRoot)
	}
	if err != nil || m == nil {
		return s
	}
	merged := *m
	if merged.Type == "" && len(merged.Types) == 0 {
		merged.Type, merged.Types = s.Type, s.Types
	}
	return &merged
}

// EncodeItem writes it as this request's answer would write it, as the
// answer itself or as an element of a list, so that a handler can keep the
// bytes and answer later requests with them (as an Encoded value). ok is
// false when the request shapes the item beyond its route and context
// (_fields, _pretty): the bytes would then not fit another request.
func (r *Request) EncodeItem(it Item) (b Encoded, ok bool) {
	if r.ShapesItems() {
		return nil, false
	}
	e := encoder{srv: r.srv, req: r}
	if r.route != nil {
		e.schema = r.route.Schema
		e.ctx = r.ViewContext()
	}
	e.item(&it, nil, 0)
	return e.buf, true
}

// ShapesItems reports whether the request shapes its answer's items beyond
// the route's schema and context (_fields, _pretty), so that bytes made
// by EncodeItem for another request do not fit it.
func (r *Request) ShapesItems() bool { return r.fieldSet() != nil || r.pretty() }
