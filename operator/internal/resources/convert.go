package resources

import (
	"encoding/json"
	"fmt"
)

// Convert copies v into a value of type T through JSON. It turns user-given
// API types (env vars, resources, network peers) into their apply
// configurations, and an applied configuration (filled from the API
// server's answer) back into its typed object. Both sides share the JSON
// shape, so a failure is a programming error.
func Convert[T any](v any) *T {
	data, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("resources: marshal %T: %v", v, err))
	}
	out := new(T)
	if err := json.Unmarshal(data, out); err != nil {
		panic(fmt.Sprintf("resources: unmarshal %T into %T: %v", v, out, err))
	}
	return out
}

func marshalIndent(v any) ([]byte, error) { return json.MarshalIndent(v, "", "  ") }
