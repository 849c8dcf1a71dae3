package resources

import (
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"
)

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
