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

// store holds the read statements of the four endpoints. Each one
// authenticates the caller (see callerSQL) and reads the data in a single
// statement, so a request is one database round trip; every statement
// scopes its data to the caller's account in the SQL rather than in a
// check after it.
type store struct {
	pool *pgxpool.Pool
}

var stmtCaller = withCaller(`SELECT account_id FROM caller`)

// authenticate only checks the key; endpoints use it when the request is
// settled without data (a malformed parameter, an over-long code), so that
// an invalid key still answers 401 first.
func (s *store) authenticate(ctx context.Context, who principal) error {
	var id int64
	err := s.pool.QueryRow(ctx, stmtCaller[who.source], who.args()...).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return errUnauthorized
	}
	return err
}

// An account row exists for every valid key (stored keys cascade with their
// account; a directory key is its account row), so an inner join suffices:
// no row is an invalid key, or an account deleted since the key was read.
var stmtAccount = withCaller(`
	SELECT a.username, a.email, a.firstname, a.lastname, a.balance::text, a.currency,
	       a.profile_heading, a.profile_description, a.contact_email, a.social_links,
	       a.avatar_url, a.cover_url, a.registered_at
	FROM caller c JOIN accounts a ON a.id = c.account_id`)

func (s *store) account(ctx context.Context, who principal) (accountJSON, error) {
	var a accountJSON
	var balance string
	var registered time.Time
	var social map[string]string
	err := s.pool.QueryRow(ctx, stmtAccount[who.source], who.args()...).Scan(
		&a.Username, &a.Email, &a.Name.Firstname, &a.Name.Lastname, &balance, &a.Currency,
		&a.Profile.Heading, &a.Profile.Description, &a.Profile.Contact.Email, &social,
		&a.Profile.Media.Avatar, &a.Profile.Media.Cover, &registered)
	if errors.Is(err, pgx.ErrNoRows) {
		return a, errUnauthorized
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

// The data statements below LEFT JOIN their data to caller and select
// c.account_id first: no row means an invalid key, a row whose second
// column is NULL means a valid key and no data. Every data column after it
// is NOT NULL in the schema (or coalesced), so NULL there is only the
// join's "no match".
const itemColumns = `i.id, i.name, i.description, i.category, i.sub_category, i.options, i.version, i.demo_link,
	i.tags, i.thumbnail, coalesce(i.preview_image, ''), coalesce(i.preview_video, ''),
	coalesce(i.preview_audio, ''), i.screenshots, i.price_regular::text, i.price_extended::text, i.currency,
	i.published_at`

var (
	stmtItems = withCaller(`SELECT c.account_id, ` + itemColumns + `
	FROM caller c LEFT JOIN items i ON i.account_id = c.account_id ORDER BY i.id`)
	stmtItem = withCaller(`SELECT c.account_id, ` + itemColumns + `
	FROM caller c LEFT JOIN items i ON i.id = $2 AND i.account_id = c.account_id`)
)

// joined reads the next row of a caller-joined statement: errUnauthorized
// without one, errNotFound when the joined data is absent. Otherwise the
// row is left for the caller to scan.
func joined(rows pgx.Rows) error {
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return errUnauthorized
	}
	if rows.RawValues()[1] == nil {
		return errNotFound
	}
	return nil
}

// scanItem scans a row of stmtItems or stmtItem; the leading caller column
// is skipped (pgx skips a nil destination).
func scanItem(row pgx.Row) (itemJSON, error) {
	var it itemJSON
	var regular, extended string
	var published time.Time
	err := row.Scan(nil, &it.ID, &it.Name, &it.Description, &it.Category, &it.SubCategory, &it.Options, &it.Version,
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

// items lists the account's items by id; an account without items is
// errNotFound. The seed shows no pagination; an author's catalogue is small.
func (s *store) items(ctx context.Context, who principal) ([]itemJSON, error) {
	rows, err := s.pool.Query(ctx, stmtItems[who.source], who.args()...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	if err := joined(rows); err != nil {
		return nil, err
	}
	out := []itemJSON{}
	for {
		it, err := scanItem(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, it)
		if !rows.Next() {
			break
		}
	}
	return out, rows.Err()
}

func (s *store) item(ctx context.Context, who principal, itemID int64) (itemJSON, error) {
	rows, err := s.pool.Query(ctx, stmtItem[who.source], who.args(itemID)...)
	if err != nil {
		return itemJSON{}, err
	}
	defer rows.Close()
	if err := joined(rows); err != nil {
		return itemJSON{}, err
	}
	it, err := scanItem(rows)
	if err != nil {
		return it, err
	}
	rows.Close()
	return it, rows.Err()
}

// stmtPurchase finds a code among purchases of the caller's own items: a
// code bought from another author is as unknown as a made-up one.
var stmtPurchase = withCaller(`
	SELECT c.account_id, p.code, p.license_type, p.price::text, p.currency, p.supported_until, p.downloaded,
	       p.purchased_at, i.id, i.name, i.url, coalesce(i.preview_image, '')
	FROM caller c LEFT JOIN (purchases p JOIN items i ON i.id = p.item_id)
	     ON p.code = $2 AND i.account_id = c.account_id`)

func (s *store) purchase(ctx context.Context, who principal, code string) (purchaseJSON, error) {
	var p purchaseJSON
	rows, err := s.pool.Query(ctx, stmtPurchase[who.source], who.args(code)...)
	if err != nil {
		return p, err
	}
	defer rows.Close()
	if err := joined(rows); err != nil {
		return p, err
	}
	var price string
	var supported *time.Time
	var date time.Time
	if err := rows.Scan(nil, &p.PurchaseCode, &p.LicenseType, &price, &p.Currency, &supported, &p.Downloaded, &date,
		&p.Item.ID, &p.Item.Name, &p.Item.URL, &p.Item.Media.PreviewImage); err != nil {
		return p, err
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return p, err
	}
	p.Price = json.Number(price)
	if supported != nil {
		p.SupportedUntil = timestamp(*supported)
	}
	p.Date = timestamp(date)
	return p, nil
}
