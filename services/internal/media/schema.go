package media

import "siteplane.dev/services/internal/platform/rest"

// The attachment item schema (WP_REST_Attachments_Controller::get_item_schema,
// the attachment type's fields), served by OPTIONS and in the route
// descriptions; the handlers render the same fields for every context and
// the route kit filters them.

var (
	ctxAll  = []string{"view", "edit", "embed"}
	ctxView = []string{"view", "edit"}
	ctxEdit = []string{"edit"}
)

func str(vals ...string) []any {
	out := make([]any, len(vals))
	for i, v := range vals {
		out[i] = v
	}
	return out
}

// rendered is a {raw, rendered} field.
func rendered(desc string, raw, ren []string) *rest.Schema {
	ctx := append(append([]string(nil), ren...), raw...)
	seen := map[string]bool{}
	var uniq []string
	for _, c := range ctx {
		if !seen[c] {
			seen[c] = true
			uniq = append(uniq, c)
		}
	}
	return &rest.Schema{Description: desc, Type: "object", Context: uniq, Properties: rest.Props{
		{Name: "raw", Schema: &rest.Schema{Type: "string", Context: raw}},
		{Name: "rendered", Schema: &rest.Schema{Type: "string", Context: ren, Readonly: true}},
	}}
}

// writeStatuses are the status values a client may send (§2.4); the stored
// status is inherit unless private.
var writeStatuses = str("publish", "future", "draft", "pending", "private")

var attachmentSchema = func() *rest.Schema {
	date := func(desc string, ctx []string, ro bool) *rest.Schema {
		return &rest.Schema{Description: desc, Types: []string{"string", "null"}, Format: "date-time", Context: ctx, Readonly: ro}
	}
	return &rest.Schema{
		SchemaURI: "http://json-schema.org/draft-04/schema#", Title: "attachment", Type: "object",
		Properties: rest.Props{
			{Name: "date", Schema: date("The date the post was published, in the site's timezone.", ctxAll, false)},
			{Name: "date_gmt", Schema: date("The date the post was published, as GMT.", ctxView, false)},
			{Name: "guid", Schema: func() *rest.Schema {
				s := rendered("The globally unique identifier for the post.", ctxEdit, ctxView)
				s.Readonly = true
				return s
			}()},
			{Name: "id", Schema: &rest.Schema{Description: "Unique identifier for the post.", Type: "integer", Context: ctxAll, Readonly: true}},
			{Name: "link", Schema: &rest.Schema{Description: "URL to the post.", Type: "string", Format: "uri", Context: ctxAll, Readonly: true}},
			{Name: "modified", Schema: date("The date the post was last modified, in the site's timezone.", ctxView, true)},
			{Name: "modified_gmt", Schema: date("The date the post was last modified, as GMT.", ctxView, true)},
			{Name: "slug", Schema: &rest.Schema{Description: "An alphanumeric identifier for the post unique to its type.", Type: "string", Context: ctxAll}},
			{Name: "status", Schema: &rest.Schema{Description: "A named status for the post.", Type: "string", Enum: writeStatuses, Context: ctxView}},
			{Name: "type", Schema: &rest.Schema{Description: "Type of post.", Type: "string", Context: ctxAll, Readonly: true}},
			{Name: "permalink_template", Schema: &rest.Schema{Description: "Permalink template for the post.", Type: "string", Context: ctxEdit, Readonly: true}},
			{Name: "generated_slug", Schema: &rest.Schema{Description: "Slug automatically generated from the post title.", Type: "string", Context: ctxEdit, Readonly: true}},
			{Name: "class_list", Schema: &rest.Schema{Description: "An array of the class names for the post container element.", Type: "array", Items: &rest.Schema{Type: "string"}, Context: ctxView, Readonly: true}},
			{Name: "title", Schema: rendered("The title for the post.", ctxEdit, ctxAll)},
			{Name: "author", Schema: &rest.Schema{Description: "The ID for the author of the post.", Type: "integer", Context: ctxAll}},
			{Name: "featured_media", Schema: &rest.Schema{Description: "The ID of the featured media for the post.", Type: "integer", Context: ctxAll}},
			{Name: "comment_status", Schema: &rest.Schema{Description: "Whether or not comments are open on the post.", Type: "string", Enum: str("open", "closed"), Context: ctxView}},
			{Name: "ping_status", Schema: &rest.Schema{Description: "Whether or not the post can be pinged.", Type: "string", Enum: str("open", "closed"), Context: ctxView}},
			{Name: "meta", Schema: &rest.Schema{Description: "Meta fields.", Type: "object", Context: ctxView}},
			{Name: "template", Schema: &rest.Schema{Description: "The theme file to use to display the post.", Type: "string", Context: ctxView}},
			{Name: "alt_text", Schema: &rest.Schema{Description: "Alternative text to display when attachment is not displayed.", Type: "string", Context: ctxAll}},
			{Name: "caption", Schema: rendered("The attachment caption.", ctxEdit, ctxAll)},
			{Name: "description", Schema: rendered("The attachment description.", ctxEdit, ctxView)},
			{Name: "media_type", Schema: &rest.Schema{Description: "Attachment type.", Type: "string", Enum: str("image", "file"), Context: ctxAll, Readonly: true}},
			{Name: "mime_type", Schema: &rest.Schema{Description: "The attachment MIME type.", Type: "string", Context: ctxAll, Readonly: true}},
			{Name: "media_details", Schema: &rest.Schema{Description: "Details about the media file, specific to its type.", Type: "object", Context: ctxAll, Readonly: true}},
			{Name: "post", Schema: &rest.Schema{Description: "The ID for the associated post of the attachment.", Type: "integer", Context: ctxView}},
			{Name: "source_url", Schema: &rest.Schema{Description: "URL to the original attachment file.", Type: "string", Format: "uri", Context: ctxAll, Readonly: true}},
			{Name: "missing_image_sizes", Schema: &rest.Schema{Description: "List of the missing image sizes of the attachment.", Type: "array", Items: &rest.Schema{Type: "string"}, Context: ctxEdit, Readonly: true}},
		},
	}
}()

// maxPostID is the largest parent id accepted: JavaScript's
// Number.MAX_SAFE_INTEGER (2^53 - 1).
const maxPostID = 1<<53 - 1

// writeArgs are the create or update arguments derived from the item
// schema (§3.5), with WordPress's null callbacks on the rendered fields
// (a string or {"raw": ...}) and meta (any PHP array: object or list).
func writeArgs(create bool) rest.Props {
	args := rest.ArgsFromSchema(attachmentSchema, create)
	for i, p := range args {
		s := *p.Schema
		switch p.Name {
		case "title", "caption", "description":
			s.Validate = func(*rest.Request, any, string) error { return nil }
			s.Sanitize = func(_ *rest.Request, v any, _ string) (any, error) { return v, nil }
		case "post":
			// An attachment's parent is a content post's id. The route kit
			// reads a larger number as the largest int64, so without a
			// bound 99999999999999999999 would be stored as
			// 9223372036854775807; ids past what a JavaScript client can
			// hold exactly are no post's.
			s.Maximum = rest.Ptr(float64(maxPostID))
		case "meta":
			s.Validate = func(_ *rest.Request, v any, _ string) error {
				switch v.(type) {
				case map[string]any, []any:
					return nil
				}
				return rest.ErrInvalid
			}
			s.Sanitize = func(_ *rest.Request, v any, _ string) (any, error) { return v, nil }
		default:
			continue
		}
		args[i] = rest.Prop{Name: p.Name, Schema: &s}
	}
	return args
}
