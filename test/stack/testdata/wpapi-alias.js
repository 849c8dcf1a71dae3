// Drives the real npm package wpapi through the wp/v2 alias and through
// cms/v2 (docs/api.md#the-wpv2-alias). Prints one JSON line; exits non-zero
// on any failure.
//
// - Through the alias, wpapi is used unmodified: its bundled wp/v2 routes
//   (wp.posts()) against the /wp-json/ root.
// - Through cms/v2, a wpapi user registers the routes it calls with
//   registerRoute (wpapi cannot bootstrap from the index: the templates
//   route's pattern breaks its parser, as it does against WordPress).
const WPAPI = require('wpapi');

const siteURL = process.argv[2];
const alias = new WPAPI({ endpoint: siteURL + '/wp-json' });
const cms = new WPAPI({ endpoint: siteURL + '/cms-json' });
cms.cmsPosts = cms.registerRoute('cms/v2', '/posts/(?P<id>[\\d]+)');

const first = (posts) => posts[0] && { id: posts[0].id, self: posts[0]._links.self[0].href, collection: posts[0]._links.collection[0].href };

Promise.all([
  alias.posts().perPage(2).get(),
  cms.cmsPosts().perPage(2).get(),
])
  .then(([a, c]) => alias.posts().id(a[0].id).get().then((one) => {
    console.log(JSON.stringify({ alias: first(a), cms: first(c), aliasOne: one.id, aliasTotal: a._paging && a._paging.total }));
  }))
  .catch((err) => {
    console.error('wpapi failed:', err && (err.stack || err.message || JSON.stringify(err)));
    process.exit(1);
  });
