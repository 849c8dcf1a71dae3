// The lists of edit.php (posts, pages, synced patterns) and upload.php
// (media): @wordpress/dataviews over the REST collections, as the signed-in
// user. Search, filters (status, author, category), sort, pagination and
// bulk trash are the collection's own parameters; what a role may do is
// what the REST API answers (an author's trash of another's post fails
// there, not here).
import { createRoot, useCallback, useEffect, useMemo, useState } from '@wordpress/element';
import { DataViews } from '@wordpress/dataviews';
import { Button, Notice } from '@wordpress/components';
import apiFetch from '@wordpress/api-fetch';
import { addQueryArgs } from '@wordpress/url';
import { decodeEntities } from '@wordpress/html-entities';
import { dateI18n, getSettings } from '@wordpress/date';

const STATUSES = [
	{ value: 'publish', label: 'Published' },
	{ value: 'future', label: 'Scheduled' },
	{ value: 'draft', label: 'Draft' },
	{ value: 'pending', label: 'Pending' },
	{ value: 'private', label: 'Private' },
	{ value: 'trash', label: 'Trash' },
];

const SORTABLE = { date: 'date', title: 'title', author: 'author', modified: 'modified' };

// queryOf turns a DataViews view into the collection's parameters.
function queryOf( view, screen ) {
	const q = {
		context: 'edit',
		page: view.page,
		per_page: view.perPage,
		search: view.search || undefined,
		orderby: SORTABLE[ view.sort?.field ] ?? 'date',
		order: view.sort?.direction ?? 'desc',
	};
	if ( screen.postType !== 'attachment' ) {
		q.status = 'publish,future,draft,pending,private';
	}
	for ( const f of view.filters ?? [] ) {
		if ( ! f.value?.length ) {
			continue;
		}
		const values = Array.isArray( f.value ) ? f.value : [ f.value ];
		q[ f.field === 'author' ? 'author' : f.field ] = values.join( ',' );
	}
	return q;
}

function title( item ) {
	const t = decodeEntities( item.title?.raw ?? item.title?.rendered ?? '' );
	return t.trim() === '' ? '(no title)' : t;
}

function fieldsFor( screen, authors, categories ) {
	const fields = [
		{
			id: 'title',
			label: 'Title',
			enableHiding: false,
			getValue: ( { item } ) => title( item ),
			render: ( { item } ) => (
				<a href={ screen.editURL.replace( '%d', item.id ) } className="siteplane-list__title">
					{ title( item ) }
				</a>
			),
		},
		{
			id: 'author',
			label: 'Author',
			elements: authors,
			filterBy: { operators: [ 'isAny' ] },
			getValue: ( { item } ) => item.author,
			render: ( { item } ) => authors.find( ( a ) => a.value === item.author )?.label ?? `#${ item.author }`,
		},
		{
			id: 'date',
			label: 'Date',
			getValue: ( { item } ) => item.date,
			render: ( { item } ) => dateI18n( getSettings().formats.date, item.date ),
		},
	];
	if ( screen.postType === 'attachment' ) {
		fields.unshift( {
			id: 'media',
			label: 'File',
			enableSorting: false,
			render: ( { item } ) =>
				item.media_type === 'image' ? (
					<img className="siteplane-list__thumb" alt="" src={ item.media_details?.sizes?.thumbnail?.source_url ?? item.source_url } />
				) : (
					item.mime_type
				),
		} );
		return fields;
	}
	fields.push( {
		id: 'status',
		label: 'Status',
		elements: STATUSES,
		filterBy: { operators: [ 'isAny' ] },
		enableSorting: false,
		getValue: ( { item } ) => item.status,
		render: ( { item } ) => STATUSES.find( ( s ) => s.value === item.status )?.label ?? item.status,
	} );
	if ( screen.postType === 'post' ) {
		fields.push( {
			id: 'categories',
			label: 'Categories',
			elements: categories,
			filterBy: { operators: [ 'isAny' ] },
			enableSorting: false,
			getValue: ( { item } ) => item.categories,
			render: ( { item } ) =>
				( item.categories ?? [] ).map( ( id ) => categories.find( ( c ) => c.value === id )?.label ?? `#${ id }` ).join( ', ' ),
		} );
	}
	return fields;
}

function useElements( path, label ) {
	const [ elements, setElements ] = useState( [] );
	useEffect( () => {
		if ( ! path ) {
			return;
		}
		apiFetch( { path } ).then(
			( list ) => setElements( list.map( ( x ) => ( { value: x.id, label: decodeEntities( label( x ) ) } ) ) ),
			() => setElements( [] )
		);
	}, [ path, label ] );
	return elements;
}

const nameOf = ( u ) => u.name;
const termName = ( t ) => t.name;

function List( { screen } ) {
	const [ view, setView ] = useState( {
		type: 'table',
		search: '',
		filters: [],
		page: 1,
		perPage: 20,
		sort: { field: 'date', direction: 'desc' },
		titleField: 'title',
		fields: screen.postType === 'attachment' ? [ 'media', 'author', 'date' ] : [ 'author', 'status', 'categories', 'date' ],
	} );
	const [ result, setResult ] = useState( { items: [], total: 0, pages: 0 } );
	const [ loading, setLoading ] = useState( true );
	const [ error, setError ] = useState( '' );
	const [ generation, setGeneration ] = useState( 0 );
	const authors = useElements( '/wp/v2/users?per_page=100&_fields=id,name', nameOf );
	const categories = useElements( screen.postType === 'post' ? '/wp/v2/categories?per_page=100&_fields=id,name' : null, termName );
	useEffect( () => {
		setLoading( true );
		apiFetch( { path: addQueryArgs( `/wp/v2/${ screen.restBase }`, queryOf( view, screen ) ), parse: false } )
			.then( async ( res ) => {
				setResult( {
					items: await res.json(),
					total: Number( res.headers.get( 'X-WP-Total' ) ?? 0 ),
					pages: Number( res.headers.get( 'X-WP-TotalPages' ) ?? 0 ),
				} );
				setError( '' );
			} )
			.catch( async ( e ) => setError( ( e.json ? ( await e.json() ).message : e.message ) ?? 'The list could not be loaded.' ) )
			.finally( () => setLoading( false ) );
	}, [ view, screen, generation ] );
	const trash = useCallback(
		async ( items ) => {
			// Attachments have no trash in WordPress: they are deleted.
			const force = screen.postType === 'attachment' ? '?force=true' : '';
			const failed = [];
			for ( const item of items ) {
				try {
					await apiFetch( { path: `/wp/v2/${ screen.restBase }/${ item.id }${ force }`, method: 'DELETE' } );
				} catch ( e ) {
					failed.push( `${ title( item ) }: ${ e.message }` );
				}
			}
			setError( failed.join( ' ' ) );
			setGeneration( ( g ) => g + 1 );
		},
		[ screen ]
	);
	const actions = useMemo(
		() => [
			{
				id: 'edit',
				label: 'Edit',
				isPrimary: true,
				isEligible: ( item ) => screen.postType !== 'attachment' && item.status !== 'trash',
				callback: ( [ item ] ) => window.location.assign( screen.editURL.replace( '%d', item.id ) ),
			},
			{
				id: 'view',
				label: 'View',
				isEligible: ( item ) => !! item.link && ( item.status === 'publish' || screen.postType === 'attachment' ),
				callback: ( [ item ] ) => window.location.assign( item.link ),
			},
			{
				id: 'trash',
				label: screen.postType === 'attachment' ? 'Delete permanently' : 'Move to trash',
				isDestructive: true,
				supportsBulk: true,
				isEligible: ( item ) => item.status !== 'trash',
				callback: trash,
			},
		],
		[ screen, trash ]
	);
	const fields = useMemo( () => fieldsFor( screen, authors, categories ), [ screen, authors, categories ] );
	return (
		<>
			{ error && (
				<Notice status="error" onRemove={ () => setError( '' ) }>
					{ error }
				</Notice>
			) }
			<DataViews
				data={ result.items }
				fields={ fields }
				view={ view }
				onChangeView={ setView }
				actions={ actions }
				isLoading={ loading }
				paginationInfo={ { totalItems: result.total, totalPages: result.pages } }
				defaultLayouts={ { table: {} } }
				getItemId={ ( item ) => String( item.id ) }
			/>
		</>
	);
}

function Shell( { boot } ) {
	const screen = boot.list;
	return (
		<div className="siteplane-admin">
			<header className="siteplane-admin__bar">
				<a className="siteplane-admin__site" href={ boot.siteURL }>
					{ decodeEntities( boot.siteTitle ) }
				</a>
				<nav aria-label="Admin">
					{ boot.menu.map( ( m ) => (
						<a key={ m.url } href={ m.url } aria-current={ m.current ? 'page' : undefined }>
							{ m.label }
						</a>
					) ) }
				</nav>
				<span className="siteplane-admin__user">
					{ boot.user.name } · <a href={ boot.logoutURL }>Sign out</a>
				</span>
			</header>
			<main className="siteplane-admin__main">
				<div className="siteplane-admin__heading">
					<h1>{ screen.title }</h1>
					{ screen.newURL && (
						<Button variant="primary" href={ screen.newURL }>
							{ screen.newLabel }
						</Button>
					) }
				</div>
				<List screen={ screen } />
			</main>
		</div>
	);
}

export function startList( boot ) {
	createRoot( document.getElementById( 'editor' ) ).render( <Shell boot={ boot } /> );
}
