package marketplace

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// errNotFound means the row does not exist for this account.
var errNotFound = errors.New("not found")

// store holds the read queries of the four endpoints. Every query names the
// account, so scoping is part of the SQL rather than a check after it.
type store struct {
	pool *pgxpool.Pool
}

func (s *store) account(ctx context.Context, accountID int64) (accountJSON, error) {
	var a accountJSON
	var balance string
	var registered time.Time
	var social map[string]string
	err := s.pool.QueryRow(ctx, `
		SELECT username, email, firstname, lastname, balance::text, currency,
		       profile_heading, profile_description, contact_email, social_links,
		       avatar_url, cover_url, registered_at
		FROM accounts WHERE id = $1`, accountID).Scan(
		&a.Username, &a.Email, &a.Name.Firstname, &a.Name.Lastname, &balance, &a.Currency,
		&a.Profile.Heading, &a.Profile.Description, &a.Profile.Contact.Email, &social,
		&a.Profile.Media.Avatar, &a.Profile.Media.Cover, &registered)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, errNotFound
	}
	if err != nil {
		return a, err
	}
	a.Name.FullName = strings.TrimSpace(a.Name.Firstname + " " + a.Name.Lastname)
	a.Balance = json.Number(balance)
	if social == nil {
		social = map[string]string{}
	}
	a.Profile.SocialLinks = social
	a.RegisteredAt = timestamp(registered)
	return a, nil
}

const itemColumns = `id, name, description, category, sub_category, options, version, demo_link, tags,
	thumbnail, coalesce(preview_image, ''), coalesce(preview_video, ''), coalesce(preview_audio, ''),
	screenshots, price_regular::text, price_extended::text, currency, published_at`

func scanItem(row pgx.Row) (itemJSON, error) {
	var it itemJSON
	var regular, extended string
	var published time.Time
	err := row.Scan(&it.ID, &it.Name, &it.Description, &it.Category, &it.SubCategory, &it.Options, &it.Version,
		&it.DemoLink, &it.Tags, &it.Media.Thumbnail, &it.Media.PreviewImage, &it.Media.PreviewVideo,
		&it.Media.PreviewAudio, &it.Media.Screenshots, &regular, &extended, &it.Currency, &published)
	if err != nil {
		return it, err
	}
	it.Options, it.Tags, it.Media.Screenshots = nonNil(it.Options), nonNil(it.Tags), nonNil(it.Media.Screenshots)
	it.Price = priceJSON{Regular: json.Number(regular), Extended: json.Number(extended)}
	it.PublishedAt = timestamp(published)
	return it, nil
}

// items lists the account's items by id. The seed shows no pagination; an
// author's catalogue is small.
func (s *store) items(ctx context.Context, accountID int64) ([]itemJSON, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+itemColumns+` FROM items WHERE account_id = $1 ORDER BY id`, accountID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []itemJSON{}
	for rows.Next() {
		it, err := scanItem(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

func (s *store) item(ctx context.Context, accountID, itemID int64) (itemJSON, error) {
	it, err := scanItem(s.pool.QueryRow(ctx,
		`SELECT `+itemColumns+` FROM items WHERE id = $1 AND account_id = $2`, itemID, accountID))
	if errors.Is(err, pgx.ErrNoRows) {
		return it, errNotFound
	}
	return it, err
}

// purchase finds a code among purchases of the account's own items: a code
// bought from another author is as unknown as a made-up one.
func (s *store) purchase(ctx context.Context, accountID int64, code string) (purchaseJSON, error) {
	var p purchaseJSON
	var price string
	var supported *time.Time
	var date time.Time
	err := s.pool.QueryRow(ctx, `
		SELECT p.code, p.license_type, p.price::text, p.currency, p.supported_until, p.downloaded, p.purchased_at,
		       i.id, i.name, i.url, coalesce(i.preview_image, '')
		FROM purchases p JOIN items i ON i.id = p.item_id
		WHERE p.code = $1 AND i.account_id = $2`, code, accountID).Scan(
		&p.PurchaseCode, &p.LicenseType, &price, &p.Currency, &supported, &p.Downloaded, &date,
		&p.Item.ID, &p.Item.Name, &p.Item.URL, &p.Item.Media.PreviewImage)
	if errors.Is(err, pgx.ErrNoRows) {
		return p, errNotFound
	}
	if err != nil {
		return p, err
	}
	p.Price = json.Number(price)
	if supported != nil {
		p.SupportedUntil = timestamp(*supported)
	}
	p.Date = timestamp(date)
	return p, nil
}
