// Bundles the admin with esbuild into content-hashed files in the output
// directory (argument 1) and writes manifest.json naming them; the
// gateway embeds that directory (services/internal/gateway/adminui).
// Run by hack/admin.sh, which installs the pinned packages first.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, basename } from 'node:path';
import { gzipSync } from 'node:zlib';

const out = process.argv[ 2 ];
const here = new URL( '.', import.meta.url ).pathname;
// The packages' stylesheets are not in their "exports" maps: they are
// read from node_modules directly, as WordPress's build copies them. A
// "?raw" import is a file's text (the default editor styles, which the
// editor settings carry as a string).
const nodeModules = join( here, 'node_modules' );
const files = {
	name: 'siteplane-files',
	setup( build ) {
		build.onResolve( { filter: /^@wordpress\/[^/]+\/build-style\/.*\.css(\?raw)?$/ }, ( args ) => {
			const raw = args.path.endsWith( '?raw' );
			const path = join( nodeModules, args.path.replace( /\?raw$/, '' ) );
			return raw ? { path, namespace: 'raw' } : { path };
		} );
		build.onLoad( { filter: /.*/, namespace: 'raw' }, ( args ) => ( {
			contents: readFileSync( args.path, 'utf8' ),
			loader: 'text',
		} ) );
	},
};
const result = await esbuild.build( {
	plugins: [ files ],
	// One bundle per screen: the post editor and lists (admin), the site
	// editor (siteeditor, @wordpress/edit-site on top of the same
	// packages), and the canvas stylesheet both editors put in their iframe.
	entryPoints: {
		admin: join( here, 'src/index.js' ),
		siteeditor: join( here, 'src/site-editor.js' ),
		canvas: join( here, 'src/canvas.css' ),
	},
	bundle: true,
	minify: true,
	format: 'iife',
	target: [ 'es2020', 'chrome110', 'firefox110', 'safari16' ],
	jsx: 'automatic',
	loader: { '.js': 'jsx', '.woff': 'file', '.woff2': 'file', '.png': 'file', '.svg': 'file' },
	entryNames: '[name]-[hash]',
	assetNames: '[name]-[hash]',
	outdir: join( out, '.build' ),
	metafile: true,
	legalComments: 'none',
	logLevel: 'warning',
	define: {
		'process.env.NODE_ENV': '"production"',
		'process.env.IS_GUTENBERG_PLUGIN': 'false',
		'process.env.IS_WORDPRESS_CORE': 'true',
		'globalThis.IS_GUTENBERG_PLUGIN': 'false',
		'globalThis.IS_WORDPRESS_CORE': 'true',
		'globalThis.SCRIPT_DEBUG': 'false',
	},
} );

// Replace the previous bundle: only what this build wrote stays.
for ( const name of readdirSync( out ) ) {
	if ( /-[A-Z0-9]{8}\.|^manifest\.json$/.test( name ) ) {
		rmSync( join( out, name ) );
	}
}
const manifest = {};
for ( const [ file, meta ] of Object.entries( result.metafile.outputs ) ) {
	const name = basename( file );
	const data = readFileSync( file );
	mkdirSync( out, { recursive: true } );
	writeFileSync( join( out, name ), data );
	// A precompressed copy the gateway sends to clients accepting gzip.
	writeFileSync( join( out, name + '.gz' ), gzipSync( data, { level: 9 } ) );
	if ( meta.entryPoint ) {
		// The manifest names each entry's script and stylesheet by the
		// entry's name: admin.js, admin.css, siteeditor.js, siteeditor.css,
		// canvas.css.
		const entry = name.replace( /-[A-Z0-9]{8}\.(js|css)$/, '' );
		manifest[ `${ entry }.${ name.split( '.' ).pop() }` ] = name;
		if ( meta.cssBundle ) {
			manifest[ `${ entry }.css` ] = basename( meta.cssBundle );
		}
	}
}
rmSync( join( out, '.build' ), { recursive: true, force: true } );
// The block editor's canvas is a blob: iframe whose document carries two
// fixed inline scripts (block-editor's Iframe component). The admin's
// Content-Security-Policy allows exactly those, by hash: the gateway reads
// the hashes from the manifest.
const js = [ 'admin.js', 'siteeditor.js' ].map( ( entry ) => readFileSync( join( out, manifest[ entry ] ), 'utf8' ) ).join( '\n' );
manifest.scriptHashes = [ ...new Set( [ ...js.matchAll( /<script>([^<]{1,200})<\\?\/script>/g ) ].map( ( m ) => m[ 1 ] ) ) ]
	.map( ( text ) => `'sha256-${ createHash( 'sha256' ).update( text ).digest( 'base64' ) }'` )
	.sort();
writeFileSync( join( out, 'manifest.json' ), JSON.stringify( manifest, null, 2 ) + '\n' );
console.log( JSON.stringify( manifest ) );
