package marketplace

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/mux"
	"github.com/jackc/pgx/v5/pgxpool"

	"siteplane.dev/services/internal/platform/logging"
	"siteplane.dev/services/internal/platform/postgres"
)

// The seed's paths.
const (
	PathAccount  = "/api/account/details"
	PathItems    = "/api/items/all"
	PathItem     = "/api/items/item"
	PathPurchase = "/api/purchases/validation"
)

// Config configures the API handlers.
type Config struct {
	Pool   *pgxpool.Pool
	Logger *slog.Logger
	// KeysDir is the operator's key directory; "" disables it.
	KeysDir string
	// KeysDirInterval is how often KeysDir is re-read (default 5s).
	KeysDirInterval time.Duration
	// ValidationsPerMinute caps purchase validations per key (default 60).
	ValidationsPerMinute int
}

// API serves the four endpoints.
type API struct {
	store  store
	auth   authenticator
	limit  *limiter
	logger *slog.Logger
	dirInt time.Duration

	// ensureMu guards ensured, the fingerprint of the last account set
	// EnsureAccounts stored.
	ensureMu sync.Mutex
	ensured  string
}

// New returns the API. When a key directory is configured it is read once
// here, so keys work from the first request; call Run to follow changes.
func New(cfg Config) *API {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.ValidationsPerMinute <= 0 {
		cfg.ValidationsPerMinute = 60
	}
	if cfg.KeysDirInterval <= 0 {
		cfg.KeysDirInterval = 5 * time.Second
	}
	a := &API{store: store{pool: cfg.Pool}, logger: cfg.Logger,
		limit: newLimiter(cfg.ValidationsPerMinute), dirInt: cfg.KeysDirInterval}
	if cfg.KeysDir != "" {
		a.auth.dir = newKeyDir(cfg.KeysDir, cfg.Logger)
		a.auth.dir.reload()
	}
	return a
}

// Run follows the key directory until ctx ends; without one it returns at once.
// After each reload it creates the accounts the directory names that do not
// exist yet (EnsureAccounts).
func (a *API) Run(ctx context.Context) {
	if a.auth.dir == nil {
		return
	}
	t := time.NewTicker(a.dirInt)
	defer t.Stop()
	for {
		if err := a.EnsureAccounts(ctx); err != nil && ctx.Err() == nil {
			a.logger.Warn("marketplace accounts of the key directory not created yet; retrying", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			a.auth.dir.reload()
		}
	}
}

// ReloadKeys re-reads the key directory now (tests; a SIGHUP could call it).
func (a *API) ReloadKeys() {
	if a.auth.dir != nil {
		a.auth.dir.reload()
	}
}

// Mount registers the endpoints on r. Routes match every method so that a
// wrong method gets the operation's own message with 405.
func (a *API) Mount(r *mux.Router) {
	r.Handle(PathAccount, a.endpoint(msgAccount, false, a.accountDetails))
	r.Handle(PathItems, a.endpoint(msgItems, false, a.allItems))
	r.Handle(PathItem, a.endpoint(msgItem, false, a.itemDetails))
	r.Handle(PathPurchase, a.endpoint(msgPurchase, true, a.validatePurchase))
}

// call is one request with a key. The key is checked by the database in
// the same statement as the request's data (see callerSQL), so handlers
// map errUnauthorized from the store to 401 before anything else.
type call struct {
	w      http.ResponseWriter
	r      *http.Request
	params params
	who    principal
	msg    string
	api    *API
}

func (c *call) fail(status int) { WriteError(c.w, c.r, status, "", c.msg) }

// internal answers 500 and logs the cause (driver errors carry no secrets),
// or 503 when the database could not serve (the platform server adds
// Retry-After): the client should try again, the request was fine.
func (c *call) internal(err error) {
	if postgres.Unavailable(err) {
		logging.FromContext(c.r.Context(), c.api.logger).Warn("marketplace request failed: database unavailable",
			"key_prefix", c.who.prefix, "error", err.Error())
		WriteError(c.w, c.r, http.StatusServiceUnavailable, "", "The service is temporarily unavailable. Try again shortly.")
		return
	}
	logging.FromContext(c.r.Context(), c.api.logger).Error("marketplace request failed",
		"key_prefix", c.who.prefix, "error", err.Error())
	c.fail(http.StatusInternalServerError)
}

// authErr answers a store error that is not about the data itself:
// 401 for an invalid key, 500 for a database failure. It reports whether it
// answered.
func (c *call) authErr(err error) bool {
	switch {
	case err == nil || errors.Is(err, errNotFound):
		return false
	case errors.Is(err, errUnauthorized):
		c.fail(http.StatusUnauthorized)
	default:
		c.internal(err)
	}
	return true
}

// endpoint runs the steps every operation shares: method, parameters, the
// key's presence. Whether the key is valid is settled by the operation's
// statement.
func (a *API) endpoint(msg string, post bool, serve func(*call)) http.Handler {
	allow := "GET, HEAD"
	if post {
		allow = "POST"
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &call{w: w, r: r, msg: msg, api: a}
		if (post && r.Method != http.MethodPost) || (!post && r.Method != http.MethodGet && r.Method != http.MethodHead) {
			w.Header().Set("Allow", allow)
			c.fail(http.StatusMethodNotAllowed)
			return
		}
		p, err := readParams(r)
		switch {
		case errors.Is(err, errTooLarge):
			c.fail(http.StatusRequestEntityTooLarge)
			return
		case err != nil:
			c.fail(http.StatusBadRequest)
			return
		}
		c.params = p
		key, ok := bearerKey(r)
		if !ok {
			key, ok = p.get(paramKey)
		}
		if !ok {
			c.fail(http.StatusUnauthorized)
			return
		}
		c.who = a.auth.resolve(key)
		serve(c)
	})
}

type accountResponse struct {
	Status string      `json:"status"`
	Data   accountJSON `json:"data"`
}

func (a *API) accountDetails(c *call) {
	acc, err := a.store.account(c.r.Context(), c.who)
	if !c.authErr(err) {
		writeJSON(c.w, http.StatusOK, accountResponse{Status: "success", Data: acc})
	}
}

type itemsResponse struct {
	Status string     `json:"status"`
	Items  []itemJSON `json:"items"`
}

func (a *API) allItems(c *call) {
	items, err := a.store.items(c.r.Context(), c.who)
	switch {
	case c.authErr(err):
	case errors.Is(err, errNotFound):
		c.fail(http.StatusNotFound)
	default:
		writeJSON(c.w, http.StatusOK, itemsResponse{Status: "success", Items: items})
	}
}

type itemResponse struct {
	Status string   `json:"status"`
	Item   itemJSON `json:"item"`
}

func (a *API) itemDetails(c *call) {
	raw, ok := c.params.get(paramItemID)
	id, valid := parseItemID(raw)
	if !ok || !valid {
		// A bad item_id is 400 only for a valid key.
		if !c.authErr(a.store.authenticate(c.r.Context(), c.who)) {
			c.fail(http.StatusBadRequest)
		}
		return
	}
	it, err := a.store.item(c.r.Context(), c.who, id)
	switch {
	case c.authErr(err):
	case errors.Is(err, errNotFound):
		c.fail(http.StatusNotFound)
	default:
		writeJSON(c.w, http.StatusOK, itemResponse{Status: "success", Item: it})
	}
}

// parseItemID accepts a decimal integer ("12", or 12 in JSON). An integer
// that cannot be an item id (zero, negative, beyond int64) is well-formed
// and simply names no item, so it is 404 rather than 400; that is signalled
// by returning id 0 with ok.
func parseItemID(s string) (int64, bool) {
	digits := strings.TrimPrefix(s, "-")
	if digits == "" {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id <= 0 {
		return 0, true
	}
	return id, true
}

type purchaseResponse struct {
	Status string       `json:"status"`
	Data   purchaseData `json:"data"`
}

type purchaseData struct {
	Purchase purchaseJSON `json:"purchase"`
}

// maxCodeLen bounds a purchase code; longer input cannot be a code.
const maxCodeLen = 200

func (a *API) validatePurchase(c *call) {
	code, ok := c.params.get(paramPurchase)
	var p purchaseJSON
	var err error
	switch {
	case !ok || len(code) > maxCodeLen:
		// Settled without a lookup (400, or 404 for what cannot be a
		// code), but only for a valid key.
		err = a.store.authenticate(c.r.Context(), c.who)
	default:
		p, err = a.store.purchase(c.r.Context(), c.who, code)
	}
	if c.authErr(err) {
		return
	}
	if !ok {
		c.fail(http.StatusBadRequest)
		return
	}
	// The key is valid: count the attempt whatever its outcome, so that
	// unknown and known codes cost the same. The lookup already ran in the
	// statement that checked the key, but a limited caller never sees its
	// result, so the limit still bounds how many codes a key can test.
	if allowed, wait := a.limit.allow(c.who.hash); !allowed {
		secs := int(math.Ceil(wait.Seconds()))
		c.w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
		logging.FromContext(c.r.Context(), a.logger).Info("purchase validation rate limited", "key_prefix", c.who.prefix)
		c.fail(http.StatusTooManyRequests)
		return
	}
	if len(code) > maxCodeLen {
		c.fail(http.StatusNotFound)
		return
	}
	switch {
	case errors.Is(err, errNotFound):
		logging.FromContext(c.r.Context(), a.logger).Debug("unknown purchase code",
			"key_prefix", c.who.prefix, "code_hint", codeHint(code))
		c.fail(http.StatusNotFound)
	default:
		writeJSON(c.w, http.StatusOK, purchaseResponse{Status: "success", Data: purchaseData{Purchase: p}})
	}
}

// codeHint is the part of a purchase code that may appear in logs.
func codeHint(code string) string {
	if len(code) <= 8 {
		return "…"
	}
	return code[:4] + "…"
}
