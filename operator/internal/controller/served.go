package controller

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// servedTTL bounds how long an answer about an optional API is trusted, so
// installing the Gateway API or the Prometheus Operator after the operator
// is picked up within a minute without a discovery call on every pass.
const servedTTL = time.Minute

// servedKinds remembers whether optional kinds (HTTPRoute, ServiceMonitor)
// are served by the cluster.
type servedKinds struct {
	mu      sync.Mutex
	answers map[schema.GroupVersionKind]servedAnswer
}

type servedAnswer struct {
	served bool
	at     time.Time
}

// isServed asks the REST mapper, caching the answer for servedTTL.
func (s *servedKinds) isServed(mapper meta.RESTMapper, gvk schema.GroupVersionKind, now time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if a, ok := s.answers[gvk]; ok && now.Sub(a.at) < servedTTL {
		return a.served, nil
	}
	return s.askLocked(mapper, gvk, now)
}

// refresh asks the REST mapper whatever the cached answer says. (The
// mapper asks the API server again for a kind it did not know.)
func (s *servedKinds) refresh(mapper meta.RESTMapper, gvk schema.GroupVersionKind, now time.Time) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.askLocked(mapper, gvk, now)
}

func (s *servedKinds) askLocked(mapper meta.RESTMapper, gvk schema.GroupVersionKind, now time.Time) (bool, error) {
	_, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	served := err == nil
	if err != nil && !meta.IsNoMatchError(err) {
		return false, err
	}
	if s.answers == nil {
		s.answers = map[schema.GroupVersionKind]servedAnswer{}
	}
	s.answers[gvk] = servedAnswer{served: served, at: now}
	return served, nil
}
