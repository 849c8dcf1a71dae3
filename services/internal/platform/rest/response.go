package rest

import (
	"bytes"
	"net/http"
	"strconv"

	"siteplane.dev/services/internal/platform/postgres"
)

// Response is what a handler returns on success.
type Response struct {
	// Status defaults to 200.
	Status int
	// Data is the body: an Item, a []Item (a collection), an Object, or any
	// value encoding/json accepts. Items are filtered by the request context
	// using the route schema and get their links folded in as _links;
	// _fields applies to the top-level object or to each element of a list.
	// A nil Data (or status 204) sends no body.
	Data any
	// Header holds response headers (X-WP-Total, Location, ...). They are
	// also listed under "headers" of an _envelope body.
	Header http.Header
}

// Raw is a body sent as it is, for the rare non-JSON answer (the oEmbed
// XML format); set its Content-Type in Response.Header. Inside an
// _envelope or a JSONP call it is sent as a JSON string.
type Raw []byte

// Item is one resource with every field of every context; the kit removes
// what the request's context (and _fields) exclude.
type Item struct {
	Data  Object
	Links Links
}

// OK returns a 200 response with data.
func OK(data any) *Response { return &Response{Status: http.StatusOK, Data: data} }

// Created returns a 201 response with Location set to the REST URL of route
// (e.g. "/cms/v2/posts/7").
func Created(r *Request, route string, data any) *Response {
	resp := &Response{Status: http.StatusCreated, Data: data, Header: http.Header{}}
	resp.Header.Set("Location", r.URL(route))
	return resp
}

// SetHeader sets a response header and returns resp.
func (resp *Response) SetHeader(key, value string) *Response {
	if resp.Header == nil {
		resp.Header = http.Header{}
	}
	resp.Header.Set(key, value)
	return resp
}

// Paginate adds the collection headers of §1.10 to resp: X-WP-Total,
// X-WP-TotalPages and Link rel="prev"/"next" built from the collection URL
// plus the request's query string with "page" replaced. It returns the
// number of pages (the caller decides whether page > pages is an error, as
// the code differs per controller). perPage < 1 counts as 1.
func Paginate(r *Request, resp *Response, total int64, page, perPage int) int {
	return paginate(r, resp, total, page, perPage, true)
}

// PaginateUnclamped is Paginate with rel="prev" always naming page-1, as
// WordPress's search controller writes it (the others clamp it to the
// last page).
func PaginateUnclamped(r *Request, resp *Response, total int64, page, perPage int) int {
	return paginate(r, resp, total, page, perPage, false)
}

func paginate(r *Request, resp *Response, total int64, page, perPage int, clampPrev bool) int {
	if perPage < 1 {
		perPage = 1
	}
	pages := int((total + int64(perPage) - 1) / int64(perPage))
	if total <= 0 {
		pages = 0
	}
	if resp.Header == nil {
		resp.Header = make(http.Header, 4)
	}
	vals := make([]string, 3) // one allocation for the three header values
	vals[0], vals[1] = strconv.FormatInt(total, 10), strconv.Itoa(pages)
	resp.Header["X-Wp-Total"] = vals[0:1:1]
	resp.Header["X-Wp-Totalpages"] = vals[1:2:2]
	if page > 1 || pages > page {
		base := r.collectionRoute()
		buf := make([]byte, 0, 2*(len(base)+r.queryLen())+160)
		if page > 1 {
			prev := page - 1
			if clampPrev && prev > pages {
				prev = pages
			}
			buf = r.appendPageLink(buf, base, prev, "prev")
		}
		if pages > page {
			if len(buf) > 0 {
				buf = append(buf, ", "...)
			}
			buf = r.appendPageLink(buf, base, page+1, "next")
		}
		vals[2] = string(buf)
		resp.Header["Link"] = vals[2:3:3]
	}
	return pages
}

// appendPageLink writes <base?query-with-page>; rel="rel".
func (r *Request) appendPageLink(buf []byte, base string, page int, rel string) []byte {
	buf = append(buf, '<')
	mark := len(buf)
	buf = r.appendURL(buf, base)
	sep := byte('?')
	if bytes.IndexByte(buf[mark:], '?') >= 0 {
		sep = '&'
	}
	buf = append(buf, sep)
	start := len(buf)
	buf = r.appendQuery(buf, "page", page)
	if len(buf) == start {
		buf = buf[:start-1]
	}
	buf = append(buf, `>; rel="`...)
	buf = append(buf, rel...)
	return append(buf, '"')
}

// collectionRoute is the requested route; for a route without variables,
// its declared spelling (so /cms/v2/Posts/ links to /cms/v2/posts).
func (r *Request) collectionRoute() string {
	if r.route != nil && r.route.literal {
		return r.route.full
	}
	return r.Route
}

// appendURL appends the absolute REST URL of route.
func (r *Request) appendURL(buf []byte, route string) []byte {
	if r.srv == nil {
		return append(buf, route...)
	}
	return r.srv.appendURL(buf, route)
}

// Offset is the number of items before page (1-based) of perPage items,
// saturating instead of overflowing: ?page=9223372036854775807 asks for an
// offset past every row (an empty page, then the collection's
// invalid-page-number error), never a negative one the database refuses.
func Offset(page, perPage int) int { return postgres.Offset(page, perPage) }
