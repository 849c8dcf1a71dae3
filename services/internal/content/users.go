package content

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

// Users tells whether a user id exists. Users belong to the gateway, so this
// is the seam to another service, not to a database: GatewayUsers asks the
// gateway's internal lookup, FixedUsers accepts a known set (tests, and runs
// without a gateway).
type Users interface {
	Exists(ctx context.Context, id int64) (bool, error)
}

// FixedUsers accepts exactly the ids it holds.
type FixedUsers map[int64]bool

// Exists implements Users.
func (f FixedUsers) Exists(_ context.Context, id int64) (bool, error) { return f[id], nil }

// GatewayUsers looks users up at GET {BaseURL}{contract.UserLookupPath}/{id}:
// 200 means the user exists, 404 that it does not. The gateway answers only
// callers that sign an identity header with the internal Key.
type GatewayUsers struct {
	BaseURL string
	Key     []byte
	Client  *http.Client
}

// Exists implements Users.
func (g GatewayUsers) Exists(ctx context.Context, id int64) (bool, error) {
	client := g.Client
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.BaseURL+contract.UserLookupPath+"/"+strconv.FormatInt(id, 10), nil)
	if err != nil {
		return false, err
	}
	req.Header.Set(contract.IdentityHeader, identity.Sign(g.Key, identity.Identity{Role: identity.Subscriber}, time.Now().Add(time.Minute)))
	resp, err := client.Do(req)
	if err != nil {
		return false, fmt.Errorf("user lookup: %w", err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		return true, nil
	case http.StatusNotFound:
		return false, nil
	}
	return false, fmt.Errorf("user lookup: gateway answered %d", resp.StatusCode)
}
