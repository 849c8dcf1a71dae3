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

// userNamer gives a user's display name: a comment by a logged-in user
// carries it as author_name, as wp_new_comment fills it from the user.
type userNamer interface {
	DisplayName(ctx context.Context, id int64) (string, error)
}

// DisplayName implements userNamer with the gateway's internal lookup.
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
		return "", fmt.Errorf("user lookup: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("user lookup: gateway answered %d", resp.StatusCode)
	}
	var u struct {
		Name string `json:"name"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<16)).Decode(&u); err != nil {
		return "", fmt.Errorf("user lookup: %w", err)
	}
	return u.Name, nil
}

// commentAuthorName is the display name of a comment's user author, when
// the user source knows names ("" otherwise, or when the lookup fails: the
// name is a convenience, not a reason to refuse the comment).
func (s *Service) commentAuthorName(ctx context.Context, id int64) string {
	n, ok := s.users.(userNamer)
	if !ok || id == 0 {
		return ""
	}
	name, err := n.DisplayName(ctx, id)
	if err != nil {
		return ""
	}
	return name
}
