package marketplace

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// placeholderEmailDomain makes the address of a created account whose key
// directory entry gives none (the operator always gives one); .invalid is
// reserved, so nothing is ever sent there.
const placeholderEmailDomain = "@marketplace.invalid"

// Created accounts start empty: no balance, no profile; an import can fill
// them later (it upserts by username).
const stmtEnsureAccounts = `
	INSERT INTO accounts (username, email, firstname, lastname, balance, currency, profile_heading,
		profile_description, contact_email, avatar_url, cover_url, registered_at)
	SELECT u, e, '', '', 0, 'USD', '', '', e, '', '', now()
	FROM unnest($1::text[], $2::text[]) AS t(u, e)
	ON CONFLICT (username) DO NOTHING
	RETURNING username`

// ensureAccounts creates the accounts of accounts (username → email) that do
// not exist, in one statement, and returns the created usernames. Existing
// accounts are left exactly as they are.
func (s *store) ensureAccounts(ctx context.Context, accounts map[string]string) ([]string, error) {
	if len(accounts) == 0 {
		return nil, nil
	}
	names := slices.Sorted(maps.Keys(accounts))
	emails := make([]string, len(names))
	for i, n := range names {
		emails[i] = accounts[n]
		if emails[i] == "" {
			emails[i] = n + placeholderEmailDomain
		}
	}
	rows, err := s.pool.Query(ctx, stmtEnsureAccounts, names, emails)
	if err != nil {
		return nil, fmt.Errorf("create the key directory's accounts: %w", err)
	}
	created, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("create the key directory's accounts: %w", err)
	}
	return created, nil
}

// EnsureAccounts makes sure every account the key directory names exists,
// so that a key the operator issues for an account declared only in the
// Site works at once. It runs after each directory change and retries
// after a failure (the database may come later than the pod); an unchanged
// set costs nothing.
func (a *API) EnsureAccounts(ctx context.Context) error {
	if a.auth.dir == nil {
		return nil
	}
	accounts := a.auth.dir.accounts()
	fp := fingerprintAccounts(accounts)
	a.ensureMu.Lock()
	defer a.ensureMu.Unlock()
	if a.ensured == fp && fp != "" {
		return nil
	}
	created, err := a.store.ensureAccounts(ctx, accounts)
	if err != nil {
		return err
	}
	a.ensured = fp
	if len(created) > 0 {
		a.logger.Info("created the accounts the key directory names", "accounts", created)
	}
	return nil
}

func fingerprintAccounts(accounts map[string]string) string {
	var b strings.Builder
	b.WriteString("v1")
	for _, n := range slices.Sorted(maps.Keys(accounts)) {
		b.WriteString("\x00" + n + "\x01" + accounts[n])
	}
	return b.String()
}
