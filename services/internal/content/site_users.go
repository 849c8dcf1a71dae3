package content

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

// siteUser is an author as the website shows one: a name and the slug of
// the author archive (/author/{slug}/).
type siteUser struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
}

// userDirectory is a Users that can also name authors and find them by
// slug (the gateway's lookup). Without it the website shows no author
// names and has no author archives.
type userDirectory interface {
	UserInfo(ctx context.Context, id int64) (siteUser, bool, error)
	UserBySlug(ctx context.Context, slug string) (siteUser, bool, error)
}

// UserInfo reads one user from the gateway's lookup.
func (g GatewayUsers) UserInfo(ctx context.Context, id int64) (siteUser, bool, error) {
	return g.lookupUser(ctx, contract.UserLookupPath+"/"+strconv.FormatInt(id, 10))
}

// UserBySlug finds a user by slug through the gateway's lookup.
func (g GatewayUsers) UserBySlug(ctx context.Context, slug string) (siteUser, bool, error) {
	return g.lookupUser(ctx, contract.UserLookupPath+"?slug="+url.QueryEscape(slug))
}

func (g GatewayUsers) lookupUser(ctx context.Context, path string) (siteUser, bool, error) {
	client := g.Client
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.BaseURL+path, nil)
	if err != nil {
		return siteUser{}, false, err
	}
	req.Header.Set(contract.IdentityHeader, identity.Sign(g.Key, identity.Identity{Role: identity.Subscriber}, time.Now().Add(time.Minute)))
	resp, err := client.Do(req)
	if err != nil {
		return siteUser{}, false, fmt.Errorf("user lookup: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return siteUser{}, false, nil
	}
	if resp.StatusCode != http.StatusOK {
		return siteUser{}, false, fmt.Errorf("user lookup: status %d", resp.StatusCode)
	}
	var u siteUser
	if err := json.NewDecoder(resp.Body).Decode(&u); err != nil {
		return siteUser{}, false, fmt.Errorf("user lookup: %w", err)
	}
	return u, true, nil
}
