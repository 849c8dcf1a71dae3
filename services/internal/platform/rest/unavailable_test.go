package rest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/postgres"
)

// A handler whose database cannot serve answers 503 in WordPress's
// envelope, never 500; a commit of unknown outcome says so (issue 15).
func TestDatabaseFailuresAre503(t *testing.T) {
	_, refused := pgx.Connect(context.Background(), "postgres://postgres@127.0.0.1:1/x?sslmode=disable&connect_timeout=1")
	tests := []struct {
		name   string
		err    error
		status int
		code   string
	}{
		{"server unreachable", fmt.Errorf("insert post: %w", refused), 503, CodeUnavailable},
		{"acquire or statement timeout", fmt.Errorf("list: %w", context.DeadlineExceeded), 503, CodeUnavailable},
		{"commit outcome unknown", postgres.CommitError(errors.New("unexpected EOF")), 503, CodeCommitUnknown},
		{"a bug stays 500", errors.New("nil map"), 500, "internal_server_error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := New(Options{RootURL: "http://x/cms-json/", Logger: slog.New(slog.NewTextHandler(io.Discard, nil))},
				Route{Namespace: "cms/v2", Path: "/things", Endpoints: []Endpoint{{Methods: Creatable,
					Handler: func(*Request) (*Response, error) { return nil, tt.err }}}})
			if err != nil {
				t.Fatal(err)
			}
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/cms/v2/things", nil))
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
			if want := `"code":"` + tt.code + `"`; !strings.Contains(rec.Body.String(), want) {
				t.Fatalf("body %s, want %s", rec.Body, want)
			}
		})
	}
}
