// Package images names and builds Siteplane's container images without a
// daemon or a registry: a static binary (or a prepared root file system) as
// the single layer of an image with no base, written as OCI archives.
//
// Tag scheme (checkable without building):
//   - release tag: the Helm chart's appVersion (charts/siteplane-operator/
//     Chart.yaml). The chart, kustomize and the operator's default service
//     images all name <registry>/<component>:<appVersion>; `make images` writes
//     that tag, so ReleaseRefs is the set a rendered manifest may name.
//   - content tag: <appVersion>-<first 12 hex digits of the image digest>. The
//     image has no timestamps, so the same binary gives the same digest and a
//     changed binary a changed tag; use it to roll a cluster to a new build.
package images
