package resources

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
	"strings"

	sitev1 "siteplane.dev/operator/api/v1alpha1"
)

// AnnotationSourceHashes sits on a Deployment (its own metadata, not the
// pod template, so it rolls nothing): a short hash per mounted source, the
// ConfigMap's items and each Secret, so a rollout's event can say which of
// them changed instead of "configuration or Secrets".
const AnnotationSourceHashes = "siteplane.dev/source-hashes"

// SourceHashes is the AnnotationSourceHashes value of component's
// Deployment: "name=hash" entries, sorted, comma-separated.
func SourceHashes(site *sitev1.Site, component string, m Mounted) string {
	sources := map[string]string{}
	for _, mt := range mounts(site, component, m) {
		for _, k := range mt.configKeys {
			sources[ConfigMapName(site.Name)+"/"+k] = hashData(map[string]map[string][]byte{k: {k: []byte(m.Config[k])}})[:8]
		}
		for name, keys := range mt.secretKeys {
			data := map[string][]byte{}
			for _, k := range keys {
				data[k] = m.Secrets[name][k]
			}
			sources[name] = hashData(map[string]map[string][]byte{name: data})[:8]
		}
	}
	out := make([]string, 0, len(sources))
	for _, k := range slices.Sorted(maps.Keys(sources)) {
		out = append(out, k+"="+sources[k])
	}
	return strings.Join(out, ",")
}

// ChangedSources names the sources whose hash differs between two
// AnnotationSourceHashes values (added and removed ones included); nil
// when the old value is unknown.
func ChangedSources(old, cur string) []string {
	if old == "" {
		return nil
	}
	parse := func(s string) map[string]string {
		m := map[string]string{}
		for _, e := range strings.Split(s, ",") {
			if k, v, ok := strings.Cut(e, "="); ok {
				m[k] = v
			}
		}
		return m
	}
	o, c := parse(old), parse(cur)
	var changed []string
	for k, v := range c {
		if o[k] != v {
			changed = append(changed, k)
		}
	}
	for k := range o {
		if _, ok := c[k]; !ok {
			changed = append(changed, k)
		}
	}
	slices.Sort(changed)
	return changed
}

// hashData hashes named maps of bytes in a canonical order, so the result
// depends only on the content.
func hashData(groups map[string]map[string][]byte) string {
	h := sha256.New()
	for _, g := range slices.Sorted(maps.Keys(groups)) {
		h.Write([]byte(g))
		h.Write([]byte{0})
		m := groups[g]
		for _, k := range slices.Sorted(maps.Keys(m)) {
			h.Write([]byte(k))
			h.Write([]byte{0})
			h.Write(m[k])
			h.Write([]byte{0})
		}
		h.Write([]byte{1})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}
