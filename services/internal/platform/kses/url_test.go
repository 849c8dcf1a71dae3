package kses

import "testing"

func TestURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://s.test/a/?b=1#c", "https://s.test/a/?b=1#c"},
		{"HTTP://S.TEST/", "HTTP://S.TEST/"},
		{"mailto:ann@s.test", "mailto:ann@s.test"},
		{"tel:+1-555", "tel:+1-555"},
		{"webcal://s.test/cal", "webcal://s.test/cal"},
		{"urn:isbn:123", "urn:isbn:123"},
		{"/relative/path:with-colon", "/relative/path:with-colon"},
		{"//s.test/x", "//s.test/x"},
		{"?page=2", "?page=2"},
		{"#top", "#top"},
		{"page/2", "page/2"},
		{"", ""},
		{"javascript:alert(1)", ""},
		{"JaVaScRiPt:alert(1)", ""},
		{" \x01javascript:alert(1)", ""},
		{"java\tscript:alert(1)", ""},
		{"java\nscript:alert(1)", ""},
		{"data:text/html,<script>alert(1)</script>", ""},
		{"vbscript:msgbox(1)", ""},
		// a relative URL with a fragment: written escaped (&amp;), a browser
		// never decodes the entity
		{"jav&#x09;ascript:alert(1)", "jav&#x09;ascript:alert(1)"},
		{"java\x00script:alert(1)", ""},
		{"file:///etc/passwd", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := URL(tt.in); got != tt.want {
				t.Errorf("URL(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// Every protocol of wp_allowed_protocols is kept.
func TestURLKeepsWordPressProtocols(t *testing.T) {
	for _, p := range []string{"http", "https", "ftp", "ftps", "mailto", "news", "irc", "irc6", "ircs", "gopher", "nntp", "feed",
		"telnet", "mms", "rtsp", "sms", "svn", "tel", "fax", "xmpp", "webcal", "urn"} {
		if u := p + ":x"; URL(u) != u {
			t.Errorf("%s: dropped", p)
		}
	}
}
