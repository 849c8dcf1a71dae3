package identity

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/pkg/contract"
)

func TestSignVerify(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	now := time.Unix(1_800_000_000, 0)
	good := Sign(key, Identity{UserID: 7, Role: Editor}, now.Add(time.Minute))

	tamper := func(s string) string {
		p, m, _ := strings.Cut(s, ".")
		// Flip the role inside the payload but keep the old MAC.
		return strings.Replace(p, p[len(p)-4:], "AAAA", 1) + "." + m
	}
	tests := []struct {
		name    string
		key     []byte
		header  string
		now     time.Time
		want    Identity
		wantErr error
	}{
		{"valid", key, good, now, Identity{UserID: 7, Role: Editor}, nil},
		{"expired", key, good, now.Add(time.Minute), Identity{}, ErrExpired},
		{"other key", []byte("another key of the same length!!"), good, now, Identity{}, ErrSignature},
		{"payload tampered", key, tamper(good), now, Identity{}, ErrSignature},
		{"mac truncated", key, good[:len(good)-3], now, Identity{}, ErrSignature},
		{"no dot", key, "abc", now, Identity{}, ErrMalformed},
		{"bad base64", key, "!!.!!", now, Identity{}, ErrMalformed},
		{"empty", key, "", now, Identity{}, ErrMalformed},
		{"unknown role signed", key, Sign(key, Identity{UserID: 1, Role: "root"}, now.Add(time.Hour)), now, Identity{}, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Verify(tt.key, tt.header, tt.now)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if got != tt.want {
				t.Fatalf("identity = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestRoleCapabilities(t *testing.T) {
	tests := []struct {
		role Role
		cap  string
		want bool
	}{
		{Administrator, "list_users", true},
		{Administrator, "edit_others_posts", true},
		{Editor, "edit_others_posts", true},
		{Editor, "list_users", false},
		{Author, "publish_posts", true},
		{Author, "edit_others_posts", false},
		{Author, "upload_files", true},
		{Contributor, "edit_posts", true},
		{Contributor, "publish_posts", false},
		{Contributor, "upload_files", false},
		{Subscriber, "read", true},
		{Subscriber, "edit_posts", false},
		{Role("nobody"), "read", false},
	}
	for _, tt := range tests {
		if got := tt.role.Can(tt.cap); got != tt.want {
			t.Errorf("%s.Can(%q) = %v, want %v", tt.role, tt.cap, got, tt.want)
		}
	}
	if (Identity{Role: Administrator}).Can("read") {
		t.Error("an anonymous identity must have no capability, whatever its role field")
	}
}

func TestMiddleware(t *testing.T) {
	key := []byte("k")
	now := time.Unix(1_800_000_000, 0)
	var seen Identity
	h := Middleware(key, func() time.Time { return now }, func(w http.ResponseWriter, _ *http.Request, err error) {
		http.Error(w, "rejected", http.StatusUnauthorized)
	})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen = FromContext(r.Context()) }))

	tests := []struct {
		name   string
		header string
		status int
		want   Identity
	}{
		{"anonymous", "", 200, Identity{}},
		{"signed", Sign(key, Identity{UserID: 3, Role: Author}, now.Add(time.Second)), 200, Identity{UserID: 3, Role: Author}},
		{"expired", Sign(key, Identity{UserID: 3, Role: Author}, now), 401, Identity{}},
		{"forged", Sign([]byte("x"), Identity{UserID: 1, Role: Administrator}, now.Add(time.Hour)), 401, Identity{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen = Identity{}
			req := httptest.NewRequest("GET", "/", nil)
			if tt.header != "" {
				req.Header.Set(contract.IdentityHeader, tt.header)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.status || seen != tt.want {
				t.Fatalf("status %d identity %+v, want %d %+v", rec.Code, seen, tt.status, tt.want)
			}
		})
	}
}

// The capability table is WordPress's: 61 primitive capabilities for an
// administrator (62 with the role name the users routes add), levels by role.
func TestCapabilityTable(t *testing.T) {
	counts := map[Role]int{Administrator: 61, Editor: 34, Author: 10, Contributor: 5, Subscriber: 2}
	for role, n := range counts {
		if got := len(role.Capabilities()); got != n {
			t.Errorf("%s: %d capabilities, want %d", role, got, n)
		}
	}
	checks := []struct {
		role Role
		cap  string
		want bool
	}{
		{Administrator, "level_10", true}, {Administrator, "unfiltered_upload", true}, {Administrator, "edit_theme_options", true},
		{Editor, "level_7", true}, {Editor, "level_8", false}, {Editor, "moderate_comments", true}, {Editor, "edit_theme_options", false},
		{Editor, "read_private_posts", true}, {Author, "level_2", true}, {Author, "edit_pages", false},
		{Contributor, "edit_posts", true}, {Contributor, "upload_files", false}, {Subscriber, "level_0", true}, {Subscriber, "edit_posts", false},
	}
	for _, c := range checks {
		if c.role.Can(c.cap) != c.want {
			t.Errorf("%s can %s: want %v", c.role, c.cap, c.want)
		}
	}
	if caps := Administrator.Capabilities(); caps[0] != "switch_themes" || caps[len(caps)-1] != "export" {
		t.Errorf("order: %v", caps)
	}
}
