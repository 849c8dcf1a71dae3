package content

import (
	"context"
)

// commentAuthorName is the display name of a comment's user author, when
// the user source knows names ("" otherwise, or when the lookup fails: the
// name is a convenience, not a reason to refuse the comment).
func (s *Service) commentAuthorName(ctx context.Context, id int64) string {
	if id == 0 {
		return ""
	}
	u, _, err := s.users.User(ctx, id)
	if err != nil {
		return ""
	}
	return u.Name
}
