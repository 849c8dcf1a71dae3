package store

import "strconv"

// Links are the permalinks and REST addresses of posts and terms on one
// site: the REST handlers' link fields and the website's pages both ask
// here, so the two front ends cannot disagree on a URL.
type Links struct {
	SiteURL  string // the site's URL, no trailing slash
	RESTRoot string // SiteURL + "/cms-json"
}

// NewLinks returns the links of the site at siteURL.
func NewLinks(siteURL string) Links { return Links{SiteURL: siteURL, RESTRoot: siteURL + "/cms-json"} }

// PostREST is the REST address of post id of type pt.
func (l Links) PostREST(pt *PostType, id int64) string {
	return l.RESTRoot + "/cms/v2/" + pt.Base + "/" + strconv.FormatInt(id, 10)
}

// Post is the post's permalink: /slug/ once published, ?p=/?page_id= before.
func (l Links) Post(pt *PostType, p *Post) string {
	if pt.Public && (p.Status == "publish" || p.Status == "private") && p.Slug != "" {
		if p.AncestorPath != "" {
			return l.SiteURL + "/" + p.AncestorPath + "/" + p.Slug + "/"
		}
		return l.SiteURL + "/" + p.Slug + "/"
	}
	return l.GUID(pt, p)
}

// GUID is the post's guid: its plain (query) permalink.
func (l Links) GUID(pt *PostType, p *Post) string {
	id := strconv.FormatInt(p.ID, 10)
	switch pt {
	case TypePage:
		return l.SiteURL + "/?page_id=" + id
	case TypePost:
		return l.SiteURL + "/?p=" + id
	}
	return l.SiteURL + "/?post_type=" + pt.Name + "&p=" + id
}

// RevisionGUID is a revision's (or autosave's) guid: WordPress stores the
// revision's own permalink, ?p=<id>, whatever the parent's type.
func (l Links) RevisionGUID(id int64) string {
	return l.SiteURL + "/?p=" + strconv.FormatInt(id, 10)
}

// PermalinkTemplate is the permalink_template of posts of type pt.
func (l Links) PermalinkTemplate(pt *PostType) string {
	if pt == TypePage {
		return l.SiteURL + "/%pagename%/"
	}
	return l.SiteURL + "/%postname%/"
}

// Term is the term's archive URL.
func (l Links) Term(tax *Taxonomy, t *Term) string {
	switch tax {
	case Category:
		return l.SiteURL + "/category/" + t.Slug + "/"
	case Tag:
		return l.SiteURL + "/tag/" + t.Slug + "/"
	}
	return l.SiteURL + "/?taxonomy=" + tax.Name + "&term=" + t.Slug
}
