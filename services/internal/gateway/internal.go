package gateway

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/metrics"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// InternalHandler is the gateway on its internal listener
// (contract.EnvInternalListenAddr), which only the other services reach:
// the service-to-service endpoints under /internal/, and everything the
// public listener serves besides (content asks media questions through it).
func (g *Gateway) InternalHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/internal/") && !hasDotSegment(r.URL.Path) {
			g.serveInternal(w, r)
			return
		}
		g.ServeHTTP(w, r)
	})
}

// serveInternal answers the service-to-service endpoints. Even on the
// internal listener the user lookup answers only callers that sign an
// identity header for the gateway with the internal key (any valid
// identity, e.g. identity.Identity{Role: identity.Subscriber}): a
// compromised neighbour without the key must not learn which user ids
// exist, subscribers included, which WordPress's public users route hides.
// The route descriptions are not secret (the site index shows them anyway).
func (g *Gateway) serveInternal(w http.ResponseWriter, r *http.Request) {
	metrics.SetRoute(r.Context(), "internal")
	signed := false
	if h := r.Header.Get(contract.IdentityHeader); h != "" {
		if _, err := identity.Verify(g.cfg.Keys.Keyring(), contract.ServiceGateway, h, g.cfg.Now()); err != nil {
			rest.WriteError(w, rest.NewError("rest_forbidden", "Sorry, you are not allowed to do that.", http.StatusForbidden))
			return
		}
		signed = true
	}
	if r.URL.Path == contract.RouteDescriptionsPath && r.Method == http.MethodGet {
		// The gateway's own routes, in the form every service publishes.
		g.local.IndexHandler().ServeHTTP(w, r)
		return
	}
	if r.URL.Path == contract.UserLookupPath && r.Method == http.MethodGet && r.URL.Query().Has("slug") {
		// GET /internal/users?slug=x: the website's author archives
		// (/author/{slug}/) name users by slug.
		metrics.SetRoute(r.Context(), contract.UserLookupPath)
		if !signed {
			rest.WriteError(w, rest.NewError("rest_forbidden", "Sorry, you are not allowed to do that.", http.StatusUnauthorized))
			return
		}
		users, _, err := g.cfg.Store.ListUsers(r.Context(), accounts.ListQuery{Slugs: []string{r.URL.Query().Get("slug")}, Limit: 1})
		if err != nil {
			rest.WriteError(w, rest.StoreError(err, rest.NewError("rest_user_lookup_failed", "The user could not be looked up.", http.StatusInternalServerError)))
			return
		}
		if len(users) == 0 {
			rest.WriteError(w, errInvalidUser())
			return
		}
		u := users[0]
		rest.WriteJSON(w, http.StatusOK, UserLookup{ID: u.ID, Name: u.DisplayName, Slug: u.Slug, Role: string(u.Role)})
		return
	}
	idText, ok := strings.CutPrefix(r.URL.Path, contract.UserLookupPath+"/")
	if !ok || r.Method != http.MethodGet {
		rest.WriteError(w, rest.NoRoute())
		return
	}
	metrics.SetRoute(r.Context(), contract.UserLookupPath+"/{id}")
	if !signed {
		rest.WriteError(w, rest.NewError("rest_forbidden", "Sorry, you are not allowed to do that.", http.StatusUnauthorized))
		return
	}
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil || id <= 0 {
		rest.WriteError(w, errInvalidUser())
		return
	}
	u, err := g.cfg.Store.UserByID(r.Context(), id)
	if errors.Is(err, accounts.ErrNotFound) {
		rest.WriteError(w, errInvalidUser())
		return
	}
	if err != nil {
		rest.WriteError(w, rest.StoreError(err, rest.NewError("rest_user_lookup_failed", "The user could not be looked up.", http.StatusInternalServerError)))
		return
	}
	rest.WriteJSON(w, http.StatusOK, UserLookup{ID: u.ID, Name: u.DisplayName, Slug: u.Slug, Role: string(u.Role)})
}

// UserLookup is the body of GET contract.UserLookupPath/{id}.
type UserLookup struct {
	ID   int64  `json:"id"`
	Name string `json:"name,omitempty"`
	Slug string `json:"slug,omitempty"`
	Role string `json:"role,omitempty"`
}

func errInvalidUser() *rest.Error {
	return rest.NewError("rest_user_invalid_id", "Invalid user ID.", http.StatusNotFound)
}
