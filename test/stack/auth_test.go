package stack

import (
	"strings"
	"testing"
)

func TestAuthenticationOutcomes(t *testing.T) {
	// The route does not exist: authentication is decided before routing,
	// so bad credentials get 401 and good or no credentials reach routing.
	const path = "/cms-json/no-such-namespace/v1/thing"
	tests := []struct {
		name    string
		auth    []string
		status  int
		code    string
		message string
	}{
		{"anonymous", nil, 404, "rest_no_route", "No route was found matching the URL and request method."},
		{"login", admin(), 404, "rest_no_route", ""},
		{"email and spaced password", []string{"admin@example.com", chunk(st.AdminPass)}, 404, "rest_no_route", ""},
		{"unknown username", []string{"nobody", st.AdminPass}, 401, "invalid_username", "<strong>Error:</strong> Unknown username. Check again or try your email address."},
		{"unknown email", []string{"nobody@example.com", st.AdminPass}, 401, "invalid_email", "<strong>Error:</strong> Unknown email address. Check again or try your username."},
		{"wrong password", []string{st.AdminUser, strings.ToLower(st.AdminPass) + "x"}, 401, "incorrect_password", "The provided password is an invalid application password."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := call(t, "GET", path, nil, tt.auth...)
			expectError(t, r, tt.status, tt.code)
			if tt.message != "" && r.Obj()["message"] != tt.message {
				t.Fatalf("message %q, want %q", r.Obj()["message"], tt.message)
			}
		})
	}
}

func chunk(p string) string {
	var parts []string
	for len(p) > 4 {
		parts, p = append(parts, p[:4]), p[4:]
	}
	return strings.Join(append(parts, p), " ")
}
