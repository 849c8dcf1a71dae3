package accounts

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/rest"
)

// AppPassword is the stored record of an application password (never the
// password itself).
type AppPassword struct {
	UUID     string
	UserID   int64
	AppID    string
	Name     string
	Created  time.Time
	LastUsed *time.Time
	LastIP   *string
}

const apColumns = `uuid::text, user_id, app_id, name, created_at, last_used, last_ip`

func scanAP(row pgx.Row) (AppPassword, error) {
	var a AppPassword
	err := row.Scan(&a.UUID, &a.UserID, &a.AppID, &a.Name, &a.Created, &a.LastUsed, &a.LastIP)
	if errors.Is(err, pgx.ErrNoRows) {
		return AppPassword{}, ErrNotFound
	}
	return a, err
}

// ErrInvalidName is returned for an empty application password name.
var ErrInvalidName = errors.New("accounts: application password name is empty")

// CreatePassword issues a new application password for userID and returns it
// in clear, the only time it is ever available.
func (s *Store) CreatePassword(ctx context.Context, userID int64, name, appID string) (string, AppPassword, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", AppPassword{}, ErrInvalidName
	}
	plain := GeneratePassword()
	a, err := s.insertPassword(ctx, s.pool, userID, name, appID, plain)
	return plain, a, err
}

type querier interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

func (s *Store) insertPassword(ctx context.Context, q querier, userID int64, name, appID, plain string) (AppPassword, error) {
	a, err := scanAP(q.QueryRow(ctx, `INSERT INTO application_passwords (uuid, user_id, app_id, name, hash)
		SELECT $1, id, $3, $4, $5 FROM users WHERE id = $2 RETURNING `+apColumns,
		newUUID(), userID, appID, name, s.hasher.Hash(plain)))
	return a, err
}

// ListPasswords returns the user's application passwords, oldest first.
func (s *Store) ListPasswords(ctx context.Context, userID int64) ([]AppPassword, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+apColumns+` FROM application_passwords WHERE user_id = $1 ORDER BY created_at, uuid`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []AppPassword{}
	for rows.Next() {
		a, err := scanAP(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// GetPassword returns one of the user's application passwords.
func (s *Store) GetPassword(ctx context.Context, userID int64, uuid string) (AppPassword, error) {
	if !rest.IsUUID(uuid) {
		return AppPassword{}, ErrNotFound
	}
	return scanAP(s.pool.QueryRow(ctx, `SELECT `+apColumns+` FROM application_passwords WHERE user_id = $1 AND uuid = $2::uuid`, userID, uuid))
}

// RenamePassword changes the name of an application password.
func (s *Store) RenamePassword(ctx context.Context, userID int64, uuid, name string) (AppPassword, error) {
	if !rest.IsUUID(uuid) {
		return AppPassword{}, ErrNotFound
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return AppPassword{}, ErrInvalidName
	}
	return scanAP(s.pool.QueryRow(ctx, `UPDATE application_passwords SET name = $3 WHERE user_id = $1 AND uuid = $2::uuid RETURNING `+apColumns, userID, uuid, name))
}

// DeletePassword revokes one application password and returns its record.
func (s *Store) DeletePassword(ctx context.Context, userID int64, uuid string) (AppPassword, error) {
	defer s.changed()
	if !rest.IsUUID(uuid) {
		return AppPassword{}, ErrNotFound
	}
	return scanAP(s.pool.QueryRow(ctx, `DELETE FROM application_passwords WHERE user_id = $1 AND uuid = $2::uuid RETURNING `+apColumns, userID, uuid))
}

// DeleteAllPasswords revokes every application password of the user and
// returns how many there were.
func (s *Store) DeleteAllPasswords(ctx context.Context, userID int64) (int64, error) {
	defer s.changed()
	tag, err := s.pool.Exec(ctx, `DELETE FROM application_passwords WHERE user_id = $1`, userID)
	return tag.RowsAffected(), err
}
