// Package devstack is the local supervisor behind `make run`: it starts a
// throwaway PostgreSQL, seeds demo data, starts every service binary that has
// been built as a child process, waits for each one's readiness probe, prints
// how to call the stack, and stops everything on Ctrl-C or SIGTERM.
//
// Everything it writes lives under .cache/run/: generated secrets (kept
// between runs so the printed credentials stay valid), the site and route
// files, one log file per service, the pid file of a detached run, and
// `env`, a shell-sourceable file with the URLs and credentials.
package devstack
