// Package nhtsafiletest builds NHTSA recall flat files from NHTSA's captured
// recallsByVehicle answers (testdata/nhtsa-recalls), to NHTSA's layout.
package nhtsafiletest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/fixture"
)

// Years are the captured answers for the Jeep Wrangler: 2020 has an
// over-the-air remedy and a park-outside advisory.
var Years = []int{2020, 2024}

// Captured is NHTSA's answer for the Jeep Wrangler of year: its results.
func Captured(tb testing.TB, year int) []map[string]any {
	tb.Helper()
	b, err := os.ReadFile(fixture.Path(tb, "nhtsa-recalls", fmt.Sprintf("jeep_wrangler_%d.json", year)))
	if err != nil {
		tb.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(b, &rows); err != nil {
		tb.Fatal(err)
	}
	return rows
}

// Line writes an API row as the FLAT_RCL line NHTSA's layout gives it: 29
// fields, dates YYYYMMDD (the API's are DD/MM/YYYY), and the tabs and line
// breaks a flat file cannot hold as spaces.
func Line(n int, r map[string]any) string {
	s := func(k string) string { v, _ := r[k].(string); return flat.Replace(v) }
	yn := func(k string) string {
		if v, _ := r[k].(bool); v {
			return "Yes"
		}
		return "No"
	}
	d := strings.Split(s("ReportReceivedDate"), "/")
	rcdate := d[2] + d[1] + d[0]
	f := []string{fmt.Sprint(n), s("NHTSACampaignNumber"), s("Make"), s("Model"), s("ModelYear"), "", s("Component"),
		strings.ToUpper(s("Manufacturer")), "", "", "V", "1000", "", "MFR", s("Manufacturer"), rcdate, rcdate, "", "",
		s("Summary"), s("Consequence"), s("Remedy"), s("Notes"), "", "", "", "", yn("parkIt"), yn("parkOutSide")}
	return strings.Join(f, "\t")
}

var flat = strings.NewReplacer("\t", " ", "\r", " ", "\n", " ")

// File writes the captures of Years as FLAT_RCL_POST_2010.txt in dir.
func File(tb testing.TB, dir string) string {
	tb.Helper()
	var lines []string
	for _, y := range Years {
		for _, r := range Captured(tb, y) {
			lines = append(lines, Line(len(lines)+1, r))
		}
	}
	p := filepath.Join(dir, "FLAT_RCL_POST_2010.txt")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\r\n")+"\r\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}
