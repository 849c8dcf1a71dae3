package gateway

import "siteplane.dev/services/internal/gateway/accounts"

// OEmbedConfig configures the oEmbed proxy's outbound fetches.
type OEmbedConfig struct {
	// AllowLoopbackForTests lets the proxy fetch from loopback addresses
	// (tests with local providers). Never set it in production.
	AllowLoopbackForTests bool
}

type oembedProxy struct {
	cfg   OEmbedConfig
	store *accounts.Store
}

func newOEmbedProxy(cfg OEmbedConfig, store *accounts.Store) *oembedProxy {
	return &oembedProxy{cfg: cfg, store: store}
}
