package store

import (
	"context"

	"siteplane.dev/services/internal/content/blocks"
)

// Media tells whether an attachment exists, for posts' featured_media.
// Attachments belong to the media service, whose schema content never
// reads: GatewayMedia asks through the gateway, AnyMedia accepts every id
// (tests, and runs without a gateway).
//
// WordPress passes a non-zero featured_media to set_post_thumbnail and
// ignores the result, so an id that is not an attachment is silently
// dropped: the post is stored, with featured_media 0. The same happens here.
// When the lookup itself fails (gateway or media down), the id is kept as
// given: a dangling thumbnail id is harmless, refusing or silently losing
// the author's choice is not.
//
// Images gives the website the public images of attachments (featured
// images), in one request for a whole page of posts.
type Media interface {
	Exists(ctx context.Context, id int64) (bool, error)
	Images(ctx context.Context, ids []int64) (map[int64]blocks.Image, error)
}

// AnyMedia accepts every id and knows no image.
type AnyMedia struct{}

// Exists implements Media.
func (AnyMedia) Exists(context.Context, int64) (bool, error) { return true, nil }

// Images implements Media.
func (AnyMedia) Images(context.Context, []int64) (map[int64]blocks.Image, error) { return nil, nil }
