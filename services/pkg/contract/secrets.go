package contract

// Keys inside the Secrets the operator generates and the services mount.
const (
	// InternalKeySecretKey holds the HMAC key of the identity header.
	InternalKeySecretKey = "internal-key"
	// InternalKeyPreviousSecretKey holds, for a grace window after a
	// rotation, the key InternalKeySecretKey replaced: receivers accept
	// both, senders keep signing with it until InternalKeyRotatedAtSecretKey
	// plus identity.PropagationDelay (docs/security.md).
	InternalKeyPreviousSecretKey = "internal-key-previous"
	// InternalKeyRotatedAtSecretKey holds when the current key replaced the
	// previous one (RFC 3339).
	InternalKeyRotatedAtSecretKey = "internal-key-rotated-at"
	// GatewaySecretKey holds the gateway's own secret, which never rotates:
	// the application-password pepper and the nonce key derive from it. On
	// Sites created before it existed it is the original internal key, so
	// stored password hashes stay valid.
	GatewaySecretKey = "gateway-secret"
	// DatabaseURLSecretKey is the key of the user-provided database Secret
	// that holds the DSN.
	DatabaseURLSecretKey = "dsn"

	// AdminUsernameKey, AdminEmailKey and AdminPasswordKey are the files of
	// the bootstrap administrator Secret. The password is an application
	// password (24 alphanumerics).
	AdminUsernameKey = "username"
	AdminEmailKey    = "email"
	AdminPasswordKey = "application-password"
	// AdminLoginPasswordKey is an optional file of that Secret: the
	// administrator's login password for the sign-in page.
	AdminLoginPasswordKey = "login-password"

	// KeyDirAPIKeyFile and KeyDirAccountFile lay out one marketplace API key
	// in the key directory: <dir>/<key-name>/api-key holds the key and
	// <dir>/<key-name>/account the owning account's username. The operator
	// projects each key Secret into its own sub-directory, so deleting the
	// Secret removes the directory and the key stops working.
	KeyDirAPIKeyFile  = "api-key"
	KeyDirAccountFile = "account"
	// KeyDirAccountEmailFile (optional) is the email address the marketplace
	// gives the account when it creates it: the marketplace makes sure every
	// account its key directory names exists (created when missing, never
	// changed), so a key the operator issues works without an import.
	KeyDirAccountEmailFile = "account-email"

	// S3AccessKeyIDSecretKey and S3SecretAccessKeySecretKey are the default
	// keys of the user-provided S3 credentials Secret named by a Site's
	// spec.media.s3.credentialsSecretRef; the operator mounts them under
	// MediaS3MountPath with these names whatever their keys in the Secret.
	S3AccessKeyIDSecretKey     = "access-key-id"
	S3SecretAccessKeySecretKey = "secret-access-key"
)

// Mount paths used by the operator and read back by default by the services.
const (
	ConfigMountPath          = "/etc/siteplane/config"
	InternalKeyMountPath     = "/etc/siteplane/internal"
	GatewaySecretMountPath   = "/etc/siteplane/gateway"
	DatabaseMountPath        = "/etc/siteplane/database"
	AdminMountPath           = "/etc/siteplane/admin"
	MarketplaceKeysMountPath = "/etc/siteplane/marketplace-keys"
	MediaMountPath           = "/var/lib/siteplane/media"
	MediaS3MountPath         = "/etc/siteplane/media-s3"

	// SiteFileName and RoutesFileName are the keys of the site ConfigMap.
	SiteFileName   = "site.json"
	RoutesFileName = "routes.json"
)
