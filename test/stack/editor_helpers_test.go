package stack

import (
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The block editor in a real browser (editor_browser_test.go): helpers to
// drive it as a person does (keyboard, clicks, the file chooser) and to
// record every request it makes.

// editorExpected are the answers the editor's traffic may get besides
// success, each with its reason; anything else >= 400, any failed request
// and any console error fails the test.
var editorExpected = []struct{ match, why string }{
	// The sign-in page has no icon; browsers ask for /favicon.ico anyway.
	{"/favicon.ico", "browser's icon probe"},
	// The welcome guide's pictures are on s.w.org, as in WordPress; the
	// test machine has no Internet.
	{"https://s.w.org/", "welcome guide images (no Internet)"},
	// The site editor shows people's avatars (the styles revisions' savers,
	// the Pages list's authors), Gravatar URLs as in WordPress; the test
	// machine has no Internet.
	{"https://secure.gravatar.com/", "avatars (no Internet)"},
	// The editor canvas is a blob: document; when the site editor swaps its
	// view (the Styles revisions open the canvas) while one is loading, the
	// browser aborts that load: nothing is lost, the new canvas loads.
	{"request failed (net::ERR_ABORTED): blob:", "a replaced canvas document"},
	// WordPress answers an author's context=edit term query with 403 too
	// (rest_forbidden_context: terms are edited with manage_categories);
	// the editor's taxonomy panels ask it and carry on (the same on the
	// WordPress peer).
	{"/cms-json/cms/v2/tags?context=edit&per_page=1&", "403 as in WordPress for an author"},
	{"/cms-json/cms/v2/categories?context=edit&per_page=1&", "403 as in WordPress for an author"},
}

// editorRecorder records the browser's requests and problems.
type editorRecorder struct {
	mu       sync.Mutex
	urls     map[network.RequestID]string
	requests []string
	problems []string
	// allowed are a test's own expected problems (allow), with their reasons.
	allowed []struct{ match, why string }
}

func newEditorRecorder() *editorRecorder {
	return &editorRecorder{urls: map[network.RequestID]string{}}
}

func expectedProblem(s string) bool {
	for _, e := range editorExpected {
		if strings.Contains(s, e.match) {
			return true
		}
	}
	return false
}

// allow makes the problems that contain match expected from now on, for
// why (a test's own, e.g. a request of a resource it deleted).
func (r *editorRecorder) allow(match, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.allowed = append(r.allowed, struct{ match, why string }{match, why})
}

func (r *editorRecorder) problem(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	if !expectedProblem(s) && !slices.ContainsFunc(r.allowed, func(a struct{ match, why string }) bool { return strings.Contains(s, a.match) }) {
		r.problems = append(r.problems, s)
	}
}

func (r *editorRecorder) listen(ev any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		r.urls[e.RequestID] = e.Request.URL
		r.requests = append(r.requests, e.Request.Method+" "+e.Request.URL)
	case *network.EventResponseReceived:
		if e.Response.Status >= 400 {
			r.problem("HTTP %d: %s", e.Response.Status, e.Response.URL)
		}
	case *network.EventLoadingFailed:
		r.problem("request failed (%s): %s", e.ErrorText, r.urls[e.RequestID])
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError {
			var parts []string
			for _, a := range e.Args {
				parts = append(parts, string(a.Value)+a.Description)
			}
			r.problem("console error: %s", strings.Join(parts, " "))
		}
	case *runtime.EventExceptionThrown:
		r.problem("page error: %s %s", e.ExceptionDetails.Text, exceptionText(e.ExceptionDetails))
	case *log.EventEntryAdded:
		if e.Entry.Level == log.EntryLevelError {
			r.problem("browser error (%s): %s %s", e.Entry.Source, e.Entry.Text, e.Entry.URL)
		}
	}
}

func exceptionText(d *runtime.ExceptionDetails) string {
	if d.Exception != nil {
		return d.Exception.Description
	}
	return ""
}

// check fails the test with every unexpected problem seen so far.
func (r *editorRecorder) check(t *testing.T, step string) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.problems) > 0 {
		t.Fatalf("%s: the browser saw %d unexpected problem(s):\n%s", step, len(r.problems), strings.Join(r.problems, "\n"))
	}
}

// restRequests counts the REST requests recorded since mark.
func (r *editorRecorder) restRequests(mark int) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, req := range r.requests[mark:] {
		if strings.Contains(req, "/cms-json/") {
			out = append(out, req)
		}
	}
	return out
}

func (r *editorRecorder) mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.requests)
}

// editorBrowser starts Chromium for the editor flows: a longer budget
// than the other browser tests (the flows are long) and a desktop viewport.
func editorBrowser(t *testing.T, rec *editorRecorder) context.Context {
	ctx := newBrowserContextFor(t, 4*time.Minute)
	if err := chromedp.Listen(ctx, rec.listen); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1400, 1000)); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// browserSignIn signs in at the sign-in page and lands on target.
func browserSignIn(t *testing.T, ctx context.Context, login, password, target string) {
	t.Helper()
	// The admin sends an anonymous visitor to the sign-in form (200 after
	// the redirect); anything else fails at once.
	res, err := chromedp.Run(ctx, chromedp.NavigateResponse(st.SiteURL+target))
	if err != nil {
		t.Fatalf("%s as an anonymous visitor: %v", target, err)
	}
	if res.Status != 200 || !strings.Contains(res.URL, "/cms-login.php?redirect_to=") {
		t.Fatalf("%s as an anonymous visitor: %d at %s, want the sign-in form", target, res.Status, res.URL)
	}
	err = chromedp.Do(ctx,
		chromedp.WaitVisible(chromedp.CSS(`#user_login`)),
		chromedp.SendKeys(chromedp.CSS(`#user_login`), login),
		chromedp.SendKeys(chromedp.CSS(`#user_pass`), password),
		chromedp.Click(chromedp.CSS(`#wp-submit`)),
	)
	if err != nil {
		t.Fatalf("sign in as %s: %v", login, err)
	}
}

// canvasJS is the editor canvas's document (a same-origin iframe).
const canvasJS = `document.querySelector('iframe[name="editor-canvas"]').contentDocument`

// waitJS polls a JavaScript condition until it is true.
func waitJS(t *testing.T, ctx context.Context, what, cond string) {
	t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { try { return !!(`+cond+`) } catch (e) { return false } })()`))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			t.Fatalf("waiting for %s: %v (condition %s)", what, err, cond)
		}
		time.Sleep(150 * time.Millisecond)
	}
}

// js runs a statement in the page.
func js(t *testing.T, ctx context.Context, what, code string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](`(() => { `+code+`; return null })()`)); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// typeKeys types text into whatever has the focus, as a keyboard does.
func typeKeys(t *testing.T, ctx context.Context, keys ...string) {
	t.Helper()
	for _, k := range keys {
		if err := chromedp.Do(ctx, chromedp.KeyEvent(k)); err != nil {
			t.Fatalf("type %q: %v", k, err)
		}
		time.Sleep(120 * time.Millisecond)
	}
}

// chooseFile gives the file input that expr finds (a file chooser of the
// editor) the file, as the person picking it in the dialog does.
func chooseFile(t *testing.T, ctx context.Context, expr, file string) {
	t.Helper()
	res, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: expr})
	if err == nil && (res.Result == nil || res.Result.ObjectID == "") {
		err = fmt.Errorf("no element")
	}
	if err == nil {
		_, err = chromedp.Call(ctx, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: []string{file}, ObjectID: res.Result.ObjectID})
	}
	if err != nil {
		t.Fatalf("choose %s for %s: %v", file, expr, err)
	}
}

// dropFile drags a file from the desktop onto the middle of the element
// that expr finds (in the page or the canvas iframe, whose offset expr
// adds), as a person dropping it does: the browser's own drag events.
func dropFile(t *testing.T, ctx context.Context, expr, file string) {
	t.Helper()
	at, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => { const e = `+expr+`; const r = e.getBoundingClientRect();
		const f = e.ownerDocument === document ? {left: 0, top: 0} : e.ownerDocument.defaultView.frameElement.getBoundingClientRect();
		e.scrollIntoView({block: 'center'}); const r2 = e.getBoundingClientRect();
		return [f.left + r2.left + r2.width / 2, f.top + r2.top + r2.height / 2] })()`))
	if err != nil || len(at) != 2 {
		t.Fatalf("find the drop target %s: %v", expr, err)
	}
	data := &input.DragData{Items: []*input.DragDataItem{}, Files: []string{file}, DragOperationsMask: 1}
	for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
		if _, err := chromedp.Call(ctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: at[0], Y: at[1], Data: data}); err != nil {
			t.Fatalf("%s %s: %v", typ, file, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// testImage writes a small PNG to upload.
func testImage(t *testing.T, name string) string {
	img := image.NewRGBA(image.Rect(0, 0, 640, 400))
	for y := range 400 {
		for x := range 640 {
			img.Set(x, y, color.RGBA{R: uint8(x / 3), G: uint8(y / 2), B: 160, A: 255})
		}
	}
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	return path
}

// editorPostID reads the post id from the editor's address.
func editorPostID(t *testing.T, ctx context.Context) string {
	t.Helper()
	loc, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	u, err := url.Parse(loc)
	if err != nil || u.Query().Get("post") == "" {
		t.Fatalf("not in the editor: %s", loc)
	}
	return u.Query().Get("post")
}

// adminBuilt skips (or, under CI, fails) when the gateway was built
// without the admin bundle (hack/admin.sh).
func adminBuilt(t *testing.T) {
	if _, err := os.Stat("../../services/internal/gateway/adminui/manifest.json"); err == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("the admin bundle is missing: hack/test.sh runs hack/admin.sh before the tests")
	}
	t.Skip("the admin bundle is not built: run hack/admin.sh (make admin)")
}
