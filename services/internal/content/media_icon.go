package content

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"time"

	"siteplane.dev/services/internal/content/website"
)

// ImageFiles implements website.SizedMedia (the site icon): GET
// {BaseURL}/cms-json/cms/v2/media/{id}?_fields=media_type,source_url,media_details
// anonymously, so a private attachment is not found, as a missing one.
func (g GatewayMedia) ImageFiles(ctx context.Context, id int64) (full website.ImageFile, sizes []website.ImageFile, found bool, err error) {
	client := g.Client
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Second}
	}
	u := g.BaseURL + "/cms-json/cms/v2/media/" + strconv.FormatInt(id, 10) + "?_fields=media_type,source_url,media_details"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return full, nil, false, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return full, nil, false, fmt.Errorf("media files: %w", err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
		return full, nil, false, nil
	default:
		return full, nil, false, fmt.Errorf("media files: gateway answered %d", resp.StatusCode)
	}
	type file struct {
		Width     int    `json:"width"`
		Height    int    `json:"height"`
		SourceURL string `json:"source_url"`
	}
	var item struct {
		MediaType    string `json:"media_type"`
		SourceURL    string `json:"source_url"`
		MediaDetails struct {
			Width  int             `json:"width"`
			Height int             `json:"height"`
			Sizes  map[string]file `json:"sizes"`
		} `json:"media_details"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&item); err != nil {
		return full, nil, false, fmt.Errorf("media files: %w", err)
	}
	if item.MediaType != "image" {
		return full, nil, false, nil
	}
	full = website.ImageFile{Name: "full", URL: item.SourceURL, Width: item.MediaDetails.Width, Height: item.MediaDetails.Height}
	for name, f := range item.MediaDetails.Sizes {
		if name != "full" {
			sizes = append(sizes, website.ImageFile{Name: name, URL: f.SourceURL, Width: f.Width, Height: f.Height})
		}
	}
	// in a fixed order: the pick among sizes of one area does not vary
	sort.Slice(sizes, func(i, j int) bool { return sizes[i].Name < sizes[j].Name })
	return full, sizes, true, nil
}
