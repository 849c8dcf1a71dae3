package contract

// Environment variables read by every service. Values that are secrets are
// passed as files (the *_FILE variables) when they come from a mounted Secret;
// the plain forms exist for local runs.
const (
	// EnvListenAddr is the API listener, host:port. Default ":8080".
	EnvListenAddr = "SITEPLANE_LISTEN_ADDR"
	// EnvMetricsAddr is the Prometheus listener, host:port. Default ":9090".
	EnvMetricsAddr = "SITEPLANE_METRICS_ADDR"
	// EnvDatabaseURL is the PostgreSQL DSN. Secret.
	EnvDatabaseURL = "SITEPLANE_DATABASE_URL"
	// EnvDatabaseURLFile names a file holding the DSN (a mounted Secret key).
	EnvDatabaseURLFile = "SITEPLANE_DATABASE_URL_FILE"
	// EnvDatabaseReadURL is the DSN of a read-only PostgreSQL (a streaming
	// replica, CNPG's -ro Service). Secret. When set, content and media send
	// anonymous reads and the website's pages to it; writes and
	// authenticated reads stay on EnvDatabaseURL. Unset: every query goes to
	// the primary (docs/operator.md, read pool).
	EnvDatabaseReadURL = "SITEPLANE_DATABASE_READ_URL"
	// EnvDatabaseReadURLFile names a file holding the read DSN (a mounted
	// Secret key); it wins over EnvDatabaseReadURL like EnvDatabaseURLFile.
	EnvDatabaseReadURLFile = "SITEPLANE_DATABASE_READ_URL_FILE"
	// EnvInternalKey is the HMAC key that signs the identity header. Secret.
	EnvInternalKey = "SITEPLANE_INTERNAL_KEY"
	// EnvInternalKeyFile names a file holding the internal key.
	EnvInternalKeyFile = "SITEPLANE_INTERNAL_KEY_FILE"
	// EnvGatewaySecret is the gateway's non-rotating secret (password
	// pepper, nonce key). Secret. Unset: the internal key stands in for it
	// (local runs; never rotate the internal key then).
	EnvGatewaySecret = "SITEPLANE_GATEWAY_SECRET"
	// EnvGatewaySecretFile names a file holding the gateway secret.
	EnvGatewaySecretFile = "SITEPLANE_GATEWAY_SECRET_FILE"
	// EnvInternalListenAddr is the gateway's internal listener (host:port)
	// for the service-to-service endpoints under /internal/ (user lookup,
	// route descriptions), which the public listener does not serve.
	// Default DefaultInternalListenAddr; "off" disables it.
	EnvInternalListenAddr = "SITEPLANE_INTERNAL_LISTEN_ADDR"
	// EnvInternalKeyPropagationDelay is how long after an internal-key
	// rotation the senders keep signing with the previous key (Go duration,
	// 10s to 5m). Default "3m": enough for a kubelet with the default sync
	// period to deliver the rotated Secret to every pod. Shorten it only
	// where the kubelets deliver faster (docs/security.md).
	EnvInternalKeyPropagationDelay = "SITEPLANE_INTERNAL_KEY_PROPAGATION_DELAY"
	// EnvShutdownTimeout bounds the drain of in-flight requests (Go duration). Default "20s".
	EnvShutdownTimeout = "SITEPLANE_SHUTDOWN_TIMEOUT"
	// EnvShutdownDelay is how long a service keeps serving, already
	// unready, after SIGTERM before it drains (Go duration). Default "0s".
	EnvShutdownDelay = "SITEPLANE_SHUTDOWN_DELAY"
	// EnvMemoryLimit is the container's memory limit in bytes, as the
	// operator passes it through the downward API (resourceFieldRef
	// limits.memory). Unless GOMEMLIMIT is set, a service sets its soft
	// memory limit (runtime/debug.SetMemoryLimit) to a share of it.
	EnvMemoryLimit = "SITEPLANE_MEMORY_LIMIT"
	// EnvGatewayTrustedProxies lists the CIDRs or addresses (comma-separated)
	// of the proxies in front of the gateway whose X-Forwarded-For it
	// believes for the client's address.
	EnvGatewayTrustedProxies = "SITEPLANE_GATEWAY_TRUSTED_PROXIES"
	// EnvMediaDecodeBytes lowers the media service's decode budget (bytes),
	// which otherwise follows its soft memory limit (docs/media.md). The
	// operator sets it to half the media container's memory limit.
	EnvMediaDecodeBytes = "SITEPLANE_MEDIA_DECODE_BYTES"
	// EnvLogLevel is debug, info, warn or error. Default "info".
	EnvLogLevel = "SITEPLANE_LOG_LEVEL"
	// EnvMaxBodyBytes caps request bodies. Default 10 MiB (media raises it).
	EnvMaxBodyBytes = "SITEPLANE_MAX_BODY_BYTES"
	// EnvSiteFile names the site settings file (JSON, type Site).
	EnvSiteFile = "SITEPLANE_SITE_FILE"
	// EnvRoutesFile names the gateway route file (JSON, type RouteFile).
	EnvRoutesFile = "SITEPLANE_ROUTES_FILE"
	// EnvMarketplaceKeysDir names the directory of operator-issued API keys
	// (layout: KeyDir* constants below).
	EnvMarketplaceKeysDir = "SITEPLANE_MARKETPLACE_KEYS_DIR"
	// EnvValidationRate is the purchase-code validations one key may make per minute. Default 60.
	EnvValidationRate = "SITEPLANE_VALIDATION_RATE_PER_MINUTE"
	// EnvAdminDir names a directory holding the bootstrap administrator
	// (files AdminUsernameKey, AdminEmailKey, AdminPasswordKey), as the
	// operator's admin Secret is mounted.
	EnvAdminDir = "SITEPLANE_ADMIN_DIR"
	// EnvAdminUser, EnvAdminEmail and EnvAdminPassword bootstrap the
	// administrator without a mounted Secret (local runs).
	EnvAdminUser     = "SITEPLANE_ADMIN_USER"
	EnvAdminEmail    = "SITEPLANE_ADMIN_EMAIL"
	EnvAdminPassword = "SITEPLANE_ADMIN_PASSWORD"
	// EnvAdminLoginPassword optionally gives the bootstrap administrator a
	// login password for the sign-in page (/cms-login.php).
	EnvAdminLoginPassword = "SITEPLANE_ADMIN_LOGIN_PASSWORD"
	// EnvMediaDir is where the media service stores uploaded files when
	// EnvMediaStorage is MediaStorageFilesystem.
	EnvMediaDir = "SITEPLANE_MEDIA_DIR"
	// EnvMediaStorage selects the media blob store: MediaStorageFilesystem
	// (the default, under EnvMediaDir) or MediaStorageS3 (the
	// SITEPLANE_MEDIA_S3_* variables below).
	EnvMediaStorage = "SITEPLANE_MEDIA_STORAGE"
	// EnvMediaS3Endpoint is the S3 API's base URL, e.g.
	// https://s3.eu-west-1.amazonaws.com or http://minio.storage:9000.
	EnvMediaS3Endpoint = "SITEPLANE_MEDIA_S3_ENDPOINT"
	// EnvMediaS3Bucket is the bucket holding the files; it must exist.
	EnvMediaS3Bucket = "SITEPLANE_MEDIA_S3_BUCKET"
	// EnvMediaS3Region is the bucket's region. Default DefaultMediaS3Region.
	EnvMediaS3Region = "SITEPLANE_MEDIA_S3_REGION"
	// EnvMediaS3Prefix is prepended to every object key ("site-a/" keeps
	// several sites in one bucket). Default empty.
	EnvMediaS3Prefix = "SITEPLANE_MEDIA_S3_PREFIX"
	// EnvMediaS3PathStyle is "true" to address the bucket in the path
	// (endpoint/bucket/key), as most self-hosted servers need, instead of
	// as a host name (bucket.endpoint/key). Default "false".
	EnvMediaS3PathStyle = "SITEPLANE_MEDIA_S3_PATH_STYLE"
	// EnvMediaS3AccessKeyID and EnvMediaS3SecretAccessKey are the
	// credentials. Secret; the _FILE variants name mounted Secret keys.
	EnvMediaS3AccessKeyID         = "SITEPLANE_MEDIA_S3_ACCESS_KEY_ID"
	EnvMediaS3AccessKeyIDFile     = "SITEPLANE_MEDIA_S3_ACCESS_KEY_ID_FILE"
	EnvMediaS3SecretAccessKey     = "SITEPLANE_MEDIA_S3_SECRET_ACCESS_KEY"
	EnvMediaS3SecretAccessKeyFile = "SITEPLANE_MEDIA_S3_SECRET_ACCESS_KEY_FILE"
	// EnvGatewayURL is the gateway's internal base URL, used by the content
	// service to look authors up at UserLookupPath. Unset: only the caller's
	// own id (and the bootstrap admin, id 1) is accepted as an author.
	EnvGatewayURL = "SITEPLANE_GATEWAY_URL"
	// EnvContentURL is the content service's API base URL, used by the
	// media service to ask, as the caller, whether an attachment's parent
	// post may be read or edited (docs/media.md). Unset: attachments follow
	// no parent (read as public, attached to any id) and media warns.
	EnvContentURL = "SITEPLANE_CONTENT_URL"
	// EnvServiceName overrides the service label in logs and metrics.
	EnvServiceName = "SITEPLANE_SERVICE_NAME"
	// EnvEdgeCacheBytes is the gateway's edge cache budget in bytes
	// (anonymous GET/HEAD answers, docs/edge-cache.md). Default
	// DefaultEdgeCacheBytes; 0 switches the cache off.
	EnvEdgeCacheBytes = "SITEPLANE_EDGE_CACHE_BYTES"
)

// DefaultEdgeCacheBytes is the edge cache budget when EnvEdgeCacheBytes is
// unset: 64 MiB per gateway replica.
const DefaultEdgeCacheBytes = 64 << 20

// Defaults for the variables above.
const (
	DefaultAPIPort            = 8080
	DefaultMetricsPort        = 9090
	DefaultListenAddr         = ":8080"
	DefaultMetricsAddr        = ":9090"
	DefaultInternalPort       = 8081
	DefaultInternalListenAddr = ":8081"
	DefaultShutdown           = "20s"
	// DefaultShutdownDelay is the SITEPLANE_SHUTDOWN_DELAY the operator
	// sets: longer than a readiness probe period, so endpoints drop a pod
	// before it stops accepting.
	DefaultShutdownDelay  = "5s"
	DefaultMaxBodyBytes   = 10 << 20
	DefaultValidationRate = 60
	DefaultMediaS3Region  = "us-east-1"
)

// Values of EnvMediaStorage.
const (
	MediaStorageFilesystem = "filesystem"
	MediaStorageS3         = "s3"
)
