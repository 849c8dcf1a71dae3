package store

import (
	"regexp"
	"strconv"
	"time"
)

// WordPress's rest_parse_date accepts YYYY-MM-DD[T ]HH:MM:SS with optional
// fraction and optional zone; output never carries a zone.
var dateTimeRE = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$`)

const WPDateLayout = "2006-01-02T15:04:05"

// ParseDate parses a date-time; without a zone it is taken in loc.
func ParseDate(s string, loc *time.Location) (time.Time, bool) {
	m := dateTimeRE.FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, false
	}
	n := func(i int) int { v, _ := strconv.Atoi(m[i]); return v }
	zone := loc
	if z := m[8]; z != "" {
		if z == "Z" || z == "z" {
			zone = time.UTC
		} else {
			sign := 1
			if z[0] == '-' {
				sign = -1
			}
			digits := regexp.MustCompile(`\d+`).FindAllString(z, -1)
			h, _ := strconv.Atoi(digits[0][:2])
			mins := 0
			if len(digits[0]) == 4 {
				mins, _ = strconv.Atoi(digits[0][2:])
			} else if len(digits) > 1 {
				mins, _ = strconv.Atoi(digits[1])
			}
			zone = time.FixedZone("", sign*(h*3600+mins*60))
		}
	}
	t := time.Date(n(1), time.Month(n(2)), n(3), n(4), n(5), n(6), 0, zone)
	// reject normalised dates such as 2024-02-31
	if t.Year() != n(1) || int(t.Month()) != n(2) || t.Day() != n(3) || t.Hour() != n(4) || t.Minute() != n(5) {
		return time.Time{}, false
	}
	return t.UTC(), true
}

// FormatLocal is t as a WordPress local date (no zone) in loc.
func FormatLocal(t time.Time, loc *time.Location) string { return t.In(loc).Format(WPDateLayout) }

// FormatGMT is t as a WordPress GMT date (no zone).
func FormatGMT(t time.Time) string { return t.UTC().Format(WPDateLayout) }

// Itoa is n in decimal.
func Itoa(n int64) string { return strconv.FormatInt(n, 10) }
