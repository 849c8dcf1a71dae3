-- Term reads that do not grow with the site (docs/performance.md#terms).
--
-- A term's count is read from term_post_counts (0201) since this release,
-- so no index is needed for it; what is left are the terms table's own
-- lookups, which had no index but its primary key and scanned every term
-- (a site with thousands of tags):
-- * by slug in a taxonomy: the website's category and tag archives and
--   feeds, the slug filter of the REST collections;
-- * by parent: whether an archive's term has children (a category without
--   any is read through the one-term listing index, as categories=N is),
--   and the children a deleted term leaves to its parent;
-- * by name in a taxonomy: the default order of the term collections
--   (orderby=name, lower(name) then id) and the duplicate-name check.
CREATE INDEX terms_taxonomy_slug ON terms (taxonomy, slug);
CREATE INDEX terms_parent ON terms (parent) WHERE parent <> 0;
CREATE INDEX terms_taxonomy_name ON terms (taxonomy, lower(name), id);
