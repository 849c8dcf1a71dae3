package stack

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The page validators (hack/validators.sh installs them; make test exports
// SITEPLANE_VALIDATORS): the Nu HTML Checker, vnu.jar of the npm package
// vnu-jar, run with Java, and axe-core, injected into headless Chromium.

// axeTags are the rule sets axe-core runs: WCAG 2.0 and 2.1, A and AA.
var axeTags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa"}

// axeExceptions are the axe-core rules a page may break, each with its
// reason. Only a theme's own defects may be listed, never Siteplane's.
var axeExceptions = map[string]string{}

// tt3Exceptions are the findings (an axe rule's id, or a part of the Nu
// HTML Checker's message) Twenty Twenty-Three's pages may have: defects of
// the theme itself, each found on WordPress's own rendering of the same
// page too (docs/website.md, "Validators").
var tt3Exceptions = map[string]string{}

type validators struct {
	java, vnu, axe string
}

// validatorTools finds Java and the installed packages. Outside CI a
// missing validator skips; under CI it fails.
func validatorTools(t *testing.T) validators {
	t.Helper()
	fail := func(why string) {
		if os.Getenv("CI") != "" {
			t.Fatal(why)
		}
		t.Skip(why)
	}
	dir := os.Getenv("SITEPLANE_VALIDATORS")
	if dir == "" {
		dir, _ = filepath.Abs("../../.cache/validators/node_modules")
	}
	java, err := exec.LookPath("java")
	if err != nil {
		fail("no java: run hack/validators.sh (installs Debian's default-jre-headless as root)")
	}
	v := validators{java: java, vnu: filepath.Join(dir, "vnu-jar", "build", "dist", "vnu.jar"),
		axe: filepath.Join(dir, "axe-core", "axe.min.js")}
	for _, f := range []string{v.vnu, v.axe} {
		if _, err := os.Stat(f); err != nil {
			fail("validators not installed (run hack/validators.sh): " + err.Error())
		}
	}
	return v
}

// nuCheck validates every document in one run of the checker (the JVM's
// start is most of its cost) and returns its errors by document name.
func (v validators) nuCheck(t *testing.T, docs map[string][]byte) map[string][]string {
	t.Helper()
	dir := t.TempDir()
	var files []string
	for name, b := range docs {
		f := filepath.Join(dir, name+".html")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	sort.Strings(files)
	args := append([]string{"-Xss1m", "-jar", v.vnu, "--format", "json", "--errors-only", "--exit-zero-always", "--stdout"}, files...)
	out, err := exec.Command(v.java, args...).Output()
	if err != nil {
		t.Fatalf("vnu: %v", err)
	}
	var report struct {
		Messages []struct {
			Type, URL, Message, Extract string
			LastLine                    int
		}
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("vnu's report: %v: %.500s", err, out)
	}
	found := map[string][]string{}
	for _, m := range report.Messages {
		name := strings.TrimSuffix(filepath.Base(m.URL), ".html")
		found[name] = append(found[name], fmt.Sprintf("%s, line %d: %s (%q)", m.Type, m.LastLine, m.Message, m.Extract))
	}
	return found
}

// axeCheck loads a page in the browser, runs tamper (script, may be empty)
// and axe-core on it and returns the violations not excepted, one line each
// with the elements at fault.
func (v validators) axeCheck(t *testing.T, ctx context.Context, u, tamper string) []string {
	t.Helper()
	src, err := os.ReadFile(v.axe)
	if err != nil {
		t.Fatal(err)
	}
	// Runtime.evaluate is the browser's own channel, not the page's: the
	// pages' Content-Security-Policy (no script) does not apply to it.
	tags, _ := json.Marshal(axeTags)
	run := `axe.run(document, {runOnly: {type: "tag", values: ` + string(tags) + `}, resultTypes: ["violations"]})
  .then(r => r.violations.map(v => ({id: v.id, help: v.help, nodes: v.nodes.map(n => n.target.join(" ") + " " + n.html.slice(0, 160))})))`
	if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
		t.Fatalf("load %s: %v", u, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[any](string(src)+";"+tamper+";0")); err != nil {
		t.Fatalf("inject axe-core into %s: %v", u, err)
	}
	type violation struct {
		ID, Help string
		Nodes    []string
	}
	found, err := chromedp.Run(ctx, chromedp.Evaluate[[]violation](run, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe on %s: %v", u, err)
	}
	var out []string
	for _, f := range found {
		if _, ok := axeExceptions[f.ID]; ok {
			continue
		}
		out = append(out, fmt.Sprintf("%s (%s): %s", f.ID, f.Help, strings.Join(f.Nodes, "; ")))
	}
	return out
}
