package media

import (
	"siteplane.dev/services/internal/platform/rest"
)

// routes declares every media route once (§4.7, §6): the collection, the
// item (not batchable, as in WordPress), post-process and edit.
func (s *Service) routes() []rest.Route {
	item := attachmentSchema
	intList := func(desc string) *rest.Schema {
		return &rest.Schema{Description: desc, Type: "array", Items: &rest.Schema{Type: "integer"}, Default: []any{}}
	}
	dateArg := func(desc string) *rest.Schema {
		return &rest.Schema{Description: desc, Type: "string", Format: "date-time"}
	}
	listArgs := append(rest.CollectionArgs(item),
		rest.Prop{Name: "after", Schema: dateArg("Limit response to posts published after a given ISO8601 compliant date.")},
		rest.Prop{Name: "modified_after", Schema: dateArg("Limit response to posts modified after a given ISO8601 compliant date.")},
		rest.Prop{Name: "author", Schema: intList("Limit result set to posts assigned to specific authors.")},
		rest.Prop{Name: "author_exclude", Schema: intList("Ensure result set excludes posts assigned to specific authors.")},
		rest.Prop{Name: "before", Schema: dateArg("Limit response to posts published before a given ISO8601 compliant date.")},
		rest.Prop{Name: "modified_before", Schema: dateArg("Limit response to posts modified before a given ISO8601 compliant date.")},
		rest.Prop{Name: "exclude", Schema: intList("Ensure result set excludes specific IDs.")},
		rest.Prop{Name: "include", Schema: intList("Limit result set to specific IDs.")},
		rest.Prop{Name: "search_semantics", Schema: &rest.Schema{Description: "How to interpret the search input.", Type: "string", Enum: str("exact")}},
		rest.Prop{Name: "offset", Schema: &rest.Schema{Description: "Offset the result set by a specific number of items.", Type: "integer", Minimum: rest.Ptr(0.0)}},
		rest.Prop{Name: "order", Schema: &rest.Schema{Description: "Order sort attribute ascending or descending.", Type: "string", Default: "desc", Enum: str("asc", "desc")}},
		rest.Prop{Name: "orderby", Schema: &rest.Schema{Description: "Sort collection by post attribute.", Type: "string", Default: "date",
			Enum: str("author", "date", "id", "include", "modified", "parent", "relevance", "slug", "include_slugs", "title")}},
		rest.Prop{Name: "parent", Schema: intList("Limit result set to items with particular parent IDs.")},
		rest.Prop{Name: "parent_exclude", Schema: intList("Limit result set to all items except those of a particular parent ID.")},
		rest.Prop{Name: "search_columns", Schema: &rest.Schema{Description: "Array of column names to be searched.", Type: "array", Default: []any{},
			Items: &rest.Schema{Type: "string", Enum: str("post_title", "post_content", "post_excerpt")}}},
		rest.Prop{Name: "slug", Schema: &rest.Schema{Description: "Limit result set to posts with one or more specific slugs.", Type: "array", Items: &rest.Schema{Type: "string"}}},
		rest.Prop{Name: "status", Schema: &rest.Schema{Description: "Limit result set to posts assigned one or more statuses.", Type: "array", Default: "inherit",
			Items: &rest.Schema{Type: "string", Enum: str("inherit", "private", "trash")}, Sanitize: sanitizeStatuses}},
		rest.Prop{Name: "media_type", Schema: &rest.Schema{Description: "Limit result set to attachments of a particular media type or media types.", Type: "array",
			Items: &rest.Schema{Type: "string", Enum: str("image", "video", "text", "application", "audio")}}},
		rest.Prop{Name: "mime_type", Schema: &rest.Schema{Description: "Limit result set to attachments of a particular MIME type or MIME types.", Type: "array",
			Items: &rest.Schema{Type: "string"}}},
	)
	createArgs := writeArgs(true)
	updateArgs := writeArgs(false)
	return []rest.Route{
		{Namespace: "cms/v2", Path: "/media", Schema: item, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: listArgs, Permission: s.canList, Handler: s.list},
			{Methods: rest.Creatable, Args: createArgs, Permission: s.canCreate, Handler: s.upload,
				// raw bodies are spooled to disk by the handler (upload.go)
				StreamBody: true},
		}},
		// No route of media is batchable: WordPress's attachments controller
		// sets allow_batch false, so a batch sub-request answers 400
		// rest_batch_not_allowed (reference §0, item 1).
		{Namespace: "cms/v2", Path: `/media/(?P<id>[\d]+)`, Schema: item, Endpoints: []rest.Endpoint{
			{Methods: rest.Readable, Args: rest.Props{
				{Name: "id", Schema: &rest.Schema{Description: "Unique identifier for the post.", Type: "integer"}},
				{Name: "context", Schema: rest.ContextArg(item, "view")},
			}, Permission: s.canGet, Handler: s.get},
			{Methods: rest.Editable, Args: append(rest.Props{
				{Name: "id", Schema: &rest.Schema{Description: "Unique identifier for the post.", Type: "integer"}},
			}, updateArgs...), Permission: s.canUpdate, Handler: s.update},
			{Methods: rest.Deletable, Args: rest.Props{
				{Name: "id", Schema: &rest.Schema{Description: "Unique identifier for the post.", Type: "integer"}},
				{Name: "force", Schema: &rest.Schema{Description: "Whether to bypass Trash and force deletion.", Type: "boolean", Default: false}},
			}, Permission: s.canDeleteItem, Handler: s.delete},
		}},
		{Namespace: "cms/v2", Path: `/media/(?P<id>[\d]+)/post-process`, Endpoints: []rest.Endpoint{
			{Methods: rest.Creatable, Args: rest.Props{
				{Name: "id", Schema: &rest.Schema{Description: "Unique identifier for the attachment.", Type: "integer"}},
				{Name: "action", Schema: &rest.Schema{Type: "string", Enum: str("create-image-subsizes"), Required: true}},
			}, Permission: s.canUpdate, Handler: s.postProcess},
		}},
		{Namespace: "cms/v2", Path: `/media/(?P<id>[\d]+)/edit`, Schema: item, Endpoints: []rest.Endpoint{
			{Methods: rest.Creatable, Args: editArgs(), Permission: s.canEditImage, Handler: s.edit},
		}},
	}
}
