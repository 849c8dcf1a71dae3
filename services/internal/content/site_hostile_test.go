package content

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

// The website answers hostile query strings and paths without a 5xx.
func TestSiteHostileInputsNever5xx(t *testing.T) {
	e := newEnv(t)
	wantStatus(t, e.do(admin, "POST", "/cms/v2/posts", map[string]any{"title": "One", "status": "publish"}), 201)
	h := identity.Middleware(identity.Static(testKey), contract.ServiceContent, nil, func(w http.ResponseWriter, r *http.Request, err error) {
		http.Error(w, err.Error(), http.StatusUnauthorized)
	})(e.svc.SiteHandler(nil))
	for _, p := range []string{"/?s=%00", "/?s=%ff", "/?p=99999999999999999999", "/?paged=9223372036854775807", "/?cat=%00",
		"/?author_name=%00", "/?tag=%00", "/?name=%00", "/?feed=rss2&s=%00", "/?page_id=%00", "/?s=a+b+c+d+e+f+g+h+i+j+k",
		"/tag/%00/", "/%ff/", "/author/%00/", "/?m=%00", "/?p=-1", "/page/9223372036854775807/", "/?%00=1"} {
		req := httptest.NewRequest("GET", contract.SitePath+p, nil)
		req.Header.Set(contract.IdentityHeader, identity.Sign(identity.NewKey(testKey), contract.ServiceContent, callers[admin], time.Now().Add(time.Minute)))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Errorf("%s: %d %.200s", p, rec.Code, rec.Body)
		}
	}
}
