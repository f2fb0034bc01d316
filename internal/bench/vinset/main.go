// Command vinset writes the VIN set of scripts/vpic-compare.sh: N VINs with the
// prefixes (positions 1-8, 10, 11) of the VINs in testdata/, new serials
// and a correct check digit, the same list for a seed (docs/operations.md).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/vds-dev/vds/internal/bench/vins"
)

func main() {
	n := flag.Int("n", 20000, "how many VINs")
	seed := flag.Uint64("seed", 1, "seed of the serial numbers")
	data := flag.String("data", "testdata", "the repository's test data directory")
	flag.Parse()
	prefixes, err := vins.Prefixes(*data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vinset:", err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	for _, v := range vins.Generate(prefixes, *n, *seed) {
		fmt.Fprintln(w, v)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "vinset:", err)
		os.Exit(1)
	}
}
