package jsonkeys

import (
	"strings"
	"testing"
)

func TestOf(t *testing.T) {
	keys, err := Of([]byte(`{"z":1,"a":{"y":[1,{"q":2}]},"m":null}`))
	if err != nil || strings.Join(keys, ",") != "z,a,m" {
		t.Fatalf("Of = %v, %v", keys, err)
	}
	for _, bad := range []string{`[1]`, ``, `{"a":`} {
		if _, err := Of([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
