package store

import (
	"encoding/json"
)

// DecodeUserThemeJSON returns settings and styles of stored user data; ok is
// false when the content is not user theme.json data.
func DecodeUserThemeJSON(content string) (settings, styles map[string]any, ok bool) {
	var m map[string]any
	if json.Unmarshal([]byte(content), &m) != nil || m["isGlobalStylesUserThemeJSON"] != true {
		return nil, nil, false
	}
	settings, _ = m["settings"].(map[string]any)
	styles, _ = m["styles"].(map[string]any)
	return orEmptyMap(settings), orEmptyMap(styles), true
}

func orEmptyMap(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
