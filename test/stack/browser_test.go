package stack

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The application-password authorisation flow in a real browser: headless
// Chromium (Debian's chromium package; hack/chromium.sh installs it and
// hack/test.sh exports its path in SITEPLANE_CHROMIUM) signs in at
// /cms-login.php, approves or rejects on authorize-application.php and is
// redirected to a loopback "application" that reads the password from the
// redirect and uses it over HTTP Basic.

// chromiumPath finds the browser; without one the test skips, or fails
// under CI=true (where hack/test.sh must have installed it).
func chromiumPath(t *testing.T) string {
	if p := os.Getenv("SITEPLANE_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("no Chromium: hack/chromium.sh should have installed Debian's chromium package")
	}
	t.Skip("no Chromium found: run hack/chromium.sh (installs Debian's chromium as root) or make test")
	return ""
}

// callbackApp is the application's loopback redirect target: it records
// every query it receives.
type callbackApp struct {
	srv  *httptest.Server
	hits chan *url.URL
}

func newCallbackApp(t *testing.T) *callbackApp {
	a := &callbackApp{hits: make(chan *url.URL, 8)}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/favicon.ico" {
			http.NotFound(w, r)
			return
		}
		a.hits <- r.URL
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><title>Application</title><p id="done">Thanks</p>`)
	}))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *callbackApp) wait(t *testing.T) *url.URL {
	t.Helper()
	select {
	case u := <-a.hits:
		return u
	case <-time.After(30 * time.Second):
		t.Fatal("the browser never reached the application's redirect URL")
		return nil
	}
}

func newBrowserContext(t *testing.T) context.Context { return newBrowserContextFor(t, 90*time.Second) }

// newBrowserContextFor starts Chromium (with extra flags, if any); its
// steps share the budget.
func newBrowserContextFor(t *testing.T, budget time.Duration, extra ...chromedp.ExecAllocatorOption) context.Context {
	path := chromiumPath(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
	}
	opts = append(opts, extra...)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(actx)
	// The first call starts the browser, which lives as long as ctx: no
	// timeout on it; the steps get theirs from the returned context.
	if err := chromedp.Do(ctx); err != nil {
		cancelCtx()
		cancelAlloc()
		t.Fatalf("start Chromium (%s): %v", path, err)
	}
	tctx, cancelTimeout := context.WithTimeout(ctx, budget)
	t.Cleanup(func() { cancelTimeout(); cancelCtx(); cancelAlloc() })
	return tctx
}

func TestBrowserAuthorizeApplication(t *testing.T) {
	ctx := newBrowserContext(t)
	// A person with a login password, created through the users route.
	login, password := "browser-editor", "typed by a person 7"
	r := call(t, "POST", "/cms-json/cms/v2/users", map[string]any{"username": login, "email": "browser@example.com",
		"password": password, "roles": []string{"editor"}}, admin()...)
	if r.Status != 201 {
		t.Fatalf("create user: %d %s", r.Status, r.Raw)
	}
	userID := r.Obj()["id"]
	app := newCallbackApp(t)
	const appID = "0b7a3c2e-4d5f-4a6b-8c7d-9e0f1a2b3c4d"
	q := url.Values{"app_name": {"Browser Test"}, "app_id": {appID},
		"success_url": {app.srv.URL + "/callback?state=s1"}, "reject_url": {app.srv.URL + "/rejected"}}
	authorizeURL := st.SiteURL + "/cms-admin/authorize-application.php?" + q.Encode()

	// Not signed in: the page sends the browser to the sign-in form, which
	// comes back to the authorisation page; approve.
	err := chromedp.Do(ctx,
		chromedp.Navigate(authorizeURL),
		chromedp.WaitVisible(chromedp.CSS(`#user_login`)),
		chromedp.SendKeys(chromedp.CSS(`#user_login`), login),
		chromedp.SendKeys(chromedp.CSS(`#user_pass`), password),
		chromedp.Click(chromedp.CSS(`#wp-submit`)),
		chromedp.WaitVisible(chromedp.CSS(`#approve`)),
	)
	if err != nil {
		t.Fatalf("sign in: %v", err)
	}
	appName, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#app-name`)))
	if err == nil {
		err = chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#approve`)))
	}
	if err != nil {
		t.Fatalf("approve: %v", err)
	}
	if appName != "Browser Test" {
		t.Fatalf("the page names the application %q", appName)
	}
	got := app.wait(t)
	if got.Path != "/callback" || got.Query().Get("state") != "s1" || got.Query().Get("site_url") != st.SiteURL || got.Query().Get("user_login") != login {
		t.Fatalf("redirect %s", got)
	}
	appPassword := got.Query().Get("password")
	me := call(t, "GET", "/cms-json/cms/v2/users/me", nil, login, appPassword)
	if me.Status != 200 || me.Obj()["id"] != userID {
		t.Fatalf("the password from the redirect does not authenticate: %d %s", me.Status, me.Raw)
	}
	list := call(t, "GET", "/cms-json/cms/v2/users/me/application-passwords", nil, login, appPassword)
	items, _ := list.JSON.([]any)
	if list.Status != 200 || len(items) != 1 || items[0].(map[string]any)["app_id"] != appID || items[0].(map[string]any)["name"] != "Browser Test" {
		t.Fatalf("application passwords: %d %s", list.Status, list.Raw)
	}

	// Signed in already: the page shows at once; reject.
	err = chromedp.Do(ctx,
		chromedp.Navigate(authorizeURL),
		chromedp.WaitVisible(chromedp.CSS(`#reject`)),
		chromedp.Click(chromedp.CSS(`#reject`)),
	)
	if err != nil {
		t.Fatalf("reject: %v", err)
	}
	got = app.wait(t)
	if got.Path != "/rejected" || got.Query().Get("success") != "false" || got.Query().Has("password") {
		t.Fatalf("reject redirect %s", got)
	}
	list = call(t, "GET", "/cms-json/cms/v2/users/me/application-passwords", nil, login, appPassword)
	if items, _ := list.JSON.([]any); len(items) != 1 {
		t.Fatalf("rejecting created a password: %s", list.Raw)
	}

	// The session cookie is HttpOnly: page script cannot read it.
	if err := chromedp.Do(ctx, chromedp.Navigate(st.SiteURL+"/cms-login.php"), chromedp.WaitVisible(chromedp.CSS(`#rest-nonce`))); err != nil {
		t.Fatal(err)
	}
	cookies, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.cookie`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(cookies, "siteplane_session") {
		t.Fatalf("session cookie visible to script: %q", cookies)
	}
}
