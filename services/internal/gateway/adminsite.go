package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"time"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/pkg/contract"
)

// The site editor at /cms-admin/site-editor.php: wp-admin/site-editor.php
// around @wordpress/edit-site (its own bundle, siteeditor.js). For people
// who may edit theme options (administrators); its preloads are
// WordPress's for the screen, made as the person.

const siteEditorScreen = "site-editor.php"

// siteEditorPageParam is the site editor's own route (?p=/page/12).
var siteEditorPageParam = regexp.MustCompile(`^/page/(\d+)$`)

func (g *Gateway) serveSiteEditor(w http.ResponseWriter, r *http.Request, sess accounts.Session) {
	if !sess.User.Role.Can("edit_theme_options") {
		// wp_die's message, status 403.
		g.renderMessage(w, r, http.StatusForbidden, "You need a higher level of permission.",
			"Sorry, you are not allowed to edit theme options on this site.")
		return
	}
	if !g.admin.built() || g.admin.SiteJS == "" || g.admin.SiteCSS == "" {
		g.renderMessage(w, r, http.StatusServiceUnavailable, "Admin not built", adminNotBuilt)
		return
	}
	if to, ok := siteEditorRedirect(r.URL); ok {
		redirect(w, to)
		return
	}
	b := g.adminBase(sess)
	b.View, b.Title, b.DashboardURL = "site-editor", "Editor", adminPrefix
	ctx := identity.NewContext(r.Context(), sess.User.Identity())
	q := r.URL.Query()
	var pageID int64
	if id, err := strconv.ParseInt(q.Get("postId"), 10, 64); err == nil && id > 0 {
		pageID = id
	} else if m := siteEditorPageParam.FindStringSubmatch(q.Get("p")); m != nil {
		pageID, _ = strconv.ParseInt(m[1], 10, 64)
	}
	g.preloadSiteEditor(ctx, &b, pageID)
	b.Preferences = g.adminPreferences(ctx, sess.User.ID)
	g.renderAdminPage(w, r, b, http.StatusOK, "", adminShell{JS: g.admin.SiteJS, CSS: g.admin.SiteCSS, RootID: "site-editor", RootClass: "edit-site"})
}

// siteEditorRedirect is _wp_get_site_editor_redirection_url: the old
// site editor URLs (postType, postId, path) go to the new ones (?p=…);
// a URL with a query but no p goes to p=/.
func siteEditorRedirect(u *url.URL) (string, bool) {
	q := u.Query()
	if u.RawQuery == "" || q.Has("p") {
		return "", false
	}
	postType, postID, canvas, p := q.Get("postType"), q.Get("postId"), q.Get("canvas"), q.Get("path")
	to := ""
	switch {
	case postType == "wp_navigation" && postID != "":
		to = "/wp_navigation/" + postID
	case postType == "wp_navigation":
		to = "/navigation"
	case p == "/wp_global_styles":
		to = "/styles"
	case postType == "page" && (canvas == "" || postID == ""):
		to = "/page"
	case postType == "page":
		to = "/page/" + postID
	case postType == "wp_template" && (canvas == "" || postID == ""):
		to = "/template"
	case postType == "wp_template":
		to = "/wp_template/" + postID
	case postType == "wp_block" && (canvas == "" || postID == ""):
		to = "/pattern"
	case postType == "wp_block":
		to = "/wp_block/" + postID
	case postType == "wp_template_part" && (canvas == "" || postID == ""):
		// WordPress keeps postType (and the rest) here.
		q.Set("p", "/pattern")
		return adminPrefix + siteEditorScreen + "?" + q.Encode(), true
	case postType == "wp_template_part":
		to = "/wp_template_part/" + postID
	case p == "/wp_template_part/all":
		to = "/pattern"
	default:
		to = map[string]string{"/page": "/page", "/wp_template": "/template", "/patterns": "/pattern", "/navigation": "/navigation"}[p]
		if to == "" {
			q.Set("p", "/")
			return adminPrefix + siteEditorScreen + "?" + q.Encode(), true
		}
	}
	q.Del("postType")
	q.Del("postId")
	q.Del("path")
	if p == "/wp_template_part/all" {
		q.Set("postType", "wp_template_part")
	}
	q.Set("p", to)
	return adminPrefix + siteEditorScreen + "?" + q.Encode(), true
}

// siteEditorPreloads are wp-admin/site-editor.php's preload paths
// (without the person's global styles post, a second round).
func siteEditorPreloads(pagePath, pageSlug string) []preloadCall {
	theme := contract.ActiveTheme
	get := func(p string) preloadCall { return preloadCall{http.MethodGet, p} }
	options := func(p string) preloadCall { return preloadCall{http.MethodOptions, p} }
	calls := []preloadCall{
		options("/cms/v2/media"), options("/cms/v2/pages"),
		get("/cms/v2/types?context=view"), get("/cms/v2/types/wp_template?context=edit"),
		get("/cms/v2/types/wp_template_part?context=edit"),
		get("/cms/v2/templates?context=edit&per_page=-1"), get("/cms/v2/template-parts?context=edit&per_page=-1"),
		get("/cms/v2/themes?context=edit&status=active"),
		get("/cms/v2/global-styles/themes/" + theme + "?context=view"),
		get("/cms/v2/global-styles/themes/" + theme + "/variations?context=view"),
		options("/cms/v2/navigation"),
		get("/cms/v2/navigation?context=edit&order=desc&orderby=date&per_page=100&status%5B0%5D=publish&status%5B1%5D=draft"),
		get("/cms/v2/settings"), options("/cms/v2/settings"),
		get("/cms/v2/block-patterns/categories"),
		get("/?_fields=description,gmt_offset,home,name,site_icon,site_icon_url,site_logo,timezone_string,url,page_for_posts,page_on_front,show_on_front"),
	}
	if pagePath == "" {
		return append(calls, get("/cms/v2/templates/lookup?slug=front-page"), get("/cms/v2/templates/lookup?slug=home"))
	}
	lookup := "page"
	if pageSlug != "" {
		lookup += "-" + pageSlug
	}
	return append(calls, get(pagePath+"?context=edit"), get("/cms/v2/templates/lookup?slug="+url.QueryEscape(lookup)))
}

// preloadSiteEditor runs the site editor's preloads as the person; with a
// page (?p=/page/N or postId), that page and its template too.
func (g *Gateway) preloadSiteEditor(ctx context.Context, b *adminBootData, pageID int64) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	pagePath, slug := "", ""
	if pageID > 0 {
		var page struct {
			Slug string `json:"slug"`
		}
		res := g.do(ctx, g.cfg.Routes.Current(), subRequest{Method: http.MethodGet, Route: fmt.Sprintf("/cms/v2/pages/%d", pageID), Query: "context=edit&_fields=slug"})
		if res.Status == http.StatusOK && json.Unmarshal(res.Body, &page) == nil {
			pagePath, slug = fmt.Sprintf("/cms/v2/pages/%d", pageID), page.Slug
		}
	}
	// site-editor.php preloads the person's global styles post in edit
	// context (the screen is for edit_theme_options only).
	g.runEditorPreloads(ctx, b, siteEditorPreloads(pagePath, slug), "edit")
}
