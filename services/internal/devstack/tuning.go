package devstack

import (
	"os"

	"siteplane.dev/services/pkg/contract"
)

// TuningEnv lists the SITEPLANE_* variables the supervisor copies from its
// own environment to every service it starts, so that a local run can be
// tuned without editing code:
//
//	SITEPLANE_VALIDATION_RATE_PER_MINUTE=100000 bin/siteplane-run -detach
//
// Everything else the services read (database URL, keys, addresses, files)
// is the supervisor's to set, and the rest of the developer's shell is not
// passed at all (see baseEnv). A variable set here wins over the
// supervisor's own default for it (SITEPLANE_LOG_LEVEL=info).
var TuningEnv = []string{
	contract.EnvValidationRate,
	contract.EnvLogLevel,
	contract.EnvMaxBodyBytes,
	contract.EnvShutdownTimeout,
	// service.EnvPprofAddr: opt-in profiling listener. Each service binds it,
	// so use port 0 (127.0.0.1:0) and read the chosen address from its log.
	"SITEPLANE_PPROF_ADDR",
	// The gateway's edge cache budget: 0 measures uncached reads
	// (SITEPLANE_EDGE_CACHE_BYTES=0 make bench).
	contract.EnvEdgeCacheBytes,
}

// MediaStorageEnv lists the media storage variables the supervisor copies
// from its own environment to the media service only (the S3 credentials
// reach no other process), so that a local run can keep its uploads in an
// S3-compatible bucket instead of .cache/run/uploads:
//
//	SITEPLANE_MEDIA_STORAGE=s3 SITEPLANE_MEDIA_S3_ENDPOINT=http://127.0.0.1:7070 ... make run
var MediaStorageEnv = []string{
	contract.EnvMediaStorage,
	contract.EnvMediaS3Endpoint,
	contract.EnvMediaS3Bucket,
	contract.EnvMediaS3Region,
	contract.EnvMediaS3Prefix,
	contract.EnvMediaS3PathStyle,
	contract.EnvMediaS3AccessKeyID,
	contract.EnvMediaS3AccessKeyIDFile,
	contract.EnvMediaS3SecretAccessKey,
	contract.EnvMediaS3SecretAccessKeyFile,
}

// tuningEnv returns the TuningEnv variables that lookup finds, as KEY=value.
func tuningEnv(lookup func(string) (string, bool)) []string { return pick(TuningEnv, lookup) }

// mediaStorageEnv returns the MediaStorageEnv variables that lookup finds.
func mediaStorageEnv(lookup func(string) (string, bool)) []string {
	return pick(MediaStorageEnv, lookup)
}

func pick(names []string, lookup func(string) (string, bool)) []string {
	var env []string
	for _, k := range names {
		if v, ok := lookup(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}

// processTuningEnv is tuningEnv of this process's environment.
func processTuningEnv() []string { return tuningEnv(os.LookupEnv) }
