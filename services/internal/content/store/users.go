package store

import "context"

// User is a user as content shows one: a name, the slug of the author
// archive (/author/{slug}/), and the role, which decides whether the
// website and feeds filter the user's posts when they render them.
type User struct {
	ID   int64  `json:"id"`
	Name string `json:"name"`
	Slug string `json:"slug"`
	Role string `json:"role,omitempty"`
}

// Users looks users up. Users belong to the gateway, so this is the seam to
// another service, not to a database: content.GatewayUsers asks the
// gateway's internal lookup, FixedUsers accepts a known set (tests, and runs
// without a gateway). The REST handlers check author ids (Exists) and name
// template and comment authors (User); the website names post authors and
// finds author archives (User, UserBySlug).
type Users interface {
	// Exists tells whether user id exists.
	Exists(ctx context.Context, id int64) (bool, error)
	// User reads user id; found is false when there is none.
	User(ctx context.Context, id int64) (u User, found bool, err error)
	// UserBySlug finds the user whose author archive is /author/{slug}/.
	UserBySlug(ctx context.Context, slug string) (u User, found bool, err error)
}

// FixedUsers accepts exactly the ids it holds and knows no names or slugs:
// templates then have an "Unknown author", and the website shows no author
// names and has no author archives.
type FixedUsers map[int64]bool

// Exists implements Users.
func (f FixedUsers) Exists(_ context.Context, id int64) (bool, error) { return f[id], nil }

// User implements Users: the id alone, when it is held.
func (f FixedUsers) User(_ context.Context, id int64) (User, bool, error) {
	if !f[id] {
		return User{}, false, nil
	}
	return User{ID: id}, true, nil
}

// UserBySlug implements Users: no user has a slug.
func (FixedUsers) UserBySlug(context.Context, string) (User, bool, error) { return User{}, false, nil }
