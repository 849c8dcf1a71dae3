package content

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"
)

// Media tells whether an attachment exists, for posts' featured_media.
// Attachments belong to the media service, whose schema content never
// reads: GatewayMedia asks through the gateway, AnyMedia accepts every id
// (tests, and runs without a gateway).
//
// WordPress passes a non-zero featured_media to set_post_thumbnail and
// ignores the result, so an id that is not an attachment is silently
// dropped: the post is stored, with featured_media 0. The same happens here.
// When the lookup itself fails (gateway or media down), the id is kept as
// given: a dangling thumbnail id is harmless, refusing or silently losing
// the author's choice is not.
type Media interface {
	Exists(ctx context.Context, id int64) (bool, error)
}

// AnyMedia accepts every id.
type AnyMedia struct{}

// Exists implements Media.
func (AnyMedia) Exists(context.Context, int64) (bool, error) { return true, nil }

// GatewayMedia looks attachments up anonymously at
// GET {BaseURL}/cms-json/cms/v2/media/{id}?_fields=id: 200 exists, 401/403
// exists (a private attachment), 404 does not (no such attachment, or no
// media service in the route file).
type GatewayMedia struct {
	BaseURL string
	Client  *http.Client
}

// Exists implements Media.
func (g GatewayMedia) Exists(ctx context.Context, id int64) (bool, error) {
	client := g.Client
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.BaseURL+"/cms-json/cms/v2/media/"+strconv.FormatInt(id, 10)+"?_fields=id", nil)
	if err != nil {
		return false, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return false, fmt.Errorf("media lookup: %w", err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK, http.StatusUnauthorized, http.StatusForbidden:
		return true, nil
	case http.StatusNotFound:
		return false, nil
	}
	return false, fmt.Errorf("media lookup: gateway answered %d", resp.StatusCode)
}

// SetMedia replaces the attachment lookup (New uses AnyMedia).
func (s *Service) SetMedia(m Media) { s.media = m }

// checkFeaturedMedia is the featured_media rule above: the id to store.
func (s *Service) checkFeaturedMedia(ctx context.Context, id int64) int64 {
	if id <= 0 || s.media == nil {
		return max(id, 0)
	}
	ok, err := s.media.Exists(ctx, id)
	if err != nil {
		slog.Default().WarnContext(ctx, "featured_media not checked", "id", id, "error", err.Error())
		return id
	}
	if !ok {
		return 0
	}
	return id
}
