package resources

import (
	"encoding/json"
	"fmt"
)

// convert copies v into a value of type T through JSON. It turns user-given
// API types (env vars, resources, network peers) into their apply
// configurations, which share the JSON shape; the conversion cannot fail for
// those pairs, so a failure is a programming error.
func convert[T any](v any) *T {
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
