package images

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// NonRoot is the numeric user and group every product image runs as
// (distroless's "nonroot"; the operator sets the same in pod security contexts).
const NonRoot = 65532

// File is one entry of an image's single layer.
type File struct {
	Path string // absolute path in the image
	Mode int64  // permission bits; a directory when Dir
	Dir  bool
	Link string // symlink target when non-empty
	UID  int
	Data []byte
}

// Config is what an image runs.
type Config struct {
	Entrypoint   []string
	User         string
	Env          []string
	ExposedPorts []string
	Labels       map[string]string
}

// BinaryFiles is the file set of a product image: the static binary as
// /app, the CA bundle of the build host (for S3 over TLS) and an /etc/passwd
// naming the non-root user. Time-zone data is embedded in the binary.
func BinaryFiles(binary []byte, caBundle []byte) []File {
	files := []File{
		{Path: "/app", Mode: 0o755, Data: binary},
		{Path: "/etc", Mode: 0o755, Dir: true},
		{Path: "/etc/passwd", Mode: 0o644, Data: []byte(fmt.Sprintf("root:x:0:0:root:/:/sbin/nologin\nnonroot:x:%d:%d:nonroot:/home/nonroot:/sbin/nologin\n", NonRoot, NonRoot))},
		{Path: "/etc/group", Mode: 0o644, Data: []byte(fmt.Sprintf("root:x:0:\nnonroot:x:%d:\n", NonRoot))},
		{Path: "/home", Mode: 0o755, Dir: true},
		{Path: "/home/nonroot", Mode: 0o700, Dir: true, UID: NonRoot},
		{Path: "/tmp", Mode: 0o1777, Dir: true},
	}
	if len(caBundle) > 0 {
		files = append(files,
			File{Path: "/etc/ssl", Mode: 0o755, Dir: true},
			File{Path: "/etc/ssl/certs", Mode: 0o755, Dir: true},
			File{Path: "/etc/ssl/certs/ca-certificates.crt", Mode: 0o644, Data: caBundle})
	}
	return files
}

// BinaryConfig runs /app as the non-root user.
func BinaryConfig(name string) Config {
	return Config{
		Entrypoint: []string{"/app"},
		User:       fmt.Sprintf("%d:%d", NonRoot, NonRoot),
		Env:        []string{"PATH=/"},
		Labels:     map[string]string{"org.opencontainers.image.title": "siteplane-" + name},
	}
}

// LayerTar writes files as an uncompressed tar with zero timestamps and
// numeric owners, so equal files give an equal layer.
func LayerTar(files []File) ([]byte, error) {
	files = append([]File(nil), files...)
	sort.SliceStable(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, f := range files {
		h := &tar.Header{
			Name:   strings.TrimPrefix(f.Path, "/"),
			Mode:   f.Mode,
			Uid:    f.UID,
			Gid:    f.UID,
			Format: tar.FormatPAX,
		}
		switch {
		case f.Dir:
			h.Typeflag, h.Name = tar.TypeDir, h.Name+"/"
		case f.Link != "":
			h.Typeflag, h.Linkname = tar.TypeSymlink, f.Link
		default:
			h.Typeflag, h.Size = tar.TypeReg, int64(len(f.Data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, fmt.Errorf("tar %s: %w", f.Path, err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write(f.Data); err != nil {
				return nil, fmt.Errorf("tar %s: %w", f.Path, err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("tar: %w", err)
	}
	return buf.Bytes(), nil
}

// DirFiles reads a prepared root file system (regular files, directories and
// symlinks; owners as on disk).
func DirFiles(root string) ([]File, error) {
	var files []File
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." {
			return nil
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		f := File{Path: "/" + filepath.ToSlash(rel), Mode: int64(info.Mode().Perm())}
		if info.Mode()&os.ModeSticky != 0 {
			f.Mode |= 0o1000
		}
		if st, ok := statOwner(info); ok {
			f.UID = st
		}
		switch {
		case info.IsDir():
			f.Dir = true
		case info.Mode()&os.ModeSymlink != 0:
			if f.Link, err = os.Readlink(p); err != nil {
				return err
			}
		case info.Mode().IsRegular():
			if f.Data, err = os.ReadFile(p); err != nil {
				return err
			}
		default:
			return nil // devices, sockets: not part of an image
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read root file system %s: %w", root, err)
	}
	return files, nil
}

// Image is an OCI image with no base: one layer and a config with no
// timestamps, for this machine's architecture.
func Image(files []File, cfg Config) (v1.Image, error) {
	layerTar, err := LayerTar(files)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, fmt.Errorf("layer: %w", err)
	}
	base := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	base = mutate.ConfigMediaType(base, types.OCIConfigJSON)
	img, err := mutate.AppendLayers(base, layer)
	if err != nil {
		return nil, fmt.Errorf("append layer: %w", err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = "linux", runtime.GOARCH
	cf.Config.Entrypoint = cfg.Entrypoint
	cf.Config.User = cfg.User
	cf.Config.Env = cfg.Env
	cf.Config.WorkingDir = "/"
	cf.Config.Labels = cfg.Labels
	if len(cfg.ExposedPorts) > 0 {
		cf.Config.ExposedPorts = map[string]struct{}{}
		for _, p := range cfg.ExposedPorts {
			cf.Config.ExposedPorts[p] = struct{}{}
		}
	}
	img, err = mutate.ConfigFile(img, cf)
	if err != nil {
		return nil, fmt.Errorf("set config: %w", err)
	}
	return img, nil
}

// ContentTag is <tag>-<first 12 hex digits of the image digest>.
func ContentTag(tag string, img v1.Image) (string, error) {
	d, err := img.Digest()
	if err != nil {
		return "", fmt.Errorf("digest: %w", err)
	}
	return tag + "-" + d.Hex[:12], nil
}
