package identity

import (
	"net/http"
	"time"

	"siteplane.dev/services/pkg/contract"
)

// Middleware verifies contract.IdentityHeader and stores the caller in the
// request context. A request without the header is anonymous. A present but
// invalid header (tampered, expired, signed with another key) is refused with
// reject, so that a forged identity is never silently downgraded to anonymous
// and a clock or key problem shows up as an error rather than as missing data.
// audience is the receiving service's name: a header signed for another
// service is refused too. Each observer is told of every header checked.
func Middleware(keys Keys, audience string, now func() time.Time, reject func(w http.ResponseWriter, r *http.Request, err error), observers ...Observer) func(http.Handler) http.Handler {
	if now == nil {
		now = time.Now
	}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := r.Header.Get(contract.IdentityHeader)
			if h == "" {
				next.ServeHTTP(w, r)
				return
			}
			id, err := Verify(keys.Keyring(), audience, h, now())
			kid := ""
			if err == nil {
				kid = headerKeyID(h)
			}
			for _, o := range observers {
				o(kid, err)
			}
			if err != nil {
				reject(w, r, err)
				return
			}
			next.ServeHTTP(w, r.WithContext(NewContext(r.Context(), id)))
		})
	}
}
