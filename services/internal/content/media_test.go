package content

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// GatewayMedia against a loopback server answering as the gateway would.
func TestGatewayMediaFeaturedMedia(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("_fields") != "id" || r.Header.Get("Authorization") != "" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		switch strings.TrimPrefix(r.URL.Path, "/cms-json/cms/v2/media/") {
		case "5":
			w.WriteHeader(http.StatusOK)
		case "6": // private
			w.WriteHeader(http.StatusUnauthorized)
		case "7":
			w.WriteHeader(http.StatusNotFound)
		default:
			w.WriteHeader(http.StatusBadGateway)
		}
	}))
	defer srv.Close()
	s := &Service{}
	s.SetMedia(GatewayMedia{BaseURL: srv.URL})
	for id, want := range map[int64]int64{5: 5, 6: 6, 7: 0, 8: 8, 0: 0, -3: 0} {
		if got := s.checkFeaturedMedia(context.Background(), id); got != want {
			t.Errorf("featured_media %d stored as %d, want %d", id, got, want)
		}
	}
	if got := (&Service{}).checkFeaturedMedia(context.Background(), 9); got != 9 {
		t.Errorf("without a lookup: %d", got)
	}
}
