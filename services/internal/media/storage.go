package media

import (
	"io"

	"siteplane.dev/services/internal/media/blobstore"
	"siteplane.dev/services/internal/platform/config"
	"siteplane.dev/services/pkg/contract"
)

// DefaultMediaDir is where files go when SITEPLANE_MEDIA_DIR is unset (the
// container image's volume mount point).
const DefaultMediaDir = "/var/lib/siteplane/media"

// storeFromConfig picks the blob backend from the environment: the local
// filesystem under SITEPLANE_MEDIA_DIR unless an object store is configured.
// Problems are recorded on cfg, which the caller checks once.
//
// The returned closer releases the backend's resources (nil error when none).
func storeFromConfig(cfg *config.Loader) (blobstore.Store, io.Closer) {
	switch backend := cfg.String(contract.EnvMediaStorage, contract.MediaStorageFilesystem); backend {
	case contract.MediaStorageS3:
		return s3FromConfig(cfg)
	case contract.MediaStorageFilesystem:
	default:
		cfg.Fail("%s must be %s or %s, got %q", contract.EnvMediaStorage, contract.MediaStorageFilesystem, contract.MediaStorageS3, backend)
		return nil, nopCloser{}
	}
	dir := cfg.String(contract.EnvMediaDir, DefaultMediaDir)
	fs, err := blobstore.NewFS(dir)
	if err != nil {
		cfg.Fail("%s: %v", contract.EnvMediaDir, err)
		return nil, nopCloser{}
	}
	return fs, fs
}

type nopCloser struct{}

func (nopCloser) Close() error { return nil }
