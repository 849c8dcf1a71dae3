// The site editor's host script: what wp-admin/site-editor.php does around
// @wordpress/edit-site (the editor settings of get_block_editor_settings for
// the core/edit-site context, api-fetch with the preloaded answers, then
// wp.editSite.initializeEditor). Its own bundle, so the post editor's page
// does not carry the site editor's code.
// First: it adapts the editor's private APIs before edit-site reads them.
import './site-editor-compat.js';
import { initializeEditor } from '@wordpress/edit-site';
import '@wordpress/format-library';
import { addFilter } from '@wordpress/hooks';
import { setUpApiFetch } from './api.js';
import { siteEditorSettings } from './settings.js';
import { SiteplaneMediaUpload } from './media-upload.jsx';
import { persistPreferences } from './preferences.js';
import './site-editor.css';

function boot() {
	const data = JSON.parse( document.getElementById( 'siteplane-admin-data' ).textContent );
	setUpApiFetch( data );
	// As in the post editor: wp.media is not part of the packages.
	addFilter( 'editor.MediaUpload', 'siteplane/media-upload', () => SiteplaneMediaUpload );
	persistPreferences( data );
	// site-editor.php's admin_body_class: no jump into full screen.
	document.body.classList.add( 'site-editor-php', 'is-fullscreen-mode' );
	initializeEditor( 'site-editor', siteEditorSettings( data ) );
}

if ( document.readyState === 'loading' ) {
	document.addEventListener( 'DOMContentLoaded', boot );
} else {
	boot();
}
