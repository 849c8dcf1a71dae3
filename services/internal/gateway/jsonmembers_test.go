package gateway

import (
	"encoding/json"
	"reflect"
	"testing"

	"siteplane.dev/services/pkg/jsonkeys"
)

// referenceMembers is what json.Decoder makes of raw: its keys in order
// (jsonkeys) with the values encoding/json reads for them.
func referenceMembers(raw []byte) ([]member, bool) {
	keys, err := jsonkeys.Of(raw)
	if err != nil {
		return nil, false
	}
	var values map[string]json.RawMessage
	if json.Unmarshal(raw, &values) != nil {
		return nil, false
	}
	out := []member{}
	for _, k := range keys {
		out = append(out, member{k, values[k]})
	}
	return out, true
}

// splitMembers splits valid objects exactly as json.Decoder did.
func TestSplitMembers(t *testing.T) {
	for _, raw := range []string{
		`{}`,
		` { } `,
		`{"a":1}`,
		`{"id":5,"title":{"rendered":"a \"}\" b ]"},"tags":[1,2,[3]],"n":null,"t":true,"f":-1.5e3}`,
		"{\n  \"a\" : [ ] ,\n\t\"b\":{ }\r\n}",
		`{"k\"ey":"v","\u00e9":"\\","_links":{"self":[{"href":"http://x/?a=1&b=[2]"}]}}`,
		`{"s":"{[","x":"]}"}`,
		`[1,2]`,
		`"str"`,
	} {
		got, gotOK := splitMembers([]byte(raw))
		want, wantOK := referenceMembers([]byte(raw))
		if gotOK != wantOK || (wantOK && !reflect.DeepEqual(got, want)) {
			t.Errorf("%s: got %v %q, want %v %q", raw, gotOK, got, wantOK, want)
		}
	}
}

// splitArray splits valid arrays exactly as json.Unmarshal into
// []json.RawMessage does, and refuses what it refuses.
func TestSplitArray(t *testing.T) {
	for _, raw := range []string{
		`[]`, ` [ ] `, `[1]`, `[{"a":"]"},[1,[2]],"x\"]",null,true,-0.5]`, "[\n {\"id\": 1} ,\n\t{\"id\":2}\n]",
		`{"a":1}`, `[1,]`, `[`, `"s"`,
	} {
		got, gotOK := splitArray([]byte(raw))
		var want []json.RawMessage
		wantErr := json.Unmarshal([]byte(raw), &want)
		if gotOK != (wantErr == nil) || (gotOK && !reflect.DeepEqual(got, want)) {
			t.Errorf("%s: got %v %q, want %v %q", raw, gotOK, got, wantErr, want)
		}
	}
}

// linkRefs reads a relation's links exactly as json.Unmarshal into
// []linkRef does, and refuses what it refuses.
func TestLinkRefs(t *testing.T) {
	for _, raw := range []string{
		`[]`,
		`[{"href":"http://x/cms-json/cms/v2/users/1","embeddable":true}]`,
		`[{"embeddable":true,"taxonomy":"category","href":"http://x/?rest_route=\/cms\/v2\/categories&post=5"},{"href":"h","embeddable":false,"x":{"href":"no"}}]`,
		` [ { "href" : "a\"b\u00e9" , "embeddable" : true } , { } ] `,
		`[{"href":"a"}]`,
		`[{"href":"http:\/\/x\/a\\\/b\\/c\u002f","embeddable":true}]`,
		`[{"href":"a","href":"b","embeddable":true,"embeddable":false}]`,
		`[null,{"href":"a","embeddable":true}]`,
		`[{"HREF":"a","Embeddable":true}]`,
		`[{"href":"a","embeddable":null}]`,
		`[{"href":null,"embeddable":true}]`,
		"[{\"href\":\"a\xffb\",\"embeddable\":true}]",
		`[{"href":1,"embeddable":true}]`,
		`[{"href":"a","embeddable":"yes"}]`,
		`[1]`,
		`{"href":"a"}`,
		`null`,
	} {
		got, gotOK := linkRefs([]byte(raw))
		var want []linkRef
		wantErr := json.Unmarshal([]byte(raw), &want)
		if gotOK != (wantErr == nil) || (gotOK && !reflect.DeepEqual(got, want)) {
			t.Errorf("%s: got %v %+v, want %v %+v", raw, gotOK, got, wantErr == nil, want)
		}
	}
}

// linksMember finds what splitMembers finds: the last "_links", nothing
// in an object with "_embedded", however the keys are written.
func TestLinksMember(t *testing.T) {
	reference := func(raw []byte) ([]byte, bool) {
		members, ok := splitMembers(raw)
		if !ok {
			return nil, false
		}
		var links []byte
		for _, m := range members {
			switch m.key {
			case "_embedded":
				return nil, false
			case "_links":
				links = m.raw
			}
		}
		return links, true
	}
	for _, raw := range []string{
		`{}`,
		`{"id":1,"title":{"_links":"no"},"_links":{"self":[{"href":"a"}]}}`,
		`{"_links":{"a":1},"x":"\"_links\"","_links":{"b":2}}`,
		`{"_links":{"a":1},"_embedded":{}}`,
		`{"\u005flinks":{"a":1}}`,
		`{"\u005fembedded":{},"_links":{}}`,
		`{"_links":null}`,
		` { "_links" : [ 1 ] } `,
		`[{"_links":{}}]`,
		`"s"`,
	} {
		got, gotOK := linksMember([]byte(raw))
		want, wantOK := reference([]byte(raw))
		if gotOK != wantOK || string(got) != string(want) || (got == nil) != (want == nil) {
			t.Errorf("%s: got %v %q, want %v %q", raw, gotOK, got, wantOK, want)
		}
	}
}
