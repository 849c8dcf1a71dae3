package content

import (
	"fmt"
	"testing"
)

// The role matrix of create, update and delete for every post type, on an
// item published by the administrator (so "others'" rules apply).
func TestRoleMatrix(t *testing.T) {
	e := newEnv(t)
	roles := []string{anon, subscriber, contributor, author, editor, admin}
	type row struct {
		base                 string
		create, edit, delete []int // per role, in the order of roles
	}
	rows := []row{
		{"posts", []int{401, 403, 403, 201, 201, 201}, []int{401, 403, 403, 403, 200, 200}, []int{401, 403, 403, 403, 200, 200}},
		{"pages", []int{401, 403, 403, 403, 201, 201}, []int{401, 403, 403, 403, 200, 200}, []int{401, 403, 403, 403, 200, 200}},
		{"blocks", []int{401, 403, 403, 201, 201, 201}, []int{401, 403, 403, 403, 200, 200}, []int{401, 403, 403, 403, 200, 200}},
		{"navigation", []int{401, 403, 403, 403, 403, 201}, []int{401, 403, 403, 403, 403, 200}, []int{401, 403, 403, 403, 403, 200}},
	}
	for _, r := range rows {
		for i, who := range roles {
			t.Run(r.base+"/"+who, func(t *testing.T) {
				res := e.do(who, "POST", "/cms/v2/"+r.base, map[string]any{"title": "x", "status": "publish"})
				if res.Status != r.create[i] {
					t.Fatalf("create: %d %s", res.Status, res.Raw)
				}
				if res.Status >= 400 {
					code := res.obj()["code"]
					if code != "rest_cannot_create" && code != "rest_cannot_publish" {
						t.Fatalf("create code: %s", res.Raw)
					}
				}
				item := e.do(admin, "POST", "/cms/v2/"+r.base, map[string]any{"title": "admin's", "status": "publish"})
				path := fmt.Sprintf("/cms/v2/%s/%d", r.base, item.id())
				upd := e.do(who, "PATCH", path, map[string]any{"title": "changed"})
				if upd.Status != r.edit[i] || (upd.Status >= 400 && upd.obj()["code"] != "rest_cannot_edit") {
					t.Fatalf("update: %d %s", upd.Status, upd.Raw)
				}
				del := e.do(who, "DELETE", path, nil)
				if del.Status != r.delete[i] || (del.Status >= 400 && del.obj()["code"] != "rest_cannot_delete") {
					t.Fatalf("delete: %d %s", del.Status, del.Raw)
				}
			})
		}
	}
}
