package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"maps"
	"strconv"
	"unicode/utf8"

	"siteplane.dev/services/pkg/contract"
)

// decodeBatchResponse reads a service's answer on contract.BatchPath as
// json.Unmarshal into contract.BatchResponse does, for the answers services
// write (docs/performance.md#batches-of-creates): the whole answer is
// checked once with json.Valid, then split by a plain scan. json.Unmarshal
// scanned each body twice more (to skip it, then to copy it), half of the
// gateway's CPU on a batch of 25 creates. The small parts (status,
// headers) go through json.Unmarshal; anything it would not split itself
// (an unexpected shape) is handed whole to json.Unmarshal. The bodies are
// slices of b, which the caller must not change afterwards.
func decodeBatchResponse(b []byte) (*contract.BatchResponse, error) {
	if !json.Valid(b) {
		var out contract.BatchResponse
		return nil, json.Unmarshal(b, &out) // its error names what is wrong
	}
	out, err := splitBatchResponse(b)
	if err != nil {
		out = &contract.BatchResponse{}
		if err := json.Unmarshal(b, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

var errShape = errors.New("unexpected batch answer shape")

// splitBatchResponse splits valid JSON of the shape
// {"committed": bool, "responses": [{"status": n, "headers": {...}, "body": ...}]},
// keys in any order; any other key or shape is errShape.
func splitBatchResponse(b []byte) (*contract.BatchResponse, error) {
	out := &contract.BatchResponse{}
	i := 0
	err := eachMember(b, &i, func(key string, v []byte) error {
		switch key {
		case "committed":
			return json.Unmarshal(v, &out.Committed)
		case "responses":
			if string(v) == "null" {
				out.Responses = nil
				return nil
			}
			if v[0] != '[' {
				return errShape
			}
			out.Responses = []contract.BatchSubResponse{}
			j := 1
			for {
				skipSpace(v, &j)
				if v[j] == ']' {
					return nil
				}
				if v[j] == ',' {
					j++
					continue
				}
				var r contract.BatchSubResponse
				if err := eachMember(v, &j, func(key string, w []byte) error {
					switch key {
					case "status":
						n, err := strconv.Atoi(string(w))
						if err != nil {
							return errShape
						}
						r.Status = n
					case "headers":
						r.Headers = nil
						return decodeHeaders(w, &r.Headers)
					case "body":
						// b is the caller's alone (read for this answer):
						// the body is its slice, not a copy (capped, so that
						// an append cannot write into the next answer)
						r.Body = json.RawMessage(w[:len(w):len(w)])
					default:
						return errShape // json.Unmarshal matches keys case-insensitively: let it
					}
					return nil
				}); err != nil {
					return err
				}
				out.Responses = append(out.Responses, r)
			}
		default:
			return errShape
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// eachMember calls f with each member of the object starting at b[*i]
// (valid JSON) and leaves *i after it. Keys with escapes are refused
// (errShape): the answer's keys have none.
func eachMember(b []byte, i *int, f func(key string, value []byte) error) error {
	skipSpace(b, i)
	if b[*i] != '{' {
		return errShape
	}
	*i++
	for {
		skipSpace(b, i)
		switch b[*i] {
		case '}':
			*i++
			return nil
		case ',':
			*i++
			continue
		}
		end := stringEnd(b, *i)
		key := b[*i+1 : end-1]
		for _, c := range key {
			if c == '\\' {
				return errShape
			}
		}
		*i = end
		skipSpace(b, i)
		*i++ // ':'
		skipSpace(b, i)
		start := *i
		*i = valueEnd(b, start)
		if err := f(string(key), b[start:*i]); err != nil {
			return err
		}
	}
}

func skipSpace(b []byte, i *int) {
	for *i < len(b) && (b[*i] == ' ' || b[*i] == '\n' || b[*i] == '\t' || b[*i] == '\r') {
		*i++
	}
}

// stringEnd is the index after the string literal starting at b[i]. It
// looks for the next quote and then for an escape before it with
// bytes.IndexByte rather than byte by byte: a post's rendered content is
// most of an _embed page's bytes, walked by every scan.
func stringEnd(b []byte, i int) int {
	for i++; i < len(b); {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return len(b)
		}
		if k := bytes.IndexByte(b[i:i+j], '\\'); k >= 0 {
			i += k + 2 // past the escape and the character it escapes
			continue
		}
		return i + j + 1
	}
	return len(b)
}

// valueEnd is the index after the JSON value starting at b[i] (valid JSON).
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = stringEnd(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(b)
	default:
		for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\n' && b[i] != '\t' && b[i] != '\r' {
			i++
		}
		return i
	}
}

// decodeHeaders is json.Unmarshal of an answer's headers (valid JSON) into
// a map of strings, by a scan when every key and value is a plain string
// (no escape: what services write); otherwise, and for anything else,
// json.Unmarshal. Decoding 300 small maps with encoding/json was 8 % of the
// gateway's CPU on a 100-post _embed.
func decodeHeaders(w []byte, out *map[string]string) error {
	m := map[string]string{}
	i := 0
	plain := eachMember(w, &i, func(key string, v []byte) error {
		// json.Unmarshal would replace invalid UTF-8: left to it
		if len(v) < 2 || v[0] != '"' || bytes.IndexByte(v, '\\') >= 0 || !utf8.Valid(v) || !utf8.ValidString(key) {
			return errShape
		}
		m[key] = string(v[1 : len(v)-1])
		return nil
	}) == nil
	if !plain {
		return json.Unmarshal(w, out)
	}
	if *out == nil {
		*out = m
		return nil
	}
	maps.Copy(*out, m)
	return nil
}
