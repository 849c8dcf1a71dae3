package rest

import (
	"net/http"
	"strconv"
	"strings"
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
	resp.Header["X-Wp-Total"] = []string{strconv.FormatInt(total, 10)}
	resp.Header["X-Wp-Totalpages"] = []string{strconv.Itoa(pages)}
	var links []string
	base := r.collectionURL()
	if page > 1 {
		prev := page - 1
		if prev > pages {
			prev = pages
		}
		links = append(links, "<"+withQuery(base, r.queryString("page", prev))+`>; rel="prev"`)
	}
	if pages > page {
		links = append(links, "<"+withQuery(base, r.queryString("page", page+1))+`>; rel="next"`)
	}
	if len(links) > 0 {
		resp.Header["Link"] = []string{strings.Join(links, ", ")}
	}
	return pages
}

func withQuery(base, q string) string {
	if q == "" {
		return base
	}
	if strings.Contains(base, "?") {
		return base + "&" + q
	}
	return base + "?" + q
}

// collectionURL is the REST URL of the requested route; for a route
// without variables, its declared spelling (so /cms/v2/Posts/ links to
// /cms/v2/posts).
func (r *Request) collectionURL() string {
	route := r.Route
	if r.route != nil && r.route.literal {
		route = r.route.full
	}
	return r.URL(route)
}
