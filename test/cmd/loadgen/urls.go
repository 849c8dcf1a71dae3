package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
)

// readURLs reads a target's URL list: one URL per line, blank lines and
// lines starting with # skipped.
func readURLs(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var urls []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			urls = append(urls, line)
		}
	}
	if len(urls) == 0 {
		return nil, fmt.Errorf("%s: no URL", path)
	}
	return urls, nil
}

// newWireRequests serialises t's request, and with a URL list one whole
// request per URL, taken in turn by render. Every URL must be on the first
// one's address (a connection serves them all); a body with {{seq}} or
// from a large file cannot be combined with a list.
func newWireRequests(t target, headers []string) (*wireRequest, error) {
	w, err := newWireRequest(t, headers)
	if err != nil || len(t.urls) < 2 {
		return w, err
	}
	if w.template != "" || w.body != nil {
		return nil, fmt.Errorf("target %q: a URL list takes no {{seq}} body or large file", t.name)
	}
	for _, u := range t.urls {
		one := t
		one.url = u
		v, err := newWireRequest(one, headers)
		if err != nil {
			return nil, err
		}
		if v.addr != w.addr || (v.tls == nil) != (w.tls == nil) {
			return nil, errors.New("target " + t.name + ": " + u + " is not on " + w.addr)
		}
		w.variants = append(w.variants, v.fixed)
	}
	return w, nil
}
