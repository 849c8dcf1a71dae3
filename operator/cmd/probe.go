package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net/http"
	"time"
)

// probeCommand is `siteplane-operator probe [flags] URL...`: GET each URL
// until it answers 2xx, within a deadline. The chart's `helm test` Pod runs
// it against a Site's gateway, from the operator's own image, so testing a
// release needs no other image (a shell with curl) in the cluster.
func probeCommand(ctx context.Context, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("probe", flag.ContinueOnError)
	fs.SetOutput(out)
	timeout := fs.Duration("timeout", 2*time.Minute, "Give up when the URLs have not all answered 2xx by then.")
	interval := fs.Duration("interval", 2*time.Second, "Wait between attempts.")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("probe: no URL given")
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	hc := &http.Client{Timeout: 10 * time.Second}
	for _, url := range fs.Args() {
		var last string
		for {
			status, err := get(ctx, hc, url)
			if err == nil && status >= 200 && status < 300 {
				fmt.Fprintf(out, "ok %s: %d\n", url, status)
				break
			}
			switch {
			case err != nil && ctx.Err() != nil:
				// Cut off by the deadline: the previous answer says more.
			case err != nil:
				last = err.Error()
			default:
				last = fmt.Sprintf("status %d", status)
			}
			select {
			case <-ctx.Done():
				return fmt.Errorf("probe %s: no 2xx answer within %s (last: %s)", url, *timeout, last)
			case <-time.After(*interval):
			}
		}
	}
	return nil
}

func get(ctx context.Context, hc *http.Client, url string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return 0, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, nil
}
