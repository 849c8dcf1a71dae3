package gateway

import (
	"errors"
	"fmt"
	"net/http"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/platform/rest"
)

// The application-passwords routes of WordPress
// (WP_REST_Application_Passwords_Controller). Introspection of the password
// used by the current request is not implemented.

var appPasswordSchema = &rest.Schema{
	SchemaURI: "http://json-schema.org/draft-04/schema#", Title: "application-password", Type: "object",
	Properties: rest.Props{
		{Name: "uuid", Schema: &rest.Schema{Description: "The unique identifier for the application password.", Type: "string", Format: "uuid", Context: []string{"view", "edit", "embed"}, Readonly: true}},
		{Name: "app_id", Schema: &rest.Schema{Description: "A UUID provided by the application to uniquely identify it.", Type: "string", Format: "uuid", Context: []string{"view", "edit", "embed"}}},
		{Name: "name", Schema: &rest.Schema{Description: "The name of the application password.", Type: "string", MinLength: rest.Ptr(1), Pattern: `.*\S.*`, Context: []string{"view", "edit", "embed"}, Required: true}},
		{Name: "password", Schema: &rest.Schema{Description: "The generated password. Only available after adding an application.", Type: "string", Context: []string{"edit"}, Readonly: true}},
		{Name: "created", Schema: &rest.Schema{Description: "The GMT date the application password was created.", Type: "string", Format: "date-time", Context: []string{"view", "edit"}, Readonly: true}},
		{Name: "last_used", Schema: &rest.Schema{Description: "The GMT date the application password was last used.", Types: []string{"string", "null"}, Format: "date-time", Context: []string{"view", "edit"}, Readonly: true}},
		{Name: "last_ip", Schema: &rest.Schema{Description: "The IP address the application password was last used by.", Types: []string{"string", "null"}, Format: "ip", Context: []string{"view", "edit"}, Readonly: true}},
	},
}

func (g *Gateway) appPasswordItem(r *rest.Request, userID int64, a accounts.AppPassword, password string) rest.Item {
	data := rest.Object{{Key: "uuid", Value: a.UUID}, {Key: "app_id", Value: a.AppID}, {Key: "name", Value: a.Name}}
	if password != "" {
		data = append(data, rest.Member{Key: "password", Value: password})
	}
	var lastUsed, lastIP any
	if a.LastUsed != nil {
		lastUsed = a.LastUsed.UTC().Format("2006-01-02T15:04:05")
	}
	if a.LastIP != nil {
		lastIP = *a.LastIP
	}
	data = append(data, rest.Member{Key: "created", Value: a.Created.UTC().Format("2006-01-02T15:04:05")},
		rest.Member{Key: "last_used", Value: lastUsed}, rest.Member{Key: "last_ip", Value: lastIP})
	return rest.Item{Data: data, Links: rest.Links{
		{Rel: "self", Href: r.URL(fmt.Sprintf("%s/%d/application-passwords/%s", usersRoutePrefix, userID, a.UUID))},
	}}
}

func (g *Gateway) appPasswordRoutes() []rest.Route {
	item := appPasswordSchema
	ctx := rest.Props{{Name: "context", Schema: rest.ContextArg(item, "view")}}
	base := `/users/(?P<user_id>(?:[\d]+|me))/application-passwords`
	// ep is an endpoint the owner, or an administrator, may use.
	ep := func(methods []string, args rest.Props, code, message string, h rest.HandlerFunc) rest.Endpoint {
		return rest.Endpoint{Methods: methods, Args: args, Permission: g.apPermission(code, message), Handler: h}
	}
	return []rest.Route{
		{Namespace: "cms/v2", Path: base, Schema: item, Endpoints: []rest.Endpoint{
			ep(rest.Readable, ctx, "rest_cannot_list_application_passwords", "Sorry, you are not allowed to list application passwords for this user.", g.listAppPasswords),
			ep(rest.Creatable, rest.ArgsFromSchema(item, true), "rest_cannot_create_application_passwords", "Sorry, you are not allowed to create application passwords for this user.", g.createAppPassword),
			ep(rest.Deletable, nil, "rest_cannot_delete_application_passwords", "Sorry, you are not allowed to delete application passwords for this user.", g.deleteAppPasswords),
		}},
		// Before the uuid route, whose pattern "introspect" also matches.
		{Namespace: "cms/v2", Path: base + "/introspect", Schema: item, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: ctx, Permission: g.canIntrospect, Handler: g.introspectAppPassword},
		}},
		{Namespace: "cms/v2", Path: base + `/(?P<uuid>[\w\-]+)`, Schema: item, Endpoints: []rest.Endpoint{
			ep(rest.Readable, ctx, "rest_cannot_read_application_password", "Sorry, you are not allowed to read this application password.", g.getAppPassword),
			ep(rest.Editable, rest.ArgsFromSchema(item, false), "rest_cannot_edit_application_password", "Sorry, you are not allowed to edit this application password.", g.updateAppPassword),
			ep(rest.Deletable, nil, "rest_cannot_delete_application_password", "Sorry, you are not allowed to delete this application password.", g.deleteAppPassword),
		}},
	}
}

// apPermission: a user manages their own application passwords;
// administrators (edit_users) manage anyone's.
func (g *Gateway) apPermission(code, message string) func(*rest.Request) error {
	return func(r *rest.Request) error {
		u, err := g.targetUser(r, "user_id")
		if err != nil {
			return err
		}
		c := callerID(r)
		if c.UserID != u.ID && !c.Can("edit_users") {
			return rest.Denied(r, code, message)
		}
		return nil
	}
}

func (g *Gateway) listAppPasswords(r *rest.Request) (*rest.Response, error) {
	u, err := g.targetUser(r, "user_id")
	if err != nil {
		return nil, err
	}
	list, lerr := g.cfg.Store.ListPasswords(r.Context(), u.ID)
	if lerr != nil {
		return nil, storeFailure(lerr)
	}
	items := make([]rest.Item, 0, len(list))
	for _, a := range list {
		items = append(items, g.appPasswordItem(r, u.ID, a, ""))
	}
	return rest.OK(items), nil
}

func (g *Gateway) createAppPassword(r *rest.Request) (*rest.Response, error) {
	u, err := g.targetUser(r, "user_id")
	if err != nil {
		return nil, err
	}
	plain, a, cerr := g.cfg.Store.CreatePassword(r.Context(), u.ID, r.String("name"), r.String("app_id"))
	if errors.Is(cerr, accounts.ErrInvalidName) {
		return nil, rest.NewError("application_password_empty_name", "An application name is required to create an application password.", http.StatusBadRequest)
	}
	if cerr != nil {
		return nil, storeFailure(cerr)
	}
	r.Set("context", "edit")
	return rest.Created(r, fmt.Sprintf("%s/%d/application-passwords/%s", usersRoutePrefix, u.ID, a.UUID), g.appPasswordItem(r, u.ID, a, plain)), nil
}

func (g *Gateway) deleteAppPasswords(r *rest.Request) (*rest.Response, error) {
	u, err := g.targetUser(r, "user_id")
	if err != nil {
		return nil, err
	}
	n, derr := g.cfg.Store.DeleteAllPasswords(r.Context(), u.ID)
	if derr != nil {
		return nil, storeFailure(derr)
	}
	return rest.OK(rest.Object{{Key: "deleted", Value: true}, {Key: "count", Value: n}}), nil
}

func (g *Gateway) findAppPassword(r *rest.Request) (accounts.User, accounts.AppPassword, error) {
	u, err := g.targetUser(r, "user_id")
	if err != nil {
		return u, accounts.AppPassword{}, err
	}
	a, gerr := g.cfg.Store.GetPassword(r.Context(), u.ID, r.URLParams["uuid"])
	if errors.Is(gerr, accounts.ErrNotFound) {
		return u, a, rest.NewError("rest_application_password_not_found", "Application password not found.", http.StatusNotFound)
	}
	if gerr != nil {
		return u, a, storeFailure(gerr)
	}
	return u, a, nil
}

func (g *Gateway) getAppPassword(r *rest.Request) (*rest.Response, error) {
	u, a, err := g.findAppPassword(r)
	if err != nil {
		return nil, err
	}
	return rest.OK(g.appPasswordItem(r, u.ID, a, "")), nil
}

func (g *Gateway) updateAppPassword(r *rest.Request) (*rest.Response, error) {
	u, a, err := g.findAppPassword(r)
	if err != nil {
		return nil, err
	}
	if r.Has("name") {
		a, err = g.cfg.Store.RenamePassword(r.Context(), u.ID, a.UUID, r.String("name"))
		if errors.Is(err, accounts.ErrInvalidName) {
			return nil, rest.NewError("application_password_empty_name", "An application name is required to create an application password.", http.StatusBadRequest)
		}
		if err != nil {
			return nil, storeFailure(err)
		}
	}
	r.Set("context", "edit")
	return rest.OK(g.appPasswordItem(r, u.ID, a, "")), nil
}

func (g *Gateway) deleteAppPassword(r *rest.Request) (*rest.Response, error) {
	u, a, err := g.findAppPassword(r)
	if err != nil {
		return nil, err
	}
	r.Set("context", "edit")
	previous := g.appPasswordItem(r, u.ID, a, "")
	if _, err := g.cfg.Store.DeletePassword(r.Context(), u.ID, a.UUID); err != nil {
		return nil, storeFailure(err)
	}
	return rest.OK(rest.Object{{Key: "deleted", Value: true}, {Key: "previous", Value: previous}}), nil
}

func (g *Gateway) canIntrospect(r *rest.Request) error {
	u, err := g.targetUser(r, "user_id")
	if err != nil {
		return err
	}
	if callerID(r).UserID != u.ID {
		return rest.NewError("rest_cannot_introspect_app_password_for_non_authenticated_user",
			"The authenticated application password can only be introspected for the current user.", http.StatusForbidden)
	}
	return nil
}

func (g *Gateway) introspectAppPassword(r *rest.Request) (*rest.Response, error) {
	u, err := g.targetUser(r, "user_id")
	if err != nil {
		return nil, err
	}
	uuid, _ := r.Context().Value(appPasswordKey{}).(string)
	a, gerr := g.cfg.Store.GetPassword(r.Context(), u.ID, uuid)
	if uuid == "" || errors.Is(gerr, accounts.ErrNotFound) {
		return nil, rest.NewError("rest_no_authenticated_app_password", "Cannot introspect application password.", http.StatusNotFound)
	}
	if gerr != nil {
		return nil, storeFailure(gerr)
	}
	return rest.OK(g.appPasswordItem(r, u.ID, a, "")), nil
}
