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
	// attaching media to a post requires the ability to edit that post
	if r.Has("post") {
		return s.mayAttach(r, r.Int("post"))
	}
	return nil
}

func uploadErr(code, msg string, status int) *rest.Error { return rest.NewError(code, msg, status) }

// errFileTooBig is WordPress's upload-size error (check_upload_size).
func (s *Service) errFileTooBig() *rest.Error {
	return uploadErr("rest_upload_file_too_big",
		fmt.Sprintf("This file is too big. Files must be less than %d KB in size.", s.maxUpload/1024), http.StatusBadRequest)
}

// incoming is the uploaded file before it is stored: a spooled temporary
// file (a raw body), a multipart part (in memory or a temporary file of
// the multipart reader), or the bytes of a body read by the route kit.
// It is read from where it lies — detection, dimensions, metadata, decode
// and storage each read what they need — so a queued upload holds no
// heap memory.
type incoming struct {
	src       io.ReaderAt
	size      int64
	name      string // client's file name
	multipart bool
	close     func()
}

// head returns the first n bytes (fewer when the file is shorter).
func (in *incoming) head(n int64) []byte {
	b := make([]byte, min(n, in.size))
	k, _ := in.src.ReadAt(b, 0)
	return b[:k]
}

func (in *incoming) reader() *io.SectionReader { return io.NewSectionReader(in.src, 0, in.size) }

// readUpload applies WordPress's checks in its order: no data, no content
// type, no disposition, no file name, size, hash. The caller closes the
// returned file.
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
		in := &incoming{src: f, size: fh.Size, name: fh.Filename, multipart: true, close: func() { f.Close() }}
		if fh.Size == 0 {
			in.close()
			return nil, uploadErr("rest_upload_no_data", "No data supplied.", http.StatusBadRequest)
		}
		if err := checkMD5(r, in.reader(), ""); err != nil {
			in.close()
			return nil, err
		}
		return in, nil
	}
	in, sum, rerr := s.spool(r)
	if rerr != nil {
		return nil, rerr
	}
	fail := func(err error) (*incoming, error) {
		if in != nil {
			in.close()
		}
		return nil, err
	}
	if in == nil || in.size == 0 || r.Files != nil {
		return fail(uploadErr("rest_upload_no_data", "No data supplied.", http.StatusBadRequest))
	}
	if strings.TrimSpace(r.Header.Get("Content-Type")) == "" {
		return fail(uploadErr("rest_upload_no_content_type", "No Content-Type supplied.", http.StatusBadRequest))
	}
	disp := r.Header.Values("Content-Disposition")
	if len(disp) == 0 || strings.TrimSpace(strings.Join(disp, "")) == "" {
		return fail(uploadErr("rest_upload_no_content_disposition", "No Content-Disposition supplied.", http.StatusBadRequest))
	}
	name := filenameFromDisposition(disp)
	if name == "" {
		return fail(uploadErr("rest_upload_invalid_disposition",
			`Invalid Content-Disposition supplied. Content-Disposition needs to be formatted as `+"`"+`attachment; filename="image.png"`+"`"+` or similar.`,
			http.StatusBadRequest))
	}
	if in.size > s.maxUpload {
		return fail(s.errFileTooBig())
	}
	if err := checkMD5(r, in.reader(), sum); err != nil {
		return fail(err)
	}
	in.name = name
	return in, nil
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

// checkMD5 compares Content-MD5 with the file's MD5: sum when it is known
// (computed while spooling), else read from r.
func checkMD5(r *rest.Request, file io.Reader, sum string) error {
	want := strings.TrimSpace(r.Header.Get("Content-MD5"))
	if want == "" {
		return nil
	}
	if sum == "" {
		h := md5.New()
		if _, err := io.Copy(h, file); err != nil {
			return uploadErr("rest_upload_unknown_error", "The uploaded file could not be read.", http.StatusInternalServerError)
		}
		sum = hex.EncodeToString(h.Sum(nil))
	}
	if want != sum {
		return uploadErr("rest_upload_hash_mismatch", "Content hash did not match expected.", http.StatusPreconditionFailed)
	}
	return nil
}

// imageError maps processing failures to answers: too many pixels, or
// more memory than the whole decode budget, is the client's problem (400,
// before anything is decoded), a canceled request ends quietly.
func imageError(err error) error {
	switch {
	case errors.Is(err, errTooManyPixels):
		return uploadErr("rest_upload_image_too_large", "The image has too many pixels to be processed.", http.StatusBadRequest)
	case errors.Is(err, errOverBudget):
		return uploadErr("rest_upload_image_too_large", "The image needs more memory to be processed than this server allows.", http.StatusBadRequest)
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
	defer in.close()
	ft, ok := detectType(in.head(512), in.name)
	if !ok {
		code := "rest_upload_sideload_error"
		if in.multipart {
			code = "rest_upload_unknown_error"
		}
		// WordPress's code and message, but a 4xx: the file is the client's
		// problem, not the server's (WordPress answers 500)
		return nil, uploadErr(code, "Sorry, you are not allowed to upload this file type.", http.StatusUnsupportedMediaType)
	}
	if in.multipart && strings.HasPrefix(ft.Mime, "image/") && !sizedTypes[ft.Mime] {
		return nil, uploadErr("rest_upload_image_type_not_supported",
			"The web server cannot generate responsive image sizes for this image. Convert it to JPEG or PNG before uploading.",
			http.StatusBadRequest)
	}
	a := &Attachment{Author: caller(r).UserID, Status: "inherit", CommentStatus: "open", PingStatus: "closed",
		Mime: ft.Mime, Filesize: in.size, Meta: map[string]any{}}
	var sizes []encodedSize
	if sizedTypes[ft.Mime] {
		w, h, derr := s.img.Dimensions(in.reader())
		switch {
		case errors.Is(derr, errTooManyPixels):
			return nil, imageError(derr)
		case derr != nil:
			return nil, imageError(derr)
		}
		meta := emptyImageMeta()
		if ft.Mime == "image/jpeg" {
			meta = readJPEGMeta(jpegMetaHead(in.src, in.size))
		}
		o := meta.orientation()
		if o >= 5 {
			w, h = h, w
		}
		a.Details = Details{Width: w, Height: h, ImageMeta: &meta}
		if sizes, err = s.img.GenerateSizes(r.Context(), in.src, in.size, ft.Mime, o, imageSizes); err != nil {
			return nil, imageError(err)
		}
		a.Title, a.Caption = meta.Title, meta.Caption
	} else if strings.HasPrefix(ft.Mime, "image/") {
		// other image types: dimensions when the header can be read
		if w, h, derr := s.img.Dimensions(in.reader()); derr == nil {
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
	if err := s.store(r.Context(), a, ft.Ext, in.src, in.size, sizes, names, r.String("slug")); err != nil {
		return nil, err
	}
	r.Set("context", "edit")
	resp := rest.Created(r, s.itemURL(a.ID), s.item(r, a))
	resp.SetHeader("X-WP-Upload-Attachment-ID", fmt.Sprint(a.ID))
	return resp, nil
}

// store names the attachment's files (unique among all files), inserts its
// row and writes its blobs, all or nothing. a.File, a.Slug and a.Details.Sizes
// are set. names(n) is the n-th candidate file stem (n = 0, 1, ...). The
// original is the size bytes of original (read again if the transaction
// is retried).
func (s *Service) store(ctx context.Context, a *Attachment, ext string, original io.ReaderAt, size int64, sizes []encodedSize, names func(n int) string, slug string) error {
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
		if err := s.blobs.Put(ctx, a.File, io.NewSectionReader(original, 0, size), size, a.Mime); err != nil {
			return fmt.Errorf("store file: %w", err)
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
