// Package media is the media service: attachments (uploaded files and their
// generated image sizes) served as WordPress's REST API under cms/v2/media,
// and the uploaded files themselves under /cms-content/uploads/.
package media
