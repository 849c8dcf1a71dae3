package stack

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"siteplane.dev/services/pkg/contract"
)

// testOutput is where tests leave files for review: SITEPLANE_TEST_OUTPUT,
// else .cache/test-output/ at the repository root.
func testOutput(t *testing.T, name string) string {
	t.Helper()
	dir := os.Getenv("SITEPLANE_TEST_OUTPUT")
	if dir == "" {
		dir, _ = filepath.Abs("../../.cache/test-output")
	}
	dir = filepath.Join(dir, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// browserProblems collects what a visitor would see go wrong: console
// errors, uncaught exceptions, failed requests and HTTP errors.
type browserProblems struct {
	mu   sync.Mutex
	list []string
}

func (p *browserProblems) add(format string, args ...any) {
	p.mu.Lock()
	p.list = append(p.list, fmt.Sprintf(format, args...))
	p.mu.Unlock()
}

func (p *browserProblems) listen(ev any) {
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError {
			var parts []string
			for _, a := range e.Args {
				parts = append(parts, string(a.Value))
			}
			p.add("console error: %s", strings.Join(parts, " "))
		}
	case *log.EventEntryAdded:
		// the browser's own errors, Content-Security-Policy violations
		// among them
		if e.Entry.Level == log.EntryLevelError {
			p.add("browser error (%s): %s", e.Entry.Source, e.Entry.Text)
		}
	case *runtime.EventExceptionThrown:
		p.add("page error: %s", e.ExceptionDetails.Text)
	case *network.EventLoadingFailed:
		p.add("request failed: %s", e.ErrorText)
	case *network.EventResponseReceived:
		if e.Response.Status >= 400 {
			p.add("HTTP %d: %s", e.Response.Status, e.Response.URL)
		}
	}
}

// pageTools are what the browser tests read of a page: the text of the
// first element a selector finds, and a full screenshot saved under out.
func pageTools(t *testing.T, ctx context.Context, out string) (text func(css string) string, screenshot func(name string)) {
	text = func(css string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(css)))
		if err != nil {
			t.Fatalf("text of %s: %v", css, err)
		}
		return strings.TrimSpace(s)
	}
	screenshot = func(name string) {
		t.Helper()
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(out, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return text, screenshot
}

// Headless Chromium loads the front page and a post: they render without
// console errors or failed requests, the first navigation link leads to a
// page, and screenshots are saved for review.
func TestBrowserRendersWebsite(t *testing.T) {
	needs(t, contract.ServiceContent)
	create(t, "pages", map[string]any{"title": "Browser visit page", "status": "publish", "menu_order": -100, "content": "A page to click to."})
	post := create(t, "posts", map[string]any{"title": "Seen in a browser", "status": "publish",
		"content": "<!-- wp:paragraph -->\n<p>Rendered on the server.</p>\n<!-- /wp:paragraph -->"})
	out := testOutput(t, "website")
	ctx := newBrowserContext(t)
	problems := &browserProblems{}
	if err := chromedp.Listen(ctx, problems.listen); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 900)); err != nil {
		t.Fatal(err)
	}
	text, screenshot := pageTools(t, ctx, out)

	res, err := chromedp.Run(ctx, chromedp.NavigateResponse(st.SiteURL+"/"))
	if err != nil || res.Status != 200 {
		t.Fatalf("front page: %v %v", res, err)
	}
	title, err := chromedp.Run(ctx, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	if site := text(".wp-block-site-title"); site != "Stack Test" || !strings.HasPrefix(title, "Stack Test") {
		t.Errorf("front page: title %q, site title %q", title, site)
	}
	nav, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("nav.wp-block-navigation a")].map(a => a.href)`))
	if err != nil || len(nav) == 0 {
		t.Fatalf("the front page has no navigation links: %v", err)
	}
	screenshot("front-page.png")

	res, err = chromedp.RunResponse(ctx, chromedp.Click(chromedp.CSS("nav.wp-block-navigation a")))
	if err != nil || res.Status != 200 {
		t.Fatalf("click on %s: %v %v", nav[0], res, err)
	}
	if at, err := chromedp.Run(ctx, chromedp.Location()); err != nil || at != nav[0] || text("h1") == "" {
		t.Errorf("navigation: links %v, clicked to %q: %v", nav, at, err)
	}

	res, err = chromedp.Run(ctx, chromedp.NavigateResponse(post["link"].(string)))
	if err != nil || res.Status != 200 {
		t.Fatalf("post: %v %v", res, err)
	}
	if h1 := text("h1"); h1 != "Seen in a browser" {
		t.Errorf("post: h1 %q", h1)
	}
	screenshot("post.png")

	// The listener hears what a page logs: a console error of our own must
	// show up, or the check above proves nothing.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](`console.error("listener probe")`)); err != nil {
		t.Fatal(err)
	}
	// The page's Content-Security-Policy refuses an inline event handler,
	// and the listener hears the refusal: so no refusal above means the
	// pages need nothing the policy forbids.
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](`document.body.insertAdjacentHTML("beforeend", '<img alt="" src="data:," onerror="console.error(\'handler ran\')">')`)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // the image fails and the refusal is logged asynchronously
	problems.mu.Lock()
	defer problems.mu.Unlock()
	var seen []string
	heard, refused := false, false
	for _, p := range problems.list {
		switch {
		case strings.Contains(p, "listener probe"):
			heard = true
		case strings.Contains(p, "Content Security Policy") && strings.Contains(p, "inline event handler"):
			refused = true
		default:
			seen = append(seen, p)
		}
	}
	if !heard {
		t.Error("the console listener did not hear the probe")
	}
	if !refused {
		t.Error("the page's Content-Security-Policy did not refuse an inline event handler (or the listener did not hear it)")
	}
	if len(seen) > 0 {
		t.Errorf("browser problems: %v", seen)
	}
	t.Logf("screenshots in %s", out)
}
