package gateway

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"siteplane.dev/services/pkg/contract"
)

var batchAnswers = []string{
	`{"committed":true,"responses":[{"status":201,"headers":{"Location":"http:\/\/x\/cms\/v2\/posts\/5","Allow":"GET, POST"},"body":{"id":5,"title":{"raw":"a \"b\" ]}","rendered":"caf\u00e9"},"tags":[1,2,{"x":[]}]}}]}`,
	`{"responses":[{"body":null,"status":204,"headers":{}},{"status":400,"headers":{},"body":{"code":"rest_invalid_author"}}],"committed":false}`,
	` { "committed" : false , "responses" : [ { "status" : 200 , "headers" : null , "body" : [ 1 , "x" ] } ] } `,
	`{"committed":true,"responses":[]}`,
	`{"committed":true,"responses":[{"status":200,"headers":{"X-WP-Total":"3","Link":"<http://x/?page=2>; rel=\"next\"","X-WP-Total":"4"},"body":[]}]}`,
	`{"committed":true,"responses":[{"status":200,"headers":{"X-WP-Total":3},"body":[]}]}`,
	`{"committed":true,"responses":[{"status":200,"headers":{"X":"café","ÿ":"a"},"body":[]}]}`,
	`{"committed":true,"responses":[{"status":200,"headers":{"X":null,"Y":"1"},"body":[]}]}`,
	`{"committed":true,"responses":[{"status":200,"headers":{"X-\u0041":"1"},"body":[]}]}`,
	`{"committed":true,"responses":[{"status":200,"headers":[],"body":[]}]}`,
	`{"committed":true,"responses":null}`,
	`{"committed":true}`,
	`{}`,
	`{"committed":"yes","responses":[]}`,
	`{"committed":true,"responses":[null]}`,
	`{"committed":true,"responses":[{"Status":201,"body":1}]}`,
	`{"committed":true,"responses":[{"status":2e2}]}`,
	`{"committed":true,"responses":[{"status":201.5}]}`,
	`{"committed":true,"responses":[{"status":201,"extra":1}]}`,
	`{"commit\u0074ed":true}`,
	`{"committed":true,"responses":{"status":1}}`,
	`[]`,
	`{"committed":true,"responses":[{"status":201}`,
	``,
	`null`,
}

// TestDecodeBatchResponseMatchesEncodingJSON: the split gives what
// json.Unmarshal gives, and fails where it fails.
func TestDecodeBatchResponseMatchesEncodingJSON(t *testing.T) {
	for _, a := range batchAnswers {
		checkBatchDecode(t, []byte(a))
	}
}

func FuzzDecodeBatchResponse(f *testing.F) {
	for _, a := range batchAnswers {
		f.Add([]byte(a))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkBatchDecode(t, b) })
}

func checkBatchDecode(t *testing.T, b []byte) {
	t.Helper()
	var want contract.BatchResponse
	wantErr := json.Unmarshal(b, &want)
	got, err := decodeBatchResponse(b)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%q: error %v, json.Unmarshal's %v", b, err, wantErr)
	}
	if err == nil && !reflect.DeepEqual(*got, want) {
		t.Fatalf("%q:\n got %#v\nwant %#v", b, *got, want)
	}
}

// BenchmarkDecodeBatchResponse: the answer to a batch of 25 creates (one
// post's edit-context body, 25 times), split vs json.Unmarshal.
func BenchmarkDecodeBatchResponse(b *testing.B) {
	answer, err := os.ReadFile("testdata/batch-answer.json")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("split", func(b *testing.B) {
		for b.Loop() {
			if _, err := decodeBatchResponse(answer); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			var out contract.BatchResponse
			if err := json.Unmarshal(answer, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
}
