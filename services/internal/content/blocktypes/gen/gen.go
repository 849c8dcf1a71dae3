package main

import (
	"siteplane.dev/services/internal/platform/rest"

	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// tarballEnv names a WordPress tarball other than the peer's.
const tarballEnv = "SITEPLANE_WP_TARBALL"

// DefaultTarball is the WordPress 6.9.7 release the project's peer (and
// CI) unpacks: $SITEPLANE_WP_TARBALL, else shared/peers/... beside the
// repository (the directory holding go.work), as DESIGN.md's ../shared.
func DefaultTarball() string {
	if p := os.Getenv(tarballEnv); p != "" {
		return p
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return filepath.Join(dir, "..", "shared", "peers", "wordpress", "core", "wordpress-6.9.7.tar.gz")
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// source is what generation reads from the tarball.
type source struct {
	version string
	blocks  map[string][]byte // block folder → block.json
	dynamic []string          // require-dynamic-blocks.php, in order
	render  map[string]bool   // blocks/<folder>.php registers a render_callback
	// block-patterns.php, and block-patterns/<name>.php by name
	patternsPHP []byte
	patterns    map[string][]byte
	static      []string // require-static-blocks.php, in order
}

var (
	requireRe = regexp.MustCompile(`/blocks/([a-z0-9-]+)\.php'`)
	folderRe  = regexp.MustCompile(`(?m)^\s*'([a-z0-9-]+)',\s*$`)
	versionRe = regexp.MustCompile(`\$wp_version = '([^']+)'`)
)

func readTarball(name string) (*source, error) {
	f, err := os.Open(name) //nolint:gosec // the path is the operator's flag
	if err != nil {
		return nil, fmt.Errorf("open tarball: %w", err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("read tarball %s: %w", name, err)
	}
	src := &source{blocks: map[string][]byte{}, render: map[string]bool{}, patterns: map[string][]byte{}}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read tarball %s: %w", name, err)
		}
		if err := src.add(h.Name, tr); err != nil {
			return nil, err
		}
	}
	if len(src.blocks) == 0 || len(src.static) == 0 || len(src.dynamic) == 0 || src.version == "" {
		return nil, fmt.Errorf("%s holds no wp-includes/blocks of a WordPress release", name)
	}
	return src, nil
}

// add keeps the files generation needs.
func (s *source) add(name string, r io.Reader) error {
	const blocks = "wordpress/wp-includes/blocks/"
	const patterns = "wordpress/wp-includes/block-patterns/"
	read := func() ([]byte, error) {
		b, err := io.ReadAll(r)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", name, err)
		}
		return b, nil
	}
	switch {
	case name == "wordpress/wp-includes/version.php":
		b, err := read()
		if m := versionRe.FindSubmatch(b); m != nil {
			s.version = string(m[1])
		}
		return err
	case name == "wordpress/wp-includes/block-patterns.php":
		b, err := read()
		s.patternsPHP = b
		return err
	case strings.HasPrefix(name, patterns) && path.Ext(name) == ".php":
		b, err := read()
		s.patterns[strings.TrimSuffix(path.Base(name), ".php")] = b
		return err
	case name == blocks+"require-dynamic-blocks.php":
		b, err := read()
		for _, m := range requireRe.FindAllSubmatch(b, -1) {
			s.dynamic = append(s.dynamic, string(m[1]))
		}
		return err
	case name == blocks+"require-static-blocks.php":
		b, err := read()
		for _, m := range folderRe.FindAllSubmatch(b, -1) {
			s.static = append(s.static, string(m[1]))
		}
		return err
	case strings.HasPrefix(name, blocks) && path.Ext(name) == ".php" && !strings.Contains(strings.TrimPrefix(name, blocks), "/"):
		b, err := read()
		s.render[strings.TrimSuffix(path.Base(name), ".php")] = bytes.Contains(b, []byte("'render_callback'"))
		return err
	case strings.HasPrefix(name, blocks) && path.Base(name) == "block.json" && strings.Count(strings.TrimPrefix(name, blocks), "/") == 1:
		b, err := read()
		s.blocks[path.Dir(strings.TrimPrefix(name, blocks))] = b
		return err
	}
	return nil
}

// order is WordPress's registration order: the two widget blocks
// (blocks/index.php requires them first), the dynamic blocks as
// require-dynamic-blocks.php requires them, the static ones as
// require-static-blocks.php lists them, then any other folder by name.
func (s *source) order() []string {
	seen := map[string]bool{}
	var out []string
	add := func(f string) {
		if _, ok := s.blocks[f]; ok && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	for _, f := range append(append([]string{"legacy-widget", "widget-group"}, s.dynamic...), s.static...) {
		add(f)
	}
	var others []string
	for f := range s.blocks {
		if !seen[f] {
			others = append(others, f)
		}
	}
	sort.Strings(others)
	for _, f := range others {
		add(f)
	}
	return out
}

// GenerateFile reads the tarball and renders the data file.
func GenerateFile(tarball string) ([]byte, error) {
	src, err := readTarball(tarball)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "{\"wordpress\":%q,\"block_types\":[\n", src.version)
	for i, folder := range src.order() {
		meta, err := decodeOrdered(src.blocks[folder])
		if err != nil {
			return nil, fmt.Errorf("%s/block.json: %w", folder, err)
		}
		m, ok := meta.(object)
		if !ok {
			return nil, fmt.Errorf("%s/block.json is not an object", folder)
		}
		if i > 0 {
			buf.WriteString(",\n")
		}
		if err := writeValue(&buf, blockType(coreDefaults(m), src.render[folder])); err != nil {
			return nil, err
		}
	}
	// comments.php registers the legacy core/post-comments block last
	// (init, priority 21) from metadata written in PHP.
	legacy, err := decodeOrdered([]byte(legacyPostComments))
	if err != nil {
		return nil, err
	}
	buf.WriteString(",\n")
	if err := writeValue(&buf, blockType(legacy.(object), true)); err != nil {
		return nil, err
	}
	buf.WriteString("\n],\n\"pattern_categories\":")
	if err := writeValue(&buf, coreCategories(src.patternsPHP)); err != nil {
		return nil, err
	}
	patterns, err := corePatterns(src.patternsPHP, src.patterns)
	if err != nil {
		return nil, err
	}
	buf.WriteString(",\n\"patterns\":[\n")
	for i, p := range patterns {
		if i > 0 {
			buf.WriteString(",\n")
		}
		if err := writeValue(&buf, p); err != nil {
			return nil, err
		}
	}
	buf.WriteString("\n]}\n")
	return buf.Bytes(), nil
}

// coreDefaults is register_block_type_from_metadata's backfill of a core
// block's style and editorStyle, and register_block_style_handle's naming:
// a core block's first style handle is always wp-block-<name>(-editor).
func coreDefaults(m object) object {
	name, _ := get(m, "name").(string)
	short, ok := strings.CutPrefix(name, "core/")
	if !ok {
		return m
	}
	for field, handle := range map[string]string{"style": "wp-block-" + short, "editorStyle": "wp-block-" + short + "-editor"} {
		switch v := get(m, field).(type) {
		case []any:
			if len(v) > 0 {
				v[0] = handle
			}
		default:
			m = set(m, field, handle)
		}
	}
	return m
}

// set replaces key's value, or appends it.
func set(o object, key string, v any) object {
	for i := range o {
		if o[i].Key == key {
			o[i].Value = v
			return o
		}
	}
	return append(o, rest.Member{Key: key, Value: v})
}

// legacyPostComments is the metadata comments.php recreates for
// core/post-comments, in block.json's spelling.
const legacyPostComments = `{"name":"core/post-comments","category":"theme",
"attributes":{"textAlign":{"type":"string"}},
"usesContext":["postId","postType"],
"supports":{"html":false,"align":["wide","full"],
 "typography":{"fontSize":true,"lineHeight":true,"__experimentalFontStyle":true,"__experimentalFontWeight":true,
  "__experimentalLetterSpacing":true,"__experimentalTextTransform":true,"__experimentalDefaultControls":{"fontSize":true}},
 "color":{"gradients":true,"link":true,"__experimentalDefaultControls":{"background":true,"text":true}},
 "inserter":false},
"style":["wp-block-post-comments","wp-block-buttons","wp-block-button"]}`
