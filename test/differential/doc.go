//go:build differential

// Package differential compares Siteplane with WordPress 6.9 request by
// request (issue 29). Both are addressed in WordPress's names: Siteplane
// through its wp/v2 alias (`make run WP_ALIAS=1`), WordPress as the peer in
// ../shared/peers/wordpress. For every route both indexes have, the suite
// generates requests (each context, anonymous and administrator, each
// invalid value of each enum, integer and boolean argument, pagination past
// the end, item reads of an existing and a missing id, OPTIONS), normalises
// both answers (status, error code, key paths with their JSON types, the
// X-WP-* headers and Link relations, OPTIONS arguments) and compares them.
// A difference passes only when deliberate.txt lists it with its reason.
//
// Run it with `make test-differential` (hack/differential.sh), which .ci/run
// calls with the peer up: SITEPLANE_DIFF_SITE and SITEPLANE_DIFF_WP are the
// two sites, SITEPLANE_DIFF_SITE_AUTH and SITEPLANE_DIFF_WP_AUTH their
// administrators' "user:application-password".
package differential
