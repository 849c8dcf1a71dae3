package rest

import "testing"

func TestParseQuery(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a=1&b=2", `{"a":"1","b":"2"}`},
		{"a[]=1&a[]=2", `{"a":["1","2"]}`},
		{"a[1]=x&a[5]=y", `{"a":{"1":"x","5":"y"}}`},
		{"categories[terms]=5&categories[include_children]=1", `{"categories":{"include_children":"1","terms":"5"}}`},
		{"a[x][]=1&a[x][]=2", `{"a":{"x":["1","2"]}}`},
		{"a=1&a=2", `{"a":"2"}`},
		{"a[]=1&a=2", `{"a":"2"}`},
		{"a=1&a[]=2", `{"a":["2"]}`},
		{"a.b=1&c+d=2", `{"a_b":"1","c_d":"2"}`},
		{"a[b=1", `{"a_b":"1"}`},
		{"a[b]c=1", `{"a":{"b":"1"}}`},
		{"%61=%2B+x&&=z&flag", `{"a":"+ x","flag":""}`},
		{"q=%ZZ", `{"q":"%ZZ"}`},
		{"a[%20b]=1", `{"a":{"b":"1"}}`},
	}
	for _, tc := range tests {
		got := mustJSON(parseQuery(tc.in).asMap())
		if got != tc.want {
			t.Errorf("%q: got %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestFieldsParsing(t *testing.T) {
	tests := []struct {
		fields string
		field  string
		want   bool
	}{
		{"id,title", "id", true},
		{"id,title", "slug", false},
		{"title.raw", "title", true},
		{"title", "title.raw", true},
		{" id , slug ", "slug", true},
		{"", "anything", true},
	}
	for _, tc := range tests {
		if got := parseFields(tc.fields).includes(tc.field); got != tc.want {
			t.Errorf("%q includes %q = %v", tc.fields, tc.field, got)
		}
	}
	// WordPress stops reading _fields after a sub-field of an accepted field.
	fs := parseFields("title,title.raw,id")
	if fs.child(0, "id") >= 0 {
		t.Error("fields after title.raw should be ignored, as in WordPress")
	}
}
