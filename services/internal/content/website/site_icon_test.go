package website

import "testing"

// get_site_icon_url's choice among an image's files, for the four sizes
// wp_site_icon() prints.
func TestSiteIconURL(t *testing.T) {
	square := ImageFile{Name: "full", URL: "full.png", Width: 512, Height: 512}
	thumb := ImageFile{Name: "thumbnail", URL: "thumb.png", Width: 150, Height: 150}
	medium := ImageFile{Name: "medium", URL: "medium.png", Width: 300, Height: 300}
	wide := ImageFile{Name: "full", URL: "wide.png", Width: 1200, Height: 600}
	wideMedium := ImageFile{Name: "medium", URL: "wide-medium.png", Width: 300, Height: 150}
	for _, tt := range []struct {
		name  string
		full  ImageFile
		sizes []ImageFile
		px    int
		want  string
	}{
		{"the smallest size big enough", square, []ImageFile{medium, thumb}, 32, "thumb.png"},
		{"past the thumbnail", square, []ImageFile{thumb, medium}, 192, "medium.png"},
		{"the tile", square, []ImageFile{thumb, medium}, 270, "medium.png"},
		{"none big enough: the original", square, []ImageFile{thumb, medium}, 400, "full.png"},
		{"512 and more: the original", square, []ImageFile{thumb, medium}, 512, "full.png"},
		{"an exact size", square, []ImageFile{{Name: "site_icon-32", URL: "32.png", Width: 32, Height: 32}, thumb}, 32, "32.png"},
		{"other proportions: a size of the image's proportions", wide, []ImageFile{wideMedium, thumb}, 32, "wide-medium.png"},
		{"other proportions, the thumbnail when no such size is big enough", wide, []ImageFile{thumb}, 100, "thumb.png"},
		{"other proportions, past the thumbnail: the original", wide, []ImageFile{wideMedium, thumb}, 192, "wide.png"},
		{"no sizes", square, nil, 32, "full.png"},
	} {
		if got := siteIconURL(tt.full, tt.sizes, tt.px); got != tt.want {
			t.Errorf("%s: %d px: %q, want %q", tt.name, tt.px, got, tt.want)
		}
	}
}
