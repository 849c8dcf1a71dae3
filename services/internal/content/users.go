package content

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

// GatewayUsers looks users up at GET {BaseURL}{contract.UserLookupPath}/{id}:
// 200 means the user exists, 404 that it does not. The gateway answers only
// callers that sign an identity header for it with the internal key, and
// only on its internal listener (BaseURL is that listener's URL).
type GatewayUsers struct {
	BaseURL string
	Keys    identity.Keys
	Client  *http.Client
}

// Exists implements Users.
func (g GatewayUsers) Exists(ctx context.Context, id int64) (bool, error) {
	_, found, err := g.lookup(ctx, userPath(id))
	return found, err
}

// userPath is the lookup path of one user id.
func userPath(id int64) string { return contract.UserLookupPath + "/" + strconv.FormatInt(id, 10) }

// lookup sends one GET to the gateway's internal user lookup, signed as the
// service: found is false for a 404, any other answer but 200 is an error,
// and body is the 200 answer (at most 64 KiB). Exists, the website's
// authors and display names all ask through it.
func (g GatewayUsers) lookup(ctx context.Context, path string) (body []byte, found bool, err error) {
	client := g.Client
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.BaseURL+path, nil)
	if err != nil {
		return nil, false, err
	}
	now := time.Now()
	req.Header.Set(contract.IdentityHeader, identity.Sign(g.Keys.Keyring().SigningKey(now), contract.ServiceGateway,
		identity.Identity{Role: identity.Subscriber}, now.Add(time.Minute)))
	resp, err := client.Do(req)
	if err != nil {
		return nil, false, fmt.Errorf("user lookup: %w", err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return nil, false, nil
	default:
		return nil, false, fmt.Errorf("user lookup: gateway answered %d", resp.StatusCode)
	}
	body, err = io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	if err != nil {
		return nil, false, fmt.Errorf("user lookup: %w", err)
	}
	return body, true, nil
}

// User implements store.Users: one user from the gateway's lookup.
func (g GatewayUsers) User(ctx context.Context, id int64) (store.User, bool, error) {
	return g.lookupUser(ctx, userPath(id))
}

// UserBySlug implements store.Users: a user by slug, through the gateway's lookup.
func (g GatewayUsers) UserBySlug(ctx context.Context, slug string) (store.User, bool, error) {
	return g.lookupUser(ctx, contract.UserLookupPath+"?slug="+url.QueryEscape(slug))
}

func (g GatewayUsers) lookupUser(ctx context.Context, path string) (store.User, bool, error) {
	body, found, err := g.lookup(ctx, path)
	if err != nil || !found {
		return store.User{}, false, err
	}
	var u store.User
	if err := json.Unmarshal(body, &u); err != nil {
		return store.User{}, false, fmt.Errorf("user lookup: %w", err)
	}
	return u, true, nil
}
