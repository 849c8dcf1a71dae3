package stack

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"testing"
	"time"

	"siteplane.dev/services/pkg/contract"
)

// signIdentity builds an identity header in the wire format of
// services/internal/platform/identity (v2: key id, audience, user, role,
// expiry), signed with the stack's internal key: what an attacker holding a
// once-valid header, or a service, could send.
func signIdentity(key, audience string, user int64, role string, exp time.Time) string {
	kid := sha256.Sum256(append([]byte("siteplane/internal-key-id/v1\x00"), key...))
	payload := fmt.Sprintf("v2|%s|%s|%d|%s|%d", hex.EncodeToString(kid[:])[:12], audience, user, role, exp.Unix())
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte(payload))
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(payload)) + "." + enc.EncodeToString(m.Sum(nil))
}

// signIdentityV1 is the header format before key ids, audiences and the
// lifetime bound: exactly what the attacker sent.
func signIdentityV1(key string, user int64, role string, exp time.Time) string {
	payload := fmt.Sprintf("v1|%d|%s|%d", user, role, exp.Unix())
	m := hmac.New(sha256.New, []byte(key))
	m.Write([]byte(payload))
	enc := base64.RawURLEncoding
	return enc.EncodeToString([]byte(payload)) + "." + enc.EncodeToString(m.Sum(nil))
}

func rawGet(t *testing.T, url, identityHeader string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if identityHeader != "" {
		req.Header.Set(contract.IdentityHeader, identityHeader)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// Issue 15: "an identity header signed to expire in the year 2100 — accepted
// by the content service; the gateway's internal user lookup answers it on
// the public listener". The receiver bounds the lifetime, checks the
// audience, and the lookup exists on the internal listener only.
func TestIdentityHeaderLifetimeAudienceAndInternalListener(t *testing.T) {
	content := st.URL(contract.ServiceContent) + "/cms/v2/posts?per_page=1"
	now := time.Now()
	year2100 := time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header string
		status int
	}{
		{"valid, two minutes", signIdentity(st.key, contract.ServiceContent, 1, "administrator", now.Add(2*time.Minute)), 0},
		{"expires in 2100", signIdentity(st.key, contract.ServiceContent, 1, "administrator", year2100), 401},
		{"old format, expires in 2100", signIdentityV1(st.key, 1, "administrator", year2100), 401},
		{"one hour", signIdentity(st.key, contract.ServiceContent, 1, "administrator", now.Add(time.Hour)), 401},
		{"signed for media", signIdentity(st.key, contract.ServiceMedia, 1, "administrator", now.Add(time.Minute)), 401},
		{"signed with another key", signIdentity("not-the-key", contract.ServiceContent, 1, "administrator", now.Add(time.Minute)), 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := rawGet(t, content, tt.header)
			if tt.status == 0 {
				// accepted: whatever the route answers, not the identity refusal
				if status == 401 {
					t.Fatalf("a valid header was refused: %s", body)
				}
				return
			}
			if status != tt.status {
				t.Fatalf("status %d, want %d: %s", status, tt.status, body)
			}
		})
	}

	lookup := contract.UserLookupPath + "/1"
	valid := signIdentity(st.key, contract.ServiceGateway, 0, "subscriber", now.Add(time.Minute))
	for _, h := range []string{valid, signIdentityV1(st.key, 0, "subscriber", year2100)} {
		if status, body := rawGet(t, st.Gateway+lookup, h); status != http.StatusNotFound {
			t.Errorf("public listener %s: %d %s, want 404", lookup, status, body)
		}
	}
	if status, body := rawGet(t, st.GatewayInternal+lookup, valid); status != http.StatusOK {
		t.Errorf("internal listener %s: %d %s, want 200", lookup, status, body)
	}
	if status, _ := rawGet(t, st.GatewayInternal+lookup, signIdentity(st.key, contract.ServiceGateway, 0, "subscriber", year2100)); status != http.StatusForbidden {
		t.Errorf("internal listener with a header valid until 2100: %d, want 403", status)
	}
}
