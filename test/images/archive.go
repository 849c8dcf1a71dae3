package images

import (
	"archive/tar"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/google/go-containerregistry/pkg/authn"
	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/remote"
)

// Annotations that name an image in an OCI layout: the OCI tag, and the full
// reference containerd (`ctr images import`, `kind load image-archive`)
// imports it as.
const (
	annotationRefName       = "org.opencontainers.image.ref.name"
	annotationContainerdRef = "io.containerd.image.name"
)

// WriteArchive writes img as an OCI image layout archive (a tar of the layout
// directory) at path, once per reference so every reference is imported.
func WriteArchive(path string, img v1.Image, refs []string) error {
	dir, err := os.MkdirTemp(filepath.Dir(path), ".layout-")
	if err != nil {
		return fmt.Errorf("layout dir: %w", err)
	}
	defer os.RemoveAll(dir)
	lp, err := layout.Write(dir, empty.Index)
	if err != nil {
		return fmt.Errorf("layout: %w", err)
	}
	for _, ref := range refs {
		r, err := name.ParseReference(ref)
		if err != nil {
			return fmt.Errorf("reference %q: %w", ref, err)
		}
		tag := r.Identifier()
		if err := lp.AppendImage(img, layout.WithAnnotations(map[string]string{
			annotationRefName:       tag,
			annotationContainerdRef: r.Name(),
		})); err != nil {
			return fmt.Errorf("append %s: %w", ref, err)
		}
	}
	tmp := path + ".tmp"
	if err := tarDir(dir, tmp); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("archive: %w", err)
	}
	return nil
}

// tarDir writes dir's tree to a tar file with zero timestamps.
func tarDir(dir, dst string) error {
	out, err := os.Create(dst)
	if err != nil {
		return fmt.Errorf("create archive: %w", err)
	}
	defer out.Close()
	tw := tar.NewWriter(out)
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if rel == "." {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		h := &tar.Header{Name: filepath.ToSlash(rel), Mode: 0o644, Format: tar.FormatPAX}
		if d.IsDir() {
			h.Typeflag, h.Name, h.Mode = tar.TypeDir, h.Name+"/", 0o755
			return tw.WriteHeader(h)
		}
		h.Typeflag, h.Size = tar.TypeReg, info.Size()
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(tw, f)
		return err
	})
	if err != nil {
		return fmt.Errorf("archive %s: %w", dst, err)
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("archive %s: %w", dst, err)
	}
	return out.Close()
}

// Push writes img to every reference's registry. Loopback registries are
// spoken to over plain HTTP.
func Push(img v1.Image, refs []string) error {
	for _, ref := range refs {
		r, err := name.ParseReference(ref)
		if err != nil {
			return fmt.Errorf("reference %q: %w", ref, err)
		}
		if err := remote.Write(r, img, remote.WithAuthFromKeychain(authn.DefaultKeychain)); err != nil {
			return fmt.Errorf("push %s: %w", ref, err)
		}
	}
	return nil
}
