// The api-fetch set-up WordPress's PHP prints before the editor loads
// (wp_default_packages_inline_scripts): the REST root, the nonce with its
// refresh endpoint, the preloaded answers, and Siteplane's one addition:
// the editor asks for wp/v2 and /wp-json/, the site serves cms/v2 under
// /cms-json/.
import apiFetch from '@wordpress/api-fetch';

// toSiteplane rewrites one request's path or URL. Only the wp/v2
// namespace is renamed (the seed's naming note); other namespaces the
// editor calls keep their names.
export function toSiteplane( options ) {
	const next = { ...options };
	if ( typeof next.path === 'string' ) {
		next.path = next.path.replace( /^\/?wp\/v2(?=\/|\?|$)/, '/cms/v2' );
	}
	if ( typeof next.url === 'string' ) {
		next.url = next.url
			.replace( /\/wp-json\//, '/cms-json/' )
			.replace( /([?&]rest_route=)(%2F|\/)wp(%2F|\/)v2/i, '$1$2cms$3v2' )
			.replace( /\/cms-json\/wp\/v2(?=\/|\?|$)/, '/cms-json/cms/v2' );
	}
	return next;
}

export function setUpApiFetch( boot ) {
	apiFetch.use( apiFetch.createRootURLMiddleware( boot.root ) );
	const nonce = apiFetch.createNonceMiddleware( boot.nonce );
	apiFetch.use( nonce );
	// api-fetch refreshes an expired nonce here (rest_cookie_invalid_nonce).
	apiFetch.nonceMiddleware = nonce;
	apiFetch.nonceEndpoint = boot.nonceEndpoint;
	apiFetch.use( apiFetch.createPreloadingMiddleware( boot.preload || {} ) );
	// Registered last, so it runs first: the preloading middleware and the
	// root URL already see Siteplane's paths.
	apiFetch.use( ( options, next ) => next( toSiteplane( options ) ) );
}
