package resources

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
)

// hashData hashes named maps of bytes in a canonical order, so the result
// depends only on the content.
func hashData(groups map[string]map[string][]byte) string {
	h := sha256.New()
	for _, g := range sortedKeys(groups) {
		h.Write([]byte(g))
		h.Write([]byte{0})
		m := groups[g]
		for _, k := range sortedKeys(m) {
			h.Write([]byte(k))
			h.Write([]byte{0})
			h.Write(m[k])
			h.Write([]byte{0})
		}
		h.Write([]byte{1})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
