package contract

// ServiceConfig is what one service process is started with outside
// Kubernetes (the local supervisor, the stack tests); the operator renders
// the same variables into Deployments, with Secrets as files. Fields a
// service does not read are ignored for it.
type ServiceConfig struct {
	Listen, Metrics string // host:port; Metrics "off" disables the listener
	DatabaseURL     string
	InternalKey     string
	SiteFile        string
	LogLevel        string
	// ShutdownTimeout is a Go duration; "" keeps the service's default.
	ShutdownTimeout string

	// The gateway's route file and bootstrap administrator.
	RoutesFile, AdminUser, AdminEmail, AdminPassword string
	// AdminLoginPassword is the bootstrap administrator's sign-in page
	// password; "" leaves it unset.
	AdminLoginPassword string
	// MediaDir is where the media service stores uploads.
	MediaDir string
	// GatewayURL is where content looks author ids up: the gateway's
	// internal listener; "" leaves it unset.
	GatewayURL string
	// ContentURL is where media asks about attachments' parent posts: the
	// content service's API; "" leaves it unset.
	ContentURL string
	// InternalListen is the gateway's internal listener (host:port); ""
	// switches it off.
	InternalListen string
	// GatewaySecret is the gateway's non-rotating secret; "" lets the
	// internal key stand in.
	GatewaySecret string
	// ThemesDir holds the supplied block themes (content); "" leaves it
	// unset: only the built-in theme.
	ThemesDir string
}

// ServiceEnv is the environment of service name's process: the common
// variables and those of that service. The local supervisor and the stack
// tests both start services with it.
func ServiceEnv(name string, c ServiceConfig) []string {
	env := []string{
		EnvListenAddr + "=" + c.Listen,
		EnvMetricsAddr + "=" + c.Metrics,
		EnvDatabaseURL + "=" + c.DatabaseURL,
		EnvInternalKey + "=" + c.InternalKey,
		EnvSiteFile + "=" + c.SiteFile,
		EnvLogLevel + "=" + c.LogLevel,
	}
	if c.ShutdownTimeout != "" {
		env = append(env, EnvShutdownTimeout+"="+c.ShutdownTimeout)
	}
	switch name {
	case ServiceGateway:
		internal := c.InternalListen
		if internal == "" {
			internal = "off"
		}
		env = append(env, EnvInternalListenAddr+"="+internal)
		if c.GatewaySecret != "" {
			env = append(env, EnvGatewaySecret+"="+c.GatewaySecret)
		}
		env = append(env, EnvRoutesFile+"="+c.RoutesFile, EnvAdminUser+"="+c.AdminUser,
			EnvAdminEmail+"="+c.AdminEmail, EnvAdminPassword+"="+c.AdminPassword)
		if c.AdminLoginPassword != "" {
			env = append(env, EnvAdminLoginPassword+"="+c.AdminLoginPassword)
		}
	case ServiceMedia:
		env = append(env, EnvMediaDir+"="+c.MediaDir)
		if c.ContentURL != "" {
			env = append(env, EnvContentURL+"="+c.ContentURL)
		}
	case ServiceContent:
		if c.GatewayURL != "" {
			env = append(env, EnvGatewayURL+"="+c.GatewayURL)
		}
		if c.ThemesDir != "" {
			env = append(env, EnvThemesDir+"="+c.ThemesDir)
		}
	}
	return env
}
