package media

import (
	"context"
	"io"
	"strconv"
	"time"

	"siteplane.dev/services/internal/media/blobstore"
	"siteplane.dev/services/internal/platform/config"
	"siteplane.dev/services/pkg/contract"
)

// s3CheckTimeout bounds the start-up check of the bucket.
const s3CheckTimeout = 15 * time.Second

// s3FromConfig builds the S3 store from the SITEPLANE_MEDIA_S3_* variables
// (the credentials directly or from mounted files) and checks once that the
// bucket exists and accepts the credentials: a typo in the bucket name then
// stops the start with a clear message, instead of every upload failing.
func s3FromConfig(cfg *config.Loader) (blobstore.Store, io.Closer) {
	sc := blobstore.S3Config{
		Endpoint:        cfg.Required(contract.EnvMediaS3Endpoint),
		Bucket:          cfg.Required(contract.EnvMediaS3Bucket),
		Region:          cfg.String(contract.EnvMediaS3Region, contract.DefaultMediaS3Region),
		Prefix:          cfg.String(contract.EnvMediaS3Prefix, ""),
		AccessKeyID:     cfg.Secret(contract.EnvMediaS3AccessKeyID, contract.EnvMediaS3AccessKeyIDFile, true),
		SecretAccessKey: cfg.Secret(contract.EnvMediaS3SecretAccessKey, contract.EnvMediaS3SecretAccessKeyFile, true),
	}
	if v := cfg.String(contract.EnvMediaS3PathStyle, "false"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			cfg.Fail("%s must be true or false, got %q", contract.EnvMediaS3PathStyle, v)
		}
		sc.PathStyle = b
	}
	if cfg.Err() != nil {
		return nil, nopCloser{}
	}
	s, err := blobstore.NewS3(sc)
	if err != nil {
		cfg.Fail("media S3 storage: %v", err)
		return nil, nopCloser{}
	}
	ctx, cancel := context.WithTimeout(context.Background(), s3CheckTimeout)
	defer cancel()
	if err := s.Check(ctx); err != nil {
		cfg.Fail("media S3 storage at %s: %v", sc.Endpoint, err)
		return nil, nopCloser{}
	}
	return s, s
}
