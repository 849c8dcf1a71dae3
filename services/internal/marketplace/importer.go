package marketplace

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// ImportResult counts the records an import wrote.
type ImportResult struct {
	Accounts, Items, Purchases int
}

// Import validates data (the import file format) and upserts its accounts,
// items and purchases in tx: a record that exists (same username, item id or
// purchase code) is updated to match the file, so importing a file twice
// leaves the same state. Any problem returns an *ImportError naming each
// record's position, and the caller rolls tx back: nothing is half-imported.
func Import(ctx context.Context, tx pgx.Tx, data []byte) (ImportResult, error) {
	var res ImportResult
	f, err := parseImport(data)
	if err != nil {
		return res, err
	}
	accountIDs, err := upsertAccounts(ctx, tx, f.accounts)
	if err != nil {
		return res, err
	}
	if err := resolveAccounts(ctx, tx, f.items, accountIDs); err != nil {
		return res, err
	}
	if err := upsertItems(ctx, tx, f.items, accountIDs); err != nil {
		return res, err
	}
	if err := checkPurchaseItems(ctx, tx, f); err != nil {
		return res, err
	}
	if err := upsertPurchases(ctx, tx, f.purchases); err != nil {
		return res, err
	}
	return ImportResult{Accounts: len(f.accounts), Items: len(f.items), Purchases: len(f.purchases)}, nil
}

// sendBatch runs b and reports the first failure with the position of the
// record that caused it (where(i)).
func sendBatch(ctx context.Context, tx pgx.Tx, b *pgx.Batch, where func(i int) string, each func(i int, r pgx.BatchResults) error) error {
	br := tx.SendBatch(ctx, b)
	defer br.Close()
	for i := 0; i < b.Len(); i++ {
		if err := each(i, br); err != nil {
			return &ImportError{Problems: []string{where(i) + ": " + err.Error()}}
		}
	}
	return br.Close()
}

func upsertAccounts(ctx context.Context, tx pgx.Tx, accounts []importAccount) (map[string]int64, error) {
	ids := make(map[string]int64, len(accounts))
	b := &pgx.Batch{}
	for _, a := range accounts {
		social, err := json.Marshal(orEmpty(a.Profile.SocialLinks))
		if err != nil {
			return nil, err
		}
		b.Queue(`INSERT INTO accounts (username, email, firstname, lastname, balance, currency, profile_heading,
				profile_description, contact_email, social_links, avatar_url, cover_url, registered_at)
			VALUES ($1, $2, $3, $4, $5::numeric, $6, $7, $8, $9, $10::jsonb, $11, $12, $13)
			ON CONFLICT (username) DO UPDATE SET email = EXCLUDED.email, firstname = EXCLUDED.firstname,
				lastname = EXCLUDED.lastname, balance = EXCLUDED.balance, currency = EXCLUDED.currency,
				profile_heading = EXCLUDED.profile_heading, profile_description = EXCLUDED.profile_description,
				contact_email = EXCLUDED.contact_email, social_links = EXCLUDED.social_links,
				avatar_url = EXCLUDED.avatar_url, cover_url = EXCLUDED.cover_url, registered_at = EXCLUDED.registered_at
			RETURNING id`,
			a.Username, a.Email, a.Name.Firstname, a.Name.Lastname, a.Balance.text, a.Currency, a.Profile.Heading,
			a.Profile.Description, a.Profile.Contact.Email, string(social), a.Profile.Media.Avatar,
			a.Profile.Media.Cover, a.registered)
	}
	err := sendBatch(ctx, tx, b, func(i int) string { return fmt.Sprintf("accounts[%d] (%s)", i, accounts[i].Username) },
		func(i int, r pgx.BatchResults) error {
			var id int64
			if err := r.QueryRow().Scan(&id); err != nil {
				return err
			}
			ids[accounts[i].Username] = id
			return nil
		})
	return ids, err
}

// resolveAccounts adds to ids the existing accounts that items name but the
// file does not contain, and reports items naming an unknown account.
func resolveAccounts(ctx context.Context, tx pgx.Tx, items []importItem, ids map[string]int64) error {
	var missing []string
	for _, it := range items {
		if _, ok := ids[it.Account]; !ok {
			missing = append(missing, it.Account)
		}
	}
	if len(missing) > 0 {
		rows, err := tx.Query(ctx, `SELECT username, id FROM accounts WHERE username = ANY($1)`, missing)
		if err != nil {
			return err
		}
		var name string
		var id int64
		if _, err := pgx.ForEachRow(rows, []any{&name, &id}, func() error { ids[name] = id; return nil }); err != nil {
			return err
		}
	}
	ie := &ImportError{}
	for i, it := range items {
		if _, ok := ids[it.Account]; !ok {
			ie.add(fmt.Sprintf("items[%d] (id %d)", i, it.ID),
				fmt.Sprintf("account %q is neither in the file nor in the database", it.Account))
		}
	}
	return ie.orNil()
}

func upsertItems(ctx context.Context, tx pgx.Tx, items []importItem, accountIDs map[string]int64) error {
	b := &pgx.Batch{}
	for _, it := range items {
		m := it.Media
		b.Queue(`INSERT INTO items (id, account_id, name, description, category, sub_category, options, version,
				demo_link, url, tags, media_kind, thumbnail, preview_image, preview_video, preview_audio, screenshots,
				price_regular, price_extended, currency, published_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, nullif($14, ''), nullif($15, ''),
				nullif($16, ''), $17, $18::numeric, $19::numeric, $20, $21)
			ON CONFLICT (id) DO UPDATE SET account_id = EXCLUDED.account_id, name = EXCLUDED.name,
				description = EXCLUDED.description, category = EXCLUDED.category, sub_category = EXCLUDED.sub_category,
				options = EXCLUDED.options, version = EXCLUDED.version, demo_link = EXCLUDED.demo_link,
				url = EXCLUDED.url, tags = EXCLUDED.tags, media_kind = EXCLUDED.media_kind,
				thumbnail = EXCLUDED.thumbnail, preview_image = EXCLUDED.preview_image,
				preview_video = EXCLUDED.preview_video, preview_audio = EXCLUDED.preview_audio,
				screenshots = EXCLUDED.screenshots, price_regular = EXCLUDED.price_regular,
				price_extended = EXCLUDED.price_extended, currency = EXCLUDED.currency,
				published_at = EXCLUDED.published_at`,
			it.ID, accountIDs[it.Account], it.Name, it.Description, it.Category, it.SubCategory, nonNil(it.Options),
			it.Version, it.DemoLink, it.URL, nonNil(it.Tags), it.MediaKind, m.Thumbnail, m.PreviewImage,
			m.PreviewVideo, m.PreviewAudio, nonNil(m.Screenshots), it.Price.Regular.text, it.Price.Extended.text,
			it.Currency, it.published)
	}
	return sendBatch(ctx, tx, b, func(i int) string { return fmt.Sprintf("items[%d] (id %d)", i, items[i].ID) },
		func(_ int, r pgx.BatchResults) error { _, err := r.Exec(); return err })
}

// checkPurchaseItems reports purchases of items neither in the file nor in
// the database (after the file's items were written).
func checkPurchaseItems(ctx context.Context, tx pgx.Tx, f *parsed) error {
	want := make([]int64, 0, len(f.purchases))
	for _, p := range f.purchases {
		want = append(want, p.ItemID)
	}
	rows, err := tx.Query(ctx, `SELECT id FROM items WHERE id = ANY($1)`, want)
	if err != nil {
		return err
	}
	exists := map[int64]bool{}
	var id int64
	if _, err := pgx.ForEachRow(rows, []any{&id}, func() error { exists[id] = true; return nil }); err != nil {
		return err
	}
	ie := &ImportError{}
	for i, p := range f.purchases {
		if !exists[p.ItemID] {
			ie.add(fmt.Sprintf("purchases[%d]", i), fmt.Sprintf("item_id %d is neither in the file nor in the database", p.ItemID))
		}
	}
	return ie.orNil()
}

func upsertPurchases(ctx context.Context, tx pgx.Tx, purchases []importPurchase) error {
	b := &pgx.Batch{}
	for _, p := range purchases {
		b.Queue(`INSERT INTO purchases (code, item_id, license_type, price, currency, supported_until, downloaded, purchased_at)
			VALUES ($1, $2, $3, $4::numeric, $5, $6, $7, $8)
			ON CONFLICT (code) DO UPDATE SET item_id = EXCLUDED.item_id, license_type = EXCLUDED.license_type,
				price = EXCLUDED.price, currency = EXCLUDED.currency, supported_until = EXCLUDED.supported_until,
				downloaded = EXCLUDED.downloaded, purchased_at = EXCLUDED.purchased_at`,
			p.PurchaseCode, p.ItemID, p.LicenseType, p.Price.text, p.Currency, p.supported, p.Downloaded, p.date)
	}
	return sendBatch(ctx, tx, b, func(i int) string { return fmt.Sprintf("purchases[%d]", i) },
		func(_ int, r pgx.BatchResults) error { _, err := r.Exec(); return err })
}

func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}
