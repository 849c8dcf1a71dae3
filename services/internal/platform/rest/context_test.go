package rest

import "testing"

func TestContextShows(t *testing.T) {
	s := &Schema{Type: "object", Properties: Props{
		{Name: "id", Schema: &Schema{Type: "integer", Context: []string{"view", "edit", "embed"}}},
		{Name: "password", Schema: &Schema{Type: "string", Context: []string{"edit"}}},
		{Name: "any", Schema: &Schema{Type: "string"}}, // no context list: every context
		{Name: "title", Schema: &Schema{Type: "object", Context: []string{"view", "edit", "embed"}, Properties: Props{
			{Name: "raw", Schema: &Schema{Type: "string", Context: []string{"edit"}}},
			{Name: "rendered", Schema: &Schema{Type: "string", Context: []string{"view", "edit", "embed"}}},
		}}},
		{Name: "content", Schema: &Schema{Type: "object", Context: []string{"view", "edit"}, Properties: Props{
			{Name: "protected", Schema: &Schema{Type: "boolean", Context: []string{"view", "edit", "embed"}}},
		}}},
	}}
	cases := []struct {
		ctx  string
		path []string
		want bool
	}{
		{"view", []string{"id"}, true},
		{"view", []string{"password"}, false},
		{"edit", []string{"password"}, true},
		{"embed", []string{"any"}, true},
		{"view", []string{"missing"}, false},
		{"view", []string{"title", "raw"}, false},
		{"edit", []string{"title", "raw"}, true},
		{"embed", []string{"title", "rendered"}, true},
		{"embed", []string{"content", "protected"}, false}, // the parent is hidden
		{"view", []string{"id", "deeper"}, false},
		{"", []string{"password"}, true},
	}
	for _, c := range cases {
		if got := ContextShows(s, c.ctx, c.path...); got != c.want {
			t.Errorf("ContextShows(%q, %v) = %v, want %v", c.ctx, c.path, got, c.want)
		}
	}
}
