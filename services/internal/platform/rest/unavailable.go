package rest

import (
	"errors"
	"net/http"

	"siteplane.dev/services/internal/platform/postgres"
)

// Answers to a database that cannot serve right now. Both are 503: the
// request was not wrong and may succeed when repeated. The platform server
// adds Retry-After to every 503 (httpserver).
const (
	CodeUnavailable   = "rest_database_unavailable"
	CodeCommitUnknown = "rest_commit_unknown"
	msgUnavailable    = "The database is temporarily unavailable. Try again shortly."
	msgCommitUnknown  = "The database connection broke while the change was being committed: it may or may not have been saved. " +
		"Retry with the same Idempotency-Key header, or check before retrying."
)

// DatabaseUnavailable is the 503 of a database that cannot be reached, is
// restarting, or did not answer within its timeouts.
func DatabaseUnavailable() *Error {
	return NewError(CodeUnavailable, msgUnavailable, http.StatusServiceUnavailable)
}

// CommitUnknown is the 503 of a write whose COMMIT may or may not have
// taken effect (postgres.ErrCommitUnknown).
func CommitUnknown() *Error {
	return NewError(CodeCommitUnknown, msgCommitUnknown, http.StatusServiceUnavailable)
}

// FromUnavailable returns the 503 error for err when err means the database
// could not serve (postgres.Unavailable), else nil.
func FromUnavailable(err error) *Error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, postgres.ErrCommitUnknown):
		return CommitUnknown()
	case postgres.Unavailable(err):
		return DatabaseUnavailable()
	}
	return nil
}

// StoreError is the answer to a failed store call: the 503 of FromUnavailable
// when the database could not serve, else fallback (a 500 naming what failed).
func StoreError(err error, fallback *Error) *Error {
	if e := FromUnavailable(err); e != nil {
		return e
	}
	return fallback
}
