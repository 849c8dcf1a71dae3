package media

import (
	"bytes"
	"net/http"
	"path"
	"strings"
)

// fileType is what an upload is, decided from its bytes.
type fileType struct {
	Mime string // e.g. image/jpeg
	Ext  string // the extension the stored file gets, without the dot
}

// extMime maps the extensions WordPress allows by default (get_allowed_mime_types,
// minus the ones no signature below can confirm) to their MIME type. It is
// consulted only to refine a generic sniffed type (text, zip, OLE). Not
// .css or .js: WordPress lists them, but its check of the real type
// (wp_check_filetype_and_ext) refuses them, as text/plain may only be
// plain text, CSV, TSV, rich text or WebVTT; and served from the site's
// origin, a style sheet or script is active content.
var extMime = map[string]string{
	"txt": "text/plain", "asc": "text/plain", "c": "text/plain", "cc": "text/plain", "h": "text/plain", "srt": "text/plain",
	"csv": "text/csv", "tsv": "text/tab-separated-values", "ics": "text/calendar", "rtx": "text/richtext",
	"vtt":  "text/vtt",
	"docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	"xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	"pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
	"odt":  "application/vnd.oasis.opendocument.text",
	"ods":  "application/vnd.oasis.opendocument.spreadsheet",
	"odp":  "application/vnd.oasis.opendocument.presentation",
	"zip":  "application/zip",
	"doc":  "application/msword", "xls": "application/vnd.ms-excel", "ppt": "application/vnd.ms-powerpoint",
}

// sniffed maps the types the signature check recognises to the stored type
// and its canonical extension; a missing entry is a type WordPress refuses
// by default (HTML, SVG, scripts, executables, unknown binaries).
var sniffed = map[string]fileType{
	"image/jpeg":         {"image/jpeg", "jpg"},
	"image/png":          {"image/png", "png"},
	"image/gif":          {"image/gif", "gif"},
	"image/webp":         {"image/webp", "webp"},
	"image/bmp":          {"image/bmp", "bmp"},
	"image/x-icon":       {"image/x-icon", "ico"},
	"image/tiff":         {"image/tiff", "tif"},
	"image/avif":         {"image/avif", "avif"},
	"image/heic":         {"image/heic", "heic"},
	"application/pdf":    {"application/pdf", "pdf"},
	"audio/mpeg":         {"audio/mpeg", "mp3"},
	"audio/wave":         {"audio/wav", "wav"},
	"audio/aiff":         {"audio/aiff", "aif"},
	"audio/basic":        {"audio/basic", "au"},
	"audio/midi":         {"audio/midi", "mid"},
	"audio/flac":         {"audio/flac", "flac"},
	"audio/ogg":          {"audio/ogg", "ogg"},
	"video/mp4":          {"video/mp4", "mp4"},
	"video/quicktime":    {"video/quicktime", "mov"},
	"video/webm":         {"video/webm", "webm"},
	"video/avi":          {"video/avi", "avi"},
	"application/x-gzip": {"application/x-gzip", "gz"},
}

// editableTypes are the image types POST /media/{id}/edit accepts (§6.6).
var editableTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true, "image/avif": true, "image/heic": true}

// sizedTypes are the image types this service decodes and resizes.
var sizedTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// detectType decides the file's type from its first bytes; the name only
// refines a generic result (plain text, a zip or OLE container) and can
// never turn one kind of file into another. ok is false for types that are
// not allowed.
func detectType(head []byte, name string) (fileType, bool) {
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(name), "."))
	mt := sniff(head)
	switch mt {
	case "text/plain; charset=utf-8", "text/plain; charset=utf-16be", "text/plain; charset=utf-16le":
		if m, ok := extMime[ext]; ok && strings.HasPrefix(m, "text/") {
			return fileType{m, ext}, true
		}
		return fileType{}, false
	case "application/zip":
		if m, ok := extMime[ext]; ok && (ext == "zip" || strings.HasPrefix(m, "application/vnd.")) && ext != "doc" && ext != "xls" && ext != "ppt" {
			return fileType{m, ext}, true
		}
		return fileType{"application/zip", "zip"}, true
	case "application/x-ole-storage":
		if ext == "doc" || ext == "xls" || ext == "ppt" {
			return fileType{extMime[ext], ext}, true
		}
		return fileType{}, false
	case "application/ogg":
		if ext == "ogv" {
			return fileType{"video/ogg", "ogv"}, true
		}
		return fileType{"audio/ogg", "ogg"}, true
	}
	if ft, ok := sniffed[mt]; ok {
		// keep an equivalent extension the client chose (jpeg, jpe, tiff)
		switch {
		case ft.Ext == "jpg" && (ext == "jpeg" || ext == "jpe"), ft.Ext == "tif" && ext == "tiff",
			ft.Ext == "aif" && ext == "aiff", ft.Ext == "mid" && ext == "midi", ft.Ext == "mp4" && ext == "m4v":
			ft.Ext = ext
		}
		return ft, true
	}
	return fileType{}, false
}

// sniff extends net/http's content sniffing with the signatures it lacks.
func sniff(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte("II*\x00")), bytes.HasPrefix(b, []byte("MM\x00*")):
		return "image/tiff"
	case bytes.HasPrefix(b, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}):
		return "application/x-ole-storage"
	case bytes.HasPrefix(b, []byte("fLaC")):
		return "audio/flac"
	case len(b) >= 12 && string(b[4:8]) == "ftyp":
		switch string(b[8:12]) {
		case "avif", "avis":
			return "image/avif"
		case "heic", "heix", "heim", "heis", "mif1":
			return "image/heic"
		case "qt  ":
			return "video/quicktime"
		}
		return "video/mp4"
	}
	return http.DetectContentType(b)
}

// mediaType is the response's media_type: image or file (§6.3).
func mediaType(mime string) string {
	if strings.HasPrefix(mime, "image/") {
		return "image"
	}
	return "file"
}
