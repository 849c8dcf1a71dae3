package controller

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// applyMemo remembers, per child, what the operator last applied and the
// resourceVersion the API server answered with. A pass whose apply would
// send the same content to an object the cache shows unchanged since (same
// UID and resourceVersion: nobody wrote it, not even its status) skips the
// request: at a few hundred Sites the re-applies of unchanged children
// were most of the operator's API traffic, and an unchanged object is by
// definition still what the operator wants. Any write by anyone changes
// the resourceVersion and brings the apply back, so drift is still
// repaired on the pass the change triggers.
type applyMemo struct {
	m sync.Map // memoKey -> memoEntry
}

type memoKey struct {
	gvk             schema.GroupVersionKind
	namespace, name string
}

type memoEntry struct {
	hash [sha256.Size]byte
	uid  types.UID
	rv   string
}

// namedApplyConfiguration is what every typed apply configuration offers.
type namedApplyConfiguration interface {
	runtime.ApplyConfiguration
	GetName() *string
	GetNamespace() *string
	GetKind() *string
	GetAPIVersion() *string
}

// applyMemoized applies obj unless the memo shows it unchanged (see
// applyMemo). Untyped objects (the optional kinds) are always applied.
func (r *SiteReconciler) applyMemoized(ctx context.Context, obj runtime.ApplyConfiguration) error {
	named, ok := obj.(namedApplyConfiguration)
	if !ok || named.GetName() == nil || named.GetKind() == nil || named.GetAPIVersion() == nil {
		return r.apply(ctx, obj)
	}
	gv, err := schema.ParseGroupVersion(*named.GetAPIVersion())
	if err != nil {
		return r.apply(ctx, obj)
	}
	key := memoKey{gvk: gv.WithKind(*named.GetKind()), name: *named.GetName()}
	if ns := named.GetNamespace(); ns != nil {
		key.namespace = *ns
	}
	body, err := json.Marshal(obj)
	if err != nil {
		return r.apply(ctx, obj)
	}
	hash := sha256.Sum256(body)
	if v, ok := r.memo.m.Load(key); ok && v.(memoEntry).hash == hash {
		if live, err := r.Scheme.New(key.gvk); err == nil {
			if lo, ok := live.(client.Object); ok &&
				r.Get(ctx, client.ObjectKey{Namespace: key.namespace, Name: key.name}, lo) == nil &&
				lo.GetUID() == v.(memoEntry).uid && lo.GetResourceVersion() == v.(memoEntry).rv {
				return nil
			}
		}
	}
	if err := r.apply(ctx, obj); err != nil {
		r.memo.m.Delete(key)
		return err
	}
	// The apply configuration now holds the API server's answer.
	var answer struct {
		Metadata struct {
			UID             types.UID `json:"uid"`
			ResourceVersion string    `json:"resourceVersion"`
		} `json:"metadata"`
	}
	if b, err := json.Marshal(obj); err == nil && json.Unmarshal(b, &answer) == nil && answer.Metadata.ResourceVersion != "" {
		r.memo.m.Store(key, memoEntry{hash: hash, uid: answer.Metadata.UID, rv: answer.Metadata.ResourceVersion})
	}
	return nil
}

// forgetSite drops the memo entries of a deleted Site's children (named
// <site>-...; a same-prefixed neighbour only loses its skips once).
func (r *SiteReconciler) forgetSite(namespace, site string) {
	r.memo.m.Range(func(k, _ any) bool {
		if key := k.(memoKey); key.namespace == namespace && (key.name == site || strings.HasPrefix(key.name, site+"-")) {
			r.memo.m.Delete(k)
		}
		return true
	})
}
