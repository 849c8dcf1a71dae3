package gateway

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"siteplane.dev/services/internal/gateway/routing"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// descriptionsTTL bounds how stale the merged index may be: a restarted
// service with new routes shows up within this time even if the route file
// did not change.
const descriptionsTTL = 5 * time.Second

// serviceIndex is one service's published route index and a validation-only
// kit server rebuilt from it, which pre-validates batch sub-requests exactly
// as the service would.
type serviceIndex struct {
	index     *rest.Index
	validator *rest.Server
	fetched   time.Time
	// sum identifies the description the service published: an unchanged
	// one keeps its parsed index and validator (and the merged index)
	sum [sha256.Size]byte
}

// sameIndexes reports whether two sets of service indexes describe the
// same routes.
func sameIndexes(a, b map[string]*serviceIndex) bool {
	if len(a) != len(b) {
		return false
	}
	for name, x := range a {
		if y := b[name]; y == nil || y.sum != x.sum {
			return false
		}
	}
	return true
}

// descriptions caches the services' route descriptions.
type descriptions struct {
	client  *http.Client
	rootURL string

	mu      sync.Mutex
	table   *routing.Table
	loaded  time.Time
	byName  map[string]*serviceIndex
	loading chan struct{} // non-nil while a refresh runs
	// version counts the refreshes: what is built from byName (the merged
	// index) is kept until it changes
	version uint64
}

func newDescriptions(transport http.RoundTripper, rootURL string) *descriptions {
	return &descriptions{client: &http.Client{Transport: transport, Timeout: 3 * time.Second}, rootURL: rootURL,
		byName: map[string]*serviceIndex{}}
}

// invalidate forces a refresh on next use (route file changed).
func (d *descriptions) invalidate() {
	d.mu.Lock()
	d.loaded = time.Time{}
	d.mu.Unlock()
}

// get returns the indexes of the describing services of t. Fresh data is
// returned at once; stale data for the same table is returned at once too
// while one background refresh runs (a slow service must not slow the
// index down); only a new table (or the first call) waits for the fetch. A
// service that cannot be reached keeps its last known index (or is left
// out), so one service being down does not break the index.
func (d *descriptions) get(ctx context.Context, t *routing.Table) map[string]*serviceIndex {
	out, _ := d.getVersioned(ctx, t)
	return out
}

// getVersioned is get with the version of the answer: equal versions mean
// equal indexes.
func (d *descriptions) getVersioned(ctx context.Context, t *routing.Table) (map[string]*serviceIndex, uint64) {
	for {
		d.mu.Lock()
		sameTable := d.table == t && !d.loaded.IsZero()
		if sameTable && time.Since(d.loaded) < descriptionsTTL {
			out, v := d.byName, d.version
			d.mu.Unlock()
			return out, v
		}
		if sameTable {
			out, v := d.byName, d.version
			if d.loading == nil {
				d.startRefresh(t)
			}
			d.mu.Unlock()
			return out, v
		}
		wait := d.loading
		if wait == nil {
			wait = d.startRefresh(t)
		}
		d.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			d.mu.Lock()
			out, v := d.byName, d.version
			d.mu.Unlock()
			return out, v
		}
	}
}

// startRefresh fetches every description in the background; d.mu is held.
func (d *descriptions) startRefresh(t *routing.Table) chan struct{} {
	done := make(chan struct{})
	d.loading = done
	old := d.byName
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		fresh := d.fetchAll(ctx, t, old)
		d.mu.Lock()
		if !sameIndexes(d.byName, fresh) || d.table != t {
			d.version++
		}
		d.byName, d.table, d.loaded, d.loading = fresh, t, time.Now(), nil
		d.mu.Unlock()
		close(done)
	}()
	return done
}

func (d *descriptions) fetchAll(ctx context.Context, t *routing.Table, old map[string]*serviceIndex) map[string]*serviceIndex {
	backends := t.Describing()
	results := make([]*serviceIndex, len(backends))
	var wg sync.WaitGroup
	for i, b := range backends {
		wg.Add(1)
		go func() {
			defer wg.Done()
			si, err := d.fetch(ctx, b, old[b.Name])
			if err != nil {
				results[i] = old[b.Name] // keep the last known description
				return
			}
			results[i] = si
		}()
	}
	wg.Wait()
	out := map[string]*serviceIndex{}
	for i, b := range backends {
		if results[i] != nil {
			out[b.Name] = results[i]
		}
	}
	return out
}

func (d *descriptions) fetch(ctx context.Context, b *routing.Backend, old *serviceIndex) (*serviceIndex, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.Base.String()+contract.RouteDescriptionsPath, nil)
	if err != nil {
		return nil, err
	}
	res, err := d.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s answered %d", b.Name, contract.RouteDescriptionsPath, res.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(res.Body, 32<<20))
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(body)
	if old != nil && old.sum == sum {
		return old, nil
	}
	ix, err := rest.ParseIndex(body)
	if err != nil {
		return nil, fmt.Errorf("%s: route descriptions: %w", b.Name, err)
	}
	v, err := rest.New(rest.Options{RootURL: d.rootURL}, ix.RoutesForValidation()...)
	if err != nil {
		return nil, fmt.Errorf("%s: route descriptions: %w", b.Name, err)
	}
	return &serviceIndex{index: ix, validator: v, fetched: time.Now(), sum: sum}, nil
}
