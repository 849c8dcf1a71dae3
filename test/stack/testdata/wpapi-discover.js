// Runs the real npm package wpapi against a site URL: WPAPI.discover finds
// the REST root from the page's Link header, then a discovered route is
// called. Prints one JSON line; exits non-zero on any failure.
//
// wpapi 1.2.2 cannot turn the templates route's pattern into its route tree
// (node-wpapi#503; it fails the same way against WordPress 5.9 and later):
// it logs the error and binds to the discovered endpoint with its default
// routes. The cms/v2 routes are therefore called through site.root().
const WPAPI = require('wpapi');

const siteURL = process.argv[2];
WPAPI.discover(siteURL)
  .then((site) => {
    const root = site._options.endpoint;
    return site.root('cms/v2/posts').param('per_page', 2).get().then((posts) => {
      console.log(JSON.stringify({ endpoint: root, posts: posts.length, first: posts[0] && posts[0].link }));
    });
  })
  .catch((err) => {
    console.error('wpapi discovery failed:', err && (err.stack || err.message || err));
    process.exit(1);
  });
