package rest

import "slices"

// ContextShows reports whether the item schema s declares the field at path
// (a top-level property, then nested properties) and every level of it is
// shown in context ctx: what the kit's context filtering keeps. Handlers
// ask it before computing a costly value, as get_fields_for_response and
// rest_is_field_included let WordPress controllers skip fields a context
// does not show; the filtering itself stays with the kit. An empty ctx
// shows everything the schema declares.
func ContextShows(s *Schema, ctx string, path ...string) bool {
	for _, name := range path {
		if s == nil {
			return false
		}
		if s = s.prop(name); s == nil {
			return false
		}
		if ctx != "" && s.Context != nil && !slices.Contains(s.Context, ctx) {
			return false
		}
	}
	return true
}
