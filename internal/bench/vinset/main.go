// Command vinset writes the VIN sets of scripts/vpic-compare.sh: N VINs with the
// prefixes (positions 1-8, 10, 11) of the VINs in testdata/, new serials
// and a correct check digit, or with -powersports SNAPSHOT N VINs built from
// the snapshot's motorcycle, LSV and off-road Model patterns; the same list
// for a seed (docs/operations.md).
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/vds-dev/vds/internal/bench/vins"
)

func main() {
	n := flag.Int("n", 20000, "how many VINs")
	seed := flag.Uint64("seed", 1, "seed of the serial numbers")
	data := flag.String("data", "testdata", "the repository's test data directory")
	powersports := flag.String("powersports", "", "a vPIC snapshot (.db or .db.gz) whose powersports patterns make the VINs")
	flag.Parse()
	set, err := vinSet(*powersports, *data, *n, *seed)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vinset:", err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	for _, v := range set {
		fmt.Fprintln(w, v)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "vinset:", err)
		os.Exit(1)
	}
}

func vinSet(snapshot, data string, n int, seed uint64) ([]string, error) {
	if snapshot != "" {
		return vins.Powersports(context.Background(), snapshot, n, seed)
	}
	prefixes, err := vins.Prefixes(data)
	if err != nil {
		return nil, err
	}
	return vins.Generate(prefixes, n, seed), nil
}
