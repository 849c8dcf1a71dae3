package content

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"regexp"
	"sort"
	"strings"

	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/metrics"
)

// Interim HTTP adapter: serves the declared routes with WordPress's
// parameter precedence (JSON body, form body, query string, URL groups,
// defaults), validation before permission, and the error envelope. It is
// replaced by the route kit (platform/rest) once that lands; handlers do not
// change.

type compiled struct {
	route   Route
	pattern string
	re      *regexp.Regexp
}

// Handler serves every route under /cms/v2 (path prefix included).
func (s *Service) Handler(logger *slog.Logger) http.Handler {
	if logger == nil {
		logger = slog.Default()
	}
	var routes []compiled
	for _, rt := range s.Routes() {
		full := "/" + Namespace + rt.Path
		routes = append(routes, compiled{route: rt, pattern: full, re: regexp.MustCompile(`(?i)^` + full + `$`)})
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := strings.TrimRight(r.URL.Path, "/")
		method := r.Method
		if m := r.URL.Query().Get("_method"); m != "" {
			method = strings.ToUpper(m)
		} else if m := r.Header.Get("X-HTTP-Method-Override"); m != "" {
			method = strings.ToUpper(m)
		}
		for _, cr := range routes {
			m := cr.re.FindStringSubmatch(path)
			if m == nil {
				continue
			}
			want := method
			if want == http.MethodHead {
				want = http.MethodGet
			}
			for _, ep := range cr.route.Endpoints {
				for _, em := range ep.Methods {
					if em != want {
						continue
					}
					metrics.SetRoute(r.Context(), cr.pattern)
					url := map[string]string{}
					for i, name := range cr.re.SubexpNames() {
						if name != "" {
							url[name] = m[i]
						}
					}
					s.serve(w, r, method, ep, url, logger)
					return
				}
			}
		}
		writeError(w, apiErr(http.StatusNotFound, "rest_no_route", "No route was found matching the URL and request method."))
	})
}

func (s *Service) serve(w http.ResponseWriter, r *http.Request, method string, ep Endpoint, url map[string]string, logger *slog.Logger) {
	raw, apiError := gatherParams(r, url)
	if apiError != nil {
		writeError(w, apiError)
		return
	}
	who := identity.FromContext(r.Context())
	params, apiError := validateArgs(ep.Args, raw, who)
	if apiError != nil {
		writeError(w, apiError)
		return
	}
	call := &Call{Ctx: r.Context(), Who: who, Method: method, Params: params, Query: r.URL.RawQuery, stash: mapStash{}}
	var res *Result
	var err error
	if ep.Permission != nil {
		err = ep.Permission(call)
	}
	if err == nil {
		res, err = ep.Handler(call)
	}
	if err != nil {
		var ae *APIError
		if errors.As(err, &ae) {
			writeError(w, ae)
			return
		}
		logger.Error("handler failed", "path", r.URL.Path, "method", method, "error", err.Error())
		writeError(w, apiErr(http.StatusInternalServerError, "internal_server_error", "There has been a critical error on this website."))
		return
	}
	for k, v := range res.Header {
		w.Header()[k] = v
	}
	if pg := res.Page; pg != nil {
		for k, v := range paginationHeaders(s.restRoot+pg.Base, r.URL.RawQuery, pg.Page, pg.Total, pg.Pages) {
			w.Header()[k] = v
		}
	}
	writeJSON(w, res.Status, res.Body, r.Method == http.MethodHead)
}

func writeError(w http.ResponseWriter, e *APIError) { writeJSON(w, e.Status, e.Body(), false) }

func writeJSON(w http.ResponseWriter, status int, body any, head bool) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(body); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"code":"rest_encode_error","message":"json encode failed","data":{"status":500}}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Robots-Tag", "noindex")
	w.WriteHeader(status)
	if !head {
		_, _ = w.Write(bytes.TrimRight(buf.Bytes(), "\n"))
	}
}

// gatherParams merges the request's parameters, highest precedence last
// written: defaults are applied later by validateArgs.
func gatherParams(r *http.Request, url map[string]string) (map[string]any, *APIError) {
	out := map[string]any{}
	for k, v := range url {
		out[k] = v
	}
	for k, v := range parsePHPQuery(r.URL.RawQuery) {
		out[k] = v
	}
	if r.Body == nil || r.Method == http.MethodGet || r.Method == http.MethodHead {
		return out, nil
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, apiErr(http.StatusRequestEntityTooLarge, "rest_request_too_large", "The request body is too large.")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return out, nil
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct == "application/json" || (strings.HasPrefix(ct, "application/") && strings.HasSuffix(ct, "+json")) {
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, &APIError{Status: http.StatusBadRequest, Code: "rest_invalid_json", Message: "Invalid JSON body passed.",
				Data: map[string]any{"json_error_code": 4, "json_error_message": "Syntax error"}}
		}
		if m, ok := v.(map[string]any); ok {
			for k, e := range m {
				out[k] = e
			}
		}
		return out, nil
	}
	if ct == "" || ct == "application/x-www-form-urlencoded" {
		for k, v := range parsePHPQuery(string(body)) {
			out[k] = v
		}
	}
	return out, nil
}

// parsePHPQuery parses a query string the way PHP fills $_GET, for the
// shapes this service reads: a=1, a[]=1, a[k]=v, a[k][]=v.
func parsePHPQuery(q string) map[string]any {
	out := map[string]any{}
	for _, pair := range strings.Split(q, "&") {
		if pair == "" {
			continue
		}
		k, v, _ := strings.Cut(pair, "=")
		k, v = phpDecode(k), phpDecode(v)
		base, rest, hasBracket := strings.Cut(k, "[")
		if base == "" {
			continue
		}
		if !hasBracket {
			out[base] = v
			continue
		}
		var subs []string
		for rest != "" {
			idx, after, ok := strings.Cut(rest, "]")
			if !ok {
				break
			}
			subs = append(subs, idx)
			rest = strings.TrimPrefix(after, "[")
		}
		out[base] = assign(out[base], subs, v)
	}
	return out
}

// assign stores v at cur[subs...]; "" appends to a list.
func assign(cur any, subs []string, v string) any {
	if len(subs) == 0 {
		return v
	}
	key := subs[0]
	if key == "" {
		l, _ := cur.([]any)
		return append(l, assign(nil, subs[1:], v))
	}
	m, ok := cur.(map[string]any)
	if !ok {
		m = map[string]any{}
		if l, isList := cur.([]any); isList {
			for i, e := range l {
				m[itoa(int64(i))] = e
			}
		}
	}
	m[key] = assign(m[key], subs[1:], v)
	// numeric keys 0..n-1 form a list, as PHP arrays do when encoded
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return m
}

func phpDecode(s string) string {
	s = strings.ReplaceAll(s, "+", " ")
	if d, err := urlUnescape(s); err == nil {
		return d
	}
	return s
}
