package media

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"math"
	"net/http"
	"net/url"
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
	data, err := s.readBlob(r.Context(), orig.File)
	if err != nil {
		return nil, s.writeError(r.Context(), "read original", err)
	}
	full, sizes, outMime, outExt, err := s.applyEdit(r.Context(), data, orig, mods)
	if err != nil {
		return nil, err
	}
	meta := emptyImageMeta()
	if orig.Details.ImageMeta != nil {
		meta = *orig.Details.ImageMeta
	}
	meta.Orientation = "1"
	b := full.Bounds()
	a := &Attachment{Author: caller(r).UserID, Status: "inherit", CommentStatus: orig.CommentStatus, PingStatus: orig.PingStatus,
		Title: orig.Title, Caption: orig.Caption, Description: orig.Description, AltText: orig.AltText, Mime: outMime,
		Meta: map[string]any{}, Details: Details{Width: b.Dx(), Height: b.Dy(), ImageMeta: &meta,
			ParentImage: &ParentImage{AttachmentID: orig.ID, File: orig.File}}}
	encoded, err := s.img.encode(full, outMime)
	if err != nil {
		return nil, err
	}
	full = nil
	a.Filesize = int64(len(encoded))
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
	if err := s.store(r.Context(), a, outExt, bytes.NewReader(encoded), int64(len(encoded)), sizes, names, ""); err != nil {
		return nil, err
	}
	return rest.Created(r, s.itemURL(a.ID), s.item(r, a)), nil
}

// applyEdit decodes the original (within the decode limit), turns it
// upright, applies the modifiers and generates the result's sizes.
func (s *Service) applyEdit(ctx context.Context, data []byte, orig *Attachment, mods []modifier) (image.Image, []encodedSize, string, string, error) {
	cfg, format, err := s.img.config(bytes.NewReader(data))
	if err != nil {
		return nil, nil, "", "", imageError(err)
	}
	// an edit also turns the whole image into RGBA (orient, crop, rotate)
	px := int64(cfg.Width) * int64(cfg.Height)
	release, err := s.img.acquire(ctx, decodeWeight(bytes.NewReader(data), int64(len(data)), format, cfg.ColorModel, cfg.Width, cfg.Height)+4*px)
	if err != nil {
		return nil, nil, "", "", imageError(err)
	}
	defer release()
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, nil, "", "", imageError(fmt.Errorf("%w: %v", errUndecodable, err))
	}
	if orig.Details.ImageMeta != nil {
		img = orient(img, orig.Details.ImageMeta.orientation())
	}
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
			rotated, err := rotateAny(img, angle, orig.Mime == "image/jpeg")
			if err != nil {
				return nil, nil, "", "", rest.NewError("rest_image_rotation_failed", "Unable to rotate this image.", http.StatusBadRequest)
			}
			img = rotated
		case "crop":
			cropped, err := cropPercent(img, m.left, m.top, m.width, m.height)
			if err != nil {
				return nil, nil, "", "", rest.NewError("rest_image_crop_failed", "Unable to crop this image.", http.StatusBadRequest)
			}
			img = cropped
		}
	}
	outMime, outExt := outputType(orig.Mime, img)
	sizes, err := s.img.sizesOf(img, outMime, 1, imageSizes)
	if err != nil {
		return nil, nil, "", "", err
	}
	return img, sizes, outMime, outExt, nil
}
