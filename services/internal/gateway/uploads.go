package gateway

import (
	"errors"
	"net/http"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/gateway/edgecache"
	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// serveUpload proxies an uploaded file's URL to media. Media serves a
// private attachment's files only to those who may read the attachment, so
// the caller is identified here, as for REST requests, and media gets the
// signed identity (audience: the backend) instead of the client's
// Authorization and Cookie, which never leave the gateway. An identified
// request never touches the edge cache (serveCached); anonymous ones are
// cached as before.
func (g *Gateway) serveUpload(w http.ResponseWriter, r *http.Request, b *routing.Backend) {
	caller := g.fileCaller(r)
	r = r.WithContext(identity.NewContext(r.Context(), caller))
	set := http.Header{}
	if caller.LoggedIn() {
		set.Set(contract.IdentityHeader, g.sign(caller, b.Name))
	}
	fill := func(w http.ResponseWriter) {
		g.cfg.Proxy.Forward(w, r, routing.Target{Backend: b, Path: r.URL.Path, RawQuery: r.URL.RawQuery,
			SetHeaders: set, DropHeaders: publicCredentials(r)})
	}
	query := rest.ParseQuery(r.URL.RawQuery)
	if !edgecache.Safe(r, query) {
		w = &bumpOnAnswer{ResponseWriter: w, g: g, ctx: r.Context()}
	}
	g.serveCached(w, r, kindFile, r.URL.Path, edgecache.NormalizeQuery(r.URL.RawQuery), query, fill)
}

// fileCaller identifies the caller of a file URL: an application password
// (Basic, checked and throttled by the same code as REST requests), else
// the sign-in session cookie alone. A file GET needs no REST nonce: it
// reads, changes nothing, and a browser sends no nonce with <img> (as
// WordPress's logged-in cookie alone identifies its user). Credentials that
// do not check out make the caller anonymous rather than an error: a stale
// cookie in a browser must not break the site's public images.
func (g *Gateway) fileCaller(r *http.Request) identity.Identity {
	if login, password, ok := accounts.BasicCredentials(r); ok {
		u, _, err := g.checkPassword(r.Context(), login, password, g.clientAddress(r))
		if err != nil {
			g.logLookupFailure(r, err)
			return identity.Identity{}
		}
		return u.Identity()
	}
	sess, _, ok, err := g.sessionOf(r)
	if !ok || err != nil {
		g.logLookupFailure(r, err)
		return identity.Identity{}
	}
	return sess.User.Identity()
}

// logLookupFailure logs a failure to check credentials other than the
// credentials being wrong (the database, say): the file is then served
// as to an anonymous caller, which must not go unnoticed.
func (g *Gateway) logLookupFailure(r *http.Request, err error) {
	var ae *accounts.AuthError
	var te *accounts.ThrottledError
	if err == nil || errors.As(err, &ae) || errors.As(err, &te) || errors.Is(err, accounts.ErrNotFound) {
		return
	}
	logging.FromContext(r.Context(), g.cfg.Logger).Error("file caller lookup failed", "error", err.Error())
}
