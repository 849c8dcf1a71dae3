package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"siteplane.dev/services/internal/content/blocktypes"
	"siteplane.dev/services/internal/platform/rest"
)

// object is a JSON object in its source order (block.json's order is kept:
// WordPress answers objects in the order PHP decoded them).
type object = rest.Object

// hasKey reports whether o has key.
func hasKey(o object, key string) bool {
	_, ok := o.Get(key)
	return ok
}

// decodeOrdered reads one JSON value, objects in their order.
func decodeOrdered(b []byte) (any, error) { return blocktypes.DecodeOrdered(b) }

// writeValue writes v as compact JSON without HTML escaping; an empty
// object is written as [] because PHP encodes an empty array so.
func writeValue(w io.Writer, v any) error {
	switch x := v.(type) {
	case object:
		if len(x) == 0 {
			_, err := io.WriteString(w, "[]")
			return err
		}
		if _, err := io.WriteString(w, "{"); err != nil {
			return err
		}
		for i, m := range x {
			if i > 0 {
				if _, err := io.WriteString(w, ","); err != nil {
					return err
				}
			}
			if err := writeScalar(w, m.Key); err != nil {
				return err
			}
			if _, err := io.WriteString(w, ":"); err != nil {
				return err
			}
			if err := writeValue(w, m.Value); err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, "}")
		return err
	case []any:
		if _, err := io.WriteString(w, "["); err != nil {
			return err
		}
		for i, el := range x {
			if i > 0 {
				if _, err := io.WriteString(w, ","); err != nil {
					return err
				}
			}
			if err := writeValue(w, el); err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, "]")
		return err
	}
	return writeScalar(w, v)
}

func writeScalar(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("encode %v: %w", v, err)
	}
	_, err := w.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return err
}
