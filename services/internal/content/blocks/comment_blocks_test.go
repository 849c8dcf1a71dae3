package blocks

import (
	"strings"
	"testing"
)

// sampleComments is a post's comments on page 2 of 3: a thread with a
// reply, name and URL in every comment.
func sampleComments(name, url string) *Comments {
	reply := &Comment{ID: 2, AuthorName: name, AuthorURL: url, DateISO: name, DateText: name, ContentHTML: "<p>reply</p>", Depth: 2, AvatarHash: "abc123",
		Classes: "comment odd alt depth-2", EditURL: url}
	top := &Comment{ID: 1, AuthorName: name, AuthorURL: url, DateISO: name, DateText: name, ContentHTML: "<p>top</p>", Depth: 1,
		Classes: "comment even thread-even depth-1", EditURL: url, Replies: []*Comment{reply}}
	return &Comments{PostID: 7, PostTitle: name, PostURL: "https://s.test/p/", Count: 2, Threads: []*Comment{top},
		Page: 2, Pages: 3, PageURL: func(int) string { return "https://s.test/p/comment-page-1/" }, MaxDepth: 5, Open: true,
		Form: CommentForm{Action: "https://s.test/cms-comments-post.php", RequireNameEmail: true, CookiesOptIn: true}}
}

// The comments blocks as WordPress writes them.
func TestCommentBlocks(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		edit      func(*Comments)
		want      []string
		lacks     []string
	}{
		{name: "avatar, WordPress's defaults", src: `<!-- wp:comment-template --><!-- wp:avatar /--><!-- /wp:comment-template -->`,
			want: []string{`<div class="wp-block-avatar"><img alt='Ann Avatar' ` +
				`src='https://secure.gravatar.com/avatar/abc123?s=96&amp;d=mm&amp;r=g' srcset='https://secure.gravatar.com/avatar/abc123?s=192&amp;d=mm&amp;r=g 2x' ` +
				`class='avatar avatar-96 photo wp-block-avatar__image' height='96' width='96' loading='lazy' decoding='async'/></div>`}},
		{name: "avatar linked, sized", src: `<!-- wp:comment-template --><!-- wp:avatar {"size":40,"isLink":true} /--><!-- /wp:comment-template -->`,
			edit: func(c *Comments) { c.Threads[0].AvatarHash = "abc123" }, want: []string{
				`<a href="https://ann.test/" target="_self" class="wp-block-avatar__link"><img alt='Ann Avatar' src='https://secure.gravatar.com/avatar/abc123?s=40&amp;d=mm&amp;r=g'`,
				`height='40' width='40'`}},
		{name: "no avatar outside a comment", src: `<!-- wp:avatar /-->`, lacks: []string{"<img", "wp-block-avatar"}},
		{name: "title", src: `<!-- wp:comments-title /-->`, want: []string{`<h2 id="comments" class="wp-block-comments-title">2 responses to &#8220;Ann&#8221;</h2>`}},
		{name: "title of one, no post title", src: `<!-- wp:comments-title {"showPostTitle":false,"level":3} /-->`, edit: func(c *Comments) { c.Count = 1 },
			want: []string{`<h3 id="comments" class="wp-block-comments-title">One response</h3>`}},
		{name: "no title without comments", src: `<!-- wp:comments-title /-->`, edit: func(c *Comments) { c.Count = 0 }, lacks: []string{"<h2"}},
		{name: "threads", src: `<!-- wp:comment-template --><!-- wp:comment-author-name /--><!-- wp:comment-content /--><!-- /wp:comment-template -->`,
			want: []string{`<ol class="wp-block-comment-template"><li id="comment-1" class="comment even thread-even depth-1">`,
				`<div class="wp-block-comment-author-name"><a rel="external nofollow ugc" href="https://ann.test/" target="_self" >Ann</a></div>`,
				`<ol><li id="comment-2" class="comment odd alt depth-2">`, `</li></ol></li></ol>`}},
		{name: "held", src: `<!-- wp:comment-template --><!-- wp:comment-content /--><!-- wp:comment-reply-link /--><!-- /wp:comment-template -->`,
			edit: func(c *Comments) { c.Threads[0].Held, c.Threads[0].Replies = true, nil },
			want: []string{`<p><em class="comment-awaiting-moderation">Your comment is awaiting moderation.</em></p><p>top</p>`}, lacks: []string{"Reply"}},
		{name: "reply link below the depth", src: `<!-- wp:comment-template --><!-- wp:comment-reply-link /--><!-- /wp:comment-template -->`,
			edit: func(c *Comments) { c.MaxDepth = 2 },
			want: []string{`href="https://s.test/p/?replytocom=1#respond" data-commentid="1"`}, lacks: []string{`replytocom=2`}},
		{name: "date", src: `<!-- wp:comment-template --><!-- wp:comment-date /--><!-- /wp:comment-template -->`,
			want: []string{`<div class="wp-block-comment-date"><time datetime="Ann"><a href="https://s.test/p/comment-page-1/#comment-1">Ann</a></time></div>`}},
		{name: "pagination", src: `<!-- wp:comments-pagination --><!-- wp:comments-pagination-previous /--><!-- wp:comments-pagination-next /--><!-- /wp:comments-pagination -->`,
			want: []string{`<nav class="wp-block-comments-pagination is-layout-flex" aria-label="Comments pagination"><a href="https://s.test/p/comment-page-1/#comments" class="wp-block-comments-pagination-previous">Older Comments</a>`,
				`class="wp-block-comments-pagination-next">Newer Comments</a></nav>`}},
		// Twenty Twenty-Three's comments pagination: arrows beside the labels (the label is never hidden)
		{name: "pagination arrows", src: `<!-- wp:comments-pagination {"paginationArrow":"arrow","showLabel":false,"layout":{"type":"flex","justifyContent":"space-between"}} --><!-- wp:comments-pagination-previous /--><!-- wp:comments-pagination-next /--><!-- /wp:comments-pagination -->`,
			want: []string{`<nav class="wp-block-comments-pagination is-layout-flex is-content-justification-space-between" aria-label="Comments pagination">`,
				`class="wp-block-comments-pagination-previous"><span class="wp-block-comments-pagination-previous-arrow is-arrow-arrow" aria-hidden="true">←</span>Older Comments</a>`,
				`class="wp-block-comments-pagination-next">Newer Comments<span class="wp-block-comments-pagination-next-arrow is-arrow-arrow" aria-hidden="true">→</span></a></nav>`}},
		{name: "no pagination on one page", src: `<!-- wp:comments-pagination --><!-- wp:comments-pagination-next /--><!-- /wp:comments-pagination -->`,
			edit: func(c *Comments) { c.Pages = 1 }, lacks: []string{"<nav"}},
		{name: "form", src: `<!-- wp:post-comments-form /-->`, want: []string{`<div id="respond" class="comment-respond wp-block-post-comments-form">`,
			`<form action="https://s.test/cms-comments-post.php" method="post" id="commentform" class="comment-form">`, `name="email" type="email"`,
			`name="wp-comment-cookies-consent" type="checkbox" value="yes" />`}},
		// show_comments_cookies_opt_in off
		{name: "form without the cookies box", src: `<!-- wp:post-comments-form /-->`, edit: func(c *Comments) { c.Form.CookiesOptIn = false },
			want: []string{`name="url" type="url"`}, lacks: []string{`id="wp-comment-cookies-consent"`}},
		// render_block_core_comments: closed and no comments, nothing at all
		{name: "closed without comments", src: `<!-- wp:comments --><div class="wp-block-comments"><!-- wp:heading --><h2>Comments</h2><!-- /wp:heading --><!-- wp:post-comments-form /--></div><!-- /wp:comments -->`,
			edit: func(c *Comments) { c.Open, c.Count = false, 0 }, lacks: []string{"Comments", "<div"}},
		{name: "closed with comments", src: `<!-- wp:comments --><div class="wp-block-comments"><!-- wp:heading --><h2>Comments</h2><!-- /wp:heading --><!-- wp:post-comments-form /--></div><!-- /wp:comments -->`,
			edit: func(c *Comments) { c.Open = false }, want: []string{"<h2>Comments</h2>"}, lacks: []string{"<form"}},
		{name: "closed", src: `<!-- wp:post-comments-form /--><!-- wp:comment-template --><!-- wp:comment-reply-link /--><!-- /wp:comment-template -->`,
			edit: func(c *Comments) { c.Open = false }, lacks: []string{"<form", "Reply"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cs := sampleComments("Ann", "https://ann.test/")
			if tt.edit != nil {
				tt.edit(cs)
			}
			for _, got := range renderBoth(tt.src, func() *Env { return &Env{Comments: cs} }) {
				for _, w := range tt.want {
					if !strings.Contains(got, w) {
						t.Errorf("lacks %s in %s", w, got)
					}
				}
				for _, w := range tt.lacks {
					if strings.Contains(got, w) {
						t.Errorf("has %s in %s", w, got)
					}
				}
			}
		})
	}
}
