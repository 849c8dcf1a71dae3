package content

import (
	"testing"

	"siteplane.dev/services/internal/content/store"
)

func TestBlockRenderer(t *testing.T) {
	e := newEnv(t)
	post := e.do(author, "POST", "/cms/v2/posts", map[string]any{"title": "Rendered title", "status": "draft"})
	wantStatus(t, post, 201)
	id := store.Itoa(post.id())
	cases := []routeCase{
		{name: "anonymous", who: anon, method: "GET", path: "/cms/v2/block-renderer/core/site-title?context=edit", status: 401,
			code: "block_cannot_read", message: "Sorry, you are not allowed to read blocks as this user."},
		{name: "subscriber", who: subscriber, method: "GET", path: "/cms/v2/block-renderer/core/site-title?context=edit", status: 403, code: "block_cannot_read"},
		{name: "another's post", who: author2, method: "GET", path: "/cms/v2/block-renderer/core/post-title?context=edit&post_id=" + id, status: 403,
			code: "block_cannot_read", message: "Sorry, you are not allowed to read blocks of this post."},
		{name: "missing post", who: admin, method: "GET", path: "/cms/v2/block-renderer/core/post-title?context=edit&post_id=99999", status: 403,
			code: "block_cannot_read", message: "Sorry, you are not allowed to read blocks of this post."},
		{name: "context defaults to view, which is refused", who: admin, method: "GET", path: "/cms/v2/block-renderer/core/site-title", status: 400, code: "rest_invalid_param"},
		{name: "a static block", who: admin, method: "GET", path: "/cms/v2/block-renderer/core/paragraph?context=edit", status: 404, code: "block_invalid", message: "Invalid block."},
		{name: "an unknown block", who: admin, method: "GET", path: "/cms/v2/block-renderer/core/nope?context=edit", status: 404, code: "block_invalid"},
		{name: "attribute of the wrong type", who: admin, method: "GET", path: "/cms/v2/block-renderer/core/site-title?context=edit&attributes[level]=x", status: 400, code: "rest_invalid_param",
			want: `{"code":"rest_invalid_param","message":"Invalid parameter(s): attributes","data":{"status":400,"params":{"attributes":"[level] is not of type number."},` +
				`"details":{"attributes":{"code":"rest_invalid_type","message":"[level] is not of type number.","data":{"param":"[level]"}}}}}`},
		{name: "unknown attribute", who: admin, method: "GET", path: "/cms/v2/block-renderer/core/archives?context=edit&attributes[foo]=1", status: 400, code: "rest_invalid_param",
			want: `{"code":"rest_invalid_param","message":"Invalid parameter(s): attributes","data":{"status":400,"params":{"attributes":"foo is not a valid property of Object."},` +
				`"details":{"attributes":{"code":"rest_additional_properties_forbidden","message":"foo is not a valid property of Object.","data":null}}}}`},
		{name: "attributes not an object", who: admin, method: "GET", path: "/cms/v2/block-renderer/core/archives?context=edit&attributes=notobj", status: 400, code: "rest_invalid_param",
			want: `{"code":"rest_invalid_param","message":"Invalid parameter(s): attributes","data":{"status":400,"params":{"attributes":" is not of type object."},` +
				`"details":{"attributes":{"code":"rest_invalid_type","message":" is not of type object.","data":{"param":""}}}}}`},
		{name: "site title, level coerced from the query", who: contributor, method: "GET", path: "/cms/v2/block-renderer/core/site-title?context=edit&attributes[level]=2", status: 200,
			want: `{"rendered":"<h2 class=\"wp-block-site-title\"><a href=\"http:\/\/example.test\/\" rel=\"home\">Siteplane<\/a><\/h2>"}`},
		{name: "post title of the post named", who: author, method: "POST", path: "/cms/v2/block-renderer/core/post-title?context=edit",
			body: map[string]any{"post_id": post.id(), "attributes": map[string]any{"level": 3}}, status: 200,
			want: `{"rendered":"<h3 class=\"wp-block-post-title\">Rendered title<\/h3>"}`},
		{name: "a dynamic block the renderer does not draw", who: admin, method: "GET", path: "/cms/v2/block-renderer/core/archives?context=edit", status: 200,
			want: `{"rendered":""}`},
	}
	runRouteCases(t, e, cases)
}
