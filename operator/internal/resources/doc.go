// Package resources holds the pure builders of the Site operator: each turns a
// Site (plus the few facts the reconciler read from the cluster) into the
// server-side apply configuration of one child object. Nothing here talks to
// the API server, so every rule about names, labels, mounts and hashes is
// unit-tested without a cluster.
package resources
