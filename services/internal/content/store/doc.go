// Package store is content's domain layer, under both of its front ends
// (the REST handlers in package content and the public site in
// content/website): the post types and taxonomies, WordPress's meta
// capabilities over them, permalinks (Links), slugs, dates and rendered
// text, and every SQL statement of content — pgx, no ORM; a collection
// reads its page and total in one round trip (platform/postgres.QueryPage).
//
// It also holds the seams both front ends read through: Users and Media
// (other services' data, implemented over HTTP by package content), and
// Commits, the hook by which every write announces the end of its
// transaction to what keeps copies (the website's snapshot).
//
// It imports no HTTP, no route kit and neither front end (the lint's
// depguard rules keep it so).
package store
