package rest

import (
	"encoding/json"
	"unicode/utf16"
	"unicode/utf8"
)

// unquote decodes the JSON string literal b (quotes included) as
// json.Unmarshal into a string would, without its reflection and second
// validating scan: raw re-emits every string of a service's answer (a batch
// of 25 posts holds thousands), and json.Unmarshal per string was most of
// the gateway's CPU on a batch. Literals this fast path does not take on
// (control bytes, invalid UTF-8, malformed escapes) go to json.Unmarshal,
// so the result is always the one it gives.
func unquote(b []byte) string {
	if len(b) < 2 || b[0] != '"' || b[len(b)-1] != '"' {
		return unquoteSlow(b)
	}
	body := b[1 : len(b)-1]
	plain := true
	for _, c := range body {
		if c == '\\' || c == '"' || c < 0x20 || c >= utf8.RuneSelf {
			plain = false
			break
		}
	}
	if plain {
		return string(body)
	}
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			if i+1 >= len(body) {
				return unquoteSlow(b)
			}
			switch body[i+1] {
			case '"', '\\', '/':
				out = append(out, body[i+1])
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(body[i+2:])
				if !ok {
					return unquoteSlow(b)
				}
				i += 6
				if utf16.IsSurrogate(r) {
					// a pair makes one rune; a lone half is U+FFFD
					if r2, ok := hex4After(body[i:]); ok {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							i += 6
							out = utf8.AppendRune(out, d)
							continue
						}
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
				continue
			default:
				return unquoteSlow(b)
			}
			i += 2
		case c == '"' || c < 0x20:
			return unquoteSlow(b)
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(body[i:])
			if r == utf8.RuneError && size == 1 {
				return unquoteSlow(b)
			}
			out = append(out, body[i:i+size]...)
			i += size
		}
	}
	return string(out)
}

// hex4After reads a \uXXXX escape at the start of b.
func hex4After(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	return hex4(b[2:])
}

// hex4 reads four hexadecimal digits.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

func unquoteSlow(b []byte) string {
	var s string
	_ = json.Unmarshal(b, &s)
	return s
}
