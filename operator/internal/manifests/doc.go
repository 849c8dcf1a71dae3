// Package manifests holds tests that keep the hand-written deployment files
// (Helm chart, kustomize samples) in step with what the operator generates
// and accepts. It has no code of its own.
package manifests
