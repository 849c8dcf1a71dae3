package marketplace

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// The import file is one JSON object with three lists. Records mirror the
// API's response shapes, plus what the API derives or hides: an item's
// owning account, media kind and page URL, and a purchase's item id.
//
//	{"accounts": [...], "items": [...], "purchases": [...]}
//
// Unknown fields are errors, so a misspelt field is caught rather than
// silently dropped.
type importFile struct {
	Accounts  []json.RawMessage `json:"accounts"`
	Items     []json.RawMessage `json:"items"`
	Purchases []json.RawMessage `json:"purchases"`
}

type importAccount struct {
	Username string `json:"username"`
	Email    string `json:"email"`
	Name     struct {
		Firstname string `json:"firstname"`
		Lastname  string `json:"lastname"`
	} `json:"name"`
	Balance      decimal `json:"balance"`
	Currency     string  `json:"currency"`
	RegisteredAt string  `json:"registered_at"`
	Profile      struct {
		Heading     string `json:"heading"`
		Description string `json:"description"`
		Contact     struct {
			Email string `json:"email"`
		} `json:"contact"`
		SocialLinks map[string]string `json:"social_links"`
		Media       struct {
			Avatar string `json:"avatar"`
			Cover  string `json:"cover"`
		} `json:"media"`
	} `json:"profile"`

	registered time.Time
}

// Media kinds decide which preview fields an item has.
const (
	mediaImage = "image"
	mediaVideo = "video"
	mediaAudio = "audio"
)

type importItem struct {
	ID          int64    `json:"id"`
	Account     string   `json:"account"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Category    string   `json:"category"`
	SubCategory string   `json:"sub_category"`
	Options     []string `json:"options"`
	Version     string   `json:"version"`
	DemoLink    string   `json:"demo_link"`
	// URL is the item's page, shown in purchase records; default demo_link.
	URL       string   `json:"url"`
	Tags      []string `json:"tags"`
	MediaKind string   `json:"media_kind"`
	Media     struct {
		Thumbnail    string   `json:"thumbnail"`
		PreviewImage string   `json:"preview_image"`
		PreviewVideo string   `json:"preview_video"`
		PreviewAudio string   `json:"preview_audio"`
		Screenshots  []string `json:"screenshots"`
	} `json:"media"`
	Price struct {
		Regular  decimal `json:"regular"`
		Extended decimal `json:"extended"`
	} `json:"price"`
	Currency    string `json:"currency"`
	PublishedAt string `json:"published_at"`

	published time.Time
}

type importPurchase struct {
	PurchaseCode   string  `json:"purchase_code"`
	ItemID         int64   `json:"item_id"`
	LicenseType    string  `json:"license_type"`
	Price          decimal `json:"price"`
	Currency       string  `json:"currency"`
	SupportedUntil *string `json:"supported_until"`
	Downloaded     bool    `json:"downloaded"`
	Date           string  `json:"date"`

	supported *time.Time
	date      time.Time
}

// decimal is a money amount as written in the file: a JSON number or a
// string, kept as text so that it reaches PostgreSQL's numeric unrounded.
type decimal struct {
	text string
	set  bool
}

func (d *decimal) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		d.text, d.set = strings.TrimSpace(s), true
		return nil
	}
	if string(b) == "null" {
		return nil
	}
	d.text, d.set = string(b), true
	return nil
}

// At most 12 integer digits and 2 decimals: numeric(14,2). More decimals are
// refused rather than rounded, so what is imported is what is served.
var moneyRE = regexp.MustCompile(`^[0-9]{1,12}(\.[0-9]{1,2})?$`)

var (
	usernameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$`)
	currencyRE = regexp.MustCompile(`^[A-Z]{3}$`)
	versionRE  = regexp.MustCompile(`^[0-9]+(\.[0-9]+)+([-+][0-9A-Za-z.-]+)?$`)
	codeRE     = regexp.MustCompile(`^[\x21-\x7e]{1,200}$`)
	networkRE  = regexp.MustCompile(`^[a-z0-9][a-z0-9_.-]{0,39}$`)
)

// problems collects one record's validation failures.
type problems []string

func (p *problems) addf(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

func (p *problems) required(field, v string) {
	if strings.TrimSpace(v) == "" {
		p.addf("%s is required", field)
	}
}

func (p *problems) url(field, v string) {
	if v == "" {
		p.addf("%s is required", field)
		return
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.addf("%s %q is not an absolute http(s) URL", field, v)
	}
}

func (p *problems) email(field, v string) {
	a, err := mail.ParseAddress(v)
	if err != nil || a.Address != v {
		p.addf("%s %q is not an e-mail address", field, v)
	}
}

func (p *problems) money(field string, d decimal) {
	switch {
	case !d.set:
		p.addf("%s is required", field)
	case !moneyRE.MatchString(d.text):
		p.addf("%s %s must be a non-negative amount with at most 2 decimals", field, d.text)
	}
}

func (p *problems) currency(field, v string) {
	if !currencyRE.MatchString(v) {
		p.addf("%s %q must be a three-letter upper-case currency code", field, v)
	}
}

func (p *problems) time(field, v string) time.Time {
	if v == "" {
		p.addf("%s is required", field)
		return time.Time{}
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		p.addf("%s %q is not an ISO 8601 timestamp with a zone (2024-05-01T12:00:00Z)", field, v)
	}
	return t
}

func (p *problems) strings(field string, list []string) {
	for i, s := range list {
		if strings.TrimSpace(s) == "" {
			p.addf("%s[%d] is empty", field, i)
		}
	}
}

func (a *importAccount) validate() problems {
	var p problems
	if !usernameRE.MatchString(a.Username) {
		p.addf("username %q must be 1-100 letters, digits, '.', '_' or '-'", a.Username)
	}
	p.email("email", a.Email)
	p.required("name.firstname", a.Name.Firstname)
	p.money("balance", a.Balance)
	p.currency("currency", a.Currency)
	a.registered = p.time("registered_at", a.RegisteredAt)
	if a.Profile.Contact.Email == "" {
		a.Profile.Contact.Email = a.Email
	} else {
		p.email("profile.contact.email", a.Profile.Contact.Email)
	}
	for network, link := range a.Profile.SocialLinks {
		if !networkRE.MatchString(network) {
			p.addf("profile.social_links: network name %q must be lower-case letters, digits, '_', '.' or '-'", network)
		}
		p.url("profile.social_links."+network, link)
	}
	p.url("profile.media.avatar", a.Profile.Media.Avatar)
	p.url("profile.media.cover", a.Profile.Media.Cover)
	return p
}

func (it *importItem) validate() problems {
	var p problems
	if it.ID <= 0 {
		p.addf("id must be a positive integer")
	}
	p.required("account", it.Account)
	p.required("name", it.Name)
	p.required("category", it.Category)
	p.required("sub_category", it.SubCategory)
	p.strings("options", it.Options)
	p.strings("tags", it.Tags)
	if !versionRE.MatchString(it.Version) {
		p.addf("version %q must be a dotted version such as 1.2.0", it.Version)
	}
	p.url("demo_link", it.DemoLink)
	if it.URL == "" {
		it.URL = it.DemoLink
	} else {
		p.url("url", it.URL)
	}
	m := it.Media
	p.url("media.thumbnail", m.Thumbnail)
	for i, s := range m.Screenshots {
		p.url(fmt.Sprintf("media.screenshots[%d]", i), s)
	}
	// The seed's presence rules: preview_image except for audio,
	// preview_video only for video, preview_audio only for audio.
	switch it.MediaKind {
	case mediaImage, mediaVideo, mediaAudio:
		expect := func(field, v string, want bool) {
			switch {
			case want:
				p.url(field, v)
			case v != "":
				p.addf("%s is not allowed for %s items", field, it.MediaKind)
			}
		}
		expect("media.preview_image", m.PreviewImage, it.MediaKind != mediaAudio)
		expect("media.preview_video", m.PreviewVideo, it.MediaKind == mediaVideo)
		expect("media.preview_audio", m.PreviewAudio, it.MediaKind == mediaAudio)
	default:
		p.addf("media_kind %q must be image, video or audio", it.MediaKind)
	}
	p.money("price.regular", it.Price.Regular)
	p.money("price.extended", it.Price.Extended)
	p.currency("currency", it.Currency)
	it.published = p.time("published_at", it.PublishedAt)
	return p
}

func (pu *importPurchase) validate() problems {
	var p problems
	if !codeRE.MatchString(pu.PurchaseCode) {
		p.addf("purchase_code must be 1-200 printable characters without spaces")
	}
	if pu.ItemID <= 0 {
		p.addf("item_id must be a positive integer")
	}
	p.required("license_type", pu.LicenseType)
	p.money("price", pu.Price)
	p.currency("currency", pu.Currency)
	if pu.SupportedUntil != nil {
		t := p.time("supported_until", *pu.SupportedUntil)
		pu.supported = &t
	}
	pu.date = p.time("date", pu.Date)
	return p
}

// ImportError lists every problem of an import file, each with the
// position of its record ("items[3] (id 12): ...").
type ImportError struct {
	Problems []string
}

func (e *ImportError) Error() string {
	return fmt.Sprintf("the import file has %d problem(s); nothing was imported:\n  %s",
		len(e.Problems), strings.Join(e.Problems, "\n  "))
}

// maxReported bounds the problem list of a badly broken file.
const maxReported = 100

func (e *ImportError) add(where string, p ...string) {
	for _, s := range p {
		if len(e.Problems) < maxReported {
			e.Problems = append(e.Problems, where+": "+s)
		}
	}
}

func (e *ImportError) orNil() error {
	if len(e.Problems) == 0 {
		return nil
	}
	return e
}

// parsed is a validated import file.
type parsed struct {
	accounts  []importAccount
	items     []importItem
	purchases []importPurchase
}

// decodeStrict decodes one JSON value, refusing unknown fields and trailing data.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("unexpected data after the top-level object")
	}
	return nil
}

// parseImport decodes and validates every record, including uniqueness
// within the file. References to accounts and items that are not in the
// file are checked against the database by the importer.
func parseImport(data []byte) (*parsed, error) {
	var f importFile
	if err := decodeStrict(data, &f); err != nil {
		return nil, &ImportError{Problems: []string{"file: " + err.Error()}}
	}
	ie := &ImportError{}
	out := &parsed{
		accounts:  parseList[importAccount, string](ie, "accounts", f.Accounts),
		items:     parseList[importItem, int64](ie, "items", f.Items),
		purchases: parseList[importPurchase, string](ie, "purchases", f.Purchases),
	}
	if err := ie.orNil(); err != nil {
		return nil, err
	}
	return out, nil
}

// importRecord is what parseList asks of a record type: its own checks, the
// field that must not repeat within the file, and how a message names it.
type importRecord[K comparable] interface {
	validate() problems
	// uniqueKey returns the value that must not repeat and the field's name.
	uniqueKey() (K, string)
	// label follows the record's index in a message ("" when none helps).
	label() string
}

func (a *importAccount) uniqueKey() (string, string) { return a.Username, "username" }
func (a *importAccount) label() string               { return fmt.Sprintf(" (%s)", a.Username) }

func (it *importItem) uniqueKey() (int64, string) { return it.ID, "id" }
func (it *importItem) label() string              { return fmt.Sprintf(" (id %d)", it.ID) }

func (pu *importPurchase) uniqueKey() (string, string) { return pu.PurchaseCode, "purchase_code" }
func (pu *importPurchase) label() string               { return "" }

// parseList decodes and validates one list of the file, recording every
// problem in ie under the record's place ("items[3] (id 7)"), and returns the
// records that decoded.
func parseList[T any, K comparable, P interface {
	*T
	importRecord[K]
}](ie *ImportError, list string, raws []json.RawMessage) []T {
	var out []T
	seen := map[K]int{}
	for i, raw := range raws {
		where := fmt.Sprintf("%s[%d]", list, i)
		var rec T
		if err := decodeStrict(raw, &rec); err != nil {
			ie.add(where, err.Error())
			continue
		}
		r := P(&rec)
		where += r.label()
		ie.add(where, r.validate()...)
		key, field := r.uniqueKey()
		if j, dup := seen[key]; dup {
			ie.add(where, fmt.Sprintf("%s repeats %s[%d]", field, list, j))
		}
		seen[key] = i
		out = append(out, rec)
	}
	return out
}
