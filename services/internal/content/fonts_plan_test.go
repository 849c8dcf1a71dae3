package content

import (
	"strings"
	"testing"
)

// The font library's list statement names its post type as a literal: as a
// parameter, the connection's cached generic plan of a large site (where
// ANALYZE sees one type) expected every post to match and read all of them
// backwards by id for the first ten font families (1.1 s at 1,000,000
// posts, the scaling table's flagged /cms/v2/font-families; a test table's
// statistics do not reproduce that plan, so the statement itself is read).
func TestFontListsNameTheirType(t *testing.T) {
	e := newEnv(t)
	for _, path := range []string{"/cms/v2/font-families"} {
		wantStatus(t, e.do(admin, "GET", path, nil), 200)
		sql, _ := e.queries.lastLike("ORDER BY id")
		if sql == "" {
			t.Fatalf("%s: no list statement seen", path)
		}
		if !strings.Contains(sql, "type = 'wp_font_family'") {
			t.Errorf("%s: the type is not a literal: %s", path, sql)
		}
	}
}
