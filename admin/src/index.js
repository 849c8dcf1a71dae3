// Siteplane's admin host script: what WordPress's PHP does around the
// block editor packages (wp-admin/edit-form-blocks.php, get_block_editor_settings,
// the inline scripts of wp_default_packages), plus the post, page and media
// lists. It reads the page's bootstrap data from a JSON element: the
// admin pages carry no inline script (their Content-Security-Policy).
import { setUpApiFetch } from './api.js';
import { startEditor } from './editor.js';
import { startList } from './lists.jsx';
import './styles.css';

function boot() {
	const el = document.getElementById( 'siteplane-admin-data' );
	const data = JSON.parse( el.textContent );
	setUpApiFetch( data );
	if ( data.view === 'editor' ) {
		startEditor( data );
	} else {
		startList( data );
	}
}

if ( document.readyState === 'loading' ) {
	document.addEventListener( 'DOMContentLoaded', boot );
} else {
	boot();
}
