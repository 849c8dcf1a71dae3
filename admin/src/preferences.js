// Where the editor keeps a person's preferences (welcome guide seen, open
// panels, editor mode): as WordPress does (its preferences-persistence
// package), per user on the server, in users/me's
// meta.persisted_preferences, with a copy in this browser's localStorage.
// The page brings the stored ones (boot.preferences); each change is
// written to the copy at once and to the server a moment later (one
// request for a burst of changes). The newer of the two copies wins
// (_modified), so a change whose request was lost is not forgotten here.
import apiFetch from '@wordpress/api-fetch';
import { dispatch } from '@wordpress/data';
import { store as preferencesStore } from '@wordpress/preferences';

const writeDelayMS = 2500;

function readLocal( key ) {
	try {
		return JSON.parse( window.localStorage.getItem( key ) ) ?? {};
	} catch {
		return {};
	}
}

export function persistPreferences( boot ) {
	const key = `siteplane-preferences-${ boot.user.id }`;
	let timer;
	let pending;
	const flush = () => {
		window.clearTimeout( timer );
		if ( ! pending ) {
			return;
		}
		const data = pending;
		pending = undefined;
		// keepalive: the request outlives a page being left
		apiFetch( {
			path: '/wp/v2/users/me',
			method: 'PUT',
			keepalive: true,
			data: { meta: { persisted_preferences: data } },
		} ).catch( () => {
			// The browser's copy keeps the change; the next change
			// writes it again.
		} );
	};
	window.addEventListener( 'pagehide', flush );
	dispatch( preferencesStore ).setPersistenceLayer( {
		async get() {
			const server = boot.preferences ?? {};
			const local = readLocal( key );
			return ( local._modified ?? '' ) > ( server._modified ?? '' ) ? local : server;
		},
		set( data ) {
			pending = { ...data, _modified: new Date().toISOString() };
			try {
				window.localStorage.setItem( key, JSON.stringify( pending ) );
			} catch {
				// A full or disabled storage keeps only the server's copy.
			}
			window.clearTimeout( timer );
			timer = window.setTimeout( flush, writeDelayMS );
		},
	} );
}
