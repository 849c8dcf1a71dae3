package media

import (
	"path"
	"strings"
	"time"
)

// Attachment is one row of the attachments table.
type Attachment struct {
	ID            int64
	Author        int64
	Date          time.Time // UTC
	Modified      time.Time // UTC
	Slug          string
	Status        string // inherit or private
	Title         string
	Caption       string
	Description   string
	AltText       string
	Post          int64
	FeaturedMedia int64
	CommentStatus string
	PingStatus    string
	Template      string
	Meta          map[string]any
	Mime          string
	File          string // blob key of the original: 2026/11/photo.jpg
	Filesize      int64
	Details       Details
}

// Details is the stored part of media_details.
type Details struct {
	Width       int                 `json:"width,omitempty"`
	Height      int                 `json:"height,omitempty"`
	Sizes       map[string]SizeInfo `json:"sizes,omitempty"`
	ImageMeta   *imageMeta          `json:"image_meta,omitempty"`
	ParentImage *ParentImage        `json:"parent_image,omitempty"`
}

// SizeInfo is one generated size; File is the base name, in the original's
// directory.
type SizeInfo struct {
	File     string `json:"file"`
	Width    int    `json:"width"`
	Height   int    `json:"height"`
	Filesize int64  `json:"filesize"`
	Mime     string `json:"mime_type"`
}

// ParentImage names the attachment an edited image was made from.
type ParentImage struct {
	AttachmentID int64  `json:"attachment_id"`
	File         string `json:"file"`
}

// isImage reports whether the attachment has image dimensions.
func (a *Attachment) isImage() bool { return a.Details.Width > 0 && a.Details.Height > 0 }

// dir is the key prefix of the attachment's files ("2026/11").
func (a *Attachment) dir() string { return path.Dir(a.File) }

// keys lists every blob of the attachment: the original and each size.
func (a *Attachment) keys() []string {
	keys := []string{a.File}
	seen := map[string]bool{a.File: true}
	for _, s := range a.Details.Sizes {
		k := a.dir() + "/" + s.File
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	return keys
}

// missingSizes are the registered sizes that apply to the image but were
// not generated (§6.3 missing_image_sizes).
func (a *Attachment) missingSizes() []string {
	out := []string{}
	if !a.isImage() || !sizedTypes[a.Mime] {
		return out
	}
	for _, s := range imageSizes {
		if _, _, _, ok := resizeDims(a.Details.Width, a.Details.Height, s); !ok {
			continue
		}
		if _, ok := a.Details.Sizes[s.Name]; !ok {
			out = append(out, s.Name)
		}
	}
	return out
}

// stem is a file name without its extension.
func stem(name string) string {
	return strings.TrimSuffix(name, path.Ext(name))
}
