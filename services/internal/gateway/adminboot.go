package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"siteplane.dev/services/internal/gateway/accounts"
	"siteplane.dev/services/internal/platform/identity"
	"siteplane.dev/services/internal/platform/rest"
)

// The bootstrap data of an admin page: what WordPress's PHP prints into
// the editor page as inline scripts (api-fetch's root, nonce and preloaded
// answers; the post to edit; the upload limits of the editor settings),
// here one JSON object the host script reads (admin/src/index.js).

// adminUploadBytes is the largest upload the editor announces: media's
// default limit (SITEPLANE_MEDIA_MAX_UPLOAD_BYTES, internal/media).
const adminUploadBytes = 32 << 20

// adminMimeTypes are the types media accepts (its signature check), by
// extension pattern as WordPress's get_allowed_mime_types lists them.
var adminMimeTypes = map[string]string{
	"jpg|jpeg|jpe": "image/jpeg", "png": "image/png", "gif": "image/gif", "webp": "image/webp", "bmp": "image/bmp",
	"ico": "image/x-icon", "tiff|tif": "image/tiff", "avif": "image/avif", "heic": "image/heic", "pdf": "application/pdf",
	"mp3|m4a|m4b": "audio/mpeg", "wav": "audio/wav", "aif|aiff": "audio/aiff", "mid|midi": "audio/midi", "flac": "audio/flac",
	"ogg|oga": "audio/ogg", "mp4|m4v": "video/mp4", "mov|qt": "video/quicktime", "webm": "video/webm", "avi": "video/avi",
	"gz|gzip": "application/x-gzip",
}

// adminPostTypes are the types the admin lists and edits: REST base,
// plural label, the capability to create one.
var adminPostTypes = map[string]struct{ base, label, singular, create string }{
	"post":     {"posts", "Posts", "Post", "edit_posts"},
	"page":     {"pages", "Pages", "Page", "edit_pages"},
	"wp_block": {"blocks", "Patterns", "Pattern", "edit_posts"},
}

type adminUser struct {
	ID                int64  `json:"id"`
	Name              string `json:"name"`
	CanUnfilteredHTML bool   `json:"canUnfilteredHTML"`
	CanManageOptions  bool   `json:"canManageOptions"`
}

type adminMenuItem struct {
	Label   string `json:"label"`
	URL     string `json:"url"`
	Current bool   `json:"current"`
}

type adminList struct {
	PostType string `json:"postType"`
	RestBase string `json:"restBase"`
	Title    string `json:"title"`
	EditURL  string `json:"editURL"`
	NewURL   string `json:"newURL,omitempty"`
	NewLabel string `json:"newLabel,omitempty"`
}

type adminUpload struct {
	AllowedMimeTypes  map[string]string         `json:"allowedMimeTypes"`
	MaxUploadFileSize int64                     `json:"maxUploadFileSize"`
	ImageSizes        []map[string]string       `json:"imageSizes"`
	ImageDimensions   map[string]map[string]any `json:"imageDimensions"`
}

// adminBootData is the page's JSON; field names are the host script's.
type adminBootData struct {
	View          string                     `json:"view"` // "editor" or "list"
	Title         string                     `json:"title"`
	SiteTitle     string                     `json:"siteTitle"`
	SiteURL       string                     `json:"siteURL"`
	Root          string                     `json:"root"`
	Nonce         string                     `json:"nonce"`
	NonceEndpoint string                     `json:"nonceEndpoint"`
	LogoutURL     string                     `json:"logoutURL"`
	User          adminUser                  `json:"user"`
	Menu          []adminMenuItem            `json:"menu"`
	List          *adminList                 `json:"list,omitempty"`
	PostType      string                     `json:"postType,omitempty"`
	PostID        int64                      `json:"postId,omitempty"`
	Paths         map[string]string          `json:"paths"`
	Preload       map[string]json.RawMessage `json:"preload"`
	Upload        adminUpload                `json:"upload"`
	CanvasStyle   string                     `json:"canvasStyle"`
	ThemeStyles   string                     `json:"themeStyles,omitempty"`
	PostsPerPage  int                        `json:"postsPerPage"`
	// Preferences are the person's stored editor preferences (users/me's
	// meta.persisted_preferences, userprefs.go), as WordPress prints
	// them into the editor's page for its preferences persistence layer
	Preferences json.RawMessage `json:"preferences,omitempty"`
	// DashboardURL is where the site editor's back link leads.
	DashboardURL string `json:"dashboardURL,omitempty"`
}

// adminBoot answers the data of one screen, or a status and message for
// the person (302 with the target in msg).
func (g *Gateway) adminBoot(r *http.Request, sess accounts.Session, screen string) (adminBootData, int, string) {
	b := g.adminBase(sess)
	role := sess.User.Role
	q := r.URL.Query()
	postType := q.Get("post_type")
	if postType == "" {
		postType = "post"
	}
	ctx := identity.NewContext(r.Context(), sess.User.Identity())
	switch screen {
	case "upload.php":
		if !role.Can("upload_files") {
			return b, http.StatusForbidden, "Sorry, you are not allowed to upload files."
		}
		b.View, b.Title = "list", "Media Library"
		b.List = &adminList{PostType: "attachment", RestBase: "media", Title: "Media Library", EditURL: adminPrefix + "upload.php?item=%d"}
	case "edit.php":
		pt, ok := adminPostTypes[postType]
		if !ok {
			return b, http.StatusBadRequest, "Invalid post type."
		}
		b.View, b.Title = "list", pt.label
		b.List = &adminList{PostType: postType, RestBase: pt.base, Title: pt.label, EditURL: adminPrefix + "post.php?post=%d&action=edit"}
		if role.Can(pt.create) {
			b.List.NewURL, b.List.NewLabel = adminPrefix+"post-new.php?post_type="+postType, "Add New "+pt.singular
		}
	case "post-new.php":
		return g.adminNewPost(ctx, b, role, postType)
	case "post.php":
		id, err := strconv.ParseInt(q.Get("post"), 10, 64)
		if err != nil || id <= 0 {
			return b, http.StatusBadRequest, "Invalid post ID."
		}
		pt, ok := g.adminPostTypeOf(ctx, id)
		if !ok {
			return b, http.StatusNotFound, "You attempted to edit an item that does not exist. Perhaps it was deleted?"
		}
		b.View, b.Title, b.PostType, b.PostID = "editor", "Edit "+adminPostTypes[pt].singular, pt, id
		g.preloadEditor(ctx, &b)
		b.Preferences = g.adminPreferences(ctx, sess.User.ID)
	}
	b.Menu = adminMenu(role, screen, postType)
	return b, http.StatusOK, ""
}

// adminBase is the bootstrap data every screen has: the site, the REST
// root and nonce, the person, the upload limits.
func (g *Gateway) adminBase(sess accounts.Session) adminBootData {
	u := sess.User
	role := u.Role
	b := adminBootData{
		SiteTitle: g.cfg.Site.Title, SiteURL: g.cfg.Site.URL + "/", Root: g.apiRoot(),
		Nonce:         g.nonces.create(g.cfg.Now(), actionREST, u.ID, sess.TokenHash),
		NonceEndpoint: ajaxPath + "?action=rest-nonce", LogoutURL: loginPath + "?action=logout",
		User:  adminUser{ID: u.ID, Name: u.DisplayName, CanUnfilteredHTML: role.Can("unfiltered_html"), CanManageOptions: role.Can("manage_options")},
		Paths: map[string]string{}, Preload: map[string]json.RawMessage{}, Upload: adminUploadLimits(),
		CanvasStyle: adminAssetsPath + g.admin.Canvas, PostsPerPage: 10,
	}
	if b.SiteTitle == "" {
		b.SiteTitle = "Siteplane"
	}
	return b
}

func adminUploadLimits() adminUpload {
	return adminUpload{
		AllowedMimeTypes: adminMimeTypes, MaxUploadFileSize: adminUploadBytes,
		ImageSizes: []map[string]string{{"slug": "thumbnail", "name": "Thumbnail"}, {"slug": "medium", "name": "Medium"},
			{"slug": "large", "name": "Large"}, {"slug": "full", "name": "Full Size"}},
		ImageDimensions: map[string]map[string]any{"thumbnail": {"width": 150, "height": 150, "crop": true},
			"medium": {"width": 300, "height": 300, "crop": false}, "large": {"width": 1024, "height": 1024, "crop": false}},
	}
}

func adminMenu(role identity.Role, screen, postType string) []adminMenuItem {
	var m []adminMenuItem
	add := func(label, u string, current bool) {
		m = append(m, adminMenuItem{Label: label, URL: u, Current: current})
	}
	add("Posts", adminPrefix+"edit.php", screen == "edit.php" && postType == "post")
	if role.Can("edit_pages") {
		add("Pages", adminPrefix+"edit.php?post_type=page", screen == "edit.php" && postType == "page")
	}
	add("Patterns", adminPrefix+"edit.php?post_type=wp_block", screen == "edit.php" && postType == "wp_block")
	if role.Can("upload_files") {
		add("Media", adminPrefix+"upload.php", screen == "upload.php")
	}
	return m
}

// adminNewPost is post-new.php: WordPress creates an auto-draft and opens
// the editor on it; the REST API has no auto-draft status, so the admin
// creates an empty draft as the person (the same capability check as any
// client) and sends the browser to its editor.
func (g *Gateway) adminNewPost(ctx context.Context, b adminBootData, role identity.Role, postType string) (adminBootData, int, string) {
	pt, ok := adminPostTypes[postType]
	if !ok {
		return b, http.StatusBadRequest, "Invalid post type."
	}
	if !role.Can(pt.create) {
		return b, http.StatusForbidden, "Sorry, you are not allowed to create posts as this user."
	}
	res := g.do(ctx, g.cfg.Routes.Current(), subRequest{Method: http.MethodPost, Route: "/cms/v2/" + pt.base,
		Body: map[string]any{"status": "draft", "title": "", "content": ""}})
	var created struct {
		ID      int64  `json:"id"`
		Message string `json:"message"`
	}
	_ = json.Unmarshal(res.Body, &created)
	if res.Status != http.StatusCreated || created.ID == 0 {
		return b, res.Status, "The draft could not be created: " + created.Message
	}
	return b, http.StatusFound, fmt.Sprintf("%spost.php?post=%d&action=edit", adminPrefix, created.ID)
}

// adminPostTypeOf finds the type of post id among the editable types
// (post.php names only the id).
func (g *Gateway) adminPostTypeOf(ctx context.Context, id int64) (string, bool) {
	t := g.cfg.Routes.Current()
	for _, pt := range []string{"post", "page", "wp_block"} {
		res := g.do(ctx, t, subRequest{Method: http.MethodGet, Route: fmt.Sprintf("/cms/v2/%s/%d", adminPostTypes[pt].base, id),
			Query: "context=edit&_fields=id,type"})
		if res.Status == http.StatusOK {
			return pt, true
		}
	}
	return "", false
}

// preloadCall is one preloaded request: WordPress's key (its wp/v2 path
// renamed to cms/v2) and the method.
type preloadCall struct{ method, path string }

// editorPreloads are wp-admin/edit-form-blocks.php's preload paths.
func editorPreloads(theme, postPath, postType, slug string) []preloadCall {
	lookup := "single-" + postType
	if postType == "page" {
		lookup = "page"
	}
	if slug != "" {
		lookup += "-" + slug
	}
	get := func(p string) preloadCall { return preloadCall{http.MethodGet, p} }
	options := func(p string) preloadCall { return preloadCall{http.MethodOptions, p} }
	return []preloadCall{
		get("/cms/v2/types?context=view"), get("/cms/v2/taxonomies?context=view"),
		get(postPath + "?context=edit"), get("/cms/v2/types/" + postType + "?context=edit"), get("/cms/v2/users/me"),
		options("/cms/v2/media"), options("/cms/v2/pages"), options("/cms/v2/blocks"), options("/cms/v2/templates"),
		get(postPath + "/autosaves?context=edit"), get("/cms/v2/settings"), options("/cms/v2/settings"),
		get("/cms/v2/global-styles/themes/" + theme + "?context=view"),
		get("/cms/v2/global-styles/themes/" + theme + "/variations?context=view"),
		get("/cms/v2/themes?context=edit&status=active"),
		get("/cms/v2/block-patterns/categories"),
		get("/?_fields=description,gmt_offset,home,name,site_icon,site_icon_url,site_logo,timezone_string,url,page_for_posts,page_on_front,show_on_front"),
		get("/cms/v2/templates/lookup?slug=" + url.QueryEscape(lookup)),
	}
}

// preloadEditor runs the editor's preload requests as the person, in
// parallel, and keeps the successful answers as api-fetch's preloading
// middleware expects them ({body, headers}; OPTIONS under "OPTIONS").
func (g *Gateway) preloadEditor(ctx context.Context, b *adminBootData) {
	base := adminPostTypes[b.PostType].base
	postPath := fmt.Sprintf("/cms/v2/%s/%d", base, b.PostID)
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	t := g.cfg.Routes.Current()
	var slug struct {
		Slug string `json:"slug"`
	}
	_ = json.Unmarshal(g.do(ctx, t, subRequest{Method: http.MethodGet, Route: postPath, Query: "context=edit&_fields=slug"}).Body, &slug)
	calls := editorPreloads(g.cfg.Site.Stylesheet(), postPath, b.PostType, slug.Slug)
	b.Paths["post"] = postPath + "?context=edit"
	b.Paths["autosaves"] = postPath + "/autosaves?context=edit"
	gsContext := "view"
	if identity.FromContext(ctx).Can("edit_theme_options") {
		gsContext = "edit"
	}
	g.runEditorPreloads(ctx, b, calls, gsContext)
}

// runEditorPreloads runs an editor's preloads (calls) as the person, with
// the theme's stylesheet beside them; the person's global styles post is
// named by the active theme's answer (its wp:user-global-styles link,
// WP_Theme_JSON_Resolver::get_user_global_styles_post_id): a second round,
// in gsContext. The answers go into b.Preload.
func (g *Gateway) runEditorPreloads(ctx context.Context, b *adminBootData, calls []preloadCall, gsContext string) {
	b.Paths["activeTheme"] = "/cms/v2/themes?context=edit&status=active"
	b.Paths["themeGlobalStyles"] = "/cms/v2/global-styles/themes/" + g.cfg.Site.Stylesheet() + "?context=view"
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); b.ThemeStyles = g.themeStylesheet(ctx) }()
	defer wg.Wait()
	results := g.runPreloads(ctx, calls)
	if id := userGlobalStylesID(results[b.Paths["activeTheme"]]); id != "" {
		more := g.runPreloads(ctx, []preloadCall{{http.MethodOptions, "/cms/v2/global-styles/" + id},
			{http.MethodGet, "/cms/v2/global-styles/" + id + "?context=" + gsContext}})
		for k, v := range more {
			results[k] = v
		}
	}
	b.storePreloads(results)
}

// storePreloads keeps the answers as api-fetch's preloading middleware
// expects them ({body, headers}; OPTIONS under "OPTIONS").
func (b *adminBootData) storePreloads(results map[string]rest.Result) {
	options := map[string]json.RawMessage{}
	for key, res := range results {
		entry, _ := json.Marshal(map[string]any{"body": res.Body, "headers": preloadHeaders(res.Header)})
		if method, p, ok := strings.Cut(key, " "); ok && method == http.MethodOptions {
			options[p] = entry
			continue
		}
		b.Preload[key] = entry
	}
	if len(options) > 0 {
		b.Preload[http.MethodOptions], _ = json.Marshal(options)
	}
}

// runPreloads answers the successful (200) calls by key: the path, or
// "OPTIONS path".
func (g *Gateway) runPreloads(ctx context.Context, calls []preloadCall) map[string]rest.Result {
	t := g.cfg.Routes.Current()
	out := map[string]rest.Result{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, c := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			route, query, _ := strings.Cut(c.path, "?")
			res := g.do(ctx, t, subRequest{Method: c.method, Route: rest.NormalizeRoute(route), Query: query})
			if res.Status != http.StatusOK || len(res.Body) == 0 {
				return
			}
			key := c.path
			if c.method == http.MethodOptions {
				key = http.MethodOptions + " " + c.path
			}
			mu.Lock()
			out[key] = res
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

func preloadHeaders(h http.Header) map[string]string {
	out := map[string]string{}
	for k, v := range h {
		out[rest.HeaderName(k)] = strings.Join(v, ", ")
	}
	return out
}

// userGlobalStylesID reads the id of the person's global styles post from
// the active theme's wp:user-global-styles link.
func userGlobalStylesID(res rest.Result) string {
	var themes []struct {
		Links map[string][]struct {
			Href string `json:"href"`
		} `json:"_links"`
	}
	if json.Unmarshal(res.Body, &themes) != nil || len(themes) == 0 {
		return ""
	}
	links := themes[0].Links["wp:user-global-styles"]
	if len(links) == 0 {
		return ""
	}
	id := links[0].Href[strings.LastIndex(links[0].Href, "/")+1:]
	if _, err := strconv.ParseInt(id, 10, 64); err != nil {
		return ""
	}
	return id
}

// themeStylesheet is the global styles CSS (theme.json's presets and
// styles) that the website prints in every page's head, as
// <style id="global-styles-inline-css">: what WordPress's editor settings
// carry from wp_get_global_stylesheet. It is read from the front page as
// an anonymous visitor sees it; "" when the website does not answer.
func (g *Gateway) themeStylesheet(ctx context.Context) string {
	b, site, ok := g.cfg.Routes.Current().MatchPublicSite("/")
	if !ok || !site {
		return ""
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "/", nil)
	if err != nil {
		return ""
	}
	page := &bufferedAnswer{header: http.Header{}}
	g.serveSite(page, req, b)
	const open = `<style id="global-styles-inline-css">`
	html := page.body.String()
	i := strings.Index(html, open)
	if page.status != http.StatusOK || i < 0 {
		return ""
	}
	css, _, ok := strings.Cut(html[i+len(open):], "</style>")
	if !ok {
		return ""
	}
	return css
}
