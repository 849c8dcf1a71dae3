package marketplace

import (
	"encoding/json"
	"time"
)

// The response shapes of seed 000, section 2. Money fields are json.Number
// holding PostgreSQL's text form of a numeric, so 19.99 is written as 19.99
// and never passes through a float.

type accountJSON struct {
	Name         nameJSON    `json:"name"`
	Username     string      `json:"username"`
	Email        string      `json:"email"`
	Balance      json.Number `json:"balance"`
	Currency     string      `json:"currency"`
	Profile      profileJSON `json:"profile"`
	RegisteredAt string      `json:"registered_at"`
}

type nameJSON struct {
	Firstname string `json:"firstname"`
	Lastname  string `json:"lastname"`
	FullName  string `json:"full_name"`
}

type profileJSON struct {
	Heading     string            `json:"heading"`
	Description string            `json:"description"`
	Contact     contactJSON       `json:"contact"`
	SocialLinks map[string]string `json:"social_links"`
	Media       profileMediaJSON  `json:"media"`
}

type contactJSON struct {
	Email string `json:"email"`
}

type profileMediaJSON struct {
	Avatar string `json:"avatar"`
	Cover  string `json:"cover"`
}

type itemJSON struct {
	ID          int64         `json:"id"`
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Category    string        `json:"category"`
	SubCategory string        `json:"sub_category"`
	Options     []string      `json:"options"`
	Version     string        `json:"version"`
	DemoLink    string        `json:"demo_link"`
	Tags        []string      `json:"tags"`
	Media       itemMediaJSON `json:"media"`
	Price       priceJSON     `json:"price"`
	Currency    string        `json:"currency"`
	PublishedAt string        `json:"published_at"`
}

// itemMediaJSON follows the seed's presence rules: thumbnail and screenshots
// always; preview_image except for audio items; preview_video only for video
// items; preview_audio only for audio items. The database enforces the same
// rules (migration 0001), so empty strings here mean "absent".
type itemMediaJSON struct {
	Thumbnail    string   `json:"thumbnail"`
	PreviewImage string   `json:"preview_image,omitempty"`
	PreviewVideo string   `json:"preview_video,omitempty"`
	PreviewAudio string   `json:"preview_audio,omitempty"`
	Screenshots  []string `json:"screenshots"`
}

type priceJSON struct {
	Regular  json.Number `json:"regular"`
	Extended json.Number `json:"extended"`
}

type purchaseJSON struct {
	PurchaseCode   string           `json:"purchase_code"`
	LicenseType    string           `json:"license_type"`
	Price          json.Number      `json:"price"`
	Currency       string           `json:"currency"`
	Item           purchaseItemJSON `json:"item"`
	SupportedUntil string           `json:"supported_until,omitempty"`
	Downloaded     bool             `json:"downloaded"`
	Date           string           `json:"date"`
}

type purchaseItemJSON struct {
	ID    int64                 `json:"id"`
	Name  string                `json:"name"`
	URL   string                `json:"url"`
	Media purchaseItemMediaJSON `json:"media"`
}

// purchaseItemMediaJSON carries the item's preview image; audio items have
// none, so for them the object is empty, as in the item record.
type purchaseItemMediaJSON struct {
	PreviewImage string `json:"preview_image,omitempty"`
}

// timestamp formats t as ISO 8601 in UTC with a Z, to the second.
func timestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05Z")
}

// nonNil makes a nil list encode as [] rather than null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
