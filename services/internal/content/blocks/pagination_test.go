package blocks

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestPaginationNumbers checks paginate_links' window (end_size 1, mid_size
// 2): the labels shown, in order, with "…" for each gap.
func TestPaginationNumbers(t *testing.T) {
	tests := []struct {
		page, pages int
		want        string
	}{
		{1, 1, ""},
		{2, 3, "1 [2] 3"},
		{1, 10000, "[1] 2 3 … 10,000"},
		{4, 10, "1 2 3 [4] 5 6 … 10"},
		{5, 10, "1 … 3 4 [5] 6 7 … 10"},
		{50, 100, "1 … 48 49 [50] 51 52 … 100"},
		{10, 10, "1 … 8 9 [10]"},
		{998, 1000, "1 … 996 997 [998] 999 1,000"},
		{1234, 1000000, "1 … 1,232 1,233 [1,234] 1,235 1,236 … 1,000,000"},
	}
	label := regexp.MustCompile(`<a class="page-numbers" href="([^"]*)">([^<]*)</a>|<span aria-current="page" class="page-numbers current">([^<]*)</span>|<span class="page-numbers dots">&hellip;</span>`)
	for _, tt := range tests {
		env := &Env{Query: &Query{Page: tt.page, Pages: tt.pages,
			PageURL: func(n int) string { return "https://s.test/page/" + strconv.Itoa(n) + "/" }}}
		got := paginationNumbers(&Block{}, env)
		if tt.want == "" {
			if got != "" {
				t.Errorf("page %d of %d: %q, want nothing", tt.page, tt.pages, got)
			}
			continue
		}
		inner, ok := strings.CutPrefix(got, `<div class="wp-block-query-pagination-numbers">`)
		inner, ok2 := strings.CutSuffix(inner, `</div>`)
		if !ok || !ok2 {
			t.Fatalf("page %d of %d: wrapper missing: %q", tt.page, tt.pages, got)
		}
		var labels []string
		for _, item := range strings.Split(inner, "\n") { // paginate_links joins with newlines
			m := label.FindStringSubmatch(item)
			switch {
			case len(m) == 0 || m[0] != item:
				t.Fatalf("page %d of %d: unexpected item %q", tt.page, tt.pages, item)
			case m[3] != "":
				labels = append(labels, "["+m[3]+"]")
			case m[2] != "":
				n, _ := strconv.Atoi(strings.ReplaceAll(m[2], ",", ""))
				if want := "https://s.test/page/" + strconv.Itoa(n) + "/"; m[1] != want {
					t.Errorf("page %d of %d: link %q goes to %q, want %q", tt.page, tt.pages, m[2], m[1], want)
				}
				labels = append(labels, m[2])
			default:
				labels = append(labels, "…")
			}
		}
		if g := strings.Join(labels, " "); g != tt.want {
			t.Errorf("page %d of %d: %q, want %q", tt.page, tt.pages, g, tt.want)
		}
	}
}

func TestGroupThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 12345: "12,345", 123456: "123,456", 1234567: "1,234,567"} {
		if got := groupThousands(n); got != want {
			t.Errorf("groupThousands(%d) = %q, want %q", n, got, want)
		}
	}
}
