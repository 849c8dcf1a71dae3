package contract

// HTTP paths every service serves.
const (
	// HealthzPath answers 200 while the process is alive.
	HealthzPath = "/healthz"
	// ReadyzPath answers 200 when the database is reachable and migrations are applied.
	ReadyzPath = "/readyz"
	// MetricsPath is served on the metrics listener, never on the API port.
	MetricsPath = "/metrics"
	// RouteDescriptionsPath is the internal endpoint where content, media and
	// the gateway publish their route descriptions (WordPress index shape).
	RouteDescriptionsPath = "/internal/routes"
	// UserLookupPath is the gateway's internal user lookup, used by the
	// content service to validate author ids: GET UserLookupPath + "/{id}".
	UserLookupPath = "/internal/users"
	// SitePath is where the content service serves the public website: the
	// gateway forwards GET {site}/2026/hello/ to SitePath + "/2026/hello/".
	SitePath = "/internal/site"
)

// Header names used between the gateway and the services.
const (
	// IdentityHeader carries the signed caller identity (package identity).
	IdentityHeader = "X-Siteplane-Identity"
	// ClientAddressHeader carries the visitor's address (after the trusted
	// proxies) on the website's requests, set by the gateway: the comment
	// form records and throttles by it.
	ClientAddressHeader = "X-Siteplane-Client-Address"
	// RequestIDHeader is honoured when present and echoed on every response.
	RequestIDHeader = "X-Request-ID"
)

// Service names: the values of the `service` log and metric label, the
// component names of the Site resource and the service names in the route file.
const (
	ServiceGateway     = "gateway"
	ServiceContent     = "content"
	ServiceMedia       = "media"
	ServiceMarketplace = "marketplace"
)

// Services lists every component in start order.
var Services = []string{ServiceMarketplace, ServiceContent, ServiceMedia, ServiceGateway}
