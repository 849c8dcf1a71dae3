package rest

import (
	"encoding/json"
	"testing"
)

// unquoteCases are JSON string literals of every kind unquote meets:
// plain, PHP-escaped ("\/", \uXXXX for non-ASCII), surrogate pairs and lone
// halves, raw UTF-8, and malformed ones it leaves to json.Unmarshal.
var unquoteCases = []string{
	`""`,
	`"hello"`,
	`"http:\/\/127.0.0.1\/cms-json\/cms\/v2\/posts\/12"`,
	`"a\"b\\c\/d\b\f\n\r\t"`,
	`"caf\u00e9 \u2014 \u00C9"`,
	`"\ud83d\ude00 smile"`,
	`"lone \ud83d here"`,
	`"lone low \ude00"`,
	`"\ud83d\u0041"`,
	`"\ud83d\ud83d\ude00"`,
	`"raw café 😀"`,
	"\"bad utf8 \xff\xfe\"",
	"\"control \x01\"",
	`"bad escape \x"`,
	`"short \u12"`,
	`"short \u12g4"`,
	`"trailing \"`,
	`"unterminated`,
	`x`,
	`"`,
	`"inner " quote"`,
}

func TestUnquoteMatchesEncodingJSON(t *testing.T) {
	for _, c := range unquoteCases {
		var want string
		_ = json.Unmarshal([]byte(c), &want)
		if got := unquote([]byte(c)); got != want {
			t.Errorf("unquote(%q) = %q, json.Unmarshal gives %q", c, got, want)
		}
	}
}

// FuzzUnquote checks unquote against json.Unmarshal on any input.
func FuzzUnquote(f *testing.F) {
	for _, c := range unquoteCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var want string
		_ = json.Unmarshal(b, &want)
		if got := unquote(b); got != want {
			t.Errorf("unquote(%q) = %q, json.Unmarshal gives %q", b, got, want)
		}
	})
}
