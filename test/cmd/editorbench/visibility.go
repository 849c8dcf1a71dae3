package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// visibility is one site for -visibility: a template saved through REST,
// then the website read once by an anonymous visitor.
type visibility struct{ name, base, rest, auth, template, path string }

// saveResult is one save and the website's first answer after it.
type saveResult struct {
	visible     bool
	save, first time.Duration
}

// rest calls the REST API as the site's administrator (login:application
// password) and decodes a JSON object answer.
func (v visibility) call(method, path string, body any) (map[string]any, error) {
	var in io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		in = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, v.rest+path, in)
	if err != nil {
		return nil, err
	}
	user, pass, _ := strings.Cut(v.auth, ":")
	req.SetBasicAuth(user, pass)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode >= 300 {
		return nil, fmt.Errorf("%s %s: %d (%v)", method, path, res.StatusCode, err)
	}
	return out, nil
}

// page reads the website's page anonymously (caches primed, as a visitor
// does).
func (v visibility) page() (string, error) {
	res, err := http.Get(v.base + v.path)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return string(b), err
}

// saves saves the template n times, each with a new paragraph, and reads
// the page once after each save; the template is reverted to the theme's
// file at the end (DELETE, as the site editor's "Reset").
func (v visibility) saves(n int) ([]saveResult, error) {
	tpl, err := v.call("GET", "/templates/"+v.template+"?context=edit", nil)
	if err != nil {
		return nil, err
	}
	content, _ := tpl["content"].(map[string]any)["raw"].(string)
	defer func() { _, _ = v.call("DELETE", "/templates/"+v.template, nil) }()
	var out []saveResult
	for i := range n {
		if _, err := v.page(); err != nil {
			return nil, err
		}
		mark := fmt.Sprintf("Saved by editorbench %d-%d", time.Now().UnixNano(), i)
		start := time.Now()
		if _, err := v.call("POST", "/templates/"+v.template, map[string]any{
			"content": "<!-- wp:paragraph -->\n<p>" + mark + "</p>\n<!-- /wp:paragraph -->\n" + content}); err != nil {
			return nil, err
		}
		saved := time.Now()
		body, err := v.page()
		if err != nil {
			return nil, err
		}
		out = append(out, saveResult{strings.Contains(body, mark), saved.Sub(start), time.Since(saved)})
	}
	return out, nil
}

// printVisibility prints the table of -visibility: how many saves the
// website's first answer after showed, and the medians.
func printVisibility(raw []string, n int) error {
	fmt.Println("| site | template saves | shown by the first request after | save (ms, median) | that request (ms, median) |")
	fmt.Println("|---|---|---|---|---|")
	for _, r := range raw {
		p := strings.Split(r, "|")
		if len(p) != 6 {
			return fmt.Errorf("-visibility needs 6 fields: %s", r)
		}
		v := visibility{p[0], p[1], p[2], p[3], p[4], p[5]}
		res, err := v.saves(n)
		if err != nil {
			return fmt.Errorf("%s: %w", v.name, err)
		}
		shown := 0
		var saves, firsts []float64
		for _, x := range res {
			if x.visible {
				shown++
			}
			saves, firsts = append(saves, float64(x.save.Milliseconds())), append(firsts, float64(x.first.Milliseconds()))
		}
		fmt.Printf("| %s | %d | %d | %.0f | %.0f |\n", v.name, n, shown, medianOf(saves), medianOf(firsts))
	}
	return nil
}
