package epa_test

// An independent second opinion on the demo catalog's EPA pins.
//
// The demo cars ship fuel-economy figures taken from the EPA row vds pinned
// for each car (epa_id). An outside reviewer will recompute each car's best
// EPA row on their own and expect to agree on at least 98% of the cars. This
// test is that reviewer: it was designed from the EPA file and the demo cars
// alone, without reading package epa's matcher, and calls nothing in package
// epa. Only the standard library and the embedded demo files are used, so a
// bug in vds's matcher cannot leak into the ruler that grades it.

import (
	"archive/zip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/vds-dev/vds/internal/catalog/demo"
	"github.com/vds-dev/vds/internal/fixture"
)

// indepMinAgreement is the share of demo cars whose shipped figures must
// agree with the independent pick: the outside reviewer's bar.
const indepMinAgreement = 0.98

// epaRow is the part of one EPA row the independent scorer looks at.
type epaRow struct {
	id, year                 int
	make, model, baseModel   string
	trany, drive, vclass     string
	displ                    float64
	cylinders                int
	atv, engDscr, fuelType   string
	tCharger, sCharger       string
	city, hwy, comb, rangeMi int
	class                    string // our fuel class, in the demo vocabulary
}

func (r *epaRow) figures() [4]int { return [4]int{r.city, r.hwy, r.comb, r.rangeMi} }

func (r *epaRow) String() string {
	if r == nil {
		return "(none)"
	}
	return fmt.Sprintf("#%d %q %s, %s, %.1fL/%dcyl, %s [%s] city/hwy/comb/range %d/%d/%d/%d",
		r.id, r.model, r.trany, r.drive, r.displ, r.cylinders, r.vclass, r.class, r.city, r.hwy, r.comb, r.rangeMi)
}

// demoCar is one row of the embedded cars.csv.
type demoCar struct {
	make, model, trim, body, fuel, drive, trany string
	year, cylinders                             int
	displ                                       float64 // 0 when not stated
	pin                                         int     // epa_id, 0 when empty
	figures                                     [4]int  // shipped city/hwy/comb/range
	rim                                         int     // primary wheel diameter, 0 when unknown
	altRims                                     []int
}

func (c *demoCar) String() string {
	d := ""
	if c.displ > 0 {
		d = fmt.Sprintf(", %.1fL/%dcyl", c.displ, c.cylinders)
	}
	w := ""
	if c.rim > 0 {
		w = fmt.Sprintf(", %d in wheels", c.rim)
	}
	return fmt.Sprintf("%d %s %s %q (%s, %s, %s, %s%s%s)", c.year, c.make, c.model, c.trim, c.body, c.fuel, c.drive, c.trany, d, w)
}

func TestIndependentEPAPins(t *testing.T) {
	cars := indepCars(t)
	years, makes, pins := map[int]bool{}, map[string]bool{}, map[int]bool{}
	for _, c := range cars {
		years[c.year] = true
		makes[fold(c.make)] = true
		if c.pin != 0 {
			pins[c.pin] = true
		}
	}
	byID, pool := indepEPARows(t, years, makes, pins)

	var sameID, sameFig, either, badShip int
	var figLines, idLines, tieLines []string
	for i := range cars {
		c := &cars[i]
		pick, tied := bestRow(c, pool[poolKey{c.year, fold(c.make)}])
		pinned := byID[c.pin]
		if pinned != nil && c.figures != pinned.figures() {
			badShip++
			t.Errorf("%s: shipped figures %v differ from pinned row %s", c, c.figures, pinned)
		}
		if pick == nil && c.pin == 0 {
			continue
		}
		either++
		switch {
		case pick != nil && pick.id == c.pin:
			sameID++
			sameFig++
		case pick != nil && pick.figures() == c.figures:
			sameFig++
			idLines = append(idLines, fmt.Sprintf("%s\n\tpin  %s\n\tpick %s", c, pinned, pick))
		default:
			line := fmt.Sprintf("%s\n\tpin  %s (our score %.1f)\n\tpick %s (our score %.1f)",
				c, pinned, scoreOrNaN(c, pinned), pick, scoreOrNaN(c, pick))
			if len(tied) > 0 {
				line += "\n\ttied " + strings.Join(tied, "\n\t     ")
			}
			figLines = append(figLines, line)
		}
		if pick != nil && len(tied) > 0 && pick.id == c.pin {
			tieLines = append(tieLines, fmt.Sprintf("%s\n\tpin  %s\n\ttied %s", c, pinned, strings.Join(tied, "\n\t     ")))
		}
	}

	n := len(cars)
	t.Logf("independent EPA check over %d demo cars (%d where either side found a row):", n, either)
	t.Logf("  same EPA id:       %d/%d (%.1f%%), %d/%d over found", sameID, n, pct(sameID, n), sameID, either)
	t.Logf("  same figures:      %d/%d (%.1f%%), %d/%d over found", sameFig, n, pct(sameFig, n), sameFig, either)
	t.Logf("  of the same-id agreements, %d rest only on tie order (equal score, other figures): see tie lines", len(tieLines))
	t.Logf("  shipped != pinned: %d", badShip)
	for _, l := range idLines {
		t.Logf("other id, same figures: %s", l)
	}
	for _, l := range tieLines {
		t.Logf("tie, pin kept by id order: %s", l)
	}
	for _, l := range figLines {
		t.Logf("DISAGREE: %s", l)
	}
	if n == 0 || float64(sameFig)/float64(n) < indepMinAgreement {
		t.Errorf("figure agreement %d/%d (%.1f%%) is below the reviewer's %.0f%% bar; see DISAGREE lines",
			sameFig, n, pct(sameFig, n), 100*indepMinAgreement)
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

func scoreOrNaN(c *demoCar, r *epaRow) float64 {
	if r == nil || r.year != c.year || fold(r.make) != fold(c.make) || !inFamily(c, r) {
		return math.NaN()
	}
	s, ok := score(c, r)
	if !ok {
		return math.NaN()
	}
	return s
}

// --- reading -----------------------------------------------------------------

type poolKey struct {
	year int
	make string
}

// indepEPARows reads the zip once and keeps the rows of the demo's years and
// makes, plus every pinned row wherever it is.
func indepEPARows(t *testing.T, years map[int]bool, makes map[string]bool, pins map[int]bool) (map[int]*epaRow, map[poolKey][]*epaRow) {
	t.Helper()
	abs := fixture.EPAZip(t)
	zr, err := zip.OpenReader(abs)
	if err != nil {
		t.Fatalf("open %s: %v", abs, err)
	}
	defer zr.Close()
	var f *zip.File
	for _, m := range zr.File {
		if m.Name == "vehicles.csv" {
			f = m
		}
	}
	if f == nil {
		t.Fatalf("%s has no member vehicles.csv", abs)
	}
	rc, err := f.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	r := csv.NewReader(rc)
	r.FieldsPerRecord = -1
	r.ReuseRecord = true
	head, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimPrefix(h, "\ufeff")] = i
	}
	need := []string{"id", "year", "make", "model", "baseModel", "trany", "drive", "VClass", "displ", "cylinders",
		"atvType", "eng_dscr", "fuelType", "tCharger", "sCharger", "city08", "highway08", "comb08", "range"}
	for _, h := range need {
		if _, ok := col[h]; !ok {
			t.Fatalf("%s: vehicles.csv lacks column %q", abs, h)
		}
	}
	get := func(rec []string, h string) string {
		if i := col[h]; i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	atoi := func(s string) int { n, _ := strconv.Atoi(s); return n }
	byID := map[int]*epaRow{}
	pool := map[poolKey][]*epaRow{}
	rows := 0
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", abs, err)
		}
		rows++
		id, year, mk := atoi(get(rec, "id")), atoi(get(rec, "year")), get(rec, "make")
		keep := years[year] && makes[fold(mk)]
		if !keep && !pins[id] {
			continue
		}
		displ, _ := strconv.ParseFloat(get(rec, "displ"), 64)
		row := &epaRow{
			id: id, year: year, make: mk,
			model: get(rec, "model"), baseModel: get(rec, "baseModel"),
			trany: get(rec, "trany"), drive: get(rec, "drive"), vclass: get(rec, "VClass"),
			displ: displ, cylinders: atoi(get(rec, "cylinders")),
			atv: get(rec, "atvType"), engDscr: get(rec, "eng_dscr"), fuelType: get(rec, "fuelType"),
			tCharger: get(rec, "tCharger"), sCharger: get(rec, "sCharger"),
			city: atoi(get(rec, "city08")), hwy: atoi(get(rec, "highway08")),
			comb: atoi(get(rec, "comb08")), rangeMi: atoi(get(rec, "range")),
		}
		row.class = fuelClass(row)
		byID[id] = row
		if keep {
			k := poolKey{year, fold(mk)}
			pool[k] = append(pool[k], row)
		}
	}
	if rows < 40000 {
		t.Fatalf("%s: only %d rows; expected the full export (49,582)", abs, rows)
	}
	return byID, pool
}

func indepCars(t *testing.T) []demoCar {
	t.Helper()
	cars := readDemoCSV(t, "cars.csv")
	tires := readDemoCSV(t, "tire_sizes.csv")
	atoi := func(s string) int { n, _ := strconv.Atoi(strings.TrimSpace(s)); return n }
	var out []demoCar
	for _, m := range cars {
		displ, _ := strconv.ParseFloat(m["displacement_l"], 64)
		c := demoCar{
			make: m["make"], model: m["model"], trim: m["trim"], body: m["body"],
			fuel: m["fuel_type"], drive: m["drive_type"], trany: m["transmission"],
			year: atoi(m["year"]), cylinders: atoi(m["cylinders"]), displ: displ, pin: atoi(m["epa_id"]),
			figures: [4]int{atoi(m["mpg_city"]), atoi(m["mpg_highway"]), atoi(m["mpg_combined"]), atoi(m["epa_range_miles"])},
		}
		c.rim, c.altRims = fitment(&c, tires)
		out = append(out, c)
	}
	if len(out) == 0 {
		t.Fatal("demo cars.csv is empty")
	}
	return out
}

func readDemoCSV(t *testing.T, name string) []map[string]string {
	t.Helper()
	f, err := demo.Files.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("demo %s: %v", name, err)
	}
	var out []map[string]string
	for _, rec := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = rec[i]
		}
		out = append(out, m)
	}
	return out
}

var rimRE = regexp.MustCompile(`R(\d{2})`)

func rimOf(size string) int {
	if m := rimRE.FindStringSubmatch(strings.ToUpper(size)); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}

// fitment finds the car's wheel size from its tire fitment: same make and
// model, the nearest year at most two away, and the same trim (one trim's
// name holding the other's words, "Adventure" and "Adventure 20in"). Another
// trim's wheels say nothing about this car's, so they are not used.
func fitment(c *demoCar, tires []map[string]string) (int, []int) {
	best, bestDist := map[string]string(nil), 3
	ct := trimTokens(c.trim)
	for _, m := range tires {
		if fold(m["make"]) != fold(c.make) || fold(m["model"]) != fold(c.model) {
			continue
		}
		if ft := trimTokens(m["trim"]); !containsAll(ft, ct) && !containsAll(ct, ft) {
			continue
		}
		y, _ := strconv.Atoi(m["year"])
		d := y - c.year
		if d < 0 {
			d = -d
		}
		if d < bestDist {
			best, bestDist = m, d
		}
	}
	if best == nil {
		return 0, nil
	}
	var alts []int
	for _, s := range strings.Split(best["alternate_sizes"], ";") {
		if r := rimOf(s); r > 0 {
			alts = append(alts, r)
		}
	}
	return rimOf(best["tire_size"]), alts
}

// --- the scorer ----------------------------------------------------------------

// fold keeps letters and digits, lower-cased: "F-150" and "F150" meet.
func fold(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// tokens splits on spaces and light punctuation and folds each piece.
func tokens(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("/(),;+", r)
	}) {
		if t := fold(f); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// trimTokens reads "Platinum+" as "platinum plus", as EPA writes it.
func trimTokens(s string) []string { return tokens(strings.ReplaceAll(s, "+", " plus ")) }

func containsAll(hay, needles []string) bool {
	for _, n := range needles {
		if !slices.Contains(hay, n) {
			return false
		}
	}
	return true
}

// fuelClass files an EPA row in the demo's fuel vocabulary. Mild hybrids
// (48V, eTorque, eAssist) are filed GASOLINE, as the demo does.
func fuelClass(r *epaRow) string {
	eng := strings.ToLower(r.engDscr)
	switch r.atv {
	case "EV":
		return "BATTERY ELECTRIC VEHICLE (BEV)"
	case "Plug-in Hybrid":
		return "PLUG-IN HYBRID ELECTRIC VEHICLE (PHEV)"
	case "FCV":
		return "FUEL CELL ELECTRIC VEHICLE (FCEV)"
	case "Diesel":
		return "DIESEL"
	case "FFV":
		return "FLEX FUEL (FFV)"
	case "Hybrid":
		if strings.Contains(eng, "mild") || strings.Contains(eng, "etorque") || strings.Contains(eng, "eassist") ||
			slices.Contains(tokens(r.model), "mhev") {
			return "GASOLINE"
		}
		return "HYBRID ELECTRIC VEHICLE (HEV)"
	case "":
		if r.fuelType == "Diesel" {
			return "DIESEL"
		}
		return "GASOLINE"
	}
	return "OTHER"
}

// inFamily: the EPA row is the car's model. EPA writes the marketed model
// either as baseModel (C-Class for "C300 4matic", 3 Series for "328d") or as
// words inside its model text (F150 Pickup 4WD, GR Corolla, Macan 4
// Electric). A row whose baseModel holds all the car's words but is a
// longer name is another family: Grand Cherokee is not a Cherokee, Prius
// Prime not a Prius.
func inFamily(c *demoCar, r *epaRow) bool {
	fam := fold(c.model)
	// baseModel may list several names: "Golf/GTI".
	bases := strings.Split(r.baseModel, "/")
	for _, b := range bases {
		if fold(b) == fam {
			return true
		}
	}
	ct := tokens(c.model)
	if !containsAll(tokens(r.model), ct) && !strings.HasPrefix(fold(r.model), fam) {
		return false
	}
	for _, b := range bases {
		if bt := tokens(b); containsAll(bt, ct) && len(bt) > len(ct) {
			return false
		}
	}
	return true
}

// bestRow scores every same-year, same-make row of the car's family and fuel
// and returns the best, with the equal-score rows that carry other figures.
func bestRow(c *demoCar, rows []*epaRow) (*epaRow, []string) {
	type cand struct {
		r *epaRow
		s float64
	}
	var cs []cand
	for _, r := range rows {
		if !inFamily(c, r) {
			continue
		}
		if s, ok := score(c, r); ok {
			cs = append(cs, cand{r, s})
		}
	}
	if len(cs) == 0 {
		return nil, nil
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].s != cs[j].s {
			return cs[i].s > cs[j].s
		}
		return cs[i].r.id < cs[j].r.id
	})
	var tied []string
	for _, x := range cs[1:] {
		if x.s < cs[0].s-1e-9 {
			break
		}
		if x.r.figures() != cs[0].r.figures() {
			tied = append(tied, x.r.String())
		}
	}
	return cs[0].r, tied
}

// Words in EPA's model text that the scorer reads elsewhere (drive, fuel,
// body, wheels) and that say nothing about the trim.
var noiseWords = map[string]bool{
	"2wd": true, "4wd": true, "awd": true, "fwd": true, "rwd": true, "4x4": true, "4x2": true, "ff": true,
	"4matic": true, "xdrive": true, "sdrive": true, "quattro": true, "all4": true, "e4orce": true, "4motion": true, "shawd": true,
	"hybrid": true, "hev": true, "phev": true, "plugin": true, "ffv": true, "ev": true, "bev": true, "electric": true,
	"energi": true, "ehybrid": true, "4xe": true, "mhev": true, "diesel": true, "tdi": true, "ecodiesel": true,
	"pickup": true, "van": true, "cab": true, "door": true, "doors": true, "passenger": true, "cargo": true,
	"inch": true, "wheels": true, "wheel": true, "in": true, "w": true, "with": true,
	"new": true,
}

var (
	// "(19 inch wheels)", "w/19 inch wheels", "(20in)", "21inch".
	wheelRE = regexp.MustCompile(`(?i)\b(\d{2})\s*-?\s*(?:inch|in\b|")`)
	// "ARIYA PLAT Plus e-4ORCE 87kWh 19": a bare rim size closing the text.
	trailingWheelRE = regexp.MustCompile(`\s(1[6-9]|2[0-3])$`)
	// "(11 kW Charger)": an option of the same car, not a trim.
	chargerRE = regexp.MustCompile(`(?i)\d+(\.\d+)?\s*kw\s*charger`)
	// "(85 kW-hr battery pack)": the capacity stays, the words go.
	batteryRE = regexp.MustCompile(`(?i)kw-?hr\s+battery\s+pack`)
	// "87kWh": a pack size, which the demo's trims do not state.
	kwhRE = regexp.MustCompile(`^\d+kwh$`)
	// A slash between two words of two or more letters lists trims.
	alternativesRE = regexp.MustCompile(`[\w+]{2,}/[\w+]{2,}`)
)

// bodyWord says which car body a word of EPA's model text names, if any;
// strong words name a body outright, weak ones only count doors.
func bodyWord(w string) (body string, strong bool) {
	switch w {
	case "coupe":
		return "Coupe", true
	case "2dr", "2door":
		return "Coupe", false
	case "convertible", "cabriolet", "roadster", "spyder", "spider":
		return "Convertible", true
	case "wagon", "sportwagen", "sportturismo":
		return "Wagon", true
	case "hatchback", "sportback":
		return "Hatchback", true
	case "5dr", "5door", "3doors", "hardtop":
		return "Hatchback", false
	case "sedan":
		return "Sedan", true
	case "4dr", "4door":
		return "Sedan", false
	}
	return "", false
}

var turboDisplRE = regexp.MustCompile(`^\d{2}t$`)

// turboTrim: the trim names a turbocharged engine ("2.0T Premium",
// "EcoBoost", "Turbo").
func turboTrim(words []string) bool {
	for _, w := range words {
		if w == "turbo" || w == "ecoboost" || w == "tsi" || w == "tfsi" || turboDisplRE.MatchString(w) {
			return true
		}
	}
	return false
}

// sameCodeFamily: a trim word and w are model codes that differ only in
// their digits ("xdrive45" and "xdrive40", "330i" and "328i").
func sameCodeFamily(trimWords []string, w string) bool {
	letters := func(s string) string {
		return strings.Map(func(r rune) rune {
			if unicode.IsDigit(r) {
				return -1
			}
			return r
		}, s)
	}
	lw := letters(w)
	if lw == w || len(w) < 3 {
		return false // no digits: not a code
	}
	for _, t := range trimWords {
		if t != w && letters(t) == lw && letters(t) != t {
			return true
		}
	}
	return false
}

func carBody(b string) bool {
	return b == "Sedan" || b == "Coupe" || b == "Hatchback" || b == "Convertible" || b == "Wagon"
}

// explains rates how well the car's trim accounts for one word of EPA's
// model text: 2 for the same word, 1 for a shortening or part of one
// ("PLAT" for Platinum, "90D" inside P90D), 0 for nothing.
func explains(trimWords []string, trimFold, w string) int {
	if slices.Contains(trimWords, w) {
		return 2
	}
	if len(w) >= 3 {
		if strings.Contains(trimFold, w) {
			return 1
		}
		for _, t := range trimWords {
			if strings.HasPrefix(t, w) {
				return 1
			}
		}
	}
	return 0
}

func vclassCategory(v string) string {
	switch {
	case strings.Contains(v, "Pickup"):
		return "Pickup"
	case strings.Contains(v, "Sport Utility"):
		return "SUV"
	case strings.Contains(v, "Minivan"):
		return "Minivan"
	case strings.Contains(v, "Vans"):
		return "Van"
	case strings.Contains(v, "Special Purpose"):
		return "Special"
	case strings.Contains(v, "Station Wagons"):
		return "Wagon"
	}
	return "Car"
}

func bodyScore(body, vclass string) float64 {
	cat := vclassCategory(vclass)
	switch body {
	case "SUV":
		switch cat {
		case "SUV":
			return 3
		case "Special", "Wagon":
			return 0
		}
	case "Pickup":
		switch cat {
		case "Pickup":
			return 3
		case "Special":
			return 0
		}
	case "Minivan", "Van":
		switch cat {
		case "Minivan", "Van":
			if (body == "Van") == (cat == "Van") {
				return 3
			}
			return 1
		case "Special":
			return 0
		}
	case "Wagon":
		switch cat {
		case "Wagon":
			return 3
		case "SUV", "Car":
			return 0
		}
	default: // Sedan, Coupe, Hatchback, Convertible
		switch cat {
		case "Car":
			return 3
		case "Wagon":
			return 0
		}
	}
	return -6
}

func epaDrive(d string) string {
	switch d {
	case "All-Wheel Drive":
		return "AWD"
	case "4-Wheel Drive", "Part-time 4-Wheel Drive", "4-Wheel or All-Wheel Drive":
		return "4WD"
	case "Front-Wheel Drive":
		return "FWD"
	case "Rear-Wheel Drive":
		return "RWD"
	case "2-Wheel Drive":
		return "2WD"
	}
	return ""
}

func driveScore(car, epa string) float64 {
	e := epaDrive(epa)
	switch {
	case car == e:
		return 8
	case (car == "AWD" || car == "4WD") && (e == "AWD" || e == "4WD"):
		return 3
	case (car == "FWD" || car == "RWD") && e == "2WD":
		return 3
	}
	return -10
}

var gearsRE = regexp.MustCompile(`(\d+)`)

// gearbox reads "Automatic (AM-S7)" as ("dct", 7), "Manual 6-spd" as
// ("manual", 6), "Automatic (AV-S6)" as ("cvt", 6).
func gearbox(s string) (string, int) {
	kind := "auto"
	switch {
	case strings.HasPrefix(s, "Manual"):
		kind = "manual"
	case strings.Contains(s, "variable") || strings.Contains(s, "(AV"):
		kind = "cvt"
	case strings.Contains(s, "(AM"):
		kind = "dct"
	}
	n := 0
	if m := gearsRE.FindString(s); m != "" {
		n, _ = strconv.Atoi(m)
	}
	return kind, n
}

func tranyScore(car, epa string) float64 {
	if car == epa {
		return 6
	}
	ck, cn := gearbox(car)
	ek, en := gearbox(epa)
	switch {
	case ck == "manual" || ek == "manual":
		if ck == ek {
			return -3 // other gear count
		}
		return -8
	case ck == "cvt" || ek == "cvt":
		if ck == ek {
			return 3
		}
		return -3
	case cn == en && ck == ek:
		return 4
	case cn == en:
		return 2
	}
	return -3
}

// score rates how well an EPA row of the car's family describes the car; ok
// is false when the fuel class rules the row out.
func score(c *demoCar, r *epaRow) (float64, bool) {
	s := 0.0
	if r.class != c.fuel {
		gasLike := func(f string) bool { return f == "GASOLINE" || f == "FLEX FUEL (FFV)" }
		if !gasLike(r.class) || !gasLike(c.fuel) {
			return 0, false
		}
		s -= 8
	}
	s += driveScore(c.drive, r.drive)
	s += tranyScore(c.trany, r.trany)
	if c.displ > 0 && r.displ > 0 {
		d := math.Abs(c.displ - r.displ)
		switch {
		case d < 0.05:
			s += 6
		case d < 0.15:
			s += 2
		default:
			s -= math.Min(10, 5+5*d)
		}
		if c.cylinders == r.cylinders {
			s += 3
		} else {
			s -= 3
		}
	} else if (c.displ > 0) != (r.displ > 0) {
		s -= 4
	}
	s += bodyScore(c.body, r.vclass)

	model := strings.TrimSpace(batteryRE.ReplaceAllString(chargerRE.ReplaceAllString(r.model, ""), ""))

	// Wheel size, when EPA names one in the model text.
	wheel := 0
	m := wheelRE.FindStringSubmatch(model)
	if m == nil {
		m = trailingWheelRE.FindStringSubmatch(model)
	}
	if m != nil {
		wheel, _ = strconv.Atoi(m[1])
		switch {
		case c.rim == 0:
		case c.rim == wheel:
			s += 2
		case slices.Contains(c.altRims, wheel):
		default:
			s -= 1
		}
	}

	// Model-text words beyond the family name: trim words the car states
	// count for the row, words it does not state count against it. EPA
	// joins trims that share a row with slashes ("Tacoma SR5/Sport/
	// Off-Road/Limited 4WD", "RAV4 Limited AWD/SE AWD"): there each
	// alternative is scored on its own and the best one counts. A slash
	// inside a name ("R/T") joins nothing.
	carWords := tokens(c.model)
	trimWords := trimTokens(c.trim)
	trimFold := strings.Join(trimWords, "")
	segments := []string{model}
	if alternativesRE.MatchString(model) {
		segments = strings.Split(model, "/")
	}
	bestWords := math.Inf(-1)
	for _, seg := range segments {
		ws := 0.0
		for _, w := range tokens(seg) {
			if slices.Contains(carWords, w) || (wheel > 0 && w == strconv.Itoa(wheel)) {
				continue
			}
			if b, strong := bodyWord(w); b != "" {
				switch {
				case b == c.body:
					ws += 3
				case carBody(c.body) || strong:
					ws -= 4
				}
				continue
			}
			if noiseWords[w] || kwhRE.MatchString(w) {
				continue
			}
			switch e := explains(trimWords, trimFold, w); {
			case e > 0:
				ws += 1.5 * float64(e)
			case sameCodeFamily(trimWords, w):
				ws -= 1.5 // xDrive40 for an xDrive45: the right kind, another number
			default:
				ws -= 3.5
			}
		}
		bestWords = max(bestWords, ws)
	}
	s += bestWords

	// Engine notes: a trim that names the engine variant EPA notes
	// ("Z06"), forced induction the trim names (EcoBoost, 2.0T), and
	// fleet-only calibrations a retail trim does not have.
	for _, w := range tokens(r.engDscr) {
		if len(w) >= 3 && slices.Contains(trimWords, w) {
			s += 3
		}
		if w == "municipal" || w == "police" || w == "fleet" {
			s -= 1.5
		}
	}
	if turboTrim(trimWords) {
		if r.tCharger != "" {
			s += 2
		} else {
			s -= 2
		}
	}
	if slices.Contains(trimWords, "supercharged") {
		if r.sCharger != "" {
			s += 2
		} else {
			s -= 2
		}
	}
	return s, true
}
