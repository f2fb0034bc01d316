package vin

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/fixture"
)

// vector is one VIN with a known decode from testdata/vin-test-vectors.
type vector struct {
	where string // file:line, for messages
	vin   string
	year  int
	make  string
	// passenger is true when the file holds passenger vehicles (cars,
	// MPVs, light trucks), to which the position-7 model-year rule applies.
	passenger bool
}

// TestVectors decodes every VIN in the test vectors and holds the
// check digit and model-year logic against their known decodes.
func TestVectors(t *testing.T) {
	dir := fixture.Path(t, "vin-test-vectors")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var all []vector
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		var vs []vector
		switch filepath.Ext(e.Name()) {
		case ".csv":
			vs, err = readCSVVectors(path)
		case ".yaml", ".yml":
			vs, err = readYAMLVectors(path)
		default:
			// A new format must be read too, not silently left out.
			t.Errorf("%s: unknown test-vector format", e.Name())
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		if len(vs) == 0 {
			t.Errorf("%s: no VINs", e.Name())
		}
		t.Logf("%s: %d VINs", e.Name(), len(vs))
		all = append(all, vs...)
	}

	unique := map[string]bool{}
	var checked, ruleChecked, ordered, notFirst int
	for _, v := range all {
		unique[v.vin] = true
		d, err := Decode(v.vin)
		if err != nil {
			t.Errorf("%s: Decode(%s): %v", v.where, v.vin, err)
			continue
		}
		checked++

		// These are all vehicles decoded by NHTSA vPIC, sold in the
		// United States, which must carry a valid check digit whatever
		// their WMI; so a mismatch is a bug here, advisory or not.
		if !d.CheckDigit.Valid {
			t.Errorf("%s: %s check digit: expected %s, found %s", v.where, v.vin, d.CheckDigit.Expected, d.CheckDigit.Found)
		}
		// North American WMIs start with 1–5, or with 7 outside New
		// Zealand's 7A–7E.
		northAmerican := strings.ContainsRune("12345", rune(v.vin[0])) ||
			(v.vin[0] == '7' && !strings.ContainsRune("ABCDE", rune(v.vin[1])))
		if want := !northAmerican; d.CheckDigit.Advisory != want {
			t.Errorf("%s: %s advisory = %v, want %v", v.where, v.vin, d.CheckDigit.Advisory, want)
		}
		if d.Country == "" {
			t.Errorf("%s: %s (%s): no country for WMI %s", v.where, v.vin, v.make, d.WMI)
		}

		if !slices.Contains(d.ModelYears, v.year) {
			t.Errorf("%s: %s: model year %d not among the candidates %v", v.where, v.vin, v.year, d.ModelYears)
			continue
		}
		if d.ModelYears[0] != v.year {
			if v.passenger {
				t.Errorf("%s: %s (%s): model year %d, but the position-7 rule puts %v first",
					v.where, v.vin, v.make, v.year, d.ModelYears)
			} else {
				notFirst++
				t.Logf("%s: %s (%s, not a passenger vehicle): model year %d is not first in %v",
					v.where, v.vin, v.make, v.year, d.ModelYears)
			}
		}
		if v.passenger {
			ruleChecked++
			if len(d.ModelYears) > 1 {
				ordered++
			}
		}
	}
	t.Logf("checked %d VINs (%d distinct): check digit and model year candidates for all, "+
		"position-7 order for %d passenger vehicles (%d with two candidates); %d others had their year second",
		checked, len(unique), ruleChecked, ordered, notFirst)
	if checked == 0 {
		t.Error("no VIN checked")
	}
}

// readCSVVectors reads a CSV with a header naming a "vin" column, a model
// year column ("model_year" or "expected_year") and a make column ("make" or
// "expected_make").
func readCSVVectors(path string) ([]vector, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	header, err := r.Read()
	if err != nil {
		return nil, err
	}
	col := func(names ...string) int {
		for i, h := range header {
			if slices.Contains(names, strings.TrimSpace(h)) {
				return i
			}
		}
		return -1
	}
	vinCol, yearCol, makeCol := col("vin"), col("model_year", "expected_year"), col("make", "expected_make")
	if vinCol < 0 || yearCol < 0 || makeCol < 0 {
		return nil, fmt.Errorf("header %v lacks a vin, model year or make column", header)
	}
	var vs []vector
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		line, _ := r.FieldPos(0)
		year, err := strconv.Atoi(rec[yearCol])
		if err != nil {
			return nil, fmt.Errorf("line %d: model year: %v", line, err)
		}
		vs = append(vs, vector{
			where: fmt.Sprintf("%s:%d", filepath.Base(path), line),
			vin:   rec[vinCol], year: year, make: rec[makeCol],
			// Both CSVs hold cars and light trucks.
			passenger: true,
		})
	}
	return vs, nil
}

// readYAMLVectors reads the small YAML subset of the davidpeckham/vin test
// files: one top-level key holding a list of flat maps of scalars:
//
//	test_decode:
//	  - vin: JH4DC4340RS003205
//	    model_year: 1994
//	    make: Acura
//
// Anything else is an error, so that a change of shape is noticed rather
// than read wrongly.
func readYAMLVectors(path string) ([]vector, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// The file name says what the vehicles are: only cars follow the
	// position-7 rule.
	passenger := !strings.Contains(filepath.Base(path), "motorcycle")

	var items []map[string]string
	var lines []int
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		raw := sc.Text()
		text := strings.TrimSpace(raw)
		switch {
		case text == "" || strings.HasPrefix(text, "#"):
			continue
		case !strings.HasPrefix(raw, " "):
			if !strings.HasSuffix(text, ":") {
				return nil, fmt.Errorf("line %d: want a top-level key, got %q", n, raw)
			}
			continue
		case strings.HasPrefix(text, "- "):
			items = append(items, map[string]string{})
			lines = append(lines, n)
			text = strings.TrimPrefix(text, "- ")
		}
		if len(items) == 0 {
			return nil, fmt.Errorf("line %d: a key outside a list item", n)
		}
		k, val, ok := strings.Cut(text, ":")
		if !ok {
			return nil, fmt.Errorf("line %d: want key: value, got %q", n, raw)
		}
		items[len(items)-1][strings.TrimSpace(k)] = unquote(strings.TrimSpace(val))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}

	vs := make([]vector, 0, len(items))
	for i, it := range items {
		year, err := strconv.Atoi(it["model_year"])
		if err != nil {
			return nil, fmt.Errorf("line %d: model_year: %v", lines[i], err)
		}
		if it["vin"] == "" {
			return nil, fmt.Errorf("line %d: no vin", lines[i])
		}
		vs = append(vs, vector{
			where: fmt.Sprintf("%s:%d", filepath.Base(path), lines[i]),
			vin:   it["vin"], year: year, make: it["make"], passenger: passenger,
		})
	}
	return vs, nil
}

// unquote strips the quotes of a quoted YAML scalar.
func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}
