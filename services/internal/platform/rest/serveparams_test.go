package rest

import "testing"

func TestWithoutServeParams(t *testing.T) {
	for in, want := range map[string]string{
		"":                                      "",
		"force=true":                            "force=true",
		"_method=DELETE&force=true":             "force=true",
		"a=1&_envelope&b[]=2&_jsonp=cb&_pretty": "a=1&b[]=2",
		"%5Fmethod=DELETE&_fields=id":           "_fields=id",
		"_method[]=x&_embed=author":             "_embed=author",
		"+_method=DELETE":                       "",
		"%20_method=DELETE&x=1":                 "x=1",
		"%2B_method=DELETE":                     "%2B_method=DELETE", // "+_method" literally: not _method for PHP
		"++_method=DELETE":                      "",
		"_method%5B%5D=DELETE":                  "",
		"rest_route=/cms/v2/pages":              "",
		"rest.route=/cms/v2/pages":              "",
		"rest%2Eroute=/cms/v2/pages":            "",
		"rest+route=/cms/v2/pages":              "",
		"rest%20route=/cms/v2/pages":            "",
		"rest[route=/cms/v2/pages":              "",
		"rest%5Broute=/cms/v2/pages":            "",
		"+rest_route=/x&a=1":                    "a=1",
		"rest_route[x]=/x":                      "",
		"restroute=/x":                          "restroute=/x",
		"rest_routes=/x":                        "rest_routes=/x",
	} {
		if got := WithoutServeParams(in); got != want {
			t.Errorf("WithoutServeParams(%q) = %q, want %q", in, got, want)
		}
		// Whatever is kept, PHP reads none of the serve parameters from it.
		q := parseQuery(WithoutServeParams(in))
		for name := range serveParams {
			if _, ok := q.get(name); ok {
				t.Errorf("%q: %s survived", in, name)
			}
		}
	}
}
