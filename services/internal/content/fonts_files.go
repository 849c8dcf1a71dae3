package content

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/content/store"
	"siteplane.dev/services/internal/platform/rest"
	"siteplane.dev/services/pkg/contract"
)

// Font files uploaded with a font face. WordPress accepts ttf, otf, woff
// and woff2 (WP_Font_Utils::get_allowed_font_mime_types); the type here
// is the file's signature, whatever its name says. The files are kept in
// PostgreSQL (font_files), so that every replica serves them, at
// fontFilesPath (WordPress's wp-content/uploads/fonts).

// maxFontUpload bounds a font face request: its settings and font files
// (a variable woff2 of a large script is a few MiB).
const maxFontUpload = 8 << 20

// fontFilesPath is the public path of the installed font files.
const fontFilesPath = contract.FontsPath + "/"

// fontFile is one uploaded file, read and typed.
type fontFile struct {
	name, ext, mime string
	data            []byte
}

// fontSignatures are the leading bytes of each allowed font type.
var fontSignatures = []struct {
	magic     []byte
	ext, mime string
}{
	{[]byte("wOF2"), "woff2", "font/woff2"},
	{[]byte("wOFF"), "woff", "font/woff"},
	{[]byte("OTTO"), "otf", "application/vnd.ms-opentype"},
	{[]byte{0, 1, 0, 0}, "ttf", "font/sfnt"},
	{[]byte("true"), "ttf", "font/sfnt"},
}

func errFontFileType() *rest.Error {
	return rest.NewError("rest_font_upload_invalid_file_type", "Sorry, you are not allowed to upload this file type.", http.StatusBadRequest)
}

// readFontUploads reads the uploaded files that srcs name and types each
// by its signature.
func readFontUploads(c *rest.Request, srcs []string) (map[string]*fontFile, error) {
	out := map[string]*fontFile{}
	for _, src := range srcs {
		hs := c.Files[src]
		if len(hs) == 0 || out[src] != nil {
			continue
		}
		f, err := readFontUpload(hs[0])
		if err != nil {
			return nil, err
		}
		out[src] = f
	}
	return out, nil
}

func readFontUpload(h *multipart.FileHeader) (*fontFile, error) {
	if h.Size > maxFontUpload {
		return nil, rest.NewError("rest_font_upload_unknown_error", "The uploaded file exceeds the upload_max_filesize directive in php.ini.", http.StatusBadRequest)
	}
	r, err := h.Open()
	if err != nil {
		return nil, fmt.Errorf("open uploaded font: %w", err)
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, maxFontUpload+1))
	if err != nil {
		return nil, fmt.Errorf("read uploaded font: %w", err)
	}
	for _, sig := range fontSignatures {
		if bytes.HasPrefix(data, sig.magic) {
			return &fontFile{name: fontFileBase(h.Filename), ext: sig.ext, mime: sig.mime, data: data}, nil
		}
	}
	return nil, errFontFileType()
}

// fontFileBase is the uploaded name without its extension, reduced to
// the characters sanitize_file_name keeps.
func fontFileBase(name string) string {
	base := path.Base(strings.ReplaceAll(name, `\`, "/"))
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	var b strings.Builder
	for _, r := range base {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ' || r == '.':
			b.WriteByte('-')
		}
	}
	if s := strings.Trim(b.String(), "-_"); s != "" {
		return s
	}
	return "font"
}

// storeFontFiles saves face's uploaded files under unique names
// (wp_unique_filename: name-1, name-2...) and returns srcs with each
// file key replaced by its file's URL.
func (s *Service) storeFontFiles(ctx context.Context, tx pgx.Tx, face int64, srcs []string, files map[string]*fontFile) ([]any, error) {
	out := make([]any, len(srcs))
	for i, src := range srcs {
		f := files[src]
		if f == nil {
			out[i] = src
			continue
		}
		name, err := insertFontFile(ctx, tx, face, f)
		if err != nil {
			return nil, err
		}
		out[i] = strings.TrimRight(s.site.URL, "/") + fontFilesPath + name
	}
	return out, nil
}

func insertFontFile(ctx context.Context, tx pgx.Tx, face int64, f *fontFile) (string, error) {
	for n := 0; n < 1000; n++ {
		name := f.name + "." + f.ext
		if n > 0 {
			name = f.name + "-" + strconv.Itoa(n) + "." + f.ext
		}
		tag, err := tx.Exec(ctx, `INSERT INTO font_files (name, face, mime, data) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING`,
			name, face, f.mime, f.data)
		if err != nil {
			return "", fmt.Errorf("store font file %s: %w", name, err)
		}
		if tag.RowsAffected() == 1 {
			return name, nil
		}
	}
	return "", fmt.Errorf("store font file %s: no free name", f.name)
}

// deleteFontFiles deletes the files of faces (_wp_before_delete_font_face).
func deleteFontFiles(ctx context.Context, q store.Querier, faces ...int64) error {
	if _, err := q.Exec(ctx, `DELETE FROM font_files WHERE face = ANY($1)`, faces); err != nil {
		return fmt.Errorf("delete font files of %v: %w", faces, err)
	}
	return nil
}

// FontFiles serves the installed font files (GET and HEAD) at
// contract.FontsPath, a public route of the gateway's table.
func (s *Service) FontFiles() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name, _ := strings.CutPrefix(r.URL.Path, fontFilesPath)
		var mime string
		var data []byte
		var created time.Time
		err := s.db(r.Context()).QueryRow(r.Context(), `SELECT mime, data, created_gmt FROM font_files WHERE name = $1`, name).
			Scan(&mime, &data, &created)
		if errors.Is(err, pgx.ErrNoRows) || name == "" || strings.Contains(name, "/") {
			http.NotFound(w, r)
			return
		}
		if err != nil {
			http.Error(w, "font file unavailable", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", mime)
		w.Header().Set("Cache-Control", "public, max-age=31536000")
		http.ServeContent(w, r, name, created, bytes.NewReader(data))
	})
}
