package theme

import (
	"strings"
	"testing"
)

// The static PHP subset renders what published themes' patterns write, and
// refuses everything else (the pattern is then left out, never shown with
// its PHP as text).
func TestRenderPHP(t *testing.T) {
	const uri = "http://example.test/cms-content/themes/t"
	cases := []struct {
		name, src, want string
		refused         bool
	}{
		{name: "echo esc_html_x", src: `<h1><?php echo esc_html_x( '404', 'Error code', 'tt' ); ?></h1>`, want: `<h1>404</h1>`},
		{name: "esc_html_e escapes", src: `<p><?php esc_html_e( 'Fish & <chips> "x"', 'tt' ); ?></p>`, want: `<p>Fish &amp; &lt;chips&gt; &quot;x&quot;</p>`},
		{name: "no double encoding", src: `<?php esc_html_e( 'a &amp; b &#8217; c', 'tt' ); ?>`, want: `a &amp; b &#8217; c`},
		{name: "esc_attr_e in a block comment", src: `<!-- wp:search {"buttonText":"<?php esc_attr_e( 'Search', 'tt' ); ?>"} /-->`, want: `<!-- wp:search {"buttonText":"Search"} /-->`},
		{name: "_e and __ untouched", src: `<?php _e( 'It\'s <b>', 'tt' ); echo __( "Tab\there", 'tt' ); ?>`, want: "It's <b>Tab\there"},
		{name: "printf with escaped link", src: "<?php\nprintf(\n\t/* Translators: WordPress link. */\n\tesc_html__( 'Proudly powered by %s', 'tt' ),\n\t'<a href=\"' . esc_url( __( 'https://wordpress.org', 'tt' ) ) . '\" rel=\"nofollow\">WordPress</a>'\n)\n?>",
			want: `Proudly powered by <a href="https://wordpress.org" rel="nofollow">WordPress</a>`},
		{name: "numbered sprintf", src: `<?php echo sprintf( '%2$s, %1$s %%', 'a', 'b' ); ?>`, want: `b, a %`},
		{name: "theme uri", src: `<img src="<?php echo esc_url( get_template_directory_uri() ); ?>/assets/a.png" /><?php echo get_theme_file_uri( '/b.png' ); ?>`,
			want: `<img src="` + uri + `/assets/a.png" />` + uri + `/b.png`},
		{name: "esc_url drops javascript", src: `<a href="<?php echo esc_url( 'javascript:alert(1)' ); ?>">`, want: `<a href="">`},
		{name: "short echo", src: `<?= esc_html( 'x' ) ?>`, want: `x`},
		{name: "kses post kept", src: `<?php echo wp_kses_post( __( '<em>Hi</em>', 'tt' ) ); ?>`, want: `<em>Hi</em>`},
		{name: "variable", src: `<?php echo $x; ?>`, refused: true},
		{name: "control flow", src: `<?php if ( is_user_logged_in() ) : ?>x<?php endif; ?>`, refused: true},
		{name: "unknown function", src: `<?php echo get_bloginfo( 'name' ); ?>`, refused: true},
		{name: "interpolation", src: `<?php echo "a $b"; ?>`, refused: true},
		{name: "system call", src: `<?php system( 'id' ); ?>`, refused: true},
		{name: "too few printf args", src: `<?php printf( '%s %s', 'a' ); ?>`, refused: true},
		{name: "unterminated string", src: `<?php echo 'x ?>`, refused: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := renderPHP(c.src, uri)
			if c.refused {
				if err == nil || !strings.Contains(err.Error(), "needs general PHP") {
					t.Fatalf("rendered %q, err %v; want refused", got, err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}
