// Package contract holds the names that the operator and the services must agree
// on: environment variables, Secret keys, ports, probe and metrics paths, the
// identity header, and the Go types of the files the operator renders into
// ConfigMaps (the gateway route file and the site settings).
//
// The operator imports this package to render what the services parse, so a
// rename here is a compile error on both sides instead of a broken rollout.
package contract
