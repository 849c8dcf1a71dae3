package postgres

import (
	"errors"
	"regexp"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// urlSecret matches the password of "scheme://user:password@"; kvSecret the
// value of password=... in keyword/value DSNs.
var (
	urlSecret = regexp.MustCompile(`(://[^:/@\s]*:)[^@\s]*@`)
	kvSecret  = regexp.MustCompile(`(?i)(password=)('[^']*'|\S+)`)
)

// redact keeps a server error (it never holds the DSN) and rewrites any other
// error's text without the password, since pgconn's connection errors quote
// the connection string.
func redact(err error) error {
	var pgErr *pgconn.PgError
	if err == nil || errors.As(err, &pgErr) {
		return err
	}
	return errors.New(RedactDSN(err.Error()))
}

// RedactDSN hides passwords in a DSN or in a text that quotes one.
func RedactDSN(s string) string {
	s = urlSecret.ReplaceAllString(s, "${1}[redacted]@")
	s = kvSecret.ReplaceAllString(s, "${1}[redacted]")
	return strings.TrimSpace(s)
}
