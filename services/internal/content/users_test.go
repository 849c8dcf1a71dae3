package content

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

// GatewayUsers against a stand-in for the gateway's internal user lookup
// (the contract: 200 exists, 404 does not, anything else is an error).
func TestGatewayUsers(t *testing.T) {
	key := []byte("internal-key")
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := identity.Verify(identity.Static(key), contract.ServiceGateway, r.Header.Get(contract.IdentityHeader), time.Now()); err != nil {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		switch r.URL.Path {
		case contract.UserLookupPath + "/1":
			w.WriteHeader(http.StatusOK)
		case contract.UserLookupPath + "/2":
			w.WriteHeader(http.StatusNotFound)
		default:
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	defer gw.Close()
	users := GatewayUsers{BaseURL: gw.URL, Keys: identity.Static(key)}
	ctx := context.Background()
	if ok, err := users.Exists(ctx, 1); !ok || err != nil {
		t.Errorf("user 1: %v %v", ok, err)
	}
	if ok, err := users.Exists(ctx, 2); ok || err != nil {
		t.Errorf("user 2: %v %v", ok, err)
	}
	if _, err := users.Exists(ctx, 3); err == nil {
		t.Errorf("user 3: a gateway failure must be an error, not a missing user")
	}
	if _, err := (GatewayUsers{BaseURL: gw.URL, Keys: identity.Static([]byte("wrong"))}).Exists(ctx, 1); err == nil {
		t.Errorf("a lookup the gateway refuses must be an error")
	}
	if ok, _ := (store.FixedUsers{7: true}).Exists(ctx, 7); !ok {
		t.Errorf("FixedUsers")
	}
}
