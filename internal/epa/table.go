package epa

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/vds-dev/vds/internal/textcheck"
)

// MaxRows caps the rows of a vehicles.csv: EPA's has 49,582 (1984 on).
const MaxRows = 200_000

// MaxRecordBytes caps one CSV record: EPA's longest is 714 bytes.
const MaxRecordBytes = 16 << 10

// csvReadAhead is how far encoding/csv's bufio.Reader reads past a record.
const csvReadAhead = 4096

// Row is one EPA configuration; numbers empty or NA in the file are 0.
type Row struct {
	ID        int
	Year      int
	Make      string
	BaseModel string
	Model     string
	Drive     string
	FuelType  string
	FuelType1 string
	ATVType   string
	Trany     string
	Displ     float64
	Cylinders int
	// City08, Highway08 and Comb08 are MPG for fuelType1 (MPGe for EVs).
	City08         float64
	Highway08      float64
	Comb08         float64
	Range          int
	FuelCost08     int
	CO2TailpipeGpm float64
	// RangeA is the range on fuelType2: a plug-in hybrid's electric range.
	RangeA int
	// EngDscr is EPA's engine description ("SIDI; Mild Hybrid").
	EngDscr string
	// VClass is EPA's size class ("Midsize Cars", "Standard Pickup Trucks").
	VClass string
	// Passenger and luggage volumes EPA lists by body: two-door, four-door
	// and hatchback; which are non-zero tells the body of a car row.
	PV2, PV4, HPV, LV2, LV4, HLV int
}

// FormatError is a problem with the CSV or one cell of it.
type FormatError struct {
	File  string
	Line  int    // 0 when the problem is not on one line
	Field string // column name, "" for the CSV syntax or the whole row
	Err   error
}

func (e *FormatError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, ": field %s", e.Field)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	return b.String()
}

func (e *FormatError) Unwrap() error { return e.Err }

// Table is a parsed vehicles.csv indexed for matching; immutable, so Match is concurrency-safe.
type Table struct {
	Rows []Row

	file  string            // the name Parse was given
	lines []int             // parallel to Rows: the CSV line of each
	names map[string]string // column → its header as the file spells it

	facts      []rowFacts          // parallel to Rows: derived facts used when scoring
	byID       map[int]int         // EPA id → index in Rows
	byFamily   map[familyKey][]int // (make, baseModel, year) → indexes, ascending EPA id
	byMakeYear map[makeYearKey][]int
}

// rowFacts are a row's values in catalog terms, computed once for every Match.
type rowFacts struct {
	fuel   string    // catalog fuel constant, "" when the catalog has none
	drives driveMask // the catalog drives the EPA drive text stands for
	bodies bodyMask  // the catalog bodies the row says it is; 0 when it does not say
	named  bool      // bodies come from its words or class, not only its volumes
	words  []string  // of the model text
	wheel  int       // wheel diameter the model text names, in inches; 0 when none
	motors string    // "single", "dual", "tri" or "quad" when the model text says
	fleet  bool      // a Municipal or Police configuration
}

type familyKey struct {
	make, family string
	year         int
}

type makeYearKey struct {
	make string
	year int
}

// Len returns the number of rows.
func (t *Table) Len() int { return len(t.Rows) }

// Row returns the row with an EPA id.
func (t *Table) Row(id int) (Row, bool) {
	i, ok := t.byID[id]
	if !ok {
		return Row{}, false
	}
	return t.Rows[i], true
}

// Columns Parse reads; the required ones keep an HTML page or another CSV
// from loading as an empty table.
const (
	colID        = "id"
	colYear      = "year"
	colMake      = "make"
	colModel     = "model"
	colBaseModel = "basemodel"
	colDrive     = "drive"
	colFuelType  = "fueltype"
	colFuelType1 = "fueltype1"
	colATVType   = "atvtype"
	colTrany     = "trany"
	colDispl     = "displ"
	colCylinders = "cylinders"
	colCity      = "city08"
	colHighway   = "highway08"
	colComb      = "comb08"
	colRange     = "range"
	colFuelCost  = "fuelcost08"
	colCO2       = "co2tailpipegpm"
	colVClass    = "vclass"
	colEngDscr   = "eng_dscr"
	colRangeA    = "rangea"
	colPV2       = "pv2"
	colPV4       = "pv4"
	colHPV       = "hpv"
	colLV2       = "lv2"
	colLV4       = "lv4"
	colHLV       = "hlv"
)

var requiredColumns = []string{colID, colYear, colMake, colModel, colCity, colHighway, colComb}

var optionalColumns = []string{colBaseModel, colDrive, colFuelType, colFuelType1, colATVType, colTrany,
	colDispl, colCylinders, colRange, colFuelCost, colCO2, colRangeA, colEngDscr, colVClass, colPV2, colPV4, colHPV, colLV2, colLV4, colHLV}

// Parse reads vehicles.csv rows from r; name labels errors.
func Parse(ctx context.Context, r io.Reader, name string) (*Table, error) {
	rc := &recordCap{r: r, file: name, line: 1}
	cr := csv.NewReader(rc)
	cr.FieldsPerRecord = -1 // tolerate ragged rows; a short row reads as empty cells
	cr.ReuseRecord = true   // the cells are copied into Row strings anyway
	header, err := cr.Read()
	if err == io.EOF {
		return nil, &FormatError{File: name, Err: errors.New("empty file, want the EPA vehicles.csv")}
	}
	if err != nil {
		return nil, csvError(name, err)
	}
	rc.start = cr.InputOffset()
	cols := map[string]int{}
	headerNames := map[string]string{}
	for i, h := range header {
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff") // a BOM from a spreadsheet re-save
		}
		k := strings.ToLower(strings.TrimSpace(h))
		if _, dup := cols[k]; !dup {
			cols[k] = i
			headerNames[k] = strings.TrimSpace(h)
		}
	}
	var missing []string
	for _, c := range requiredColumns {
		if _, ok := cols[c]; !ok {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		return nil, &FormatError{File: name, Line: 1, Err: fmt.Errorf("not an EPA vehicles.csv: missing column(s) %s", strings.Join(missing, ", "))}
	}
	for _, c := range optionalColumns {
		if _, ok := cols[c]; !ok {
			cols[c] = -1
		}
	}

	t := &Table{byID: map[int]int{}, file: name, names: headerNames}
	intern := map[string]string{}
	firstLine := map[int]int{}
	for n := 0; ; n++ {
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		rc.start = cr.InputOffset()
		line, _ := cr.FieldPos(0)
		if len(t.Rows) == MaxRows {
			return nil, &FormatError{File: name, Line: line, Err: fmt.Errorf("more than %d rows; EPA's file has about 50,000", MaxRows)}
		}
		p := rowParser{rec: rec, cols: cols, names: headerNames, file: name, line: line, intern: intern}
		row := p.row()
		if p.err != nil {
			return nil, p.err
		}
		if first, dup := firstLine[row.ID]; dup {
			return nil, &FormatError{File: name, Line: line, Field: headerNames[colID], Err: fmt.Errorf("duplicate id %d (first on line %d)", row.ID, first)}
		}
		firstLine[row.ID] = line
		t.Rows = append(t.Rows, row)
		t.lines = append(t.lines, line)
	}
	if len(t.Rows) == 0 {
		return nil, &FormatError{File: name, Err: errors.New("no vehicle rows")}
	}
	t.index()
	return t, nil
}

func csvError(name string, err error) error {
	var fe *FormatError
	if errors.As(err, &fe) {
		return fe
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &FormatError{File: name, Line: pe.Line, Err: pe.Err}
	}
	return &FormatError{File: name, Err: err}
}

// recordCap fails a read taking the record being parsed past MaxRecordBytes:
// encoding/csv would hold a whole line.
type recordCap struct {
	r     io.Reader
	file  string
	line  int   // of the next byte
	read  int64 // bytes passed on
	start int64 // offset of the record being parsed
}

func (c *recordCap) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if c.read+int64(n)-c.start > MaxRecordBytes+csvReadAhead {
		return 0, &FormatError{File: c.file, Line: c.line, Err: fmt.Errorf("record longer than %d bytes; EPA's are under 1 KiB", MaxRecordBytes)}
	}
	c.read += int64(n)
	c.line += bytes.Count(p[:n], []byte{'\n'})
	return n, err
}

func (t *Table) index() {
	t.facts = make([]rowFacts, len(t.Rows))
	t.byFamily = map[familyKey][]int{}
	t.byMakeYear = map[makeYearKey][]int{}
	for i := range t.Rows {
		r := &t.Rows[i]
		t.byID[r.ID] = i
		w := words(r.Model)
		bodies, named := rowBodies(r, w)
		t.facts[i] = rowFacts{fuel: fuelClass(r), drives: epaDrives(r.Drive), bodies: bodies, named: named,
			words: w, wheel: wheelInches(r.Model), motors: motorWord(w), fleet: fleetRow(r.EngDscr)}
		mk := fold(r.Make)
		fk := familyKey{mk, fold(r.BaseModel), r.Year}
		t.byFamily[fk] = append(t.byFamily[fk], i)
		myk := makeYearKey{mk, r.Year}
		t.byMakeYear[myk] = append(t.byMakeYear[myk], i)
	}
	// Ascending EPA id in every bucket makes the documented tie-break hold.
	byID := func(idx []int) {
		sort.Slice(idx, func(a, b int) bool { return t.Rows[idx[a]].ID < t.Rows[idx[b]].ID })
	}
	for _, idx := range t.byFamily {
		byID(idx)
	}
	for _, idx := range t.byMakeYear {
		byID(idx)
	}
}

type rowParser struct {
	rec   []string
	cols  map[string]int
	names map[string]string
	file  string
	line  int
	err   error
	// intern keeps one copy of each text: a cell slice would pin its whole 400-byte line.
	intern map[string]string
}

func (p *rowParser) row() Row {
	r := Row{
		ID:             p.integer(colID, true),
		Year:           p.integer(colYear, true),
		Make:           p.text(colMake, true),
		Model:          p.text(colModel, false),
		BaseModel:      p.text(colBaseModel, false),
		Drive:          p.text(colDrive, false),
		FuelType:       p.text(colFuelType, false),
		FuelType1:      p.text(colFuelType1, false),
		ATVType:        p.text(colATVType, false),
		Trany:          p.text(colTrany, false),
		Displ:          p.number(colDispl),
		Cylinders:      p.integer(colCylinders, false),
		City08:         p.number(colCity),
		Highway08:      p.number(colHighway),
		Comb08:         p.number(colComb),
		Range:          p.integer(colRange, false),
		FuelCost08:     p.integer(colFuelCost, false),
		CO2TailpipeGpm: p.number(colCO2),
		RangeA:         p.leadingInteger(colRangeA),
		EngDscr:        p.text(colEngDscr, false),
		VClass:         p.text(colVClass, false),
		PV2:            p.integer(colPV2, false),
		PV4:            p.integer(colPV4, false),
		HPV:            p.integer(colHPV, false),
		LV2:            p.integer(colLV2, false),
		LV4:            p.integer(colLV4, false),
		HLV:            p.integer(colHLV, false),
	}
	return r
}

func (p *rowParser) cell(col string) string {
	i := p.cols[col]
	if i < 0 || i >= len(p.rec) {
		return ""
	}
	return strings.TrimSpace(p.rec[i])
}

func (p *rowParser) fail(col string, format string, args ...any) {
	if p.err == nil {
		p.err = &FormatError{File: p.file, Line: p.line, Field: p.names[col], Err: fmt.Errorf(format, args...)}
	}
}

func (p *rowParser) text(col string, required bool) string {
	s := p.cell(col)
	if required && s == "" {
		p.fail(col, "is empty")
	}
	if c, ok := p.intern[s]; ok {
		return c
	}
	if err := textcheck.Line(s); err != nil {
		p.fail(col, "%v", err)
		return ""
	}
	c := strings.Clone(s)
	p.intern[c] = c
	return c
}

// absent: empty, or "NA" as the file has for a few 1985 engines.
func absent(s string) bool {
	return s == "" || strings.EqualFold(s, "NA") || strings.EqualFold(s, "N/A")
}

func (p *rowParser) number(col string) float64 {
	s := p.cell(col)
	if absent(s) {
		return 0
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		p.fail(col, "%q is not a number", s)
		return 0
	}
	return p.nonNegative(col, s, f)
}

// nonNegative refuses what no EPA count or measure can be.
func (p *rowParser) nonNegative(col, s string, v float64) float64 {
	if v < 0 {
		p.fail(col, "%q is negative", s)
		return 0
	}
	return v
}

// leadingInteger reads the whole number a cell starts with: EPA's rangeA
// holds a few "19/22"-style pairs; the first is the figure it leads with.
func (p *rowParser) leadingInteger(col string) int {
	s := p.cell(col)
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(s[:end])
	if err != nil {
		return 0
	}
	return n
}

// integer accepts "4.0", which spreadsheet round-trips produce.
func (p *rowParser) integer(col string, required bool) int {
	s := p.cell(col)
	if absent(s) {
		if required {
			p.fail(col, "is empty")
		}
		return 0
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || math.Abs(f) > math.MaxInt32 {
		p.fail(col, "%q is not a whole number", s)
		return 0
	}
	return int(p.nonNegative(col, s, f))
}
