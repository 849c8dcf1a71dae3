package blocks

import (
	"strconv"
	"strings"
)

func Render(nodes []Node, env *Env) string {
	if env == nil {
		env = &Env{}
	}
	if env.ids == nil {
		env.ids = new(int)
	}
	if env.modals == nil {
		env.modals = new(int)
	}
	var sb strings.Builder
	sb.Grow(env.SizeHint)
	renderNodes(&sb, nodes, env)
	return sb.String()
}

// RenderMarkup parses and renders block markup.
func RenderMarkup(src string, env *Env) string { return Render(Parse(src), env) }

func renderNodes(sb *strings.Builder, nodes []Node, env *Env) {
	for _, n := range nodes {
		if n.Block == nil {
			sb.WriteString(n.HTML)
			continue
		}
		writeBlock(sb, n.Block, env)
	}
}

// writeBlock is renderBlock into sb: a static block that adds no class or
// style to its HTML is written in place, without a string of its own.
func writeBlock(sb *strings.Builder, b *Block, env *Env) {
	switch b.Name {
	case "core/query":
		writeQuery(sb, b, env)
		return
	case "core/post-template":
		writePostTemplate(sb, b, env)
		return
	case "core/comments", "core/comment-template":
		writeCommentsBlock(sb, b, env)
		return
	case "core/template-part":
		if spacingStyle(b) == "" { // else renderBlock adds the style to its wrapper
			writeTemplatePart(sb, b, env)
			return
		}
	}
	if w, ok := commentWriters[b.Name]; ok {
		w(sb, b, env)
		return
	}
	if _, ok := dynamic[b.Name]; !ok && len(b.Attrs) == 0 && defaultLayouts[b.Name] == "" {
		renderNodes(sb, b.Parts, env)
		return
	}
	sb.WriteString(renderBlock(b, env))
}

// renderFunc renders a dynamic block.
type renderFunc func(b *Block, env *Env) string

var dynamic map[string]renderFunc

func init() {
	dynamic = map[string]renderFunc{
		"core/site-title":                   siteTitle,
		"core/site-tagline":                 siteTagline,
		"core/navigation":                   navigation,
		"core/template-part":                templatePart,
		"core/post-title":                   postTitle,
		"core/post-date":                    postDate,
		"core/post-author":                  postAuthor,
		"core/post-author-name":             postAuthor,
		"core/post-excerpt":                 postExcerpt,
		"core/post-content":                 postContent,
		"core/post-featured-image":          postFeaturedImage,
		"core/post-terms":                   postTerms,
		"core/post-navigation-link":         postNavigationLink,
		"core/query":                        query,
		"core/post-template":                postTemplate,
		"core/query-no-results":             queryNoResults,
		"core/query-pagination":             queryPagination,
		"core/query-pagination-previous":    paginationPrevious,
		"core/query-pagination-next":        paginationNext,
		"core/query-pagination-numbers":     paginationNumbers,
		"core/query-title":                  queryTitle,
		"core/term-description":             termDescription,
		"core/search":                       search,
		"core/comments":                     comments,
		"core/comments-title":               commentsTitle,
		"core/comment-template":             commentTemplate,
		"core/comment-author-name":          asString(writeCommentAuthorName),
		"core/comment-date":                 asString(writeCommentDate),
		"core/comment-content":              asString(writeCommentContent),
		"core/comment-reply-link":           asString(writeCommentReplyLink),
		"core/avatar":                       asString(writeAvatar),
		"core/comment-edit-link":            commentEditLink,
		"core/comments-pagination":          commentsPagination,
		"core/comments-pagination-previous": commentsPaginationPrevious,
		"core/comments-pagination-next":     commentsPaginationNext,
		"core/comments-pagination-numbers":  commentsPaginationNumbers,
		"core/post-comments-form":           postCommentsForm,
		"core/navigation-link":              navigationLink,
		"core/home-link":                    homeLink,
	}
}

// renderBlock renders one block: a dynamic block by its function, with
// its margin and padding (the spacing block support, which WordPress's
// get_block_wrapper_attributes writes on every dynamic block's wrapper:
// Twenty Twenty-Three's titles' bottom margins) unless the function wrote
// a style of its own; any other (static and unknown blocks) as its saved
// HTML with its inner blocks rendered in place, plus the layout class of
// blocks that have one.
func renderBlock(b *Block, env *Env) string {
	if f, ok := dynamic[b.Name]; ok {
		out := f(b, env)
		if st := spacingStyle(b); st != "" && out != "" {
			out = addStyle(out, st)
		}
		return out
	}
	return wrapped(b, env)
}

// wrapped is a block's saved HTML with its inner blocks rendered in place
// and its layout class and spacing style added to its wrapper.
func wrapped(b *Block, env *Env) string {
	out := renderInner(b, env)
	if cls := layoutClass(b); cls != "" {
		out = addClass(out, cls)
	}
	if st := spacingStyle(b); st != "" {
		out = addStyle(out, st)
	}
	return out
}

func renderInner(b *Block, env *Env) string {
	var sb strings.Builder
	renderNodes(&sb, b.Parts, env)
	return sb.String()
}

func heading(level int) string {
	if level <= 0 || level > 6 {
		return "p"
	}
	return "h" + strconv.Itoa(level)
}

func renderChildren(b *Block, env *Env) string {
	var sb strings.Builder
	writeChildren(&sb, b, env)
	return sb.String()
}

func writeChildren(sb *strings.Builder, b *Block, env *Env) {
	for _, n := range b.Parts {
		if n.Block != nil {
			writeBlock(sb, n.Block, env)
		}
	}
}
