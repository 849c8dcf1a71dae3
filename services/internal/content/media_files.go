package content

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"sort"
	"strconv"
	"time"

	"siteplane.dev/services/internal/content/website"
)

// The website's lookups of one attachment (the site icon's files, an
// attachment link's file), anonymous: a private attachment is not found,
// as a missing one.

// mediaItem decodes GET {BaseURL}/cms-json/cms/v2/media/{id}?_fields={fields}
// into v; found is false for 401, 403 and 404.
func (g GatewayMedia) mediaItem(ctx context.Context, id int64, fields string, v any) (found bool, err error) {
	client := g.Client
	if client == nil {
		client = &http.Client{Timeout: 5 * time.Second}
	}
	u := g.BaseURL + "/cms-json/cms/v2/media/" + strconv.FormatInt(id, 10) + "?_fields=" + fields
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return false, fmt.Errorf("media item: %w", err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
		return false, nil
	default:
		return false, fmt.Errorf("media item: gateway answered %d", resp.StatusCode)
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(v); err != nil {
		return false, fmt.Errorf("media item: %w", err)
	}
	return true, nil
}

// ImageFiles implements website.SizedMedia (the site icon).
func (g GatewayMedia) ImageFiles(ctx context.Context, id int64) (full website.ImageFile, sizes []website.ImageFile, found bool, err error) {
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
	if found, err = g.mediaItem(ctx, id, "media_type,source_url,media_details", &item); !found || err != nil || item.MediaType != "image" {
		return full, nil, false, err
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

// AttachmentURL implements website.AttachmentMedia (?attachment_id=).
func (g GatewayMedia) AttachmentURL(ctx context.Context, id int64) (fileURL string, found bool, err error) {
	var item struct {
		SourceURL string `json:"source_url"`
	}
	if found, err = g.mediaItem(ctx, id, "source_url", &item); !found || err != nil {
		return "", false, err
	}
	return item.SourceURL, item.SourceURL != "", nil
}

// AttachmentPage implements website.AttachmentPageMedia (an attachment
// page, wp_attachment_pages_enabled on).
func (g GatewayMedia) AttachmentPage(ctx context.Context, id int64) (a website.Attachment, found bool, err error) {
	type rendered struct {
		Rendered string `json:"rendered"`
	}
	var item struct {
		ID          int64    `json:"id"`
		Author      int64    `json:"author"`
		DateGMT     string   `json:"date_gmt"`
		Slug        string   `json:"slug"`
		Title       rendered `json:"title"`
		Caption     rendered `json:"caption"`
		Description rendered `json:"description"`
		MimeType    string   `json:"mime_type"`
	}
	if found, err = g.mediaItem(ctx, id, "id,author,date_gmt,slug,title,caption,description,mime_type", &item); !found || err != nil {
		return a, false, err
	}
	date, _ := time.Parse("2006-01-02T15:04:05", item.DateGMT)
	return website.Attachment{ID: item.ID, Author: item.Author, DateGMT: date.UTC(), Slug: item.Slug,
		Title: html.UnescapeString(item.Title.Rendered), CaptionHTML: item.Caption.Rendered, DescHTML: item.Description.Rendered,
		MimeType: item.MimeType}, item.ID == id, nil
}
