// Package nhtsafiletest builds NHTSA recall flat files from NHTSA's captured
// recallsByVehicle answers (testdata/nhtsa-recalls), to NHTSA's layout.
package nhtsafiletest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
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
	return results(tb, fmt.Sprintf("jeep_wrangler_%d.json", year))
}

func results(tb testing.TB, name string) []map[string]any {
	tb.Helper()
	b, err := os.ReadFile(fixture.Path(tb, "nhtsa-recalls", name))
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

// componentSep is the API's bare comma between components ("SERVICE BRAKES, HYDRAULIC,STEERING").
var componentSep = regexp.MustCompile(`,([^ ]|$)`)

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

// CapturedComplaints is NHTSA's complaintsByVehicle answer for the Jeep
// Wrangler of year (upstreamtest.ComplaintYears): its results.
func CapturedComplaints(tb testing.TB, year int) []map[string]any {
	tb.Helper()
	return results(tb, fmt.Sprintf("complaints_jeep_wrangler_%d.json", year))
}

// ComplaintLines writes an API complaint about the year's Jeep Wrangler as the FLAT_CMPL lines NHTSA's
// 49-field layout gives it: one per component (the API joins them with a
// bare comma), dates YYYYMMDD (the API's are MM/DD/YYYY), Y/N flags.
func ComplaintLines(n, year int, r map[string]any) []string {
	s := func(k string) string { v, _ := r[k].(string); return flat.Replace(v) }
	yn := func(k string) string {
		if v, _ := r[k].(bool); v {
			return "Y"
		}
		return "N"
	}
	num := func(k string) string { v, _ := r[k].(float64); return fmt.Sprintf("%.0f", v) }
	date := func(k string) string {
		if d := strings.Split(s(k), "/"); len(d) == 3 {
			return d[2] + d[0] + d[1]
		}
		return ""
	}
	var lines []string
	for _, comp := range strings.Split(componentSep.ReplaceAllString(s("components"), "\x00$1"), "\x00") {
		f := make([]string, 49)
		f[0], f[1], f[2], f[3], f[4], f[5] = fmt.Sprint(n+len(lines)), num("odiNumber"), s("manufacturer"), "JEEP", "WRANGLER", fmt.Sprint(year)
		f[6], f[7], f[8], f[9], f[10], f[11] = yn("crash"), date("dateOfIncident"), yn("fire"), num("numberOfInjuries"), num("numberOfDeaths"), comp
		f[14], f[15], f[16], f[19], f[20] = s("vin"), date("dateComplaintFiled"), date("dateComplaintFiled"), s("summary"), "IVOQ"
		lines = append(lines, strings.Join(f, "\t"))
	}
	return lines
}

// ComplaintsFile writes the captured complaints as FLAT_CMPL.txt in dir.
func ComplaintsFile(tb testing.TB, dir string, years []int) string {
	tb.Helper()
	var lines []string
	for _, y := range years {
		for _, r := range CapturedComplaints(tb, y) {
			lines = append(lines, ComplaintLines(len(lines)+1, y, r)...)
		}
	}
	p := filepath.Join(dir, "FLAT_CMPL.txt")
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\r\n")+"\r\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}
