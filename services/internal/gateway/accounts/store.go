// Package accounts is the gateway's identity store: users with a WordPress
// role and their application passwords, kept in the "gateway" schema.
package accounts

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"siteplane.dev/services/internal/platform/identity"
)

// Errors of the store. Handlers translate them into WordPress error codes.
var (
	ErrNotFound     = errors.New("accounts: not found")
	ErrLoginTaken   = errors.New("accounts: login already exists")
	ErrEmailTaken   = errors.New("accounts: email already used")
	ErrSlugTaken    = errors.New("accounts: slug already used")
	ErrInvalidLogin = errors.New("accounts: invalid login")
	ErrInvalidEmail = errors.New("accounts: invalid email")
	ErrInvalidRole  = errors.New("accounts: invalid role")
)

// User is a site user.
type User struct {
	ID          int64
	Login       string
	Email       string
	Slug        string
	DisplayName string
	FirstName   string
	LastName    string
	Nickname    string
	URL         string
	Description string
	Locale      string
	Role        identity.Role
	Registered  time.Time
}

// Identity is the caller identity the gateway signs for this user.
func (u User) Identity() identity.Identity { return identity.Identity{UserID: u.ID, Role: u.Role} }

// Store reads and writes users and application passwords.
type Store struct {
	pool   *pgxpool.Pool
	hasher Hasher
	now    func() time.Time
	// appThrottle limits failed application passwords (throttle.go).
	appThrottle Throttle
	// onChange runs after a write that may end a verified credential's
	// validity (a CredentialCache's Invalidate); nil for none.
	onChange func()
}

// changed reports a write of users or application passwords that may end
// the validity of a credential verified before it (run after its commit).
func (s *Store) changed() {
	if s.onChange != nil {
		s.onChange()
	}
}

// New returns a store on pool (search_path = gateway schema).
func New(pool *pgxpool.Pool, hasher Hasher) *Store {
	return &Store{pool: pool, hasher: hasher, now: time.Now, appThrottle: DefaultAppThrottle}
}

// Pool is the store's connection pool (the gateway's schema), for the
// gateway's other tables (the oEmbed proxy cache).
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

const userColumns = `id, login, email, slug, display_name, first_name, last_name, nickname, url, description, locale, role, registered_at`

func scanUser(row pgx.Row) (User, error) {
	var u User
	var role string
	err := row.Scan(&u.ID, &u.Login, &u.Email, &u.Slug, &u.DisplayName, &u.FirstName, &u.LastName, &u.Nickname,
		&u.URL, &u.Description, &u.Locale, &role, &u.Registered)
	if errors.Is(err, pgx.ErrNoRows) {
		return User{}, ErrNotFound
	}
	u.Role = identity.Role(role)
	return u, err
}

// NewUser is the input of CreateUser. Empty optional fields get WordPress's
// defaults: slug from the login, display name from the login.
type NewUser struct {
	Login, Email, Role                               string
	DisplayName, FirstName, LastName, Nickname, Slug string
	URL, Description, Locale                         string
	// Password is the login password in clear ("" = none); it is stored
	// as an argon2id hash (see loginpassword.go).
	Password string
}

var (
	loginRe = regexp.MustCompile(`^[A-Za-z0-9 _.\-@]{1,60}$`)
	emailRe = regexp.MustCompile(`^[^\s@]+@[^\s@]+\.[^\s@]+$`)
	slugRe  = regexp.MustCompile(`[^a-z0-9_\-]+`)
)

// ValidLogin reports whether s is acceptable as a login (WordPress's
// sanitize_user in strict mode: letters, digits, space, _ . - @).
func ValidLogin(s string) bool { return loginRe.MatchString(s) && strings.TrimSpace(s) == s }

// ValidEmail is a pragmatic check of an address's shape.
func ValidEmail(s string) bool { return len(s) <= 100 && emailRe.MatchString(s) }

// Slugify derives a user slug (user_nicename) from a login.
func Slugify(s string) string {
	s = slugRe.ReplaceAllString(strings.ToLower(s), "-")
	return strings.Trim(s, "-")
}

// CreateUser inserts a user.
func (s *Store) CreateUser(ctx context.Context, in NewUser) (User, error) {
	if !ValidLogin(in.Login) {
		return User{}, ErrInvalidLogin
	}
	if !ValidEmail(in.Email) {
		return User{}, ErrInvalidEmail
	}
	if !identity.Role(in.Role).Valid() {
		return User{}, ErrInvalidRole
	}
	if in.Slug == "" {
		in.Slug = Slugify(in.Login)
	}
	if in.Slug == "" {
		in.Slug = "user"
	}
	if in.DisplayName == "" {
		in.DisplayName = in.Login
	}
	if in.Nickname == "" {
		in.Nickname = in.Login
	}
	hash := ""
	if in.Password != "" {
		var err error
		if hash, err = HashLoginPassword(in.Password); err != nil {
			return User{}, err
		}
	}
	row := s.pool.QueryRow(ctx, `INSERT INTO users (login, email, slug, display_name, first_name, last_name, nickname, url, description, locale, role, login_password)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING `+userColumns,
		in.Login, in.Email, in.Slug, in.DisplayName, in.FirstName, in.LastName, in.Nickname, in.URL, in.Description, in.Locale, in.Role, hash)
	u, err := scanUser(row)
	return u, uniqueErr(err)
}

func uniqueErr(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" {
		switch pe.ConstraintName {
		case "users_login_key":
			return ErrLoginTaken
		case "users_email_key":
			return ErrEmailTaken
		case "users_slug_key":
			return ErrSlugTaken
		}
	}
	return err
}

// UserByID returns the user with id.
func (s *Store) UserByID(ctx context.Context, id int64) (User, error) {
	return scanUser(s.pool.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE id = $1`, id))
}

// UserByLogin finds a user by login, case-insensitively.
func (s *Store) UserByLogin(ctx context.Context, login string) (User, error) {
	if !storable(login) {
		return User{}, ErrNotFound
	}
	return scanUser(s.pool.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE lower(login) = lower($1)`, login))
}

// UserByEmail finds a user by email, case-insensitively.
func (s *Store) UserByEmail(ctx context.Context, email string) (User, error) {
	if !storable(email) {
		return User{}, ErrNotFound
	}
	return scanUser(s.pool.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE lower(email) = lower($1)`, email))
}

// ListQuery filters ListUsers.
type ListQuery struct {
	Search string
	// SearchPublic limits Search to the columns anyone may see (login,
	// slug, display name): WordPress searches only ID, user_login,
	// user_nicename and display_name for callers without list_users, so
	// e-mail addresses and URLs are no oracle.
	SearchPublic bool
	// SearchColumns, when set, are the only columns Search looks in
	// (search_columns: id, username, slug, email, name).
	SearchColumns []string
	Include       []int64
	Exclude       []int64
	Roles         []string
	Slugs         []string
	OrderBy       string // id, name, registered_date, slug, email, url, include
	Desc          bool
	Offset        int
	Limit         int
}

// ListUsers returns one page of users and the total number of matches.
func (s *Store) ListUsers(ctx context.Context, q ListQuery) ([]User, int, error) {
	where := []string{"true"}
	args := []any{}
	arg := func(v any) string { args = append(args, v); return fmt.Sprintf("$%d", len(args)) }
	if q.Search != "" {
		p := arg("%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(strings.ToLower(q.Search)) + "%")
		if len(q.SearchColumns) > 0 {
			where = append(where, searchIn(q.SearchColumns, p, func() string { return arg(strings.ToLower(q.Search)) }))
		} else if q.SearchPublic {
			where = append(where, fmt.Sprintf("(lower(login) LIKE %[1]s OR lower(display_name) LIKE %[1]s OR lower(slug) LIKE %[1]s)", p))
		} else {
			where = append(where, fmt.Sprintf("(lower(login) LIKE %[1]s OR lower(email) LIKE %[1]s OR lower(display_name) LIKE %[1]s OR lower(slug) LIKE %[1]s OR lower(url) LIKE %[1]s)", p))
		}
	}
	if len(q.Include) > 0 {
		where = append(where, "id = ANY("+arg(q.Include)+")")
	}
	if len(q.Exclude) > 0 {
		where = append(where, "NOT (id = ANY("+arg(q.Exclude)+"))")
	}
	if len(q.Roles) > 0 {
		where = append(where, "role = ANY("+arg(q.Roles)+")")
	}
	if len(q.Slugs) > 0 {
		where = append(where, "slug = ANY("+arg(q.Slugs)+")")
	}
	cond := strings.Join(where, " AND ")
	var total int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM users WHERE `+cond, args...).Scan(&total); err != nil {
		return nil, 0, err
	}
	order := map[string]string{"id": "id", "name": "lower(display_name)", "registered_date": "registered_at",
		"slug": "slug", "email": "lower(email)", "url": "url", "username": "lower(login)"}[q.OrderBy]
	if q.OrderBy == "include" && len(q.Include) > 0 {
		order = "array_position(" + arg(q.Include) + "::bigint[], id)"
	}
	if order == "" {
		order = "lower(display_name)"
	}
	dir := "ASC"
	if q.Desc {
		dir = "DESC"
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 10
	}
	sql := fmt.Sprintf(`SELECT %s FROM users WHERE %s ORDER BY %s %s, id %s LIMIT %s OFFSET %s`,
		userColumns, cond, order, dir, dir, arg(limit), arg(q.Offset))
	rows, err := s.pool.Query(ctx, sql, args...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	var out []User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, 0, err
		}
		out = append(out, u)
	}
	return out, total, rows.Err()
}

// searchIn is the search condition over the named columns: like, or for
// the id an exact match (WordPress compares ID with =).
func searchIn(columns []string, like string, exact func() string) string {
	var ors []string
	for _, c := range columns {
		switch c {
		case "id":
			ors = append(ors, "id::text = "+exact())
		case "username", "slug", "email", "name":
			col := map[string]string{"username": "login", "slug": "slug", "email": "email", "name": "display_name"}[c]
			ors = append(ors, "lower("+col+") LIKE "+like)
		}
	}
	if ors == nil {
		return "false"
	}
	return "(" + strings.Join(ors, " OR ") + ")"
}

// UserPatch holds the fields to change; nil means unchanged.
type UserPatch struct {
	Email, Slug, DisplayName, FirstName, LastName, Nickname *string
	URL, Description, Locale, Role                          *string
	// Password replaces the login password (stored as argon2id). Changing
	// it ends the user's browser sessions.
	Password *string
}

// UpdateUser applies patch in one statement and returns the new row.
func (s *Store) UpdateUser(ctx context.Context, id int64, p UserPatch) (User, error) {
	defer s.changed()
	if p.Email != nil && !ValidEmail(*p.Email) {
		return User{}, ErrInvalidEmail
	}
	if p.Role != nil && !identity.Role(*p.Role).Valid() {
		return User{}, ErrInvalidRole
	}
	var hash *string
	if p.Password != nil {
		h, err := HashLoginPassword(*p.Password)
		if err != nil {
			return User{}, err
		}
		hash = &h
	}
	// One statement: the sessions of the user end when the password
	// changes, in the same transaction as the change.
	row := s.pool.QueryRow(ctx, `WITH ended AS (DELETE FROM sessions WHERE user_id = $1 AND $12::text IS NOT NULL)
		UPDATE users SET
		email = coalesce($2, email), slug = coalesce($3, slug), display_name = coalesce($4, display_name),
		first_name = coalesce($5, first_name), last_name = coalesce($6, last_name), nickname = coalesce($7, nickname),
		url = coalesce($8, url), description = coalesce($9, description), locale = coalesce($10, locale),
		role = coalesce($11, role), login_password = coalesce($12, login_password)
		WHERE id = $1 RETURNING `+userColumns,
		id, p.Email, p.Slug, p.DisplayName, p.FirstName, p.LastName, p.Nickname, p.URL, p.Description, p.Locale, p.Role, hash)
	u, err := scanUser(row)
	return u, uniqueErr(err)
}

// DeleteUser removes a user and its application passwords. Reassigning the
// user's content is the content service's business; the caller does it first.
func (s *Store) DeleteUser(ctx context.Context, id int64) (User, error) {
	defer s.changed()
	return scanUser(s.pool.QueryRow(ctx, `DELETE FROM users WHERE id = $1 RETURNING `+userColumns, id))
}

// storable reports whether s can be compared with stored text: PostgreSQL
// refuses NUL and invalid UTF-8 with an error, which must not turn a
// credential nobody has into a 5xx. No login or email holds either.
func storable(s string) bool {
	return strings.IndexByte(s, 0) < 0 && utf8.ValidString(s)
}
