// Command gen writes blocktypes.json, the block types the cms/v2
// block-types routes answer, from the block.json files of a WordPress
// release tarball, as WordPress 6.9 registers them (the attributes its
// block supports add, the registration order, the REST field order).
//
//	go run ./services/internal/content/blocktypes/gen -tarball wordpress-6.9.7.tar.gz -o services/internal/content/blocktypes/blocktypes.json
//
// gen_test.go runs the same generation and fails when the checked-in file
// differs, as `make verify` does for the CRDs.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	tarball := flag.String("tarball", DefaultTarball(), "WordPress release tarball (.tar.gz)")
	out := flag.String("o", "blocktypes.json", "output file")
	flag.Parse()
	data, err := GenerateFile(*tarball)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, data, 0o644); err != nil { //nolint:gosec // a checked-in data file, world-readable like the rest of the tree
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
