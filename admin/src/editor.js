// The post editor: edit-post's initializeEditor, as
// wp-admin/edit-form-blocks.php calls it.
import { initializeEditor } from '@wordpress/edit-post';
import '@wordpress/format-library';
import { addFilter } from '@wordpress/hooks';
import { editorSettings } from './settings.js';
import { SiteplaneMediaUpload } from './media-upload.jsx';
import { persistPreferences } from './preferences.js';

export function startEditor( boot ) {
	// WordPress's MediaUpload opens wp.media (Backbone, not part of the
	// packages); the admin supplies its own media dialog through the same
	// filter. Added after @wordpress/editor's, so it is the one used.
	addFilter( 'editor.MediaUpload', 'siteplane/media-upload', () => SiteplaneMediaUpload );
	persistPreferences( boot );
	document.body.classList.add( 'block-editor-page', 'is-fullscreen-mode' );
	initializeEditor( 'editor', boot.postType, boot.postId, editorSettings( boot ), boot.initialEdits ?? {} );
}
