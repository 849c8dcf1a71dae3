// Package jsonkeys reads the member names of a JSON object in document
// order, which encoding/json's maps forget. WordPress's answers are
// compared field order and all, so the tests of every module use it.
package jsonkeys

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Of returns the names of the top-level members of the JSON object raw, in
// the order they appear.
func Of(raw []byte) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, errors.New("jsonkeys: not a JSON object")
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("jsonkeys: %w", err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, fmt.Errorf("jsonkeys: %w", err)
		}
	}
	return keys, nil
}
