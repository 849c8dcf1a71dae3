package gateway

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// splitMembers is objectMembers' scanner over valid JSON (the scan helpers
// of batchdecode.go): the members of the object raw, in order, each value's
// bytes as they stand, as json.Decoder would hand them over as
// RawMessages. ok is false when raw is not an object. Only a key with an
// escape is decoded.
func splitMembers(raw []byte) ([]member, bool) {
	out := make([]member, 0, 32)
	ok := walkObject(raw, func(quoted, value []byte) bool {
		key, ok := memberKey(quoted)
		if ok {
			out = append(out, member{key: key, raw: json.RawMessage(value)})
		}
		return ok
	})
	if !ok {
		return nil, false
	}
	return out, true
}

// walkObject calls f with each member of the object raw (valid JSON), its
// key as it stands (quoted) and its value's bytes, until f returns false;
// ok is false when raw is not an object, or f stopped the walk.
func walkObject(raw []byte, f func(quoted, value []byte) bool) bool {
	return walk(raw, '{', f)
}

// walkArray calls f with each element of the array raw (valid JSON) until
// f returns false; ok is false when raw is not an array, or f stopped the
// walk.
func walkArray(raw []byte, f func(element []byte) bool) bool {
	return walk(raw, '[', func(_, element []byte) bool { return f(element) })
}

// walk is walkObject (open '{') and walkArray (open '['; no keys).
func walk(raw []byte, open byte, f func(quoted, value []byte) bool) bool {
	i := 0
	skipSpace(raw, &i)
	if i >= len(raw) || raw[i] != open {
		return false
	}
	for i++; ; {
		skipSpace(raw, &i)
		if i >= len(raw) {
			return false
		}
		switch raw[i] {
		case '}', ']':
			return true
		case ',':
			i++
			continue
		}
		var quoted []byte
		if open == '{' {
			end := stringEnd(raw, i)
			quoted = raw[i:end]
			i = end
			skipSpace(raw, &i)
			i++ // ':'
			skipSpace(raw, &i)
			if i >= len(raw) {
				return false
			}
		}
		start := i
		i = valueEnd(raw, start)
		if !f(quoted, raw[start:i]) {
			return false
		}
	}
}

// memberKey is the Go string of a quoted key.
func memberKey(quoted []byte) (string, bool) {
	if len(quoted) < 2 {
		return "", false
	}
	inner := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(inner, '\\') < 0 {
		return string(inner), true
	}
	// Links are written with WordPress's escaped slashes ("http:\/\/…"):
	// an escape that is only ever \/ is undone without encoding/json,
	// which decoded every href of a 100-post _embed.
	if bytes.Count(inner, []byte{'\\'}) == bytes.Count(inner, []byte(`\/`)) {
		return strings.ReplaceAll(string(inner), `\/`, "/"), true
	}
	var k string
	if json.Unmarshal(quoted, &k) != nil {
		return "", false
	}
	return k, true
}

// splitArray is the elements of the JSON array raw, each one's bytes as they
// stand (what json.Unmarshal into []json.RawMessage gives), found by
// splitPage's one pass, which also checks raw as json.Valid does: Unmarshal
// decoded every element to skip it, a fifth of the gateway's CPU on a
// 100-post _embed. ok is false when raw is not a valid array.
func splitArray(raw []byte) ([]json.RawMessage, bool) {
	items, ok := splitPage(raw)
	if !ok {
		return nil, false
	}
	return pageObjects(items), true
}

// linkRefs is what json.Unmarshal into []linkRef makes of a relation's
// links (valid JSON), read by a scan: decoding every relation of every item
// with encoding/json was a sixth of the gateway's CPU on a 100-post _embed.
// The scan takes only the shape services write (an array of objects, "href"
// a string, "embeddable" a boolean, keys spelt exactly); anything else
// (another type, a key json.Unmarshal would match case-insensitively, a
// null) is handed to json.Unmarshal, whose answer it keeps.
func linkRefs(raw []byte) ([]linkRef, bool) {
	if list, ok := scanLinkRefs(raw); ok {
		return list, true
	}
	var list []linkRef
	if json.Unmarshal(raw, &list) != nil {
		return nil, false
	}
	return list, true
}

// scanLinkRefs is linkRefs' scan; ok is false when raw is not of the plain
// shape.
func scanLinkRefs(raw []byte) ([]linkRef, bool) {
	list := []linkRef{}
	ok := walkArray(raw, func(element []byte) bool {
		l, ok := scanLinkRef(element)
		list = append(list, l)
		return ok
	})
	if !ok {
		return nil, false
	}
	return list, true
}

// scanLinkRef reads one link object of the plain shape, walking its
// members in place: splitting them into a list first (a slice and a key
// string per member) made most of the garbage of a 100-post _embed.
func scanLinkRef(raw []byte) (linkRef, bool) {
	var l linkRef
	ok := walkObject(raw, func(quoted, value []byte) bool {
		if len(quoted) < 2 {
			return false
		}
		key := quoted[1 : len(quoted)-1]
		if bytes.IndexByte(key, '\\') >= 0 { // a key with an escape, decoded
			k, ok := memberKey(quoted)
			if !ok {
				return false
			}
			key = []byte(k)
		}
		switch {
		case string(key) == "href":
			// json.Unmarshal would replace invalid UTF-8: left to it
			if len(value) < 2 || value[0] != '"' || !utf8.Valid(value) {
				return false
			}
			href, ok := memberKey(value) // a string literal, decoded as a key is
			if !ok {
				return false
			}
			l.Href = href
		case string(key) == "embeddable":
			switch string(value) {
			case "true":
				l.Embeddable = true
			case "false":
				l.Embeddable = false
			default:
				return false
			}
		case bytes.EqualFold(key, hrefKey) || bytes.EqualFold(key, embeddableName):
			return false
		}
		return true
	})
	if !ok {
		return linkRef{}, false
	}
	return l, true
}

var hrefKey, embeddableName = []byte("href"), []byte("embeddable")

// linksMember is the "_links" member of the object raw (valid JSON), nil
// when it has none; ok is false when raw is not an object or has an
// "_embedded" member. It is what splitMembers would find, without building
// the object's members (forty keys a post, as strings): splitting every
// item of a page was a tenth of the gateway's CPU on a 100-post _embed.
func linksMember(raw []byte) (links []byte, ok bool) {
	quotedEmbedded, quotedLinks := []byte(`"_embedded"`), []byte(`"_links"`)
	ok = walkObject(raw, func(quoted, value []byte) bool {
		if bytes.IndexByte(quoted, '\\') >= 0 { // a key with an escape, decoded
			k, ok := memberKey(quoted)
			if !ok {
				return false
			}
			quoted = []byte(`"` + k + `"`)
		}
		switch {
		case bytes.Equal(quoted, quotedEmbedded):
			return false
		case bytes.Equal(quoted, quotedLinks):
			links = value
		}
		return true
	})
	if !ok {
		return nil, false
	}
	return links, true
}
