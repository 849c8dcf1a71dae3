package gateway

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/platform/rest"
)

// The block editor's preferences (welcome guide seen, panels, editor
// mode): WordPress keeps them per user in the persisted_preferences user
// meta, read and written as users/me's meta.persisted_preferences in the
// edit context; the admin's preferences persistence layer
// (admin/src/preferences.js) uses it, so a second browser starts with
// them. Stored in the user_preferences table. A listing shows [] (as for a
// user without any): only the single user's answer reads them.

// userItemWithPreferences is userItem with the user's stored preferences
// in the edit context.
func (g *Gateway) userItemWithPreferences(r *rest.Request, u accounts.User) (rest.Item, error) {
	it := g.userItem(r, u)
	if r.String("context") != "edit" {
		return it, nil
	}
	prefs, err := g.cfg.Store.Preferences(r.Context(), u.ID)
	if err != nil || prefs == nil {
		return it, err
	}
	for i, m := range it.Data {
		if m.Key == "meta" {
			it.Data[i].Value = rest.Object{{Key: "persisted_preferences", Value: prefs}}
		}
	}
	return it, nil
}

// storePreferences writes meta.persisted_preferences of an update, when
// the body has it: a JSON object, as WordPress's meta schema requires.
func (g *Gateway) storePreferences(r *rest.Request, u accounts.User) error {
	meta := r.Map("meta")
	v, ok := meta["persisted_preferences"]
	if !ok {
		return nil
	}
	obj, isObject := v.(map[string]any)
	if !isObject {
		return rest.NewError("rest_invalid_param", "Invalid parameter(s): meta", http.StatusBadRequest)
	}
	data, err := json.Marshal(obj)
	if err != nil {
		return rest.NewError("rest_invalid_param", "Invalid parameter(s): meta", http.StatusBadRequest)
	}
	return g.cfg.Store.SetPreferences(r.Context(), u.ID, data)
}

// adminPreferences are the person's stored preferences for the editor's
// page; none when they cannot be read (the editor then starts from this
// browser's copy: preferences are not worth failing the page for).
func (g *Gateway) adminPreferences(ctx context.Context, userID int64) json.RawMessage {
	prefs, err := g.cfg.Store.Preferences(ctx, userID)
	if err != nil {
		slog.Default().WarnContext(ctx, "editor preferences not read", "error", err.Error())
		return nil
	}
	return prefs
}
