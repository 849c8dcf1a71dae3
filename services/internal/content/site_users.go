package content

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"

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
	return g.lookupUser(ctx, userPath(id))
}

// UserBySlug finds a user by slug through the gateway's lookup.
func (g GatewayUsers) UserBySlug(ctx context.Context, slug string) (siteUser, bool, error) {
	return g.lookupUser(ctx, contract.UserLookupPath+"?slug="+url.QueryEscape(slug))
}

func (g GatewayUsers) lookupUser(ctx context.Context, path string) (siteUser, bool, error) {
	body, found, err := g.lookup(ctx, path)
	if err != nil || !found {
		return siteUser{}, false, err
	}
	var u siteUser
	if err := json.Unmarshal(body, &u); err != nil {
		return siteUser{}, false, fmt.Errorf("user lookup: %w", err)
	}
	return u, true, nil
}
