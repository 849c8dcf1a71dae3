package images

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var root = filepath.Join("..", "..")

// Rendered image references: container images, and the operator's
// --image-registry/--image-tag, from which it makes the service images.
var (
	imageLine    = regexp.MustCompile(`(?m)^\s*(?:-\s+)?image:\s*["']?([^"'\s]+)["']?\s*$`)
	registryFlag = regexp.MustCompile(`--image-registry=([^"'\s]+)`)
	tagFlag      = regexp.MustCompile(`--image-tag=([^"'\s]+)`)
	pullAlways   = regexp.MustCompile(`imagePullPolicy:\s*Always`)
)

// renderedRefs lists every image a rendered manifest makes a node pull:
// container images, and for each operator, the four service images it
// derives from its flags (the defaults of a Site that names no image).
func renderedRefs(t *testing.T, out string) []string {
	t.Helper()
	var refs []string
	for _, m := range imageLine.FindAllStringSubmatch(out, -1) {
		refs = append(refs, m[1])
	}
	regs, tags := registryFlag.FindAllStringSubmatch(out, -1), tagFlag.FindAllStringSubmatch(out, -1)
	if len(regs) != 1 || len(tags) != 1 {
		t.Fatalf("want one --image-registry and one --image-tag in the operator's args, got %d and %d", len(regs), len(tags))
	}
	for _, c := range Components {
		if c.Name != "operator" {
			refs = append(refs, Ref(regs[0][1], c.Name, tags[0][1]))
		}
	}
	return refs
}

func tool(t *testing.T, env, glob, name string) string {
	t.Helper()
	if p := os.Getenv(env); p != "" {
		return p
	}
	if m, _ := filepath.Glob(filepath.Join(root, glob)); len(m) > 0 {
		return m[len(m)-1]
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s not found (set %s; hack/test.sh provides it)", name, env)
	}
	t.Skipf("%s not found: set %s", name, env)
	return ""
}

// TestRenderedImagesAreBuilt checks that every image reference `helm
// template` and `kubectl kustomize` render by default is one `make images`
// writes (the release references: <registry>/<component>:<appVersion>), and
// that nothing asks for pull Always (which defeats imported images).
func TestRenderedImagesAreBuilt(t *testing.T) {
	version, err := AppVersion(root)
	if err != nil {
		t.Fatal(err)
	}
	built := ReleaseRefs(DefaultRegistry, version)
	helm := tool(t, "SITEPLANE_HELM", "bin/helm-*/helm", "helm")
	kubectl := tool(t, "SITEPLANE_KUBECTL", "bin/kubectl", "kubectl")
	renders := map[string][]string{
		"helm template": {helm, "template", "rel", filepath.Join(root, "charts", "siteplane-operator"), "-n", "ops"},
		"kustomize":     {kubectl, "kustomize", filepath.Join(root, "config", "default")},
	}
	for name, cmd := range renders {
		t.Run(name, func(t *testing.T) {
			out, err := exec.Command(cmd[0], cmd[1:]...).Output()
			if err != nil {
				t.Fatalf("%v: %v", cmd, err)
			}
			refs := renderedRefs(t, string(out))
			if !slices.Contains(refs, Ref(DefaultRegistry, "operator", version)) {
				t.Errorf("the operator image is not %s: %v", Ref(DefaultRegistry, "operator", version), refs)
			}
			for _, r := range refs {
				if !slices.Contains(built, r) {
					t.Errorf("%s names %s, which make images does not build (it builds %s)", name, r, strings.Join(built, ", "))
				}
			}
			if pullAlways.MatchString(string(out)) {
				t.Errorf("%s asks for imagePullPolicy: Always; imported images need IfNotPresent", name)
			}
		})
	}
}

// TestRenderedRefsParsing proves the parser sees what a broken manifest
// would name (so the test above can fail).
func TestRenderedRefsParsing(t *testing.T) {
	out := `
      containers:
      - name: manager
        image: "ghcr.io/siteplane/operator:latest"
        args:
        - --image-registry=ghcr.io/siteplane
        - --image-tag=dev
      - image: busybox
`
	got := renderedRefs(t, out)
	want := []string{"ghcr.io/siteplane/operator:latest", "busybox", "ghcr.io/siteplane/gateway:dev",
		"ghcr.io/siteplane/content:dev", "ghcr.io/siteplane/media:dev", "ghcr.io/siteplane/marketplace:dev"}
	if !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestReleaseRefsFollowTheChart(t *testing.T) {
	v, err := AppVersion(root)
	if err != nil {
		t.Fatal(err)
	}
	if v == "" || strings.ContainsAny(v, " :/") {
		t.Fatalf("appVersion %q is not a tag", v)
	}
	got := ReleaseRefs("r.example/x/", v)
	if len(got) != 5 || got[0] != "r.example/x/gateway:"+v || got[4] != "r.example/x/operator:"+v {
		t.Errorf("ReleaseRefs = %v", got)
	}
}
