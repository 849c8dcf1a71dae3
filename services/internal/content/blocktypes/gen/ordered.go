package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// member is one key of a decoded JSON object. block.json's key order is
// kept, because WordPress answers the object in the order PHP decoded it.
type member struct {
	Key   string
	Value any
}

// object is a JSON object in its source order.
type object []member

func (o object) get(key string) (any, bool) {
	for _, m := range o {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

func (o object) has(key string) bool {
	_, ok := o.get(key)
	return ok
}

// decodeOrdered reads one JSON value: objects become object, arrays []any,
// numbers json.Number.
func decodeOrdered(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	v, err := readValue(d)
	if err != nil {
		return nil, fmt.Errorf("decode JSON: %w", err)
	}
	return v, nil
}

func readValue(d *json.Decoder) (any, error) {
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t {
	case json.Delim('{'):
		o := object{}
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return nil, err
			}
			v, err := readValue(d)
			if err != nil {
				return nil, err
			}
			o = append(o, member{Key: k.(string), Value: v})
		}
		_, err = d.Token()
		return o, err
	case json.Delim('['):
		l := []any{}
		for d.More() {
			v, err := readValue(d)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		_, err = d.Token()
		return l, err
	}
	return t, nil
}

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
