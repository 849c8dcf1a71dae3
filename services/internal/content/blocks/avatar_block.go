package blocks

import (
	"strconv"
	"strings"
)

// The avatar block (core/avatar) in a comment: the commenter's Gravatar as
// WordPress 6.9's render_block_core_avatar and get_avatar() write it — the
// image at the block's size (96 by default) and twice that for 2x screens,
// Gravatar's "mystery person" for an address without one (d=mm), rated G,
// linked to the commenter's site when isLink asks. Outside a comment (the
// post author's avatar) it renders nothing: the website does not read
// users' e-mail addresses.

// gravatarBase is where get_avatar_data sends every avatar (always HTTPS).
const gravatarBase = "https://secure.gravatar.com/avatar/"

func writeAvatar(sb *strings.Builder, b *Block, env *Env) {
	c := env.comment
	if c == nil || c.AvatarHash == "" {
		return
	}
	size := 96
	if n, ok := b.Attrs["size"].(float64); ok && n >= 1 && n <= 512 {
		size = int(n)
	}
	s := strconv.Itoa(size)
	name := c.AuthorName
	if name == "" {
		name = "Anonymous"
	}
	src := gravatarBase + c.AvatarHash + "?s=" + s + "&d=mm&r=g"
	src2x := gravatarBase + c.AvatarHash + "?s=" + strconv.Itoa(2*size) + "&d=mm&r=g"
	sb.WriteString(`<div class="` + blockClass(b, "wp-block-avatar") + `">`)
	isLink, _ := b.Attrs["isLink"].(bool)
	link := isLink && c.AuthorURL != "" && !c.Held
	if link {
		sb.WriteString(`<a href="` + escURL(c.AuthorURL) + `" target="` + esc(str(b, "linkTarget", "_self")) + `" class="wp-block-avatar__link">`)
	}
	sb.WriteString(`<img alt='` + esc(name+" Avatar") + `' src='` + escURL(src) + `' srcset='` + escURL(src2x) + ` 2x' class='avatar avatar-` + s +
		` photo wp-block-avatar__image' height='` + s + `' width='` + s + `' loading='lazy' decoding='async'/>`)
	if link {
		sb.WriteString(`</a>`)
	}
	sb.WriteString(`</div>`)
}
