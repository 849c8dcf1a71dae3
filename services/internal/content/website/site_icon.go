package website

import (
	"context"
	"encoding/json"
	"html"
	"log/slog"
	"math"
	"sort"
	"strconv"
)

// The site icon (the site_icon setting, an image attachment): every page's
// head links it as WordPress's wp_site_icon() does — the 32 and 192 pixel
// icons, the 180 pixel Apple touch icon and the 270 pixel Windows tile —
// each the URL get_site_icon_url(size) gives: the smallest intermediate size
// of the image at least that big with the image's proportions (or the
// thumbnail when it is big enough), else the original. Without an icon (or
// when the image is not public) the page keeps its empty icon link, so
// browsers do not ask for /favicon.ico. The setting and the image's sizes
// are read once per change generation.

// ImageFile is one file of an image attachment.
type ImageFile struct {
	Name          string // the intermediate size's name; "full" for the original
	URL           string
	Width, Height int
}

// SizedMedia is a Media that also gives an image's files (the gateway's
// media lookup does); found is false when the attachment is not a public
// image.
type SizedMedia interface {
	ImageFiles(ctx context.Context, id int64) (full ImageFile, sizes []ImageFile, found bool, err error)
}

// iconLinks is wp_site_icon()'s markup for the image's files.
func iconLinks(full ImageFile, sizes []ImageFile) string {
	u := func(px int) string { return html.EscapeString(siteIconURL(full, sizes, px)) }
	return `<link rel="icon" href="` + u(32) + `" sizes="32x32">` + "\n" +
		`<link rel="icon" href="` + u(192) + `" sizes="192x192">` + "\n" +
		`<link rel="apple-touch-icon" href="` + u(180) + `">` + "\n" +
		`<meta name="msapplication-TileImage" content="` + u(270) + `">` + "\n"
}

// siteIconURL is get_site_icon_url(px): wp_get_attachment_image_url with
// the size px×px, as image_get_intermediate_size picks it (512 and more:
// the original).
func siteIconURL(full ImageFile, sizes []ImageFile, px int) string {
	if px >= 512 {
		return full.URL
	}
	var candidates []ImageFile
	var thumb *ImageFile
	for i, s := range sizes {
		if s.Name == "thumbnail" {
			thumb = &sizes[i]
		}
		if s.Width == px && s.Height == px {
			return s.URL // an exact match wins
		}
		if s.Width >= px && s.Height >= px && matchesRatio(s.Width, s.Height, full.Width, full.Height) {
			candidates = append(candidates, s)
		}
	}
	if len(candidates) > 0 {
		sort.SliceStable(candidates, func(i, j int) bool {
			return candidates[i].Width*candidates[i].Height < candidates[j].Width*candidates[j].Height
		})
		return candidates[0].URL
	}
	if thumb != nil && thumb.Width >= px {
		return thumb.URL
	}
	return full.URL
}

// matchesRatio is wp_image_matches_ratio: the smaller image, scaled to the
// larger one's width, is within a pixel of it.
func matchesRatio(w, h, tw, th int) bool {
	if w <= 0 || h <= 0 || tw <= 0 || th <= 0 {
		return false
	}
	cw, ch, ew, eh := 0, 0, tw, th
	if w > tw {
		cw, ch = tw, int(math.Round(float64(h)*float64(tw)/float64(w)))
	} else {
		cw, ch = w, int(math.Round(float64(th)*float64(w)/float64(tw)))
		ew, eh = w, h
	}
	return abs(cw-ew) <= 1 && abs(ch-eh) <= 1
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// siteIcon is the generation's icon markup, "" without an icon. The
// setting comes with the snapshot's one statement; the image's files are
// looked up once per generation.
func (sn *siteSnapshot) siteIcon(ctx context.Context, s *Handler) string {
	if sn.iconID <= 0 {
		return ""
	}
	if v := sn.icon.Load(); v != nil {
		return *v
	}
	links, keep := s.readSiteIcon(ctx, sn.iconID)
	if keep {
		sn.icon.Store(&links)
	}
	return links
}

// readSiteIcon looks up the image's files; keep is false when the lookup
// failed (the next page asks again rather than the generation going
// without its icon).
func (s *Handler) readSiteIcon(ctx context.Context, id int64) (links string, keep bool) {
	media, ok := s.media.(SizedMedia)
	if !ok {
		return "", true
	}
	full, sizes, found, err := media.ImageFiles(ctx, id)
	if err != nil {
		slog.Default().WarnContext(ctx, "site icon not shown", "id", id, "error", err.Error())
		return "", false
	}
	if !found || full.URL == "" {
		return "", true
	}
	return iconLinks(full, sizes), true
}

// settingID reads an id setting's stored JSON (a number, or a string of
// digits as WordPress's options may hold); 0 when it is none.
func settingID(raw []byte) int64 {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return 0
	}
	switch x := v.(type) {
	case float64:
		return int64(x)
	case string:
		n, _ := strconv.ParseInt(x, 10, 64)
		return n
	}
	return 0
}
