package content

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"siteplane.dev/services/internal/content/blocks"
	"siteplane.dev/services/internal/content/store"
)

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

// Images implements Media: GET {BaseURL}/cms-json/cms/v2/media?include=…,
// anonymously, so only public attachments come back (and the gateway's edge
// cache may answer).
func (g GatewayMedia) Images(ctx context.Context, ids []int64) (map[int64]blocks.Image, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	client := g.Client
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Second}
	}
	include := make([]string, len(ids))
	for i, id := range ids {
		include[i] = strconv.FormatInt(id, 10)
	}
	q := url.Values{"include": {strings.Join(include, ",")}, "per_page": {"100"}, "_fields": {"id,source_url,alt_text"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.BaseURL+"/cms-json/cms/v2/media?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("media images: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("media images: gateway answered %d", resp.StatusCode)
	}
	var items []struct {
		ID        int64  `json:"id"`
		SourceURL string `json:"source_url"`
		AltText   string `json:"alt_text"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&items); err != nil {
		return nil, fmt.Errorf("media images: %w", err)
	}
	out := make(map[int64]blocks.Image, len(items))
	for _, it := range items {
		out[it.ID] = blocks.Image{URL: it.SourceURL, Alt: it.AltText}
	}
	return out, nil
}

// SetMedia replaces the attachment lookup (New uses AnyMedia).
func (s *Service) SetMedia(m store.Media) {
	s.media = m
	if s.web != nil { // nil in a Service made without New
		s.web.SetMedia(m)
	}
}

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
