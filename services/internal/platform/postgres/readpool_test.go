package postgres

import "testing"

func TestParseLSN(t *testing.T) {
	cases := []struct {
		in   string
		want LSN
		bad  bool
	}{
		{in: "0/0", want: 0},
		{in: "0/3000000", want: 0x3000000},
		{in: "16/B374D848", want: 0x16B374D848},
		{in: "FFFFFFFF/FFFFFFFF", want: 1<<64 - 1},
		{in: "a/b", want: 0xa0000000b},
		{in: "", bad: true},
		{in: "3000000", bad: true},
		{in: "1/2/3", bad: true},
		{in: "100000000/0", bad: true},
		{in: "x/0", bad: true},
	}
	for _, c := range cases {
		got, err := ParseLSN(c.in)
		if c.bad {
			if err == nil {
				t.Errorf("ParseLSN(%q) = %v, want an error", c.in, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseLSN(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
		if back, _ := ParseLSN(got.String()); back != got {
			t.Errorf("%v does not survive String and ParseLSN", got)
		}
	}
}
