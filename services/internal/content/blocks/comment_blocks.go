package blocks

import (
	"strconv"
	"strings"
	"sync"
)

// The comments blocks (wp-includes/blocks/comments*.php, comment-*.php,
// post-comments-form.php): the post's comments threaded, their pagination
// and the comment form, from Env.Comments.

// Comments is what the comments blocks show for the current post.
type Comments struct {
	PostID    int64
	PostTitle string
	PostURL   string
	// Count is the post's approved comments (comments-title)
	Count int
	// Threads are this page's top-level comments, their replies inside
	Threads []*Comment
	// Page and Pages of the comments (comment-page-N); PageURL(n) links one
	Page, Pages int
	PageURL     func(n int) string
	// MaxDepth is thread_comments_depth when threading is on, else 1
	MaxDepth int
	// Memo, when set, keeps each comment-template's output by block: the
	// caller shares these Comments among pages that show them alike (what
	// anonymous readers see until the next write)
	Memo *sync.Map
	// Open: the post takes comments (the form and reply links show)
	Open bool
	Form CommentForm
}

// CommentForm is what the comment form shows.
type CommentForm struct {
	Action string // the form's action URL
	// User is the signed-in commenter's name ("" anonymous)
	User       string
	ProfileURL string
	LogoutURL  string
	// LoginURL is where "You must be logged in" leads, when anonymous
	// readers may not comment (comment_registration)
	LoginURL         string
	RequireNameEmail bool
	// CookiesOptIn shows the "Save my name…" box to anonymous readers
	// (show_comments_cookies_opt_in); without it no commenter cookies are
	// kept, as the form's answer sets them only when the box was ticked
	CookiesOptIn bool
	// ReplyTo is the comment replied to (?replytocom=), nil for none
	ReplyTo *Comment
	// Author, Email and URL prefill an anonymous reader's fields (the
	// commenter cookies, wp_get_current_commenter); with an e-mail the
	// "Save my name…" box is ticked, as WordPress ticks it
	Author, Email, URL string
}

// Comment is one comment as the comment-* blocks show it.
type Comment struct {
	ID          int64
	AuthorName  string
	AuthorURL   string
	DateISO     string
	DateText    string
	ContentHTML string // filtered and formatted already
	Held        bool   // shown to its author only, "awaiting moderation"
	Preview     bool   // held, shown to its anonymous author (the moderation hash)
	Depth       int    // 1 for a top-level comment
	Classes     string // the li's classes (comment_class)
	Kind        int    // 0 a guest's, 1 a user's, 2 the post author's (the caller's bookkeeping)
	EditURL     string // "" unless the viewer may edit it
	AvatarHash  string // Gravatar's hash of the author's e-mail (avatar_block.go)
	Replies     []*Comment
}

func comments(b *Block, env *Env) string {
	if env.Comments == nil || closedWithout(env.Comments) {
		return ""
	}
	return wrapped(b, env)
}

// closedWithout is render_block_core_comments' early return: comments
// closed and none to show, so the block (its "Comments" heading too) is
// left out, as on Twenty Twenty-Three's pages.
func closedWithout(cs *Comments) bool { return !cs.Open && cs.Count == 0 }

func commentsTitle(b *Block, env *Env) string {
	cs := env.Comments
	if cs == nil || cs.Count == 0 {
		return ""
	}
	title := "Responses"
	showTitle, showCount := !b.hasFalse("showPostTitle"), !b.hasFalse("showCommentsCount")
	postTitle := "&#8220;" + esc(cs.PostTitle) + "&#8221;"
	one := cs.Count == 1
	n := groupThousands(cs.Count)
	switch {
	case showCount && showTitle && one:
		title = "One response to " + postTitle
	case showCount && showTitle:
		title = n + " responses to " + postTitle
	case showCount && one:
		title = "One response"
	case showCount:
		title = n + " responses"
	case showTitle && one:
		title = "Response to " + postTitle
	case showTitle:
		title = "Responses to " + postTitle
	case one:
		title = "Response"
	}
	tag := heading(num(b, "level", 2))
	return "<" + tag + ` id="comments" class="` + classes(b, "wp-block-comments-title") + `">` + title + "</" + tag + ">"
}

// commentTemplate renders its inner blocks once per comment of the page,
// each in its li, replies in a nested ol (block_core_comment_template_render_comments).
func commentTemplate(b *Block, env *Env) string {
	var sb strings.Builder
	writeCommentTemplate(&sb, b, env)
	return sb.String()
}

// writeCommentsBlock writes core/comments and core/comment-template into
// the page's builder: a page of fifty comments is written once, not
// built in a string of each container and copied into the next.
func writeCommentsBlock(sb *strings.Builder, b *Block, env *Env) {
	switch {
	case env.Comments == nil:
	case b.Name == "core/comments" && closedWithout(env.Comments):
	case b.Name == "core/comment-template":
		writeCommentTemplate(sb, b, env)
	case layoutClass(b) == "" && spacingStyle(b) == "":
		renderNodes(sb, b.Parts, env)
	default:
		sb.WriteString(comments(b, env))
	}
}

func writeCommentTemplate(sb *strings.Builder, b *Block, env *Env) {
	cs := env.Comments
	if cs == nil || len(cs.Threads) == 0 {
		return
	}
	if cs.Memo != nil {
		if v, ok := cs.Memo.Load(b); ok {
			sb.WriteString(v.(string))
			return
		}
		var own strings.Builder
		writeCommentList(&own, b, env)
		cs.Memo.Store(b, own.String())
		sb.WriteString(own.String())
		return
	}
	writeCommentList(sb, b, env)
}

func writeCommentList(sb *strings.Builder, b *Block, env *Env) {
	sb.WriteString(`<ol class="` + classes(b, "wp-block-comment-template") + `">`)
	writeComments(sb, b, env, env.Comments.Threads)
	sb.WriteString(`</ol>`)
}

func writeComments(sb *strings.Builder, b *Block, env *Env, list []*Comment) {
	outer := env.comment
	for _, c := range list {
		env.comment = c
		sb.WriteString(`<li id="comment-`)
		sb.WriteString(strconv.FormatInt(c.ID, 10))
		sb.WriteString(`" class="`)
		sb.WriteString(c.Classes)
		sb.WriteString(`">`)
		renderNodes(sb, b.Parts, env)
		if len(c.Replies) > 0 {
			sb.WriteString(`<ol>`)
			writeComments(sb, b, env, c.Replies)
			sb.WriteString(`</ol>`)
		}
		sb.WriteString(`</li>`)
	}
	env.comment = outer
}

// writer writes a block straight into the page (the comment-* blocks
// run once per comment: no string of their own).
type writer func(sb *strings.Builder, b *Block, env *Env)

// commentWriters are the blocks writeBlock writes in place.
var commentWriters = map[string]writer{
	"core/comment-author-name": writeCommentAuthorName,
	"core/comment-date":        writeCommentDate,
	"core/comment-content":     writeCommentContent,
	"core/comment-reply-link":  writeCommentReplyLink,
	"core/avatar":              writeAvatar,
}

// asString is w's output as a string (the dynamic map's form).
func asString(w writer) renderFunc {
	return func(b *Block, env *Env) string {
		var sb strings.Builder
		w(&sb, b, env)
		return sb.String()
	}
}

// blockClass is classes(b, base) without the work for a block with no
// attributes (most of a template's comment blocks).
func blockClass(b *Block, base string) string {
	if len(b.Attrs) == 0 {
		return base
	}
	return classes(b, base)
}

func writeCommentAuthorName(sb *strings.Builder, b *Block, env *Env) {
	c := env.comment
	if c == nil {
		return
	}
	name := c.AuthorName
	if name == "" {
		name = "Anonymous"
	}
	sb.WriteString(`<div class="` + blockClass(b, "wp-block-comment-author-name") + `">`)
	// isLink defaults to true, linkTarget to _self; a held comment's
	// author is not linked
	link := c.AuthorURL != "" && !b.hasFalse("isLink") && !c.Held
	if link {
		sb.WriteString(`<a rel="external nofollow ugc" href="`)
		sb.WriteString(escURL(c.AuthorURL))
		sb.WriteString(`" target="`)
		sb.WriteString(esc(str(b, "linkTarget", "_self")))
		sb.WriteString(`" >`)
	}
	sb.WriteString(esc(name))
	if link {
		sb.WriteString(`</a>`)
	}
	sb.WriteString(`</div>`)
}

func writeCommentDate(sb *strings.Builder, b *Block, env *Env) {
	c, cs := env.comment, env.Comments
	if c == nil || cs == nil {
		return
	}
	sb.WriteString(`<div class="` + blockClass(b, "wp-block-comment-date") + `"><time datetime="`)
	sb.WriteString(esc(c.DateISO))
	sb.WriteString(`">`)
	link := !b.hasFalse("isLink")
	if link {
		sb.WriteString(`<a href="`)
		writeCommentLink(sb, cs, c)
		sb.WriteString(`">`)
	}
	sb.WriteString(esc(c.DateText))
	if link {
		sb.WriteString(`</a>`)
	}
	sb.WriteString(`</time></div>`)
}

// writeCommentLink writes get_comment_link, escaped: the post's URL (its
// comment page) and the comment's anchor.
func writeCommentLink(sb *strings.Builder, cs *Comments, c *Comment) {
	u := cs.PostURL
	if cs.Pages > 1 && cs.PageURL != nil {
		u = cs.PageURL(cs.Page)
	}
	sb.WriteString(escURL(u))
	sb.WriteString("#comment-")
	sb.WriteString(strconv.FormatInt(c.ID, 10))
}

func writeCommentContent(sb *strings.Builder, b *Block, env *Env) {
	c := env.comment
	if c == nil || c.ContentHTML == "" {
		return
	}
	sb.WriteString(`<div class="` + blockClass(b, "wp-block-comment-content") + `">`)
	switch {
	case c.Preview:
		sb.WriteString(`<p><em class="comment-awaiting-moderation">Your comment is awaiting moderation. This is a preview; your comment will be visible after it has been approved.</em></p>`)
	case c.Held:
		sb.WriteString(`<p><em class="comment-awaiting-moderation">Your comment is awaiting moderation.</em></p>`)
	}
	sb.WriteString(c.ContentHTML)
	sb.WriteString(`</div>`)
}

func writeCommentReplyLink(sb *strings.Builder, b *Block, env *Env) {
	c, cs := env.comment, env.Comments
	if c == nil || cs == nil || !cs.Open || c.Depth >= cs.MaxDepth || c.Held {
		return
	}
	sb.WriteString(`<div class="` + blockClass(b, "wp-block-comment-reply-link") + `">`)
	if cs.Form.LoginURL != "" {
		sb.WriteString(`<a rel="nofollow" class="comment-reply-login" href="` + escURL(cs.Form.LoginURL) + `">Log in to Reply</a></div>`)
		return
	}
	id := strconv.FormatInt(c.ID, 10)
	name := esc(c.AuthorName)
	sb.WriteString(`<a rel="nofollow" class="comment-reply-link" href="`)
	sb.WriteString(escURL(cs.PostURL))
	sb.WriteString(`?replytocom=`)
	sb.WriteString(id)
	sb.WriteString(`#respond" data-commentid="`)
	sb.WriteString(id)
	sb.WriteString(`" data-postid="`)
	sb.WriteString(strconv.FormatInt(cs.PostID, 10))
	sb.WriteString(`" data-belowelement="comment-`)
	sb.WriteString(id)
	sb.WriteString(`" data-respondelement="respond" data-replyto="Reply to `)
	sb.WriteString(name)
	sb.WriteString(`" aria-label="Reply to `)
	sb.WriteString(name)
	sb.WriteString(`">Reply</a></div>`)
}

func commentEditLink(b *Block, env *Env) string {
	c := env.comment
	if c == nil || c.EditURL == "" {
		return ""
	}
	target := ""
	if t := str(b, "linkTarget", ""); t != "" {
		target = ` target="` + esc(t) + `"`
	}
	return `<div class="` + classes(b, "wp-block-comment-edit-link") + `"><a href="` + escURL(c.EditURL) + `"` + target + `>Edit</a></div>`
}

func commentsPagination(b *Block, env *Env) string {
	cs := env.Comments
	if cs == nil || cs.Pages < 2 {
		return ""
	}
	// WordPress writes the wrapper (the saved markup has none)
	return paginationNav(b, env, "wp-block-comments-pagination", "Comments pagination")
}

func commentsPaginationPrevious(b *Block, env *Env) string {
	cs := env.Comments
	if cs == nil || cs.Page <= 1 {
		return ""
	}
	return paginationLink(b, env, "comments", cs.PageURL(cs.Page-1)+"#comments", false, "Older Comments")
}

func commentsPaginationNext(b *Block, env *Env) string {
	cs := env.Comments
	if cs == nil || cs.Page >= cs.Pages {
		return ""
	}
	return paginationLink(b, env, "comments", cs.PageURL(cs.Page+1)+"#comments", true, "Newer Comments")
}

func commentsPaginationNumbers(_ *Block, env *Env) string {
	cs := env.Comments
	if cs == nil || cs.Pages < 2 {
		return ""
	}
	return pageNumbers("wp-block-comments-pagination-numbers", &Query{Page: cs.Page, Pages: cs.Pages,
		PageURL: func(n int) string { return cs.PageURL(n) + "#comments" }})
}

// postCommentsForm is comment_form as the block calls it.
// commentsFormSize is about the size of an anonymous reader's form.
const commentsFormSize = 2560

func postCommentsForm(b *Block, env *Env) string {
	cs := env.Comments
	if cs == nil || !cs.Open {
		return ""
	}
	f := cs.Form
	var sb strings.Builder
	sb.Grow(commentsFormSize) // once, rather than growing by doubling
	sb.WriteString(`<div id="respond" class="comment-respond ` + classes(b, "wp-block-post-comments-form") + `">`)
	sb.WriteString(`<h3 id="reply-title" class="comment-reply-title">`)
	parent := "0"
	if f.ReplyTo != nil {
		parent = strconv.FormatInt(f.ReplyTo.ID, 10)
		sb.WriteString(`Leave a Reply to ` + esc(f.ReplyTo.AuthorName) + ` <small><a rel="nofollow" id="cancel-comment-reply-link" href="` +
			escURL(cs.PostURL) + `#respond">Cancel reply</a></small>`)
	} else {
		sb.WriteString(`Leave a Reply`)
	}
	sb.WriteString(`</h3>`)
	if f.LoginURL != "" {
		sb.WriteString(`<p class="must-log-in">You must be <a href="` + escURL(f.LoginURL) + `">logged in</a> to post a comment.</p></div>`)
		return sb.String()
	}
	required := ""
	mark := ""
	if f.RequireNameEmail {
		required, mark = " required", ` <span class="required">*</span>`
	}
	sb.WriteString(`<form action="` + escURL(f.Action) + `" method="post" id="commentform" class="comment-form">`)
	if f.User != "" {
		sb.WriteString(`<p class="logged-in-as"><a href="` + escURL(f.ProfileURL) + `" aria-label="Logged in as ` + esc(f.User) +
			`. Edit your profile.">Logged in as ` + esc(f.User) + `</a>. <a href="` + escURL(f.LogoutURL) + `">Log out?</a> <span class="required-field-message">Required fields are marked <span class="required">*</span></span></p>`)
	} else {
		sb.WriteString(`<p class="comment-notes"><span id="email-notes">Your email address will not be published.</span> <span class="required-field-message">Required fields are marked <span class="required">*</span></span></p>`)
	}
	sb.WriteString(`<p class="comment-form-comment"><label for="comment">Comment <span class="required">*</span></label> <textarea id="comment" name="comment" cols="45" rows="8" maxlength="65525" required></textarea></p>`)
	if f.User == "" {
		consent := ""
		if f.Email != "" {
			consent = ` checked="checked"`
		}
		sb.WriteString(`<p class="comment-form-author"><label for="author">Name` + mark + `</label> <input id="author" name="author" type="text" value="` + esc(f.Author) + `" size="30" maxlength="245" autocomplete="name"` + required + ` /></p>` + "\n" +
			`<p class="comment-form-email"><label for="email">Email` + mark + `</label> <input id="email" name="email" type="email" value="` + esc(f.Email) + `" size="30" maxlength="100" aria-describedby="email-notes" autocomplete="email"` + required + ` /></p>` + "\n" +
			`<p class="comment-form-url"><label for="url">Website</label> <input id="url" name="url" type="url" value="` + esc(f.URL) + `" size="30" maxlength="200" autocomplete="url" /></p>` + "\n")
		if f.CookiesOptIn {
			sb.WriteString(`<p class="comment-form-cookies-consent"><input id="wp-comment-cookies-consent" name="wp-comment-cookies-consent" type="checkbox" value="yes"` + consent + ` /> ` +
				`<label for="wp-comment-cookies-consent">Save my name, email, and website in this browser for the next time I comment.</label></p>` + "\n")
		}
	}
	sb.WriteString(`<p class="form-submit wp-block-button"><input name="submit" type="submit" id="submit" class="wp-block-button__link wp-element-button" value="Post Comment" /> ` +
		`<input type="hidden" name="comment_post_ID" value="` + strconv.FormatInt(cs.PostID, 10) + `" id="comment_post_ID" />` + "\n" +
		`<input type="hidden" name="comment_parent" id="comment_parent" value="` + parent + `" />` + "\n" +
		`</p></form></div>`)
	return sb.String()
}
