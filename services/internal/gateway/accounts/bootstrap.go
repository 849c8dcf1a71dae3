package accounts

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

// BootstrapPasswordName names the application password installed from the
// administrator Secret; re-running the bootstrap replaces it.
const BootstrapPasswordName = "siteplane-bootstrap"

// Admin is the bootstrap administrator.
type Admin struct {
	Login, Email, Password string
	// LoginPassword, when set, becomes the administrator's login password
	// (the sign-in page); "" leaves whatever is stored.
	LoginPassword string
}

// AdminFromEnv reads the bootstrap administrator from the mounted Secret
// directory (contract.EnvAdminDir) or the plain variables. ok is false when
// nothing is configured. A partial configuration is an error.
func AdminFromEnv(lookup func(string) (string, bool)) (a Admin, ok bool, err error) {
	if dir, set := lookup(contract.EnvAdminDir); set && dir != "" {
		read := func(key string) string {
			b, rerr := os.ReadFile(filepath.Join(dir, key))
			if rerr != nil && err == nil {
				err = fmt.Errorf("%s: cannot read %s: %v", contract.EnvAdminDir, key, errors.Unwrap(rerr))
			}
			return strings.TrimSpace(string(b))
		}
		a = Admin{Login: read(contract.AdminUsernameKey), Email: read(contract.AdminEmailKey), Password: read(contract.AdminPasswordKey)}
		// Optional: Secrets made before login passwords existed lack it.
		if b, rerr := os.ReadFile(filepath.Join(dir, contract.AdminLoginPasswordKey)); rerr == nil {
			a.LoginPassword = strings.TrimRight(string(b), "\r\n")
		}
		if err != nil {
			return Admin{}, false, err
		}
		return a, true, a.validate()
	}
	get := func(k string) string { v, _ := lookup(k); return strings.TrimSpace(v) }
	a = Admin{Login: get(contract.EnvAdminUser), Email: get(contract.EnvAdminEmail), Password: get(contract.EnvAdminPassword)}
	if a == (Admin{}) {
		return Admin{}, false, nil
	}
	a.LoginPassword, _ = lookup(contract.EnvAdminLoginPassword)
	return a, true, a.validate()
}

func (a Admin) validate() error {
	var errs []error
	if !ValidLogin(a.Login) {
		errs = append(errs, errors.New("bootstrap administrator: the username is missing or invalid"))
	}
	if !ValidEmail(a.Email) {
		errs = append(errs, errors.New("bootstrap administrator: the email is missing or invalid"))
	}
	if err := ValidateIssued(a.Password); err != nil {
		errs = append(errs, fmt.Errorf("bootstrap administrator: %w", err))
	}
	if a.LoginPassword != "" {
		if err := ValidateLoginPassword(a.LoginPassword); err != nil {
			errs = append(errs, fmt.Errorf("bootstrap administrator: %w", err))
		}
	}
	return errors.Join(errs...)
}

// Bootstrap makes sure the administrator exists with the administrator role
// and that its bootstrap application password is the given one. It is
// idempotent and safe when several replicas start together: everything runs
// in one transaction under an advisory lock.
func (s *Store) Bootstrap(ctx context.Context, a Admin) (User, error) {
	if err := a.validate(); err != nil {
		return User{}, err
	}
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{})
	if err != nil {
		return User{}, err
	}
	defer s.changed()      // after the commit (deferred first, runs last)
	defer tx.Rollback(ctx) //nolint:errcheck // a no-op after Commit
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('siteplane-gateway-bootstrap'))`); err != nil {
		return User{}, err
	}
	u, err := scanUser(tx.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE lower(login) = lower($1)`, a.Login))
	switch {
	case errors.Is(err, ErrNotFound):
		slug := Slugify(a.Login)
		if slug == "" {
			slug = "admin"
		}
		u, err = scanUser(tx.QueryRow(ctx, `INSERT INTO users (login, email, slug, display_name, nickname, role)
			VALUES ($1, $2, $3, $1, $1, $4) RETURNING `+userColumns, a.Login, a.Email, slug, string(identity.Administrator)))
		if err != nil {
			return User{}, uniqueErr(err)
		}
	case err != nil:
		return User{}, err
	case u.Role != identity.Administrator:
		if u, err = scanUser(tx.QueryRow(ctx, `UPDATE users SET role = $2 WHERE id = $1 RETURNING `+userColumns,
			u.ID, string(identity.Administrator))); err != nil {
			return User{}, err
		}
	}
	hash := s.hasher.Hash(a.Password)
	var exists bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM application_passwords WHERE hash = $1 AND user_id = $2)`, hash, u.ID).Scan(&exists); err != nil {
		return User{}, err
	}
	if !exists {
		// A rotated Secret replaces the previous bootstrap password.
		if _, err := tx.Exec(ctx, `DELETE FROM application_passwords WHERE user_id = $1 AND name = $2`, u.ID, BootstrapPasswordName); err != nil {
			return User{}, err
		}
		if _, err := s.insertPassword(ctx, tx, u.ID, BootstrapPasswordName, "", a.Password); err != nil {
			return User{}, err
		}
	}
	if a.LoginPassword != "" {
		// Re-hashed only when it changed (the salt makes every hash new).
		var phc string
		if err := tx.QueryRow(ctx, `SELECT login_password FROM users WHERE id = $1`, u.ID).Scan(&phc); err != nil {
			return User{}, err
		}
		if !VerifyLoginPassword(phc, a.LoginPassword) {
			h, err := HashLoginPassword(a.LoginPassword)
			if err != nil {
				return User{}, err
			}
			if _, err := tx.Exec(ctx, `UPDATE users SET login_password = $2 WHERE id = $1`, u.ID, h); err != nil {
				return User{}, err
			}
		}
	}
	return u, tx.Commit(ctx)
}

func isNoRows(err error) bool { return errors.Is(err, pgx.ErrNoRows) }
