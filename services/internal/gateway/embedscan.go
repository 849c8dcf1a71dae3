package gateway

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
)

// One pass over a list answer (docs/performance.md, _embed). A 100-post
// page's ~270 KB were walked three times before its links were known:
// json.Valid (a byte-at-a-time state machine: a sixth of the gateway's CPU
// on such a page), the split into items, and each item's search for its
// "_links". splitPage checks the answer is valid JSON exactly as json.Valid
// does (TestSplitPage compares them on every one-byte change of a page)
// while it splits it and notes each item's "_links", with string bodies
// skipped a run of plain bytes at a time.

// maxJSONDepth is json.Valid's nesting limit.
const maxJSONDepth = 10000

// pageItem is one element of a list answer: its bytes and, for an object,
// what linksMember would say of it.
type pageItem struct {
	raw   []byte
	links []byte // the "_links" member's value; nil: none
	ok    bool   // an object without an "_embedded" member
}

// splitPage is the elements of the JSON array raw, or ok false when raw is
// not a valid JSON array (json.Valid's verdict for anything else).
func splitPage(raw []byte) ([]pageItem, bool) {
	i := 0
	skipSpace(raw, &i)
	if i >= len(raw) || raw[i] != '[' {
		return nil, false
	}
	items := make([]pageItem, 0, 100)
	end, ok := validArray(raw, i, 1, func(start int) (int, bool) {
		if start >= len(raw) || raw[start] != '{' {
			end, ok := validValue(raw, start, 1)
			if ok {
				items = append(items, pageItem{raw: raw[start:end]})
			}
			return end, ok
		}
		// the item's own members: its "_links", and whether it has an
		// "_embedded" (as linksMember reads them)
		it := pageItem{ok: true}
		end, ok := validObject(raw, start, 2, func(key, value []byte) {
			switch {
			case !it.ok:
			case sameKey(key, quotedEmbedded):
				it.links, it.ok = nil, false
			case sameKey(key, quotedLinks):
				it.links = value
			}
		})
		if ok {
			it.raw = raw[start:end]
			items = append(items, it)
		}
		return end, ok
	})
	if !ok {
		return nil, false
	}
	skipSpace(raw, &end)
	if end != len(raw) {
		return nil, false
	}
	return items, true
}

// validValue is the index after the valid JSON value at b[i] (no leading
// space), or ok false; depth is the nesting of its container.
func validValue(b []byte, i, depth int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch c := b[i]; {
	case c == '"':
		return validString(b, i)
	case c == '{':
		return validObject(b, i, depth+1, nil)
	case c == '[':
		return validArray(b, i, depth+1, nil)
	case c == 't':
		return validLiteral(b, i, "true")
	case c == 'f':
		return validLiteral(b, i, "false")
	case c == 'n':
		return validLiteral(b, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return validNumber(b, i)
	}
	return 0, false
}

// validArray checks the array at b[i] (depth its own nesting); element,
// when given, checks each element in its place (validValue's contract).
func validArray(b []byte, i, depth int, element func(start int) (int, bool)) (int, bool) {
	i, empty, ok := openContainer(b, i, depth, ']')
	if !ok || empty {
		return i, ok
	}
	for {
		var end int
		var ok bool
		if element != nil {
			end, ok = element(i)
		} else {
			end, ok = validValue(b, i, depth)
		}
		if !ok {
			return 0, false
		}
		next, done, ok := nextElement(b, end, ']')
		if !ok || done {
			return next, ok
		}
		i = next
	}
}

// validObject checks the object at b[i] (depth its own nesting), calling
// member, when given, with each member's quoted key and value.
func validObject(b []byte, i, depth int, member func(key, value []byte)) (int, bool) {
	i, empty, ok := openContainer(b, i, depth, '}')
	if !ok || empty {
		return i, ok
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return 0, false
		}
		keyStart := i
		end, ok := validString(b, i)
		if !ok {
			return 0, false
		}
		key := b[keyStart:end]
		i = end
		skipSpace(b, &i)
		if i >= len(b) || b[i] != ':' {
			return 0, false
		}
		i++
		skipSpace(b, &i)
		valueStart := i
		if i, ok = validValue(b, i, depth); !ok {
			return 0, false
		}
		if member != nil {
			member(key, b[valueStart:i])
		}
		next, done, ok := nextElement(b, i, '}')
		if !ok || done {
			return next, ok
		}
		i = next
	}
}

// openContainer reads the opening of the array or object at b[i] (depth
// its nesting): i at its first element, or past it when it is empty.
func openContainer(b []byte, i, depth int, closer byte) (next int, empty, ok bool) {
	if depth > maxJSONDepth {
		return 0, false, false
	}
	i++
	skipSpace(b, &i)
	if i < len(b) && b[i] == closer {
		return i + 1, true, true
	}
	return i, false, true
}

// nextElement reads what follows an element of a container at b[i]: its
// closer (done, next past it) or a comma (next at the following element).
func nextElement(b []byte, i int, closer byte) (next int, done, ok bool) {
	skipSpace(b, &i)
	if i >= len(b) {
		return 0, false, false
	}
	switch b[i] {
	case closer:
		return i + 1, true, true
	case ',':
		i++
		skipSpace(b, &i)
		return i, false, true
	}
	return 0, false, false
}

// plainByte marks the bytes a string holds as they are: not a quote, a
// backslash or a control character.
var plainByte = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

// validString checks the string literal at b[i]: no control character,
// only JSON's escapes (json.Valid does not check UTF-8, nor does this).
// Runs of plain bytes (a post's rendered content) are skipped by a table
// lookup each.
func validString(b []byte, i int) (int, bool) {
	for i++; i < len(b); i++ {
		for i+8 <= len(b) && plainWord(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		for i < len(b) && plainByte[b[i]] {
			i++
		}
		if i >= len(b) {
			break
		}
		c := b[i]
		switch {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return 0, false
		case c == '\\':
			i++
			if i >= len(b) {
				return 0, false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if i+4 >= len(b) || !isHex(b[i+1]) || !isHex(b[i+2]) || !isHex(b[i+3]) || !isHex(b[i+4]) {
					return 0, false
				}
				i += 4
			default:
				return 0, false
			}
		}
	}
	return 0, false
}

// plainWord reports whether none of the eight bytes of x is a quote, a
// backslash or a control character (the classic "has a zero byte" and
// "has a byte less than n" bit tests): a rendered post's content is
// skipped eight bytes at a time.
func plainWord(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	hasZero := func(v uint64) bool { return (v-ones)&^v&highs != 0 }
	control := (x-ones*0x20)&^x&highs != 0
	return !control && !hasZero(x^(ones*'"')) && !hasZero(x^(ones*'\\'))
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// validLiteral checks true, false or null at b[i].
func validLiteral(b []byte, i int, lit string) (int, bool) {
	if !bytes.HasPrefix(b[i:], []byte(lit)) {
		return 0, false
	}
	return i + len(lit), true
}

// validNumber checks a number at b[i]: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(b []byte, i int) (int, bool) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}

// digits is the index after the run of digits at b[i].
func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

var quotedEmbedded, quotedLinks = []byte(`"_embedded"`), []byte(`"_links"`)

// sameKey reports whether the quoted key is want (quoted), escapes undone
// as linksMember undoes them.
func sameKey(key, want []byte) bool {
	if bytes.IndexByte(key, '\\') < 0 {
		return bytes.Equal(key, want)
	}
	k, ok := memberKey(key)
	return ok && len(k)+2 == len(want) && k == string(want[1:len(want)-1])
}

// pageObjects are the items' bytes (what splitArray gives).
func pageObjects(items []pageItem) []json.RawMessage {
	out := make([]json.RawMessage, len(items))
	for i, it := range items {
		out[i] = it.raw
	}
	return out
}
