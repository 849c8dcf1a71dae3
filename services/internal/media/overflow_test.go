package media

import (
	"fmt"
	"net/http"
	"testing"
)

// A parent id past what any post can have is refused as rest_invalid_param
// before anything is stored, in every write that takes one (on a1ed099 the
// upload and the update accepted 9223372036854775807, and 2^63 was stored
// as it).
func TestParentIDOverflow(t *testing.T) {
	e := newEnv(t)
	id := num(e.upload(author, 40, 30)["id"])
	src := uploadPath(t, e.request(author, "GET", fmt.Sprintf("/cms/v2/media/%d", id), nil, nil).obj()["source_url"].(string))
	for _, post := range []string{"9223372036854775807", "9223372036854775808", "99999999999999999999", "9007199254740992"} {
		tests := []struct {
			name string
			send func() *resp
		}{
			{"upload", func() *resp { return e.uploadRaw(author, "?post="+post, "a.jpg", "image/jpeg", testJPEG(t, 20, 20)) }},
			{"update", func() *resp {
				return e.request(author, "POST", fmt.Sprintf("/cms/v2/media/%d?post=%s", id, post), nil, nil)
			}},
			{"edit", func() *resp {
				return e.request(author, "POST", fmt.Sprintf("/cms/v2/media/%d/edit?post=%s&rotation=90&src=http://localhost:8080%s", id, post, src), nil, nil)
			}},
		}
		for _, tc := range tests {
			t.Run(tc.name+" "+post, func(t *testing.T) {
				r := tc.send()
				wantError(t, r, http.StatusBadRequest, "rest_invalid_param", "Invalid parameter(s): post")
			})
		}
	}
	if n := e.rows(); n != 1 {
		t.Errorf("%d attachments, want the first only", n)
	}
}
