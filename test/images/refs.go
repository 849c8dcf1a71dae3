package images

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DefaultRegistry is where the chart and kustomize point by default.
const DefaultRegistry = "ghcr.io/siteplane"

// Component is one image built from a Go main package.
type Component struct {
	Name string // image name under the registry, and the operator's component name
	Pkg  string // main package, relative to the repository root
}

// Components are the images of the product: the four services and the operator.
var Components = []Component{
	{Name: "gateway", Pkg: "./services/cmd/gateway"},
	{Name: "content", Pkg: "./services/cmd/content"},
	{Name: "media", Pkg: "./services/cmd/media"},
	{Name: "marketplace", Pkg: "./services/cmd/marketplace"},
	{Name: "operator", Pkg: "./operator/cmd"},
}

// ChartFile is the chart whose appVersion is the release tag.
const ChartFile = "charts/siteplane-operator/Chart.yaml"

// AppVersion reads appVersion from the chart under root.
func AppVersion(root string) (string, error) {
	f, err := os.Open(filepath.Join(root, ChartFile))
	if err != nil {
		return "", fmt.Errorf("read chart: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "appVersion" {
			v = strings.Trim(strings.TrimSpace(v), `"'`)
			if v == "" {
				break
			}
			return v, nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("read chart: %w", err)
	}
	return "", fmt.Errorf("%s has no appVersion", ChartFile)
}

// ReleaseRefs are the references `make images` writes with the release tag,
// one per component: <registry>/<name>:<tag>.
func ReleaseRefs(registry, tag string) []string {
	out := make([]string, 0, len(Components))
	for _, c := range Components {
		out = append(out, Ref(registry, c.Name, tag))
	}
	return out
}

// Ref is <registry>/<name>:<tag>.
func Ref(registry, name, tag string) string {
	return strings.TrimSuffix(registry, "/") + "/" + name + ":" + tag
}
