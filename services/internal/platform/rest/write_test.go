package rest

import (
	"errors"
	"net/http/httptest"
	"testing"
)

func TestWriteErrorCode(t *testing.T) {
	rec := httptest.NewRecorder()
	WriteErrorCode(rec, nil, 418, "rest_teapot", "Short and <b>stout</b>.")
	want := `{"code":"rest_teapot","message":"Short and <b>stout<\/b>.","data":{"status":418}}`
	if rec.Code != 418 || rec.Body.String() != want {
		t.Fatalf("got %d %s, want 418 %s", rec.Code, rec.Body, want)
	}
	if ct := rec.Header().Get("Content-Type"); ct != "application/json; charset=UTF-8" {
		t.Fatalf("Content-Type %q", ct)
	}
	if cl := rec.Header().Get("Content-Length"); cl != "81" {
		t.Fatalf("Content-Length %q for %d bytes", cl, rec.Body.Len())
	}
}

func TestWriteJSONKeepsObjectOrder(t *testing.T) {
	rec := httptest.NewRecorder()
	WriteJSON(rec, 200, Object{{Key: "z", Value: 1}, {Key: "a", Value: []any{"x/y"}}})
	if got, want := rec.Body.String(), `{"z":1,"a":["x\/y"]}`; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestMemoComputesOnce(t *testing.T) {
	type key string
	r := &Request{}
	calls := 0
	boom := errors.New("missing")
	load := func() (any, error) { calls++; return nil, boom }
	for range 3 {
		if _, err := r.Memo(key("post"), load); !errors.Is(err, boom) {
			t.Fatalf("err = %v", err)
		}
	}
	if calls != 1 {
		t.Fatalf("computed %d times, want once (errors are remembered too)", calls)
	}
	// a parameter of the same name is no memoised value
	r.Set("post", "client value")
	v, _ := r.Memo(key("other"), func() (any, error) { return 7, nil })
	if v != 7 {
		t.Fatalf("other key = %v", v)
	}
}
