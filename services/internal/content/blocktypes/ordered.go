package blocktypes

import (
	"bytes"
	"encoding/json"
	"fmt"

	"siteplane.dev/services/internal/platform/rest"
)

// DecodeOrdered reads one JSON value keeping the order of object keys
// (WordPress answers block.json's objects in the order PHP decoded them):
// objects become rest.Object, arrays []any, numbers json.Number.
func DecodeOrdered(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	v, err := readValue(d)
	if err != nil {
		return nil, fmt.Errorf("decode JSON: %w", err)
	}
	return v, nil
}

func readValue(d *json.Decoder) (any, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := rest.Object{}
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return nil, err
			}
			v, err := readValue(d)
			if err != nil {
				return nil, err
			}
			key, _ := k.(string)
			o = append(o, rest.Member{Key: key, Value: v})
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
	return tok, nil
}
