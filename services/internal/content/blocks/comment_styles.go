package blocks

// commentsCSS lays out the comments blocks' markup (comment_blocks.go) the
// way WordPress's block styles do, written for Siteplane's stylesheet (every
// page carries one stylesheet, so these rules ride along with it; about
// 900 bytes): threads as unmarked lists, each reply level indented by 2rem,
// the held comment's notice on its own line, and the form's fields one
// under the other at full width with their labels above them, the
// cookies box beside its label.
const commentsCSS = ".wp-block-comments,.wp-block-post-comments-form{box-sizing:border-box}" +
	".wp-block-comment-template{box-sizing:border-box;list-style:none;margin-bottom:0;max-width:100%;padding:0}" +
	".wp-block-comment-template li{clear:both}" +
	".wp-block-comment-template ol{list-style:none;margin-bottom:0;max-width:100%;padding-left:2rem}" +
	".comment-awaiting-moderation{display:block;font-size:.875em;line-height:1.5}" +
	".wp-block-comments-pagination-numbers{display:flex;gap:.5rem}" +
	".wp-block-post-comments-form .comment-reply-title{margin-bottom:0}" +
	".wp-block-post-comments-form .comment-reply-title small{font-size:smaller;margin-left:.5em}" +
	".wp-block-post-comments-form .comment-form-author label," +
	".wp-block-post-comments-form .comment-form-email label,.wp-block-post-comments-form .comment-form-url label{display:block;margin-bottom:.25em}" +
	".wp-block-post-comments-form textarea,.wp-block-post-comments-form input:not([type=submit]):not([type=checkbox]):not([type=hidden])" +
	"{box-sizing:border-box;display:block;width:100%;border:1px solid #949494;font-family:inherit;font-size:1em;padding:calc(.667em + 2px)}" +
	".wp-block-post-comments-form input[type=submit]{border:none;cursor:pointer}" +
	".wp-block-post-comments-form .comment-form-cookies-consent{display:flex;gap:.25em}" +
	".wp-block-post-comments-form #wp-comment-cookies-consent{margin-top:.35em}"
