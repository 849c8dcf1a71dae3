// The api-fetch set-up WordPress's PHP prints before the editor loads
// (wp_default_packages_inline_scripts): the REST root, the nonce with its
// refresh endpoint, the preloaded answers, and Siteplane's one addition:
// the editor asks for wp/v2 and /wp-json/, the site serves cms/v2 under
// /cms-json/.
import apiFetch from '@wordpress/api-fetch';

// toSiteplane rewrites one request's path or URL. The two namespaces whose
// brand stem the seed renames change (wp/v2 → cms/v2, wp-block-editor/v1 →
// cms-block-editor/v1: url-details and navigation-fallback); other
// namespaces the editor calls keep their names.
const renamed = [
	[ 'wp/v2', 'cms/v2' ],
	[ 'wp-block-editor/v1', 'cms-block-editor/v1' ],
];

const stem = ( ns ) => ns.replace( /[/]/g, '(%2F|\\/)' ).replace( /-/g, '\\-' );

export function toSiteplane( options ) {
	const next = { ...options };
	for ( const [ from, to ] of renamed ) {
		const [ name, version ] = to.split( '/' );
		if ( typeof next.path === 'string' ) {
			next.path = next.path.replace( new RegExp( '^\\/?' + from.replace( /-/g, '\\-' ) + '(?=\\/|\\?|$)' ), '/' + to );
		}
		if ( typeof next.url === 'string' ) {
			next.url = next.url
				.replace( /\/wp-json\//, '/cms-json/' )
				.replace( new RegExp( '([?&]rest_route=)(%2F|\\/)' + stem( from ), 'i' ), ( m, q, s1, s2 ) => q + s1 + name + s2 + version )
				.replace( new RegExp( '\\/cms-json\\/' + from.replace( /-/g, '\\-' ) + '(?=\\/|\\?|$)' ), '/cms-json/' + to );
		}
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
