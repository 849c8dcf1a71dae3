package rest

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// encoder writes JSON the way PHP's json_encode does for WordPress: "/"
// escaped as "\/", non-ASCII as \uXXXX, JSON_PRETTY_PRINT layout for
// _pretty. While writing it applies context filtering (by the route's item
// schema) and _fields, and folds each Item's links into "_links", so
// responses are never copied.
type encoder struct {
	buf    []byte
	pretty bool
	// Per open container, whether it has members: a bit per level for the
	// first 64 levels (no self-referencing array, so encoders stay on the
	// stack), a slice beyond.
	depth int
	bits  uint64
	deep  []bool

	ctx    string  // context for Item filtering; "" = none
	schema *Schema // item schema of the route
	srv    *Server // with req: computes targetHints.allow of self links
	req    *Request
}

// Encoded is a value this encoder already wrote (Encode): copied as it is,
// so a large value that changes rarely (the REST index's routes) is
// encoded once rather than per request. Context filtering and _fields do
// not reach inside it.
type Encoded []byte

// Encode writes v compactly, as a response would, for later use as an
// Encoded value.
func Encode(v any) Encoded { return appendJSON(v, false) }

func appendJSON(v any, pretty bool) []byte {
	e := encoder{pretty: pretty}
	e.value(v)
	return e.buf
}

func (e *encoder) indent() {
	e.buf = append(e.buf, '\n')
	for range e.depth {
		e.buf = append(e.buf, "    "...)
	}
}

// has reports whether the innermost open container has members.
func (e *encoder) has() bool {
	d := e.depth - 1
	if d < 64 {
		return e.bits&(1<<d) != 0
	}
	return e.deep[d-64]
}

func (e *encoder) setHas(v bool) {
	d := e.depth - 1
	if d < 64 {
		if v {
			e.bits |= 1 << d
		} else {
			e.bits &^= 1 << d
		}
		return
	}
	e.deep[d-64] = v
}

func (e *encoder) open(c byte) {
	e.buf = append(e.buf, c)
	e.depth++
	if e.depth > 64 && len(e.deep) < e.depth-64 {
		e.deep = append(e.deep, false)
	}
	e.setHas(false)
}

func (e *encoder) close(c byte) {
	had := e.has()
	e.depth--
	if had && e.pretty {
		e.indent()
	}
	e.buf = append(e.buf, c)
}

func (e *encoder) openObject()  { e.open('{') }
func (e *encoder) closeObject() { e.close('}') }
func (e *encoder) openArray()   { e.open('[') }
func (e *encoder) closeArray()  { e.close(']') }

// element starts an array element.
func (e *encoder) element() {
	if e.has() {
		e.buf = append(e.buf, ',')
	}
	e.setHas(true)
	if e.pretty {
		e.indent()
	}
}

// key starts an object member.
func (e *encoder) key(k string) { e.keyParts("", k) }

func (e *encoder) keyParts(prefix, k string) {
	e.element()
	e.buf = append(e.buf, '"')
	e.escape(prefix)
	e.escape(k)
	e.buf = append(e.buf, '"', ':')
	if e.pretty {
		e.buf = append(e.buf, ' ')
	}
}

func (e *encoder) str(s string) {
	e.buf = append(e.buf, '"')
	e.escape(s)
	e.buf = append(e.buf, '"')
}

const hexLower = "0123456789abcdef"

// plainByte marks the bytes written as they are: printable ASCII other
// than '"', '\\' and '/'.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '/'
	}
	return t
}()

// escape writes s with json_encode's default escaping.
func (e *encoder) escape(s string) {
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plainByte[c] {
			i++
			continue
		}
		e.buf = append(e.buf, s[start:i]...)
		if c < utf8.RuneSelf {
			switch c {
			case '"', '\\', '/':
				e.buf = append(e.buf, '\\', c)
			case '\b':
				e.buf = append(e.buf, '\\', 'b')
			case '\f':
				e.buf = append(e.buf, '\\', 'f')
			case '\n':
				e.buf = append(e.buf, '\\', 'n')
			case '\r':
				e.buf = append(e.buf, '\\', 'r')
			case '\t':
				e.buf = append(e.buf, '\\', 't')
			default:
				e.u16(uint16(c))
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x10000 {
			r -= 0x10000
			e.u16(uint16(0xD800 + (r>>10)&0x3FF))
			e.u16(uint16(0xDC00 + r&0x3FF))
		} else {
			e.u16(uint16(r)) // utf8.RuneError for invalid bytes: \ufffd
		}
		i += size
		start = i
	}
	e.buf = append(e.buf, s[start:]...)
}

func (e *encoder) u16(v uint16) {
	e.buf = append(e.buf, '\\', 'u', hexLower[v>>12], hexLower[v>>8&15], hexLower[v>>4&15], hexLower[v&15])
}

func (e *encoder) float(f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		e.buf = append(e.buf, '0')
		return
	}
	if f == math.Trunc(f) && math.Abs(f) < 1e15 {
		e.buf = strconv.AppendInt(e.buf, int64(f), 10)
		return
	}
	e.buf = strconv.AppendFloat(e.buf, f, 'g', -1, 64)
}

// value writes any supported value. The kinds a response's data is made
// of are here; the rest (typed lists, schemas, links, errors) are in
// valueOther, so that this switch stays small on the hot path.
func (e *encoder) value(v any) {
	switch x := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case bool:
		e.buf = strconv.AppendBool(e.buf, x)
	case string:
		e.str(x)
	case json.Number:
		if x == "" {
			e.buf = append(e.buf, '0')
		} else {
			e.buf = append(e.buf, x...)
		}
	case int:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case int64:
		e.buf = strconv.AppendInt(e.buf, x, 10)
	case int32:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case uint:
		e.buf = strconv.AppendUint(e.buf, uint64(x), 10)
	case uint64:
		e.buf = strconv.AppendUint(e.buf, x, 10)
	case float64:
		e.float(x)
	case float32:
		e.float(float64(x))
	case Object:
		e.object(x, nil, nil, 0, nil, false)
	case map[string]any:
		e.mapValue(x, nil, nil, 0)
	case []any:
		e.openArray()
		for _, el := range x {
			e.element()
			e.value(el)
		}
		e.closeArray()
	case Item:
		e.item(&x, nil, 0)
	case *Item:
		e.item(x, nil, 0)
	case []Item:
		e.openArray()
		for i := range x {
			e.element()
			e.item(&x[i], nil, 0)
		}
		e.closeArray()
	case json.RawMessage:
		e.raw(x)
	case Encoded:
		if e.pretty {
			e.raw(x) // re-laid out for _pretty
		} else {
			e.buf = append(e.buf, x...)
		}
	case Raw:
		e.str(string(x))
	default:
		e.valueOther(v)
	}
}

// valueOther writes the kinds value leaves out: typed lists, links,
// errors, route descriptions, and anything else through encoding/json.
func (e *encoder) valueOther(v any) {
	switch x := v.(type) {
	case []string:
		e.openArray()
		for _, el := range x {
			e.element()
			e.str(el)
		}
		e.closeArray()
	case []int64:
		e.openArray()
		for _, el := range x {
			e.element()
			e.buf = strconv.AppendInt(e.buf, el, 10)
		}
		e.closeArray()
	case []int:
		e.openArray()
		for _, el := range x {
			e.element()
			e.buf = strconv.AppendInt(e.buf, int64(el), 10)
		}
		e.closeArray()
	case []Object:
		e.openArray()
		for _, el := range x {
			e.element()
			e.object(el, nil, nil, 0, nil, false)
		}
		e.closeArray()
	case Links:
		e.appendLinks(x)
	case *Error:
		e.object(x.body(), nil, nil, 0, nil, false)
	case *Schema:
		if x == nil {
			e.buf = append(e.buf, "null"...)
			return
		}
		e.object(x.object(false), nil, nil, 0, nil, false)
	case argSchema:
		e.object(x.s.object(true), nil, nil, 0, nil, false)
	case Props:
		e.openObject()
		for _, p := range x {
			e.key(p.Name)
			e.value(p.Schema)
		}
		e.closeObject()
	case *Batch:
		if x == nil {
			e.buf = append(e.buf, "null"...)
			return
		}
		e.openObject()
		e.key("v1")
		e.buf = strconv.AppendBool(e.buf, x.V1)
		e.closeObject()
	default:
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			e.buf = append(e.buf, "null"...)
			return
		}
		e.raw(bytes.TrimRight(b.Bytes(), "\n"))
	}
}

// argSchema renders a top-level endpoint argument for route descriptions:
// only the schema keywords plus "required" (§2.2).
type argSchema struct{ s *Schema }

// raw re-emits valid JSON with PHP escaping and the current layout.
func (e *encoder) raw(b []byte) {
	i := 0
	var walk func()
	skipWS := func() {
		for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
			i++
		}
	}
	walk = func() {
		skipWS()
		if i >= len(b) {
			e.buf = append(e.buf, "null"...)
			return
		}
		switch b[i] {
		case '{', '[':
			closing := byte('}')
			if b[i] == '[' {
				closing = ']'
			}
			e.open(b[i])
			i++
			for {
				skipWS()
				if i >= len(b) || b[i] == closing {
					i++
					break
				}
				if b[i] == ',' {
					i++
					continue
				}
				if closing == '}' {
					end := scanString(b, i)
					k := unquote(b[i:end])
					i = end
					skipWS()
					i++ // ':'
					e.key(k)
				} else {
					e.element()
				}
				walk()
			}
			e.close(closing)
		case '"':
			end := scanString(b, i)
			e.str(unquote(b[i:end]))
			i = end
		default:
			start := i
			for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\n' {
				i++
			}
			e.buf = append(e.buf, b[start:i]...)
		}
	}
	walk()
}

func scanString(b []byte, i int) int {
	i++
	for i < len(b) {
		switch b[i] {
		case '\\':
			i += 2
			continue
		case '"':
			return i + 1
		}
		i++
	}
	return len(b)
}
