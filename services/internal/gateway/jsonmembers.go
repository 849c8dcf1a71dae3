package gateway

import (
	"bytes"
	"encoding/json"
)

// splitMembers is objectMembers' scanner over valid JSON (the scan helpers
// of batchdecode.go): the members of the object raw, in order, each value's
// bytes as they stand, as json.Decoder would hand them over as
// RawMessages. ok is false when raw is not an object. Only a key with an
// escape is decoded.
func splitMembers(raw []byte) ([]member, bool) {
	i := 0
	skipSpace(raw, &i)
	if i >= len(raw) || raw[i] != '{' {
		return nil, false
	}
	out := make([]member, 0, 32)
	i++
	for {
		skipSpace(raw, &i)
		if i >= len(raw) {
			return nil, false
		}
		switch raw[i] {
		case '}':
			return out, true
		case ',':
			i++
			continue
		}
		end := stringEnd(raw, i)
		key, ok := memberKey(raw[i:end])
		if !ok {
			return nil, false
		}
		i = end
		skipSpace(raw, &i)
		i++ // ':'
		skipSpace(raw, &i)
		if i >= len(raw) {
			return nil, false
		}
		start := i
		i = valueEnd(raw, start)
		out = append(out, member{key: key, raw: json.RawMessage(raw[start:i])})
	}
}

// memberKey is the Go string of a quoted key.
func memberKey(quoted []byte) (string, bool) {
	if len(quoted) < 2 {
		return "", false
	}
	if bytes.IndexByte(quoted, '\\') < 0 {
		return string(quoted[1 : len(quoted)-1]), true
	}
	var k string
	if json.Unmarshal(quoted, &k) != nil {
		return "", false
	}
	return k, true
}
