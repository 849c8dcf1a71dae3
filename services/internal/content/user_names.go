package content

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

// userNamer is a Users that also knows display names: templates show their
// author's name as author_text ("Unknown author" without it), and a comment
// by a logged-in user carries it as author_name, as wp_new_comment fills it.
type userNamer interface {
	DisplayName(ctx context.Context, id int64) (string, error)
}

// DisplayName reads the user's name from the gateway's user lookup; "" when
// the user does not exist.
func (g GatewayUsers) DisplayName(ctx context.Context, id int64) (string, error) {
	client := g.Client
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.BaseURL+contract.UserLookupPath+"/"+strconv.FormatInt(id, 10), nil)
	if err != nil {
		return "", err
	}
	req.Header.Set(contract.IdentityHeader, identity.Sign(g.Key, identity.Identity{Role: identity.Subscriber}, time.Now().Add(time.Minute)))
	resp, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("user name lookup: %w", err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusNotFound:
		return "", nil
	default:
		return "", fmt.Errorf("user name lookup: gateway answered %d", resp.StatusCode)
	}
	var u struct {
		Name string `json:"name"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&u); err != nil {
		return "", fmt.Errorf("user name lookup: %w", err)
	}
	return u.Name, nil
}
