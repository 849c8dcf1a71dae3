package gateway

import (
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
)

// The users routes' arguments beyond the plain ones (users.go): WordPress
// 6.9's capabilities, has_published_posts and search_columns filters, the
// id of /users/{id}, and reassign's own sanitising (check_reassign).

// publishedPostTypes is has_published_posts' enum: WordPress lists the
// post types shown in REST (get_post_types names) of a core 6.9 site.
var publishedPostTypes = []any{"post", "page", "attachment", "nav_menu_item", "wp_block", "wp_template",
	"wp_template_part", "wp_global_styles", "wp_navigation", "wp_font_family", "wp_font_face"}

// withUserID puts /users/{id}'s route-level id argument first, where
// WordPress's register_rest_route merges it into each endpoint's args.
func withUserID(args rest.Props) rest.Props {
	id := rest.Prop{Name: "id", Schema: &rest.Schema{Type: "integer", Description: "Unique identifier for the user."}}
	return append(rest.Props{id}, args...)
}

// publishedPostsFilter reports whether has_published_posts asks for
// authors (true or a non-empty list). The gateway does not know who has
// published what, so, as for the public listing, users whose role can
// write posts stand for them (users.go's package comment).
func publishedPostsFilter(r *rest.Request) bool {
	switch v := r.Param("has_published_posts").(type) {
	case bool:
		return v
	case []any:
		return len(v) > 0
	}
	return false
}

// rolesWithCapabilities is capability__in as roles: a user matches when
// their role grants one of caps (WordPress counts the role's name as a
// capability too).
func rolesWithCapabilities(caps []string) []string {
	var out []string
	for _, role := range identity.Roles {
		for _, c := range caps {
			if role.Can(c) || string(role) == c {
				out = append(out, string(role))
				break
			}
		}
	}
	if out == nil {
		return []string{"-none-"}
	}
	return out
}

// searchColumns is search_columns limited to the columns the caller may
// search: without list_users WordPress searches neither e-mail nor URL.
// nil keeps the store's default columns.
func searchColumns(r *rest.Request, listUsers bool) []string {
	var out []string
	for _, c := range r.Strings("search_columns") {
		if c != "email" || listUsers {
			out = append(out, c)
		}
	}
	return out
}

func acceptAny(*rest.Request, any, string) error { return nil }

// phpNumeric is PHP 8's is_numeric for strings (surrounding whitespace
// allowed, no hexadecimal).
var phpNumeric = regexp.MustCompile(`^[ \t\n\r\v\f]*[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?[ \t\n\r\v\f]*$`)

// checkReassign is WordPress's check_reassign sanitize callback, without
// schema validation (WordPress registers none for reassign): a number is
// kept (as absint, what delete_item makes of it), an empty value or
// "false" means no reassignment, anything else is refused.
func checkReassign(_ *rest.Request, v any, _ string) (any, error) {
	var f float64
	switch x := v.(type) {
	case int64:
		f = float64(x)
	case float64:
		f = x
	case bool:
		if !x {
			return false, nil
		}
		return nil, errInvalidReassign()
	case string:
		if !phpNumeric.MatchString(x) {
			if x == "" || x == "0" || x == "false" {
				return false, nil
			}
			return nil, errInvalidReassign()
		}
		f, _ = strconv.ParseFloat(strings.TrimSpace(x), 64)
	default:
		return nil, errInvalidReassign()
	}
	if math.IsInf(f, 0) || math.IsNaN(f) || math.Abs(f) > math.MaxInt64/2 {
		return nil, errInvalidReassign()
	}
	return int64(math.Abs(math.Trunc(f))), nil
}

func errInvalidReassign() *rest.Error {
	return rest.NewError("rest_invalid_param", "Invalid user parameter(s).", http.StatusBadRequest)
}
