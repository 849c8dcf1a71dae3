<?php
/**
 * Title: No results
 * Slug: siteplane/hidden-no-results
 * Inserter: no
 * Template Types: search
 */
?>
<!-- wp:paragraph -->
<p>Nothing matched your search. Try other words.</p>
<!-- /wp:paragraph -->
