package content

import "context"

// userNamer is a Users that also knows display names: templates show their
// author's name as author_text ("Unknown author" without it), and a comment
// by a logged-in user carries it as author_name, as wp_new_comment fills it.
type userNamer interface {
	DisplayName(ctx context.Context, id int64) (string, error)
}

// DisplayName reads the user's name from the gateway's user lookup; "" when
// the user does not exist.
func (g GatewayUsers) DisplayName(ctx context.Context, id int64) (string, error) {
	u, _, err := g.lookupUser(ctx, userPath(id))
	return u.Name, err
}
