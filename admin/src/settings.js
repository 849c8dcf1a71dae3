// The editor settings WordPress's get_block_editor_settings() derives on
// the server, derived here from what the gateway preloaded for the page:
// the active theme (supports), its theme.json settings and styles (the
// global-styles theme route), plus the site's upload limits and image
// sizes that the gateway puts in the bootstrap data.
import siteEditorDefaults from './site-editor-defaults.json';
import defaultEditorStyles from '@wordpress/block-editor/build-style/default-editor-styles.css?raw';

// preloaded reads a preloaded answer without consuming it (api-fetch's
// preloading middleware deletes an entry once the editor has used it).
export function preloaded( boot, path ) {
	return path && boot.preload?.[ path ]?.body;
}

// pick is get_block_editor_settings' legacy mapping: a preset of the
// theme origin wins, else the default origin's.
function pick( preset ) {
	if ( ! preset ) {
		return undefined;
	}
	return preset.theme ?? preset.default;
}

export function editorSettings( boot ) {
	const theme = preloaded( boot, boot.paths.activeTheme )?.[ 0 ] ?? {};
	const supports = theme.theme_supports ?? {};
	const features = preloaded( boot, boot.paths.themeGlobalStyles )?.settings ?? {};
	const color = features.color ?? {};
	const typography = features.typography ?? {};
	const settings = {
		alignWide: !! supports[ 'align-wide' ] || !! features.layout?.wideSize,
		allowedBlockTypes: true,
		allowedMimeTypes: boot.upload.allowedMimeTypes,
		maxUploadFileSize: boot.upload.maxUploadFileSize,
		imageSizes: boot.upload.imageSizes,
		imageDimensions: boot.upload.imageDimensions,
		imageDefaultSize: 'large',
		imageEditing: true,
		isRTL: false,
		richEditingEnabled: true,
		codeEditingEnabled: boot.user.canUnfilteredHTML,
		titlePlaceholder: 'Add title',
		bodyPlaceholder: 'Type / to choose a block',
		autosaveInterval: 60,
		localAutosaveInterval: 15,
		enableCustomFields: false,
		disableCustomColors: color.custom === false,
		disableCustomFontSizes: typography.customFontSize === false,
		disableCustomGradients: color.customGradient === false,
		disableLayoutStyles: false,
		enableCustomLineHeight: !! typography.lineHeight,
		enableCustomSpacing: !! features.spacing?.padding,
		enableCustomUnits: features.spacing?.units ?? true,
		colors: pick( color.palette ),
		gradients: pick( color.gradients ),
		fontSizes: pick( typography.fontSizes ),
		__experimentalFeatures: features,
		__unstableIsBlockBasedTheme: theme.is_block_theme ?? true,
		supportsLayout: true,
		// The post editor does not switch to template mode: the site
		// editor's routes are not part of this admin.
		supportsTemplateMode: false,
		defaultRenderingMode: 'post-only',
		defaultEditorStyles: [ { css: defaultEditorStyles } ],
		// The theme's global styles, as the website prints them; without
		// them the editor falls back to the default editor styles.
		styles: boot.themeStyles ? [ { css: boot.themeStyles, __unstableType: 'theme', isGlobalStyles: true } ] : [],
		// What WordPress prints into the canvas iframe
		// (_wp_get_iframed_editor_assets): the block library's content
		// styles, as one hashed stylesheet of this bundle.
		__unstableResolvedAssets: {
			styles: `<link rel="stylesheet" href="${ boot.canvasStyle }">`,
			scripts: '',
		},
		postsPerPage: boot.postsPerPage,
		availableTemplates: {},
		__experimentalBlockPatterns: [],
		__experimentalBlockPatternCategories: [],
		__experimentalDiscussionSettings: {},
		canUpdateBlockBindings: boot.user.canManageOptions,
		autosave: newerAutosave( boot ),
	};
	return settings;
}

// newerAutosave is edit-form-blocks.php's $editor_settings['autosave']:
// when the post has an autosave (anyone's, as wp_get_post_autosave) newer
// than the post, the editor shows "There is an autosave of this post that
// is more recent than the version below." with a "View the autosave" link.
// WordPress links to the autosave's revision screen (revision.php), which
// this admin has not; the link is the autosave's preview on the website
// (which shows it to its author).
function newerAutosave( boot ) {
	const post = preloaded( boot, boot.paths.post );
	const autosaves = preloaded( boot, boot.paths.autosaves );
	if ( ! post || ! Array.isArray( autosaves ) ) {
		return undefined;
	}
	const newest = autosaves.reduce(
		( a, b ) => ( ! a || b.modified_gmt > a.modified_gmt ? b : a ),
		undefined
	);
	if ( ! newest || ! ( newest.modified_gmt > post.modified_gmt ) ) {
		return undefined;
	}
	return { editLink: newest.preview_link || boot.siteURL };
}

// siteEditorSettings is what wp-admin/site-editor.php hands to
// wp.editSite.initializeEditor: get_block_editor_settings() for the
// core/edit-site context with the screen's own additions. The template
// types and template part areas are WordPress 6.9's
// (get_default_block_template_types, get_allowed_block_template_part_areas),
// in site-editor-defaults.json.
export function siteEditorSettings( boot ) {
	// The post editor's rendering mode and autosave notice are its own
	// (edit-form-blocks.php); the site editor picks its modes itself.
	const { autosave, defaultRenderingMode, ...settings } = editorSettings( boot );
	return {
		...settings,
		siteUrl: boot.siteURL.replace( /\/$/, '' ),
		defaultTemplateTypes: siteEditorDefaults.defaultTemplateTypes,
		defaultTemplatePartAreas: siteEditorDefaults.defaultTemplatePartAreas,
		supportsLayout: true,
		supportsTemplatePartsMode: false,
		supportsTemplateMode: true,
		// The site editor's "back" link (get_default_block_editor_settings:
		// admin_url( '/' )).
		__experimentalDashboardLink: boot.dashboardURL,
		__experimentalAdditionalBlockPatterns: [],
		__experimentalAdditionalBlockPatternCategories: [],
	};
}
