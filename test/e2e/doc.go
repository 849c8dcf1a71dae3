//go:build e2e

// Package e2e is Siteplane's end-to-end suite: the operator chart installed
// with Helm on a real cluster, PostgreSQL in the cluster, and Sites whose
// pods are asserted on through the Kubernetes API and over HTTP through
// their Services. Run it with `make test-e2e` (hack/e2e.sh), which provides
// the cluster, the images and helm; see docs/kubernetes.md.
//
// Environment: KUBECONFIG (required), SITEPLANE_HELM (helm binary),
// E2E_PROVIDER (local, kind or existing), E2E_PV_DIR (local: where the media
// volume's hostPath PersistentVolume lives when the cluster has no default
// StorageClass).
package e2e
