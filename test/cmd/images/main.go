// Command images builds Siteplane's container images without a daemon or a
// registry (`make images`): one OCI archive per image under -out, each
// holding the release tag (the chart's appVersion) and a content tag, and an
// index (images.txt: archive, then its references). With -push the images
// also go to -registry.
//
//	go run ./test/cmd/images                       # product images
//	go run ./test/cmd/images -e2e                  # + pause and PostgreSQL for the e2e cluster
//	go run ./test/cmd/images -e2e -cnpg-manager $(hack/cluster/cnpg.sh build)   # + CloudNativePG's operator
//	go run ./test/cmd/images -e2e -versitygw $(hack/cluster/versitygw.sh build)   # + versitygw (S3)
//	go run ./test/cmd/images -e2e -metrics-server $(hack/cluster/metrics-server.sh build)   # + metrics-server (HPA)
//	go run ./test/cmd/images -list                 # the release references, built or not
//	go run ./test/cmd/images -registry 127.0.0.1:5001/siteplane -push
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"

	"siteplane.dev/test/images"
)

// Images the e2e cluster needs besides the product. Their registry host
// does not resolve: they are only ever imported, never pulled.
const (
	PauseRef    = "siteplane.local/pause:3.10"
	PostgresRef = "siteplane.local/postgres:15"
	// CNPGRef is CloudNativePG's operator (hack/cluster/cnpg.sh pins the
	// version). Its Clusters run PostgresRef: CloudNativePG reads the major
	// version from the tag.
	CNPGRef = "siteplane.local/cnpg:1.29.1"
	// VersitygwRef is the S3-compatible server of the media tests
	// (hack/versitygw.sh pins the version), run in the cluster as the
	// bucket of the e2e's media (hack/cluster/versitygw.sh) and of
	// CloudNativePG's backups.
	VersitygwRef = "siteplane.local/versitygw:1.8.0"
	// MetricsServerRef serves the resource metrics API that `kubectl top`
	// and the HorizontalPodAutoscaler read (hack/cluster/metrics-server.sh
	// pins the version and deploys it).
	MetricsServerRef = "siteplane.local/metrics-server:0.9.0"
)

func main() {
	root := flag.String("root", ".", "repository root")
	out := flag.String("out", ".cache/images", "directory of the OCI archives")
	registry := flag.String("registry", images.DefaultRegistry, "registry and path prefix of the product images")
	tag := flag.String("tag", "", "release tag (default: the chart's appVersion)")
	push := flag.Bool("push", false, "also push every image to -registry")
	list := flag.Bool("list", false, "print the release references and exit (builds nothing)")
	e2e := flag.Bool("e2e", false, "also build the pause image and, from -postgres-rootfs, the PostgreSQL image")
	pgRoot := flag.String("postgres-rootfs", "", "root file system of the PostgreSQL image (hack/images-postgres-rootfs.sh)")
	cnpgManager := flag.String("cnpg-manager", "", "with -e2e: CloudNativePG's manager binary (hack/cluster/cnpg.sh build), for its operator image")
	versitygw := flag.String("versitygw", "", "with -e2e: the versitygw binary (hack/versitygw.sh), for its image")
	metricsServer := flag.String("metrics-server", "", "with -e2e: the metrics-server binary (hack/cluster/metrics-server.sh build), for its image")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("images: ")

	if *tag == "" {
		v, err := images.AppVersion(*root)
		if err != nil {
			log.Fatal(err)
		}
		*tag = v
	}
	if *list {
		for _, r := range images.ReleaseRefs(*registry, *tag) {
			fmt.Println(r)
		}
		return
	}
	if err := run(*root, *out, *registry, *tag, *push, *e2e, e2eInputs{*pgRoot, *cnpgManager, *versitygw, *metricsServer}); err != nil {
		log.Fatal(err)
	}
}

// e2eInputs are the files of the e2e images besides pause: each image is
// written when its input is given.
type e2eInputs struct {
	pgRoot, cnpgManager, versitygw, metricsServer string
}

func run(root, out, registry, tag string, push, e2e bool, in e2eInputs) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	bins, err := os.MkdirTemp(out, ".bin-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(bins)

	pkgs := map[string]string{}
	for _, c := range images.Components {
		pkgs[c.Name] = c.Pkg
	}
	if e2e {
		pkgs["pause"] = "./test/cmd/pause"
	}
	t0 := time.Now()
	for name, pkg := range pkgs {
		if err := goBuild(root, pkg, filepath.Join(bins, name), tag); err != nil {
			return err
		}
	}
	log.Printf("built %d static binaries in %.1fs", len(pkgs), time.Since(t0).Seconds())

	ca, _ := os.ReadFile("/etc/ssl/certs/ca-certificates.crt") // optional: S3 over TLS
	var index []string
	write := func(file string, img v1.Image, refs []string, pushed bool) error {
		ct, err := images.ContentTag(tag, img)
		if err != nil {
			return err
		}
		base := refs[0][:strings.LastIndex(refs[0], ":")]
		refs = append(refs, base+":"+ct)
		path := filepath.Join(out, file)
		if err := images.WriteArchive(path, img, refs); err != nil {
			return err
		}
		if pushed {
			if err := images.Push(img, refs); err != nil {
				return err
			}
		}
		index = append(index, file+" "+strings.Join(refs, " "))
		log.Printf("%s: %s", file, strings.Join(refs, " "))
		return nil
	}
	for _, c := range images.Components {
		bin, err := os.ReadFile(filepath.Join(bins, c.Name))
		if err != nil {
			return err
		}
		img, err := images.Image(images.BinaryFiles(bin, ca), images.BinaryConfig(c.Name))
		if err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
		if err := write(c.Name+".tar", img, []string{images.Ref(registry, c.Name, tag)}, push); err != nil {
			return fmt.Errorf("%s: %w", c.Name, err)
		}
	}
	if e2e {
		if err := e2eImages(bins, in, write); err != nil {
			return err
		}
	}
	idx := filepath.Join(out, "images.txt")
	if err := os.WriteFile(idx, []byte(strings.Join(index, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	log.Printf("wrote %s in %.1fs", idx, time.Since(t0).Seconds())
	return nil
}

// goBuild builds a static, reproducible binary (no cgo, no paths, no VCS
// stamp); -X main.version names the release where a main has that variable.
func goBuild(root, pkg, out, tag string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-buildvcs=false",
		"-ldflags", "-s -w -X main.version="+tag, "-o", out, pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build %s: %w", pkg, err)
	}
	return nil
}

// cnpgImage writes CloudNativePG's operator image as its Dockerfile lays it
// out: the static manager as /operator/manager_amd64 (the operator finds the
// instance manager of each architecture there, and refuses to run without)
// and /manager linked to it, the entrypoint, as the user its Deployment
// runs (10001). The PostgreSQL pods' init container copies the same binary
// from this image.
func cnpgImage(manager string, write func(string, v1.Image, []string, bool) error) error {
	bin, err := os.ReadFile(manager)
	if err != nil {
		return err
	}
	img, err := images.Image([]images.File{
		{Path: "/operator", Dir: true, Mode: 0o755},
		{Path: "/operator/manager_amd64", Mode: 0o755, Data: bin},
		{Path: "/manager", Link: "operator/manager_amd64"},
	}, images.Config{Entrypoint: []string{"/manager"}, User: "10001:10001"})
	if err != nil {
		return err
	}
	return write("cnpg.tar", img, []string{CNPGRef}, false)
}

// versitygwImage writes the versitygw image: the static server and a
// busybox shell (the e2e Deployment makes its bucket's directory before
// starting it), as an unprivileged user.
func versitygwImage(bin string, write func(string, v1.Image, []string, bool) error) error {
	server, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	busybox, err := os.ReadFile("/bin/busybox")
	if err != nil {
		return fmt.Errorf("busybox (apt-get install busybox-static): %w", err)
	}
	img, err := images.Image([]images.File{
		{Path: "/bin", Dir: true, Mode: 0o755},
		{Path: "/bin/versitygw", Mode: 0o755, Data: server},
		{Path: "/bin/busybox", Mode: 0o755, Data: busybox},
		{Path: "/bin/sh", Link: "busybox"},
		{Path: "/bin/mkdir", Link: "busybox"},
		{Path: "/tmp", Dir: true, Mode: 0o1777},
	}, images.Config{Entrypoint: []string{"/bin/versitygw"}, User: "65532:65532",
		Env: []string{"PATH=/bin"}, ExposedPorts: []string{"7070/tcp"}})
	if err != nil {
		return err
	}
	return write("versitygw.tar", img, []string{VersitygwRef}, false)
}

// metricsServerImage writes the metrics-server image: the static server
// alone, as an unprivileged user (its Deployment keeps its self-signed
// serving certificate in an emptyDir at /tmp).
func metricsServerImage(bin string, write func(string, v1.Image, []string, bool) error) error {
	server, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	img, err := images.Image([]images.File{
		{Path: "/metrics-server", Mode: 0o755, Data: server},
		{Path: "/tmp", Dir: true, Mode: 0o1777},
	}, images.Config{Entrypoint: []string{"/metrics-server"}, User: "65532:65532"})
	if err != nil {
		return err
	}
	return write("metrics-server.tar", img, []string{MetricsServerRef}, false)
}

// e2eImages writes the images the e2e cluster needs besides the product:
// pause, PostgreSQL (from in.pgRoot), CloudNativePG's operator (from
// in.cnpgManager), versitygw and metrics-server, the last four when given.
func e2eImages(bins string, in e2eInputs, write func(string, v1.Image, []string, bool) error) error {
	bin, err := os.ReadFile(filepath.Join(bins, "pause"))
	if err != nil {
		return err
	}
	img, err := images.Image([]images.File{{Path: "/pause", Mode: 0o755, Data: bin}},
		images.Config{Entrypoint: []string{"/pause"}, User: "65535:65535"})
	if err != nil {
		return fmt.Errorf("pause: %w", err)
	}
	if err := write("pause.tar", img, []string{PauseRef}, false); err != nil {
		return fmt.Errorf("pause: %w", err)
	}
	if in.pgRoot != "" {
		files, err := images.DirFiles(in.pgRoot)
		if err != nil {
			return err
		}
		img, err := images.Image(files, images.Config{
			Entrypoint: []string{"/bin/pg-entrypoint"},
			User:       "999:999",
			// /usr/bin: barman-cloud-* when the root has them
			// (POSTGRES_BARMAN=1), which CloudNativePG looks up on PATH.
			Env:          []string{"PATH=/usr/lib/postgresql/15/bin:/usr/bin:/bin", "PGDATA=/var/lib/postgresql/data"},
			ExposedPorts: []string{"5432/tcp"},
		})
		if err != nil {
			return fmt.Errorf("postgres: %w", err)
		}
		if err := write("postgres.tar", img, []string{PostgresRef}, false); err != nil {
			return fmt.Errorf("postgres: %w", err)
		}
	}
	if in.cnpgManager != "" {
		if err := cnpgImage(in.cnpgManager, write); err != nil {
			return fmt.Errorf("cnpg: %w", err)
		}
	}
	if in.versitygw != "" {
		if err := versitygwImage(in.versitygw, write); err != nil {
			return fmt.Errorf("versitygw: %w", err)
		}
	}
	if in.metricsServer != "" {
		if err := metricsServerImage(in.metricsServer, write); err != nil {
			return fmt.Errorf("metrics-server: %w", err)
		}
	}
	return nil
}
