package marketplace

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/rest"
)

// Text PostgreSQL refuses (NUL, invalid UTF-8) and more parameters than
// the route kit's limit answer 400 in the marketplace's envelope, before
// any statement: never a 500 and never an ERROR log line.
func TestHostileParametersAnswer400(t *testing.T) {
	e := newTestEnv(t, Config{})
	key := e.keys["alice"]
	many := strings.Repeat("x=1&", rest.MaxInputVars+1)
	tests := []struct {
		name, query, ctype, body string
	}{
		{"purchase_code NUL in the query", "purchase_code=%00", "", ""},
		{"purchase_code invalid UTF-8 in the query", "purchase_code=%ff", "", ""},
		{"purchase_code NUL in a form", "", "application/x-www-form-urlencoded", "purchase_code=%00"},
		{"purchase_code NUL in JSON", "", "application/json", `{"purchase_code":"a\u0000"}`},
		{"NUL in a parameter name", "a%00=1&purchase_code=x", "", ""},
		{"too many query pairs", many + "purchase_code=x", "", ""},
		{"too many form pairs", "", "application/x-www-form-urlencoded", many + "purchase_code=x"},
		{"too many JSON members", "", "application/json", manyJSONMembers(rest.MaxInputVars + 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest("POST", e.url+PathPurchase+"?"+tc.query, strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+key)
			if tc.ctype != "" {
				req.Header.Set("Content-Type", tc.ctype)
			}
			start := time.Now()
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(res.Body)
			res.Body.Close()
			var body map[string]any
			_ = json.Unmarshal(raw, &body)
			if res.StatusCode != 400 || body["status"] != "error" || body["msg"] != msgPurchase {
				t.Fatalf("%d %s", res.StatusCode, raw)
			}
			if took := time.Since(start); took > time.Second {
				t.Fatalf("took %v", took)
			}
			if logs := e.logs.String(); strings.Contains(logs, `"level":"ERROR"`) || strings.Contains(logs, "level=ERROR") {
				t.Fatalf("an ERROR was logged: %s", logs)
			}
		})
	}
}

func manyJSONMembers(n int) string {
	m := make(map[string]int, n)
	for i := 0; i < n; i++ {
		m["k"+strconv.Itoa(i)] = 1
	}
	b, _ := json.Marshal(m)
	return string(b)
}
