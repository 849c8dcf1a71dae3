package blocks

import "testing"

func TestSanitizeClass(t *testing.T) {
	tests := []struct{ in, want string }{
		{"space-between", "space-between"},
		{"vivid_Red-2", "vivid_Red-2"},
		{"", ""},
		{`x" autofocus onfocus="alert(1)`, "xautofocusonfocusalert1"},
		{"a%22b%2fc%zz", "abczz"},
		{"<é>", ""},
	}
	for _, tt := range tests {
		if got := sanitizeClass(tt.in); got != tt.want {
			t.Errorf("sanitizeClass(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestClassNames(t *testing.T) {
	tests := []struct{ in, want string }{
		{"is-style-outline my-class", "is-style-outline my-class"},
		{"one", "one"},
		{"  padded  twice ", "padded twice"},
		{`ok " onclick="alert(1)`, "ok onclickalert1"},
		{"\"", ""},
	}
	for _, tt := range tests {
		if got := classNames(tt.in); got != tt.want {
			t.Errorf("classNames(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSafeCSS(t *testing.T) {
	tests := []struct {
		in   string
		keep bool
	}{
		{"0", true},
		{"1.5rem", true},
		{"-2px", true},
		{"var(--wp--preset--spacing--60)", true},
		{"calc(1rem + (2px * 3))", true},
		{"clamp(1rem, 2vw, 3rem)", true},
		{"MIN(1px, 2px)", true},
		{"1px;background:red", false},
		{"url(javascript:alert(1))", false},
		{"var(--x, url(x))", false},
		{"expression(alert(1))", false},
		{`\75 rl(x)`, false},
		{`1px" onclick="x`, false},
		{"1px'", false},
		{"1px/**/", false},
		{"a<b", false},
		{"}body{", false},
		{"a&b", false},
		{"@import x", false},
		{"a=b", false},
		{"1px\n", false},
	}
	for _, tt := range tests {
		got := safeCSS(tt.in)
		if tt.keep && got != tt.in || !tt.keep && got != "" {
			t.Errorf("safeCSS(%q) = %q, keep %v", tt.in, got, tt.keep)
		}
	}
}
