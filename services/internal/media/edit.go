package media

import (
	"bufio"
	"context"
	"fmt"
	"image"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"path"
	"regexp"

	"siteplane.dev/services/internal/platform/rest"
)

// POST /media/{id}/edit (§6.6): flip, rotate and crop (in percent), applied
// in order to the upright original; the result is a new attachment named
// after the original with an -edited suffix, with its own sizes.

func editArgs() rest.Props {
	num := func() *rest.Schema { return &rest.Schema{Type: "number"} }
	modifier := func(title, typ string, args *rest.Schema) *rest.Schema {
		return &rest.Schema{Title: title, Properties: rest.Props{
			{Name: "type", Schema: &rest.Schema{Description: "Modifier type.", Type: "string", Enum: str(typ)}},
			{Name: "args", Schema: args},
		}}
	}
	pct := func(desc string) *rest.Schema {
		return &rest.Schema{Description: desc, Type: "number", Minimum: rest.Ptr(0.0), Maximum: rest.Ptr(100.0)}
	}
	item := attachmentSchema
	return rest.Props{
		{Name: "id", Schema: &rest.Schema{Description: "Unique identifier for the attachment.", Type: "integer"}},
		// not among WordPress's edit arguments, but the response honours
		// ?context= as WordPress's $request['context'] does
		{Name: "context", Schema: rest.ContextArg(item, "view")},
		{Name: "src", Schema: &rest.Schema{Description: "URL to the edited image file.", Type: "string", Format: "uri", Required: true}},
		{Name: "modifiers", Schema: &rest.Schema{Description: "Array of image edits.", Type: "array", MinItems: rest.Ptr(1),
			Items: &rest.Schema{Description: "Image edit.", Type: "object", RequiredProps: []string{"type", "args"}, OneOf: []*rest.Schema{
				modifier("Flip", "flip", &rest.Schema{Description: "Flip arguments.", Type: "object", RequiredProps: []string{"flip"}, Properties: rest.Props{
					{Name: "flip", Schema: &rest.Schema{Description: "Flip direction.", Type: "object", RequiredProps: []string{"horizontal", "vertical"}, Properties: rest.Props{
						{Name: "horizontal", Schema: &rest.Schema{Description: "Whether to flip in the horizontal direction.", Type: "boolean"}},
						{Name: "vertical", Schema: &rest.Schema{Description: "Whether to flip in the vertical direction.", Type: "boolean"}},
					}}},
				}}),
				modifier("Rotation", "rotate", &rest.Schema{Description: "Rotation arguments.", Type: "object", RequiredProps: []string{"angle"}, Properties: rest.Props{
					{Name: "angle", Schema: &rest.Schema{Description: "Angle to rotate clockwise in degrees.", Type: "number"}},
				}}),
				modifier("Crop", "crop", &rest.Schema{Description: "Crop arguments.", Type: "object", RequiredProps: []string{"left", "top", "width", "height"}, Properties: rest.Props{
					{Name: "left", Schema: num()}, {Name: "top", Schema: num()}, {Name: "width", Schema: num()}, {Name: "height", Schema: num()},
				}}),
			}}}},
		{Name: "rotation", Schema: &rest.Schema{Description: "The amount to rotate the image clockwise in degrees. DEPRECATED: Use `modifiers` instead.",
			Type: "integer", Minimum: rest.Ptr(0.0), ExclusiveMinimum: true, Maximum: rest.Ptr(360.0), ExclusiveMaximum: true}},
		{Name: "x", Schema: pct("As a percentage of the image, the x position to start the crop from. DEPRECATED: Use `modifiers` instead.")},
		{Name: "y", Schema: pct("As a percentage of the image, the y position to start the crop from. DEPRECATED: Use `modifiers` instead.")},
		{Name: "width", Schema: pct("As a percentage of the image, the width to crop the image to. DEPRECATED: Use `modifiers` instead.")},
		{Name: "height", Schema: pct("As a percentage of the image, the height to crop the image to. DEPRECATED: Use `modifiers` instead.")},
		{Name: "caption", Schema: argOf(item, "caption")},
		{Name: "description", Schema: argOf(item, "description")},
		{Name: "title", Schema: argOf(item, "title")},
		{Name: "post", Schema: argOf(item, "post")},
		{Name: "alt_text", Schema: argOf(item, "alt_text")},
	}
}

// argOf is the update argument of the item schema's property.
func argOf(_ *rest.Schema, name string) *rest.Schema {
	for _, p := range writeArgs(false) {
		if p.Name == name {
			return p.Schema
		}
	}
	panic("media: no property " + name)
}

func (s *Service) canEditImage(r *rest.Request) error {
	if !caller(r).Can("upload_files") {
		return rest.Denied(r, "rest_cannot_edit_image", "Sorry, you are not allowed to upload media on this site.")
	}
	return s.canUpdate(r)
}

// modifier is one step of an edit.
type modifier struct {
	kind                     string // flip, rotate, crop
	horizontal, vertical     bool
	angle                    float64
	left, top, width, height float64
}

func modifiersOf(r *rest.Request) []modifier {
	var out []modifier
	if r.Has("modifiers") {
		for _, m := range r.List("modifiers") {
			obj, _ := m.(map[string]any)
			args, _ := obj["args"].(map[string]any)
			switch obj["type"] {
			case "flip":
				f, _ := args["flip"].(map[string]any)
				out = append(out, modifier{kind: "flip", horizontal: f["horizontal"] == true, vertical: f["vertical"] == true})
			case "rotate":
				out = append(out, modifier{kind: "rotate", angle: toFloat(args["angle"])})
			case "crop":
				out = append(out, modifier{kind: "crop", left: toFloat(args["left"]), top: toFloat(args["top"]),
					width: toFloat(args["width"]), height: toFloat(args["height"])})
			}
		}
		return out
	}
	// the deprecated form: rotation, then a crop when all four are given
	if r.Has("rotation") {
		out = append(out, modifier{kind: "rotate", angle: float64(r.Int("rotation"))})
	}
	if r.Has("x") && r.Has("y") && r.Has("width") && r.Has("height") {
		out = append(out, modifier{kind: "crop", left: toFloat(r.Param("x")), top: toFloat(r.Param("y")),
			width: toFloat(r.Param("width")), height: toFloat(r.Param("height"))})
	}
	return out
}

func toFloat(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case int64:
		return float64(n)
	case int:
		return float64(n)
	}
	return 0
}

// srcMatches is wp_image_file_matches_image_meta: src names the original
// or one of its sizes (compared by file name).
func (s *Service) srcMatches(src string, a *Attachment) bool {
	u, err := url.Parse(src)
	if err != nil {
		return false
	}
	name := path.Base(u.Path)
	if name == baseName(a.File) {
		return true
	}
	for _, sz := range a.Details.Sizes {
		if sz.File == name {
			return true
		}
	}
	return false
}

var editedSuffix = regexp.MustCompile(`-edited(-\d+)?$`)

func (s *Service) edit(r *rest.Request) (*rest.Response, error) {
	orig, err := s.target(r)
	if err != nil {
		return nil, err
	}
	if !orig.isImage() || !s.srcMatches(r.String("src"), orig) {
		return nil, rest.NewError("rest_unknown_attachment", "Unable to get meta information for file.", http.StatusNotFound)
	}
	if !editableTypes[orig.Mime] || !sizedTypes[orig.Mime] {
		return nil, rest.NewError("rest_cannot_edit_file_type", "This type of file cannot be edited.", http.StatusBadRequest)
	}
	mods := modifiersOf(r)
	if len(mods) == 0 {
		return nil, rest.NewError("rest_image_not_edited", "The image was not edited. Edit the image before applying the changes.", http.StatusBadRequest)
	}
	original, size, err := s.spoolBlob(r.Context(), orig.File)
	if err != nil {
		return nil, s.writeError(r.Context(), "read original", err)
	}
	defer original.Close()
	res, err := s.applyEdit(r.Context(), original, size, orig, mods)
	if err != nil {
		return nil, err
	}
	defer res.file.Close()
	meta := emptyImageMeta()
	if orig.Details.ImageMeta != nil {
		meta = *orig.Details.ImageMeta
	}
	meta.Orientation = "1"
	a := &Attachment{Author: caller(r).UserID, Status: "inherit", CommentStatus: orig.CommentStatus, PingStatus: orig.PingStatus,
		Title: orig.Title, Caption: orig.Caption, Description: orig.Description, AltText: orig.AltText, Mime: res.mime,
		Meta: map[string]any{}, Filesize: res.size, Details: Details{Width: res.width, Height: res.height, ImageMeta: &meta,
			ParentImage: &ParentImage{AttachmentID: orig.ID, File: orig.File}}}
	// title, caption, description, alt_text and post override the copies
	if err := s.applyFields(r, a); err != nil {
		return nil, err
	}
	now := s.now()
	a.Date, a.Modified = now, now
	base := editedSuffix.ReplaceAllString(stem(baseName(orig.File)), "") + "-edited"
	names := func(n int) string {
		if n == 0 {
			return base
		}
		return fmt.Sprintf("%s-%d", base, n+1)
	}
	if err := s.store(r.Context(), a, res.ext, res.file, res.size, res.sizes, names, ""); err != nil {
		return nil, err
	}
	return rest.Created(r, s.itemURL(a.ID), s.item(r, a)), nil
}

// edited is the result of an edit: the encoded image in an unlinked spool
// file, its size and type, and its generated sizes.
type edited struct {
	file          *os.File
	size          int64
	width, height int
	mime, ext     string
	sizes         []encodedSize
}

// applyEdit decodes the original (size bytes of src) within the decode
// budget (editWeight), turns it upright, applies the modifiers, generates
// the result's sizes and encodes the result into a spool file, all before
// the budget is released. The caller closes the result's file.
func (s *Service) applyEdit(ctx context.Context, src io.ReaderAt, size int64, orig *Attachment, mods []modifier) (*edited, error) {
	cfg, format, err := s.img.config(io.NewSectionReader(src, 0, size))
	if err != nil {
		return nil, imageError(err)
	}
	orientation := 1
	if orig.Details.ImageMeta != nil {
		orientation = orig.Details.ImageMeta.orientation()
	}
	px := int64(cfg.Width) * int64(cfg.Height)
	weight := editWeight(decodedBytes(src, size, format, cfg.ColorModel, px), format, cfg.Width, cfg.Height, orientation, mods)
	release, err := s.img.acquire(ctx, weight)
	if err != nil {
		return nil, imageError(err)
	}
	defer release()
	img, _, err := image.Decode(bufio.NewReaderSize(io.NewSectionReader(src, 0, size), 64<<10))
	if err != nil {
		return nil, imageError(fmt.Errorf("%w: %v", errUndecodable, err))
	}
	img, err = modify(orient(img, orientation), mods, orig.Mime == "image/jpeg")
	if err != nil {
		return nil, err
	}
	res := &edited{width: img.Bounds().Dx(), height: img.Bounds().Dy()}
	res.mime, res.ext = outputType(orig.Mime, img)
	if res.sizes, err = s.img.sizesOf(img, res.mime, 1, imageSizes); err != nil {
		return nil, err
	}
	if res.file, err = s.tempFile(); err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(res.file, 64<<10)
	if err := s.img.encodeTo(w, img, res.mime); err != nil {
		res.file.Close()
		return nil, err
	}
	if err := w.Flush(); err != nil {
		res.file.Close()
		return nil, fmt.Errorf("spool edited image: %w", err)
	}
	res.size, _ = res.file.Seek(0, io.SeekCurrent)
	return res, nil
}

// modify applies the modifiers in order.
func modify(img image.Image, mods []modifier, opaqueOut bool) (image.Image, error) {
	for _, m := range mods {
		switch m.kind {
		case "flip":
			img = flip(img, m.horizontal, m.vertical)
		case "rotate":
			angle := math.Mod(m.angle, 360)
			if angle < 0 {
				angle += 360
			}
			if angle == 0 {
				continue
			}
			if math.Mod(angle, 90) == 0 {
				img = rotateCW(img, int(angle/90))
				continue
			}
			rotated, err := rotateAny(img, angle, opaqueOut)
			if err != nil {
				return nil, rest.NewError("rest_image_rotation_failed", "Unable to rotate this image.", http.StatusBadRequest)
			}
			img = rotated
		case "crop":
			cropped, err := cropPercent(img, m.left, m.top, m.width, m.height)
			if err != nil {
				return nil, rest.NewError("rest_image_crop_failed", "Unable to crop this image.", http.StatusBadRequest)
			}
			img = cropped
		}
	}
	return img, nil
}
