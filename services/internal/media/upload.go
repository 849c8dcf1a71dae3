package media

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"unicode"

	"github.com/jackc/pgx/v5"

	"siteplane.dev/services/internal/platform/rest"
)

// Upload (POST /media, §6.2): a raw body with Content-Type and
// Content-Disposition, or multipart/form-data with a "file" part; the
// type is decided from the bytes. Sizes are generated before anything is
// written; then, in one transaction, the names are chosen, the row
// inserted and the files stored — a failure removes the files written so
// far and rolls the row back.

func (s *Service) canCreate(r *rest.Request) error {
	if !caller(r).Can("upload_files") {
		return rest.Denied(r, "rest_cannot_create", "Sorry, you are not allowed to create posts as this user.")
	}
	if r.Has("author") && r.Int("author") != caller(r).UserID && !caller(r).Can("edit_others_posts") {
		return rest.Denied(r, "rest_cannot_edit_others", "Sorry, you are not allowed to create posts as this user.")
	}
	return nil
}

func uploadErr(code, msg string, status int) *rest.Error { return rest.NewError(code, msg, status) }

// errFileTooBig is WordPress's upload-size error (check_upload_size).
func (s *Service) errFileTooBig() *rest.Error {
	return uploadErr("rest_upload_file_too_big",
		fmt.Sprintf("This file is too big. Files must be less than %d KB in size.", s.maxUpload/1024), http.StatusBadRequest)
}

// incoming is the uploaded file before it is stored.
type incoming struct {
	data      []byte
	name      string // client's file name
	multipart bool
}

// readUpload applies WordPress's checks in its order: no data, no content
// type, no disposition, no file name, size, hash.
func (s *Service) readUpload(r *rest.Request) (*incoming, error) {
	if fhs := r.Files["file"]; len(fhs) > 0 {
		fh := fhs[0]
		if fh.Size > s.maxUpload {
			return nil, s.errFileTooBig()
		}
		f, err := fh.Open()
		if err != nil {
			return nil, uploadErr("rest_upload_unknown_error", "The uploaded file could not be read.", http.StatusInternalServerError)
		}
		defer f.Close()
		data, err := io.ReadAll(io.LimitReader(f, s.maxUpload+1))
		if err != nil {
			return nil, uploadErr("rest_upload_unknown_error", "The uploaded file could not be read.", http.StatusInternalServerError)
		}
		if len(data) == 0 {
			return nil, uploadErr("rest_upload_no_data", "No data supplied.", http.StatusBadRequest)
		}
		if err := checkMD5(r, data); err != nil {
			return nil, err
		}
		return &incoming{data: data, name: fh.Filename, multipart: true}, nil
	}
	if len(r.Body) == 0 || r.Files != nil {
		return nil, uploadErr("rest_upload_no_data", "No data supplied.", http.StatusBadRequest)
	}
	if strings.TrimSpace(r.Header.Get("Content-Type")) == "" {
		return nil, uploadErr("rest_upload_no_content_type", "No Content-Type supplied.", http.StatusBadRequest)
	}
	disp := r.Header.Values("Content-Disposition")
	if len(disp) == 0 || strings.TrimSpace(strings.Join(disp, "")) == "" {
		return nil, uploadErr("rest_upload_no_content_disposition", "No Content-Disposition supplied.", http.StatusBadRequest)
	}
	name := filenameFromDisposition(disp)
	if name == "" {
		return nil, uploadErr("rest_upload_invalid_disposition",
			`Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `+"`"+`attachment; filename="image.png"`+"`"+` or similar.`,
			http.StatusBadRequest)
	}
	if int64(len(r.Body)) > s.maxUpload {
		return nil, s.errFileTooBig()
	}
	if err := checkMD5(r, r.Body); err != nil {
		return nil, err
	}
	return &incoming{data: r.Body, name: name}, nil
}

// filenameFromDisposition is get_filename_from_disposition: the filename=
// attribute of any value, trimmed and unquoted (filename*= is not read).
func filenameFromDisposition(values []string) string {
	for _, v := range values {
		v = strings.TrimSpace(v)
		_, attrs, ok := strings.Cut(v, ";")
		if !ok {
			continue
		}
		found := map[string]string{}
		for _, part := range strings.Split(attrs, ";") {
			k, val, ok := strings.Cut(part, "=")
			if !ok {
				continue
			}
			found[strings.TrimSpace(k)] = strings.TrimSpace(val)
		}
		name := strings.TrimSpace(found["filename"])
		if len(name) >= 2 && strings.HasPrefix(name, `"`) && strings.HasSuffix(name, `"`) {
			name = name[1 : len(name)-1]
		}
		if name != "" {
			return name
		}
	}
	return ""
}

func checkMD5(r *rest.Request, data []byte) error {
	want := strings.TrimSpace(r.Header.Get("Content-MD5"))
	if want == "" {
		return nil
	}
	sum := md5.Sum(data)
	if want != hex.EncodeToString(sum[:]) {
		return uploadErr("rest_upload_hash_mismatch", "Content hash did not match expected.", http.StatusPreconditionFailed)
	}
	return nil
}

// imageError maps processing failures to answers: too many pixels is the
// client's problem (400), a canceled request ends quietly.
func imageError(err error) error {
	switch {
	case errors.Is(err, errTooManyPixels):
		return uploadErr("rest_upload_image_too_large", "The image has too many pixels to be processed.", http.StatusBadRequest)
	case errors.Is(err, errUndecodable):
		return uploadErr("rest_upload_image_invalid", "The image could not be read.", http.StatusBadRequest)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return uploadErr("rest_upload_canceled", "The upload was canceled.", http.StatusBadRequest)
	}
	return err
}

func (s *Service) upload(r *rest.Request) (*rest.Response, error) {
	in, err := s.readUpload(r)
	if err != nil {
		return nil, err
	}
	ft, ok := detectType(in.data[:min(len(in.data), 512)], in.name)
	if !ok {
		code := "rest_upload_sideload_error"
		if in.multipart {
			code = "rest_upload_unknown_error"
		}
		return nil, uploadErr(code, "Sorry, you are not allowed to upload this file type.", http.StatusInternalServerError)
	}
	if in.multipart && strings.HasPrefix(ft.Mime, "image/") && !sizedTypes[ft.Mime] {
		return nil, uploadErr("rest_upload_image_type_not_supported",
			"The web server cannot generate responsive image sizes for this image. Convert it to JPEG or PNG before uploading.",
			http.StatusBadRequest)
	}
	a := &Attachment{Author: caller(r).UserID, Status: "inherit", CommentStatus: "open", PingStatus: "closed",
		Mime: ft.Mime, Filesize: int64(len(in.data)), Meta: map[string]any{}}
	var sizes []encodedSize
	if sizedTypes[ft.Mime] {
		w, h, derr := s.img.Dimensions(in.data)
		switch {
		case errors.Is(derr, errTooManyPixels):
			return nil, imageError(derr)
		case derr != nil:
			return nil, imageError(derr)
		}
		meta := emptyImageMeta()
		if ft.Mime == "image/jpeg" {
			meta = readJPEGMeta(in.data)
		}
		o := meta.orientation()
		if o >= 5 {
			w, h = h, w
		}
		a.Details = Details{Width: w, Height: h, ImageMeta: &meta}
		if sizes, err = s.img.GenerateSizes(r.Context(), in.data, ft.Mime, o, imageSizes); err != nil {
			return nil, imageError(err)
		}
		a.Title, a.Caption = meta.Title, meta.Caption
	} else if strings.HasPrefix(ft.Mime, "image/") {
		// other image types: dimensions when the header can be read
		if w, h, derr := s.img.Dimensions(in.data); derr == nil {
			meta := emptyImageMeta()
			a.Details = Details{Width: w, Height: h, ImageMeta: &meta}
		}
	}
	clientStem := stem(in.name)
	if err := s.applyFields(r, a); err != nil {
		return nil, err
	}
	now := s.now()
	if !r.Has("date") && !r.Has("date_gmt") {
		a.Date = now
	}
	a.Modified = now
	base := sanitizeFileStem(clientStem)
	names := func(n int) string {
		if n == 0 {
			return base
		}
		return fmt.Sprintf("%s-%d", base, n)
	}
	if a.Title == "" {
		// multipart: the client's name; raw body: the stored name (§6.2)
		a.Title = clientStem
		if !in.multipart {
			a.Title = base
		}
	}
	if err := s.store(r.Context(), a, ft.Ext, in.data, sizes, names, r.String("slug")); err != nil {
		return nil, err
	}
	r.Set("context", "edit")
	resp := rest.Created(r, s.itemURL(a.ID), s.item(r, a))
	resp.SetHeader("X-WP-Upload-Attachment-ID", fmt.Sprint(a.ID))
	return resp, nil
}

// store names the attachment's files (unique among all files), inserts its
// row and writes its blobs, all or nothing. a.File, a.Slug and a.Details.Sizes
// are set. names(n) is the n-th candidate file stem (n = 0, 1, ...).
func (s *Service) store(ctx context.Context, a *Attachment, ext string, original []byte, sizes []encodedSize, names func(n int) string, slug string) error {
	dir := a.Date.UTC().Format("2006/01")
	var written []string
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		written = written[:0]
		if err := lockNames(ctx, tx); err != nil {
			return err
		}
		for n := 0; ; n++ {
			candidate := names(n)
			a.File = dir + "/" + candidate + "." + ext
			a.Details.Sizes = nil
			for _, sz := range sizes {
				if a.Details.Sizes == nil {
					a.Details.Sizes = map[string]SizeInfo{}
				}
				a.Details.Sizes[sz.Name] = SizeInfo{File: fmt.Sprintf("%s-%dx%d.%s", candidate, sz.Width, sz.Height, sz.Ext),
					Width: sz.Width, Height: sz.Height, Filesize: int64(len(sz.Data)), Mime: sz.Mime}
			}
			taken, err := keysTaken(ctx, tx, a.keys())
			if err != nil {
				return err
			}
			if !taken {
				break
			}
		}
		slugBase := sanitizeTitle(slug)
		if slugBase == "" {
			slugBase = sanitizeTitle(a.Title)
		}
		var err error
		if a.Slug, err = uniqueSlug(ctx, tx, slugBase, 0); err != nil {
			return err
		}
		if err := insertAttachment(ctx, tx, a); err != nil {
			return err
		}
		if err := s.putBlob(ctx, a.File, original, a.Mime); err != nil {
			return err
		}
		written = append(written, a.File)
		stored := map[string]bool{}
		for _, sz := range sizes {
			key := a.dir() + "/" + a.Details.Sizes[sz.Name].File
			if stored[key] {
				continue
			}
			stored[key] = true
			if err := s.putBlob(ctx, key, sz.Data, sz.Mime); err != nil {
				return err
			}
			written = append(written, key)
		}
		return nil
	})
	if err != nil {
		s.removeBlobs(context.WithoutCancel(ctx), written)
		return s.writeError(ctx, "store upload", err)
	}
	return nil
}

func (s *Service) putBlob(ctx context.Context, key string, data []byte, mime string) error {
	if err := s.blobs.Put(ctx, key, bytes.NewReader(data), int64(len(data)), mime); err != nil {
		return fmt.Errorf("store file: %w", err)
	}
	return nil
}

func (s *Service) readBlob(ctx context.Context, key string) ([]byte, error) {
	o, err := s.blobs.Open(ctx, key)
	if err != nil {
		return nil, err
	}
	defer o.Close()
	data, err := io.ReadAll(o)
	if err != nil {
		return nil, fmt.Errorf("read file %s: %w", key, err)
	}
	return data, nil
}

// sanitizeFileStem keeps a file name's stem to the characters a blob key
// allows (sanitize_file_name, stricter): spaces become dashes, anything
// else outside [A-Za-z0-9._-] is dropped, and it never starts with a dot.
func sanitizeFileStem(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range name {
		switch {
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) || r == '_' || r == '.':
			b.WriteRune(r)
			dash = false
		case r == '-' || unicode.IsSpace(r) || r == '+':
			if !dash {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	out := strings.Trim(b.String(), ".-_")
	if len(out) > 100 {
		out = strings.Trim(out[:100], ".-_")
	}
	if out == "" {
		out = "unnamed-file"
	}
	return out
}

// sanitizeTitle is sanitize_title for slugs: lower case, letters, digits and
// single dashes.
func sanitizeTitle(t string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(t) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if r < unicode.MaxASCII {
				b.WriteRune(r)
				dash = false
			}
		case r == '-' || r == '_' || unicode.IsSpace(r) || r == '.':
			if !dash && b.Len() > 0 {
				b.WriteByte('-')
				dash = true
			}
		}
	}
	return strings.Trim(b.String(), "-")
}
