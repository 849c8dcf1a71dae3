// Command editorbench measures opening an existing post in the block editor
// (or, with -screen site, the site editor on a template) in headless
// Chromium, on Siteplane and (optionally) on a WordPress beside it: the time
// from navigation to an editable title (the site editor: a canvas showing
// the template's blocks) with a cold browser cache and a warm one, the
// bytes transferred (as sent, gzip where the server compresses), and the
// REST requests the page makes. It prints a Markdown table (docs/admin.md,
// Speed). hack/admin-bench.sh runs it.
//
//	editorbench -chromium /usr/bin/chromium -runs 3 \
//	  -site 'Siteplane|http://127.0.0.1:8080|admin|PASSWORD|/cms-login.php|/cms-admin/post.php?post=1&action=edit' \
//	  -site 'WordPress 6.9|http://127.0.0.1:8081|admin|PASSWORD|/wp-login.php|/wp-admin/post.php?post=1&action=edit'
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

type siteFlags []string

func (s *siteFlags) String() string     { return strings.Join(*s, ", ") }
func (s *siteFlags) Set(v string) error { *s = append(*s, v); return nil }

// site is one editor to measure.
type site struct{ name, base, login, password, loginPath, editPath string }

// sample is one opening of the editor.
type sample struct {
	ready time.Duration
	bytes int64
	rest  int
}

// meter counts what the page transfers and asks.
type meter struct {
	mu    sync.Mutex
	bytes int64
	rest  int
}

func (m *meter) listen(ev any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		u := e.Request.URL
		if strings.Contains(u, "/cms-json/") || strings.Contains(u, "/wp-json/") || strings.Contains(u, "rest_route=") {
			m.rest++
		}
	case *network.EventLoadingFinished:
		m.bytes += int64(e.EncodedDataLength)
	}
}

func (m *meter) reset() {
	m.mu.Lock()
	m.bytes, m.rest = 0, 0
	m.mu.Unlock()
}

func (m *meter) read() (int64, int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.bytes, m.rest
}

// titleReady: the post editor's title takes typing.
const titleReady = `(() => { try { const d = document.querySelector('iframe[name="editor-canvas"]')?.contentDocument || document;
	return !!d.querySelector('.editor-post-title__input[contenteditable="true"]') } catch (e) { return false } })()`

// canvasReady: the site editor's canvas shows the template's blocks, its
// loading overlay gone (edit-site hides the canvas behind a loader until
// the template's entities resolved).
const canvasReady = `(() => { try { const d = document.querySelector('iframe[name="editor-canvas"]')?.contentDocument;
	return !!d?.querySelector('.is-root-container .wp-block') && !document.querySelector('.edit-site-canvas-loader') } catch (e) { return false } })()`

// open navigates to the editor and waits for ready (titleReady or
// canvasReady); the transfer counts what arrived until the page settled
// (one more second).
func open(ctx context.Context, m *meter, u, ready string) (sample, error) {
	m.reset()
	start := time.Now()
	if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
		return sample{}, err
	}
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](ready))
		if err == nil && ok {
			break
		}
		if ctx.Err() != nil {
			return sample{}, errors.New("the editor never became ready")
		}
		time.Sleep(20 * time.Millisecond)
	}
	s := sample{ready: time.Since(start)}
	time.Sleep(time.Second)
	s.bytes, s.rest = m.read()
	return s, nil
}

// measure signs in with a fresh profile, empties the cache, and opens the
// editor cold, then warm.
func measure(chromium string, s site, ready string) (cold, warm sample, err error) {
	dir, err := os.MkdirTemp("", "editorbench")
	if err != nil {
		return cold, warm, err
	}
	defer os.RemoveAll(dir)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), chromedp.ExecPath(chromium), chromedp.Headless,
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(dir),
		chromedp.Flag("disable-background-networking", true))
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		return cold, warm, err
	}
	ctx, cancelTime := context.WithTimeout(ctx, 4*time.Minute)
	defer cancelTime()
	m := &meter{}
	if err := chromedp.Listen(ctx, m.listen); err != nil {
		return cold, warm, err
	}
	err = chromedp.Do(ctx, chromedp.EmulateViewport(1400, 900),
		chromedp.Navigate(s.base+s.loginPath),
		chromedp.WaitVisible(chromedp.CSS(`#user_login`)),
		chromedp.SendKeys(chromedp.CSS(`#user_login`), s.login),
		chromedp.SendKeys(chromedp.CSS(`#user_pass`), s.password),
		chromedp.Click(chromedp.CSS(`#wp-submit`)),
		chromedp.Sleep(2*time.Second))
	if err == nil {
		_, err = chromedp.Call(ctx, network.ClearBrowserCache, cdp.Empty{})
	}
	if err != nil {
		return cold, warm, fmt.Errorf("sign in: %w", err)
	}
	if cold, err = open(ctx, m, s.base+s.editPath, ready); err != nil {
		return cold, warm, fmt.Errorf("cold: %w", err)
	}
	warm, err = open(ctx, m, s.base+s.editPath, ready)
	return cold, warm, err
}

func median(xs []sample, f func(sample) float64) float64 {
	v := make([]float64, len(xs))
	for i, x := range xs {
		v[i] = f(x)
	}
	return medianOf(v)
}

func medianOf(v []float64) float64 {
	slices.Sort(v)
	return v[len(v)/2]
}

func main() {
	var sites, visible siteFlags
	chromium := flag.String("chromium", "chromium", "the browser")
	runs := flag.Int("runs", 3, "openings per site and cache state (the median is printed)")
	screen := flag.String("screen", "post", "post: wait for an editable title; site: for the site editor's canvas")
	flag.Var(&sites, "site", "name|base URL|login|password|sign-in path|editor path (repeatable)")
	flag.Var(&visible, "visibility", "name|base URL|REST root (wp/v2 or cms/v2)|login:application password|template id|website path (repeatable): save the template through REST and read the page once")
	saves := flag.Int("saves", 10, "template saves per -visibility site")
	flag.Parse()
	if len(visible) > 0 {
		if err := printVisibility(visible, *saves); err != nil {
			fmt.Fprintln(os.Stderr, "editorbench:", err)
			os.Exit(1)
		}
		if len(sites) == 0 {
			return
		}
		fmt.Println()
	}
	ready, what := titleReady, "title editable"
	if *screen == "site" {
		ready, what = canvasReady, "canvas ready"
	}
	fmt.Printf("| editor | %s, cold cache (ms) | warm cache (ms) | transferred, cold (KiB) | warm (KiB) | REST requests |\n", what)
	fmt.Println("|---|---|---|---|---|---|")
	for _, raw := range sites {
		p := strings.Split(raw, "|")
		if len(p) != 6 {
			fmt.Fprintln(os.Stderr, "editorbench: -site needs 6 fields:", raw)
			os.Exit(2)
		}
		s := site{p[0], p[1], p[2], p[3], p[4], p[5]}
		var colds, warms []sample
		// A run whose editor never became ready (within the budget) is
		// said and left out of the medians; the name says how many counted.
		for range *runs {
			c, w, err := measure(*chromium, s, ready)
			if err != nil {
				fmt.Fprintf(os.Stderr, "editorbench: %s: %v\n", s.name, err)
				continue
			}
			colds, warms = append(colds, c), append(warms, w)
		}
		name := s.name
		if len(colds) < *runs {
			name = fmt.Sprintf("%s (%d of %d runs)", s.name, len(colds), *runs)
		}
		if len(colds) == 0 {
			fmt.Printf("| %s | – | – | – | – | – |\n", name)
			continue
		}
		ms := func(x sample) float64 { return float64(x.ready.Milliseconds()) }
		kib := func(x sample) float64 { return float64(x.bytes) / 1024 }
		fmt.Printf("| %s | %.0f | %.0f | %.0f | %.0f | %.0f |\n", name, median(colds, ms), median(warms, ms),
			median(colds, kib), median(warms, kib), median(warms, func(x sample) float64 { return float64(x.rest) }))
	}
}
