// What @wordpress/edit-site 6.19.5 (WordPress 6.8's line, the newest the npm
// mirror has before 6.4x) expects of @wordpress/editor 14.33 (6.9's line)
// and does not get. Imported before edit-site, whose modules read the
// editor's private APIs when they are evaluated.
import { __dangerousOptInToUnstableAPIsOnlyForCoreModules } from '@wordpress/private-apis';
import { privateApis as editorPrivateApis } from '@wordpress/editor';

const { unlock } = __dangerousOptInToUnstableAPIsOnlyForCoreModules(
	'I acknowledge private features are not for use in themes or plugins and doing so will break in the next version of WordPress.',
	// A core module name the site editor's bundle does not register
	// (each may register once): the widgets editor is not part of it.
	'@wordpress/edit-widgets'
);

// editor 14.33's usePostFields returns the fields; edit-site 6.19's Pages
// list and quick edit read `{ isLoading, fields }` from it (6.8's shape),
// so the Pages screen threw "Cannot read properties of undefined (reading
// 'map')". The fields arrive once the post type's schema is registered.
const editor = unlock( editorPrivateApis );
const usePostFields = editor.usePostFields;
editor.usePostFields = ( args ) => {
	const fields = usePostFields( args );
	return { isLoading: ! fields?.length, fields: fields ?? [] };
};
