// The media dialog behind the editor's "Media Library" buttons (image
// block, featured image, gallery). WordPress opens wp.media, a Backbone
// application outside the block editor packages; Siteplane's admin
// supplies this component through the editor.MediaUpload filter instead:
// the attachments of the media route in a grid, an upload button, and the
// chosen items handed to onSelect in the shape wp.media hands them
// (media-utils' transformAttachment).
import { useEffect, useState } from '@wordpress/element';
import { Button, FormFileUpload, Modal, Notice, Spinner } from '@wordpress/components';
import apiFetch from '@wordpress/api-fetch';
import { transformAttachment } from '@wordpress/media-utils';
import { addQueryArgs } from '@wordpress/url';

function mediaTypeOf( allowedTypes ) {
	if ( allowedTypes?.length === 1 && [ 'image', 'video', 'audio' ].includes( allowedTypes[ 0 ] ) ) {
		return allowedTypes[ 0 ];
	}
	return undefined;
}

function acceptOf( allowedTypes ) {
	if ( ! allowedTypes?.length ) {
		return undefined;
	}
	return allowedTypes.map( ( t ) => ( t.includes( '/' ) ? t : `${ t }/*` ) ).join( ',' );
}

function Thumb( { item, selected, onToggle } ) {
	const src = item.media_details?.sizes?.thumbnail?.source_url ?? item.source_url;
	const label = item.title?.rendered || item.slug;
	return (
		<li>
			<button
				type="button"
				className={ 'siteplane-media__item' + ( selected ? ' is-selected' : '' ) }
				aria-pressed={ selected }
				aria-label={ label }
				onClick={ () => onToggle( item ) }
			>
				{ item.media_type === 'image' ? <img src={ src } alt="" /> : <span>{ label }</span> }
			</button>
		</li>
	);
}

function MediaDialog( { allowedTypes, multiple, title, onSelect, onClose } ) {
	const [ items, setItems ] = useState( null );
	const [ chosen, setChosen ] = useState( [] );
	const [ error, setError ] = useState( '' );
	const [ busy, setBusy ] = useState( false );
	const mediaType = mediaTypeOf( allowedTypes );
	useEffect( () => {
		apiFetch( { path: addQueryArgs( '/wp/v2/media', { per_page: 50, media_type: mediaType, context: 'edit' } ) } ).then(
			setItems,
			( e ) => setError( e.message )
		);
	}, [ mediaType ] );
	const finish = ( list ) => {
		const shaped = list.map( transformAttachment );
		onSelect( multiple ? shaped : shaped[ 0 ] );
		onClose();
	};
	const toggle = ( item ) => {
		if ( ! multiple ) {
			setChosen( [ item ] );
			return;
		}
		setChosen( ( c ) => ( c.includes( item ) ? c.filter( ( x ) => x !== item ) : [ ...c, item ] ) );
	};
	const upload = async ( files ) => {
		setBusy( true );
		setError( '' );
		try {
			const uploaded = [];
			for ( const file of files ) {
				const body = new window.FormData();
				body.append( 'file', file, file.name );
				uploaded.push( await apiFetch( { path: '/wp/v2/media', method: 'POST', body } ) );
			}
			finish( uploaded );
		} catch ( e ) {
			setError( e.message );
		} finally {
			setBusy( false );
		}
	};
	return (
		<Modal title={ title || 'Media Library' } onRequestClose={ onClose } className="siteplane-media" size="large">
			{ error && <Notice status="error" isDismissible={ false }>{ error }</Notice> }
			<div className="siteplane-media__bar">
				<FormFileUpload
					accept={ acceptOf( allowedTypes ) }
					multiple={ multiple }
					onChange={ ( event ) => upload( [ ...event.currentTarget.files ] ) }
					render={ ( { openFileDialog } ) => (
						<Button variant="secondary" onClick={ openFileDialog } disabled={ busy }>
							Upload files
						</Button>
					) }
				/>
				{ busy && <Spinner /> }
				<Button variant="primary" disabled={ ! chosen.length } onClick={ () => finish( chosen ) }>
					Select
				</Button>
			</div>
			{ items === null && ! error && <Spinner /> }
			{ items && ! items.length && <p>No media found.</p> }
			{ items && (
				<ul className="siteplane-media__grid">
					{ items.map( ( item ) => (
						<Thumb key={ item.id } item={ item } selected={ chosen.includes( item ) } onToggle={ toggle } />
					) ) }
				</ul>
			) }
		</Modal>
	);
}

export function SiteplaneMediaUpload( { allowedTypes, multiple = false, title, onSelect, onClose, render } ) {
	const [ isOpen, setOpen ] = useState( false );
	const close = () => {
		setOpen( false );
		onClose?.();
	};
	return (
		<>
			{ render( { open: () => setOpen( true ) } ) }
			{ isOpen && (
				<MediaDialog allowedTypes={ allowedTypes } multiple={ !! multiple } title={ title } onSelect={ onSelect } onClose={ close } />
			) }
		</>
	);
}
