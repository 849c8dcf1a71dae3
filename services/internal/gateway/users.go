package gateway

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/kses"
	"siteplane.dev/services/internal/platform/rest"
)

// The users routes of WordPress's WP_REST_Users_Controller, served from the
// gateway's identity store. Differences, by design:
//   - "password" on create and update sets the user's login password, used
//     only by the sign-in page (/cms-login.php) and stored as an argon2id
//     hash (accounts/loginpassword.go); the REST API itself accepts
//     application passwords, or the session cookie with a nonce. Changing
//     the password ends the user's browser sessions;
//   - "has published posts" is not known to the gateway, so users whose
//     role can write posts (contributor and up) are the publicly listed
//     authors; subscribers are visible only to list_users holders and to
//     themselves;
//   - DELETE checks "reassign" but does not move the user's content (the
//     content service owns it).

var (
	ctxAll  = []string{"embed", "view", "edit"}
	ctxEdit = []string{"edit"}
)

// userSchema is the item schema, in WordPress's field order.
var userSchema = &rest.Schema{
	SchemaURI: "http://json-schema.org/draft-04/schema#", Title: "user", Type: "object",
	Properties: rest.Props{
		{Name: "id", Schema: &rest.Schema{Description: "Unique identifier for the user.", Type: "integer", Context: ctxAll, Readonly: true}},
		{Name: "username", Schema: &rest.Schema{Description: "Login name for the user.", Type: "string", Context: ctxEdit, Required: true}},
		{Name: "name", Schema: &rest.Schema{Description: "Display name for the user.", Type: "string", Context: ctxAll}},
		{Name: "first_name", Schema: &rest.Schema{Description: "First name for the user.", Type: "string", Context: ctxEdit}},
		{Name: "last_name", Schema: &rest.Schema{Description: "Last name for the user.", Type: "string", Context: ctxEdit}},
		{Name: "email", Schema: &rest.Schema{Description: "The email address for the user.", Type: "string", Format: "email", Context: ctxEdit, Required: true}},
		{Name: "url", Schema: &rest.Schema{Description: "URL of the user.", Type: "string", Format: "uri", Context: ctxAll}},
		{Name: "description", Schema: &rest.Schema{Description: "Description of the user.", Type: "string", Context: ctxAll}},
		{Name: "link", Schema: &rest.Schema{Description: "Author URL of the user.", Type: "string", Format: "uri", Context: ctxAll, Readonly: true}},
		{Name: "locale", Schema: &rest.Schema{Description: "Locale for the user.", Type: "string", Enum: []any{"", "en_US"}, Context: ctxEdit}},
		{Name: "nickname", Schema: &rest.Schema{Description: "The nickname for the user.", Type: "string", Context: ctxEdit}},
		{Name: "slug", Schema: &rest.Schema{Description: "An alphanumeric identifier for the user.", Type: "string", Context: ctxAll}},
		{Name: "registered_date", Schema: &rest.Schema{Description: "Registration date for the user.", Type: "string", Format: "date-time", Context: ctxEdit, Readonly: true}},
		{Name: "roles", Schema: &rest.Schema{Description: "Roles assigned to the user.", Type: "array", Items: &rest.Schema{Type: "string"}, Context: ctxEdit}},
		{Name: "password", Schema: &rest.Schema{Description: "Password for the user (never included).", Type: "string", Context: []string{}, Required: true}},
		{Name: "capabilities", Schema: &rest.Schema{Description: "All capabilities assigned to the user.", Type: "object", Context: ctxEdit, Readonly: true}},
		{Name: "extra_capabilities", Schema: &rest.Schema{Description: "Any extra capabilities assigned to the user.", Type: "object", Context: ctxEdit, Readonly: true}},
		{Name: "avatar_urls", Schema: &rest.Schema{Description: "Avatar URLs for the user.", Type: "object", Context: ctxAll, Readonly: true}},
		{Name: "meta", Schema: &rest.Schema{Description: "Meta fields.", Type: "object", Context: []string{"view", "edit"},
			Properties: rest.Props{{Name: "persisted_preferences", Schema: &rest.Schema{Type: "object", Context: ctxEdit,
				Description: "Preferences the block editor persists for the user."}}}}},
	},
}

// userItem renders a user with every field; the kit filters by context.
func (g *Gateway) userItem(r *rest.Request, u accounts.User) rest.Item {
	caps := rest.Object{}
	for _, c := range capabilityList(u.Role) {
		caps = append(caps, rest.Member{Key: c, Value: true})
	}
	caps = append(caps, rest.Member{Key: string(u.Role), Value: true})
	sum := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(u.Email))))
	hash := hex.EncodeToString(sum[:])
	avatars := rest.Object{}
	for _, s := range []string{"24", "48", "96"} {
		avatars = append(avatars, rest.Member{Key: s, Value: "https://secure.gravatar.com/avatar/" + hash + "?s=" + s + "&d=mm&r=g"})
	}
	data := rest.Object{
		{Key: "id", Value: u.ID},
		{Key: "username", Value: u.Login},
		{Key: "name", Value: u.DisplayName},
		{Key: "first_name", Value: u.FirstName},
		{Key: "last_name", Value: u.LastName},
		{Key: "email", Value: u.Email},
		{Key: "url", Value: u.URL},
		{Key: "description", Value: u.Description},
		{Key: "link", Value: g.cfg.Site.URL + "/author/" + u.Slug + "/"},
		{Key: "locale", Value: localeOf(u)},
		{Key: "nickname", Value: u.Nickname},
		{Key: "slug", Value: u.Slug},
		{Key: "registered_date", Value: u.Registered.UTC().Format("2006-01-02T15:04:05+00:00")},
		{Key: "roles", Value: []string{string(u.Role)}},
		{Key: "capabilities", Value: caps},
		{Key: "extra_capabilities", Value: rest.Object{{Key: string(u.Role), Value: true}}},
		{Key: "avatar_urls", Value: avatars},
		// WordPress registers persisted_preferences (edit context only);
		// [] for none, the stored ones added by userItemWithPreferences
		{Key: "meta", Value: rest.Object{{Key: "persisted_preferences", Value: []any{}}}},
	}
	return rest.Item{Data: data, Links: rest.Links{
		{Rel: "self", Href: r.URL(fmt.Sprintf("%s/%d", usersRoutePrefix, u.ID))},
		{Rel: "collection", Href: r.URL(usersRoutePrefix)},
	}}
}

func localeOf(u accounts.User) string {
	if u.Locale == "" {
		return "en_US"
	}
	return u.Locale
}

// capabilityList is the role's primitive capabilities, from the one
// capability table every service checks (identity's capabilities.json).
func capabilityList(role identity.Role) []string { return role.Capabilities() }

// publiclyVisible reports whether anyone may see the user (see the package
// comment above: contributors and up stand for "has published posts").
func publiclyVisible(u accounts.User) bool { return u.Role.Can("edit_posts") }

func callerID(r *rest.Request) identity.Identity {
	return identity.FromContext(r.Context())
}

var (
	errUserInvalidID = func() *rest.Error {
		return rest.NewError("rest_user_invalid_id", "Invalid user ID.", http.StatusNotFound)
	}
	errNotLoggedIn = func() *rest.Error {
		return rest.NewError("rest_not_logged_in", "You are not currently logged in.", http.StatusUnauthorized)
	}
)

// targetUser resolves the {id} (or "me") of the route.
func (g *Gateway) targetUser(r *rest.Request, param string) (accounts.User, *rest.Error) {
	raw := r.URLParams[param]
	var id int64
	if raw == "me" || (raw == "" && strings.HasSuffix(strings.ToLower(r.Route), "/users/me")) {
		c := callerID(r)
		if !c.LoggedIn() {
			return accounts.User{}, errNotLoggedIn()
		}
		id = c.UserID
	} else {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil || n <= 0 {
			return accounts.User{}, errUserInvalidID()
		}
		id = n
	}
	u, err := g.cfg.Store.UserByID(r.Context(), id)
	if errors.Is(err, accounts.ErrNotFound) {
		return accounts.User{}, errUserInvalidID()
	}
	if err != nil {
		return accounts.User{}, storeFailure(err)
	}
	return u, nil
}

func storeFailure(err error) *rest.Error {
	return rest.StoreError(err, rest.NewError("rest_db_error", "The identity store is unavailable.", http.StatusInternalServerError))
}

// userWriteError maps store validation errors to WordPress's codes.
func userWriteError(err error) error {
	switch {
	case errors.Is(err, accounts.ErrLoginTaken):
		return rest.NewError("existing_user_login", "Sorry, that username already exists!", http.StatusBadRequest)
	case errors.Is(err, accounts.ErrEmailTaken):
		return rest.NewError("existing_user_email", "Sorry, that email address is already used!", http.StatusBadRequest)
	case errors.Is(err, accounts.ErrSlugTaken):
		return rest.NewError("rest_user_invalid_slug", "The slug is already in use by another user.", http.StatusBadRequest)
	case errors.Is(err, accounts.ErrInvalidLogin):
		return rest.NewError("rest_user_invalid_username", "This username is invalid because it uses illegal characters. Please enter a valid username.", http.StatusBadRequest)
	case errors.Is(err, accounts.ErrInvalidEmail):
		return rest.NewError("rest_invalid_param", "Invalid parameter(s): email", http.StatusBadRequest)
	case errors.Is(err, accounts.ErrInvalidRole):
		return rest.NewError("rest_user_invalid_role", "The role is invalid.", http.StatusBadRequest)
	case errors.Is(err, accounts.ErrNotFound):
		return errUserInvalidID()
	case errors.Is(err, accounts.ErrPasswordEmpty):
		return rest.NewError("rest_user_invalid_password", "Passwords cannot be empty.", http.StatusBadRequest)
	case errors.Is(err, accounts.ErrPasswordBackslash):
		return rest.NewError("rest_user_invalid_password", `Passwords cannot contain the "\" character.`, http.StatusBadRequest)
	case errors.Is(err, accounts.ErrPasswordTooLong):
		return rest.NewError("rest_user_invalid_password", fmt.Sprintf("Passwords cannot be longer than %d bytes.", accounts.MaxLoginPasswordBytes), http.StatusBadRequest)
	}
	return err
}

func (g *Gateway) usersRoutes() []rest.Route {
	item := userSchema
	listArgs := append(rest.CollectionArgs(item),
		rest.Prop{Name: "exclude", Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "integer"}, Default: []any{}}},
		rest.Prop{Name: "include", Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "integer"}, Default: []any{}}},
		rest.Prop{Name: "offset", Schema: &rest.Schema{Type: "integer", Minimum: rest.Ptr(0.0)}},
		rest.Prop{Name: "order", Schema: &rest.Schema{Type: "string", Default: "asc", Enum: []any{"asc", "desc"}}},
		rest.Prop{Name: "orderby", Schema: &rest.Schema{Type: "string", Default: "name", Enum: []any{"id", "include", "name", "registered_date", "slug", "include_slugs", "email", "url"}}},
		rest.Prop{Name: "slug", Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "string"}}},
		rest.Prop{Name: "roles", Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "string"}}},
		rest.Prop{Name: "capabilities", Schema: &rest.Schema{Type: "array", Items: &rest.Schema{Type: "string"}}},
		rest.Prop{Name: "who", Schema: &rest.Schema{Type: "string", Enum: []any{"authors"}}},
		rest.Prop{Name: "has_published_posts", Schema: &rest.Schema{Types: []string{"boolean", "array"},
			Items: &rest.Schema{Type: "string", Enum: publishedPostTypes}}},
		rest.Prop{Name: "search_columns", Schema: &rest.Schema{Type: "array", Default: []any{},
			Items: &rest.Schema{Type: "string", Enum: []any{"email", "name", "id", "username", "slug"}}}},
	)
	updateArgs := rest.ArgsFromSchema(item, false)
	deleteArgs := rest.Props{
		{Name: "force", Schema: &rest.Schema{Type: "boolean", Default: false, Description: "Required to be true, as users do not support trashing."}},
		{Name: "reassign", Schema: &rest.Schema{Type: "integer", Required: true, Description: "Reassign the deleted user's posts and links to this user ID.",
			Validate: acceptAny, Sanitize: checkReassign}},
	}
	readArgs := rest.Props{{Name: "context", Schema: rest.ContextArg(item, "view")}}
	// /users/{id} declares its id for every method, as WordPress's
	// route-level args; /users/me has none.
	single := []rest.Endpoint{
		{Methods: rest.Readable, Args: withUserID(readArgs), Permission: g.canViewUser, Handler: g.getUser},
		{Methods: rest.Editable, Args: withUserID(updateArgs), Permission: g.canEditUser, Handler: g.updateUser},
		{Methods: rest.Deletable, Args: withUserID(deleteArgs), Permission: g.canDeleteUser, Handler: g.deleteUser},
	}
	// /users/me's GET has no permission check in WordPress
	// (__return_true): its handler answers rest_not_logged_in, so an
	// anonymous caller still gets "Allow: GET".
	me := []rest.Endpoint{
		{Methods: rest.Readable, Args: readArgs, Handler: g.getUser},
		{Methods: rest.Editable, Args: updateArgs, Permission: g.canEditUser, Handler: g.updateUser},
		{Methods: rest.Deletable, Args: deleteArgs, Permission: g.canDeleteUser, Handler: g.deleteUser},
	}
	// /users and /users/{id} are batchable as in WordPress (allow_batch v1);
	// /users/me is not.
	batch := &rest.Batch{V1: true}
	return []rest.Route{
		{Namespace: "cms/v2", Path: "/users", Schema: item, AllowBatch: batch, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: listArgs, Permission: g.canListUsers, Handler: g.listUsers},
			{Methods: rest.Creatable, Args: rest.ArgsFromSchema(item, true), Permission: g.canCreateUser, Handler: g.createUser},
		}},
		{Namespace: "cms/v2", Path: `/users/(?P<id>[\d]+)`, Schema: item, AllowBatch: batch, Endpoints: single},
		{Namespace: "cms/v2", Path: "/users/me", Schema: item, Endpoints: me},
	}
}

// canListUsers keeps get_items_permissions_check's order: the role and
// capability filters, then the edit context, then the order.
func (g *Gateway) canListUsers(r *rest.Request) error {
	c := callerID(r)
	if len(r.Strings("roles")) > 0 && !c.Can("list_users") {
		return rest.Denied(r, "rest_user_cannot_view", "Sorry, you are not allowed to filter users by role.")
	}
	if len(r.Strings("capabilities")) > 0 && !c.Can("list_users") {
		return rest.Denied(r, "rest_user_cannot_view", "Sorry, you are not allowed to filter users by capability.")
	}
	if r.ViewContext() == "edit" && !c.Can("list_users") {
		return rest.Denied(r, "rest_forbidden_context", "Sorry, you are not allowed to edit users.")
	}
	switch r.String("orderby") {
	case "email", "registered_date":
		if !c.Can("list_users") {
			return rest.Denied(r, "rest_forbidden_orderby", "Sorry, you are not allowed to order users by this parameter.")
		}
	}
	return nil
}

func (g *Gateway) listUsers(r *rest.Request) (*rest.Response, error) {
	c := callerID(r)
	perPage, page := int(r.Int("per_page")), int(r.Int("page"))
	q := accounts.ListQuery{Search: r.String("search"), Include: r.Ints("include"), Exclude: r.Ints("exclude"),
		Slugs: r.Strings("slug"), Roles: r.Strings("roles"), OrderBy: r.String("orderby"), Desc: r.String("order") == "desc",
		Limit: perPage, Offset: rest.Offset(page, perPage)}
	if r.Has("offset") {
		q.Offset = int(r.Int("offset"))
	}
	q.SearchPublic = !c.Can("list_users")
	if r.String("who") == "authors" || !c.Can("list_users") || publishedPostsFilter(r) {
		q.Roles = intersectRoles(q.Roles, []string{"administrator", "editor", "author", "contributor"})
	}
	if caps := r.Strings("capabilities"); len(caps) > 0 {
		q.Roles = intersectRoles(q.Roles, rolesWithCapabilities(caps))
	}
	q.SearchColumns = searchColumns(r, c.Can("list_users"))
	users, total, err := g.cfg.Store.ListUsers(r.Context(), q)
	if err != nil {
		return nil, storeFailure(err)
	}
	items := make([]rest.Item, 0, len(users))
	for _, u := range users {
		items = append(items, g.userItem(r, u))
	}
	resp := rest.OK(items)
	// A page past the last answers 200 [] with the headers: WordPress 6.9's
	// users controller has no invalid-page error (unlike posts').
	rest.Paginate(r, resp, int64(total), page, perPage)
	return resp, nil
}

func intersectRoles(asked, allowed []string) []string {
	if len(asked) == 0 {
		return allowed
	}
	var out []string
	for _, a := range asked {
		if slices.Contains(allowed, a) {
			out = append(out, a)
		}
	}
	if out == nil {
		return []string{"-none-"}
	}
	return out
}

func (g *Gateway) canViewUser(r *rest.Request) error {
	u, err := g.targetUser(r, "id")
	if err != nil {
		return err
	}
	c := callerID(r)
	if c.UserID == u.ID {
		return nil
	}
	// WordPress asks edit_user for the edit context before list_users
	// for the rest (get_item_permissions_check).
	if r.ViewContext() == "edit" && !c.Can("edit_users") {
		return rest.Denied(r, "rest_forbidden_context", "Sorry, you are not allowed to edit this user.")
	}
	if !c.Can("edit_users") && !c.Can("list_users") && !publiclyVisible(u) {
		return rest.Denied(r, "rest_user_cannot_view", "Sorry, you are not allowed to list users.")
	}
	return nil
}

func (g *Gateway) getUser(r *rest.Request) (*rest.Response, error) {
	u, err := g.targetUser(r, "id")
	if err != nil {
		return nil, err
	}
	it, perr := g.userItemWithPreferences(r, u)
	if perr != nil {
		return nil, perr
	}
	return rest.OK(it), nil
}

func (g *Gateway) canCreateUser(r *rest.Request) error {
	if !callerID(r).Can("create_users") {
		return rest.Denied(r, "rest_cannot_create_user", "Sorry, you are not allowed to create new users.")
	}
	return nil
}

func roleParam(r *rest.Request) (*string, error) {
	if !r.Has("roles") {
		return nil, nil
	}
	roles := r.Strings("roles")
	if len(roles) != 1 || !identity.Role(roles[0]).Valid() {
		return nil, rest.NewError("rest_user_invalid_role", "The role is invalid.", http.StatusBadRequest)
	}
	return &roles[0], nil
}

func (g *Gateway) createUser(r *rest.Request) (*rest.Response, error) {
	if r.InBody("id") {
		return nil, rest.NewError("rest_user_exists", "Cannot create existing user.", http.StatusBadRequest)
	}
	role, err := roleParam(r)
	if err != nil {
		return nil, err
	}
	in := accounts.NewUser{Login: r.String("username"), Email: r.String("email"), Role: "subscriber",
		DisplayName: profileText(r, "name"), FirstName: profileText(r, "first_name"), LastName: profileText(r, "last_name"),
		Nickname: profileText(r, "nickname"), Slug: r.String("slug"), URL: r.String("url"), Description: profileText(r, "description"),
		Locale: r.String("locale"), Password: r.String("password")}
	if role != nil {
		in.Role = *role
	}
	if r.Has("password") && in.Password == "" {
		return nil, userWriteError(accounts.ErrPasswordEmpty)
	}
	u, cerr := g.cfg.Store.CreateUser(r.Context(), in)
	if cerr != nil {
		return nil, userWriteError(cerr)
	}
	r.Set("context", "edit")
	return rest.Created(r, fmt.Sprintf("%s/%d", usersRoutePrefix, u.ID), g.userItem(r, u)), nil
}

func (g *Gateway) canEditUser(r *rest.Request) error {
	u, err := g.targetUser(r, "id")
	if err != nil {
		return err
	}
	c := callerID(r)
	if c.UserID != u.ID && !c.Can("edit_users") {
		return rest.Denied(r, "rest_cannot_edit", "Sorry, you are not allowed to edit this user.")
	}
	if r.Has("roles") && !c.Can("promote_users") {
		return rest.Denied(r, "rest_cannot_edit_roles", "Sorry, you are not allowed to edit roles of this user.")
	}
	return nil
}

func (g *Gateway) updateUser(r *rest.Request) (*rest.Response, error) {
	u, err := g.targetUser(r, "id")
	if err != nil {
		return nil, err
	}
	if r.Has("username") && r.String("username") != u.Login {
		return nil, rest.NewError("rest_user_invalid_argument", "Username is not editable.", http.StatusBadRequest)
	}
	role, rerr := roleParam(r)
	if rerr != nil {
		return nil, rerr
	}
	if role != nil && u.ID == callerID(r).UserID && *role != string(u.Role) && !identity.Role(*role).Can("promote_users") {
		return nil, rest.NewError("rest_user_invalid_role", "Sorry, you are not allowed to give users that role.", http.StatusForbidden)
	}
	opt := func(name string) *string {
		if !r.Has(name) {
			return nil
		}
		s := r.String(name)
		return &s
	}
	text := func(name string) *string {
		if !r.Has(name) {
			return nil
		}
		s := profileText(r, name)
		return &s
	}
	p := accounts.UserPatch{Email: opt("email"), Slug: opt("slug"), DisplayName: text("name"), FirstName: text("first_name"),
		LastName: text("last_name"), Nickname: text("nickname"), URL: opt("url"), Description: text("description"),
		Locale: opt("locale"), Role: role, Password: opt("password")}
	nu, uerr := g.cfg.Store.UpdateUser(r.Context(), u.ID, p)
	if uerr != nil {
		return nil, userWriteError(uerr)
	}
	if err := g.storePreferences(r, nu); err != nil {
		return nil, err
	}
	r.Set("context", "edit")
	it, perr := g.userItemWithPreferences(r, nu)
	if perr != nil {
		return nil, perr
	}
	return rest.OK(it), nil
}

func (g *Gateway) canDeleteUser(r *rest.Request) error {
	if _, err := g.targetUser(r, "id"); err != nil {
		return err
	}
	if !callerID(r).Can("delete_users") {
		return rest.Denied(r, "rest_user_cannot_delete", "Sorry, you are not allowed to delete this user.")
	}
	return nil
}

func (g *Gateway) deleteUser(r *rest.Request) (*rest.Response, error) {
	u, err := g.targetUser(r, "id")
	if err != nil {
		return nil, err
	}
	if !r.Bool("force") {
		return nil, rest.NewError("rest_trash_not_supported", "Users do not support trashing. Set 'force=true' to delete.", http.StatusNotImplemented)
	}
	reassign := r.Int("reassign")
	if reassign == u.ID {
		return nil, rest.NewError("rest_user_invalid_reassign", "Invalid user ID for reassignment.", http.StatusBadRequest)
	}
	if reassign != 0 {
		if _, err := g.cfg.Store.UserByID(r.Context(), reassign); err != nil {
			return nil, rest.NewError("rest_user_invalid_reassign", "Invalid user ID for reassignment.", http.StatusBadRequest)
		}
	}
	r.Set("context", "edit")
	previous := g.userItem(r, u)
	if _, err := g.cfg.Store.DeleteUser(r.Context(), u.ID); err != nil {
		return nil, userWriteError(err)
	}
	return rest.OK(rest.Object{{Key: "deleted", Value: true}, {Key: "previous", Value: previous}}), nil
}

// profileText is a profile field as WordPress stores it, whoever writes:
// the names (name, first_name, last_name, nickname) without any tag
// (pre_user_display_name and friends), the description filtered to kses's
// data allowlist (pre_user_description). A <b onclick> in a display name
// never reaches the pages and bylines that show it.
func profileText(r *rest.Request, name string) string {
	if name == "description" {
		return kses.Filter(r.String(name), kses.Data)
	}
	return kses.Text(r.String(name))
}
