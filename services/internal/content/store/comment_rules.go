package store

import (
	"regexp"
	"strings"
	"time"
)

// The comment form's rules, as WordPress's wp_handle_comment_submission,
// wp_allow_comment, wp_check_comment_flood and check_comment apply them.
// They are pure: the look-ups they need come in a CommentGate.

// FloodInterval is the shortest time between two comments of one author
// (wp_throttle_comment_flood).
const FloodInterval = 15 * time.Second

// AddressHourlyLimit is how many anonymous comments one address may post
// in an hour: beyond WordPress's flood interval, so that one address cannot
// fill the moderation queue (a comment every 15 s is 240 an hour).
const AddressHourlyLimit = 20

// Comment form messages (WordPress's, with its HTML).
const (
	MsgCommentClosed     = "Sorry, comments are closed for this item."
	MsgCommentDraft      = "Sorry, comments are not allowed for this item."
	MsgLoginRequired     = "Sorry, you must be logged in to comment."
	MsgRequireNameEmail  = "<strong>Error:</strong> Please fill the required fields."
	MsgRequireValidEmail = "<strong>Error:</strong> Please enter a valid email address."
	MsgRequireComment    = "<strong>Error:</strong> Please type your comment text."
	MsgDuplicateComment  = "Duplicate comment detected; it looks as though you&#8217;ve already said that!"
	MsgCommentFlood      = "You are posting comments too quickly. Slow down."
	MsgReplyUnapproved   = "Sorry, replies to unapproved comments are not allowed."
	MsgNameTooLong       = "<strong>Error:</strong> Your name is too long."
	MsgEmailTooLong      = "<strong>Error:</strong> Your email address is too long."
	MsgURLTooLong        = "<strong>Error:</strong> Your URL is too long."
	MsgCommentTooLong    = "<strong>Error:</strong> Your comment is too long."
)

// Column lengths of WordPress's comments table (wp_get_comment_fields_max_lengths).
const (
	MaxCommentAuthor  = 245
	MaxCommentEmail   = 100
	MaxCommentURL     = 200
	MaxCommentContent = 65525
)

// Flooded reports whether a comment at now comes too soon after the
// author's last one (zero: none).
func Flooded(last, now time.Time) bool {
	return !last.IsZero() && now.Sub(last) < FloodInterval
}

var linkRe = regexp.MustCompile(`(?i)<a [^>]*href`)

// CommentApproval is check_comment and wp_check_comment_disallowed_list:
// the status a comment of someone who is neither the post's author nor a
// moderator gets — "approved", "hold" (the moderation queue) or "spam"
// (a disallowed word). contentHTML is the comment as it is shown (links
// counted there); prior is whether the author has an approved comment.
func CommentApproval(d Discussion, m *Comment, contentHTML string, prior bool) string {
	fields := []string{m.AuthorName, m.AuthorEmail, m.AuthorURL, m.Content, m.AuthorIP, m.AuthorUserAgent}
	if matchesAny(d.DisallowedKeys, fields, true) {
		return "spam"
	}
	if d.Moderation {
		return "hold"
	}
	if d.MaxLinks > 0 && len(linkRe.FindAllStringIndex(contentHTML, -1)) >= d.MaxLinks {
		return "hold"
	}
	if matchesAny(d.ModerationKeys, fields, false) {
		return "hold"
	}
	if d.PreviouslyApproved {
		if (m.Author != 0 || (m.AuthorName != "" && m.AuthorEmail != "")) && prior {
			return "approved"
		}
		return "hold"
	}
	return "approved"
}

// matchesAny reports whether a line of keys (case-insensitive) occurs in
// one of fields; for the disallowed list the content is also checked with
// its tags stripped and with HTML entities left as they are, as WordPress
// checks both.
func matchesAny(keys string, fields []string, disallowed bool) bool {
	if strings.TrimSpace(keys) == "" {
		return false
	}
	lower := make([]string, 0, len(fields)+1)
	for _, f := range fields {
		lower = append(lower, strings.ToLower(f))
	}
	if disallowed {
		lower = append(lower, strings.ToLower(tagRe.ReplaceAllString(fields[3], "")))
	}
	for _, w := range strings.Split(keys, "\n") {
		w = strings.ToLower(strings.TrimSpace(w))
		if w == "" {
			continue
		}
		for _, f := range lower {
			if strings.Contains(f, w) {
				return true
			}
		}
	}
	return false
}

var tagRe = regexp.MustCompile(`<[^>]*>`)

var emailRe = regexp.MustCompile(`^[a-zA-Z0-9!#$%&'*+/=?^_{|}~.-]+@[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)+$`)

// ValidEmail is is_email's shape: local part, @, a domain of at least two
// labels.
func ValidEmail(s string) bool { return len(s) >= 6 && emailRe.MatchString(s) }
