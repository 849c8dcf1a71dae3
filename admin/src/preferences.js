// Where the editor keeps a person's preferences (welcome guide seen, open
// panels, editor mode). WordPress stores them in the user's meta
// (persisted_preferences) with a localStorage copy; Siteplane's users
// route does not keep that meta yet, so the admin keeps them in this
// browser's localStorage, one key per person.
import { dispatch } from '@wordpress/data';
import { store as preferencesStore } from '@wordpress/preferences';

export function persistPreferences( userId ) {
	const key = `siteplane-preferences-${ userId }`;
	dispatch( preferencesStore ).setPersistenceLayer( {
		async get() {
			try {
				return JSON.parse( window.localStorage.getItem( key ) ) ?? {};
			} catch {
				return {};
			}
		},
		set( data ) {
			try {
				window.localStorage.setItem( key, JSON.stringify( data ) );
			} catch {
				// A full or disabled storage only loses the preferences.
			}
		},
	} );
}
