package hin

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Format names how a HIN's last four characters encode its dates.
type Format string

const (
	// FormatCurrent is required since 1 August 1984: month letter A-L,
	// last digit of the production year, two-digit model year.
	FormatCurrent Format = "current"
	// FormatStraightYear (1972-1984): production month 01-12, then year.
	FormatStraightYear Format = "straight_year"
	// FormatModelYear (1972-1984): M, model year, month letter from August.
	FormatModelYear Format = "model_year"
	// FormatEUCIN is ISO 10087's craft identification number: a country
	// code, then the current format.
	FormatEUCIN Format = "eu_cin"
)

// Issuer says who assigned the manufacturer identification code.
type Issuer string

const (
	IssuerManufacturer       Issuer = "manufacturer"
	IssuerState              Issuer = "state"
	IssuerUSCoastGuard       Issuer = "us_coast_guard"
	IssuerCanadianCoastGuard Issuer = "canadian_coast_guard"
)

// Codes of warnings (the HIN decodes) and errors (it does not), numbered
// as vPIC numbers its VIN decode's: the text starts "N - ".
const (
	CodeOutsideModelYear = 1
	CodeUnknownMIC       = 2
	CodeFormatPeriod     = 3
	CodeLength           = 5
	CodeCharacter        = 6
	CodeDate             = 7
	CodeCountry          = 8
)

// Warning is something doubtful about a HIN that still decodes.
type Warning struct {
	Code int    `json:"code" jsonschema:"The warning's number: 1 production date outside the model year, 2 manufacturer code not in the Coast Guard's list, 3 format not in use at the date it encodes."`
	Text string `json:"text" jsonschema:"The warning as a sentence, prefixed by its number as vPIC words its error texts."`
}

// warning joins its parts without fmt: warnings are common, and decoding
// must stay under a microsecond.
func warning(code int, parts ...string) Warning {
	return Warning{Code: code, Text: strconv.Itoa(code) + " - " + strings.Join(parts, "")}
}

func date(m, y int) string { return months[m-1] + " " + strconv.Itoa(y) }

// Error says why a string is not a HIN: the 1-based position (0 for a
// wrong length) in the HIN written without spaces or hyphens, and the rule.
type Error struct {
	Code     int
	Position int
	Char     string
	Rule     string
}

func (e *Error) Error() string {
	if e.Position == 0 {
		return fmt.Sprintf("%d - %s", e.Code, e.Rule)
	}
	return fmt.Sprintf("%d - character %d is %q: %s", e.Code, e.Position, e.Char, e.Rule)
}

// Country is the country code a CIN or a US- prefix carries.
type Country struct {
	Code string `json:"code" jsonschema:"ISO 3166-1 alpha-2 code, e.g. US or FR."`
	Name string `json:"name" jsonschema:"The country's name."`
}

// Manufacturer is an entry of the Coast Guard's MIC list.
type Manufacturer struct {
	MIC     string `json:"mic" jsonschema:"The manufacturer identification code."`
	Company string `json:"company" jsonschema:"The company as the Coast Guard's list names it."`
	Address string `json:"address" jsonschema:"Street address; empty when the list has none."`
	City    string `json:"city" jsonschema:"City; empty when the list has none."`
	State   string `json:"state" jsonschema:"US State or Canadian province code; empty when the list has none."`
}

// Decoded is what a HIN's characters say.
type Decoded struct {
	HIN     string   `json:"hin" jsonschema:"The 12 characters of the HIN, upper-cased, without spaces, hyphens or country code."`
	Country *Country `json:"country" jsonschema:"The country code written before the HIN (US- or an EU CIN's); null when none."`
	Format  Format   `json:"format" jsonschema:"current (since August 1984), straight_year or model_year (1972-1984), or eu_cin (ISO 10087)."`
	MIC     string   `json:"mic" jsonschema:"The manufacturer identification code: characters 1-3."`
	// Manufacturer is nil when the MIC is not in the list (or no list was given).
	Manufacturer *Manufacturer `json:"manufacturer" jsonschema:"The MIC's entry in the Coast Guard's list; null when the list has no such code."`
	Issuer       Issuer        `json:"issuer" jsonschema:"Who assigned the MIC: manufacturer, state (a home-built boat's HIN from a State), us_coast_guard or canadian_coast_guard."`
	IssuingState *string       `json:"issuing_state" jsonschema:"Postal code of the State that issued the HIN; null unless issuer is state."`
	Serial       string        `json:"serial" jsonschema:"The hull serial number: characters 4-8."`
	// ProductionMonth is 1-12.
	ProductionMonth int `json:"production_month" jsonschema:"Month of production or certification, 1-12."`
	ProductionYear  int `json:"production_year" jsonschema:"Year of production or certification, its decade resolved from the model year."`
	// ModelYear is nil for the straight-year format, which has none.
	ModelYear *int      `json:"model_year" jsonschema:"The model year; null for the straight-year format, which carries none."`
	Warnings  []Warning `json:"warnings" jsonschema:"What is doubtful about the HIN; empty when it decodes clean."`
}

const (
	bodyLen = 12
	cinLen  = 14
)

// Decoder decodes HINs, naming manufacturers from a MIC list.
type Decoder struct {
	// mics is the MIC list packed so that the collector has nothing to
	// scan: entries sorted by MIC, upper-cased, their fields in text. A
	// server keeps the 16,216 codes for its life; as a map of pointers
	// they were a fifth of its live heap, marked in every cycle. nil: no
	// list was given.
	mics []micEntry
	text string
	// maxYear is the latest model year a two-digit one can mean; 0: next
	// year, so a server running across New Year stays right.
	maxYear int
}

// NewDecoder returns a decoder over list (nil: no names, no warning 2),
// taking two-digit model years up to next year, as of each decode, as 20xx.
func NewDecoder(list []Manufacturer) *Decoder {
	return newDecoder(list, 0)
}

// micEntry is a packed Manufacturer: its key, and where its MIC,
// company, address, city and state end in the decoder's text (each starts
// where the one before ends, the MIC at start).
type micEntry struct {
	key   uint32 // the upper-cased MIC's bytes, big-endian
	start uint32
	ends  [5]uint32
}

func newDecoder(list []Manufacturer, maxYear int) *Decoder {
	d := &Decoder{maxYear: maxYear}
	if list == nil {
		return d
	}
	var text strings.Builder
	d.mics = make([]micEntry, 0, len(list))
	for i := range list {
		m := &list[i]
		key, ok := micKey(m.MIC)
		if !ok {
			continue // ReadList and the stores refuse such a MIC
		}
		e := micEntry{key: key, start: uint32(text.Len())}
		for j, f := range [...]string{m.MIC, m.Company, m.Address, m.City, m.State} {
			text.WriteString(f)
			e.ends[j] = uint32(text.Len())
		}
		d.mics = append(d.mics, e)
	}
	d.text = text.String()
	// The last of a MIC given twice wins, as it would in a map.
	slices.SortStableFunc(d.mics, func(a, b micEntry) int { return cmp.Compare(a.key, b.key) })
	kept := d.mics[:0]
	for i, e := range d.mics {
		if i+1 < len(d.mics) && d.mics[i+1].key == e.key {
			continue
		}
		kept = append(kept, e)
	}
	d.mics = slices.Clip(kept)
	return d
}

// micKey is a 3-character MIC, upper-cased, as a number.
func micKey(mic string) (key uint32, ok bool) {
	if len(mic) != 3 {
		return 0, false
	}
	for i := range 3 {
		c := mic[i]
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		key = key<<8 | uint32(c)
	}
	return key, true
}

// Len is the number of manufacturers the decoder knows.
func (d *Decoder) Len() int { return len(d.mics) }

// Lookup returns the list's entry of a MIC.
func (d *Decoder) Lookup(mic string) (*Manufacturer, bool) {
	key, ok := micKey(mic)
	if !ok {
		return nil, false
	}
	// By hand: with slices.BinarySearchFunc's call per probe a decode took
	// 230-250 ns, not 160-175 (BenchmarkDecode).
	i, j := 0, len(d.mics)
	for i < j {
		h := int(uint(i+j) >> 1)
		if d.mics[h].key < key {
			i = h + 1
		} else {
			j = h
		}
	}
	if i == len(d.mics) || d.mics[i].key != key {
		return nil, false
	}
	e := &d.mics[i]
	field := func(j int) string {
		from := e.start
		if j > 0 {
			from = e.ends[j-1]
		}
		return d.text[from:e.ends[j]]
	}
	return &Manufacturer{MIC: field(0), Company: field(1), Address: field(2), City: field(3), State: field(4)}, true
}

// Normalize trims s, upper-cases ASCII letters and drops the spaces and
// hyphens HINs are often written with.
func Normalize(s string) string {
	s = strings.TrimSpace(s)
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == ' ' || c == '-' || ('a' <= c && c <= 'z') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '-':
		case 'a' <= c && c <= 'z':
			b = append(b, c-'a'+'A')
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// Decode validates s and decodes it.
func (d *Decoder) Decode(s string) (Decoded, error) {
	c := Normalize(s)
	for i := 0; i < len(c); i++ {
		if !isAlnum(c[i]) {
			return Decoded{}, charError(c, 0, i, "a HIN has only the letters A to Z and the digits 0 to 9")
		}
	}
	var out Decoded
	body, off := c, 0
	switch n := len(c); {
	case n == cinLen:
		if err := checkChars(c[:2], 0, isLetter, "a CIN starts with its country's two-letter code"); err != nil {
			return Decoded{}, err
		}
		ctry, ok := countries[c[:2]]
		if !ok {
			return Decoded{}, &Error{Code: CodeCountry, Position: 1, Char: c[:2],
				Rule: "a CIN starts with an ISO 3166 country code, and no country has this one"}
		}
		out.Country = ctry
		body, off = c[2:], 2
	case n != bodyLen:
		return Decoded{}, &Error{Code: CodeLength, Rule: fmt.Sprintf(
			"the HIN has %d %s, but a HIN has 12 (14 with a country code such as US-)", n, plural(n))}
	}
	if err := checkChars(body[:3], off, isAlnum, "the manufacturer identification code has only letters and digits"); err != nil {
		return Decoded{}, err
	}
	if err := checkChars(body[3:8], off+3, isSerial, "the serial number has only letters and digits, except I, O and Q"); err != nil {
		return Decoded{}, err
	}
	out.HIN, out.MIC, out.Serial = body, body[:3], body[3:8]
	cin := out.Country != nil && out.Country.Code != "US"
	var err error
	switch c9 := body[8]; {
	case 'A' <= c9 && c9 <= 'L':
		out.Format = FormatCurrent
		if cin {
			out.Format = FormatEUCIN
		}
		err = d.current(&out, off)
	case c9 == 'M' && !cin:
		out.Format = FormatModelYear
		err = modelYearFormat(&out, off)
	case isDigit(c9) && !cin:
		out.Format = FormatStraightYear
		err = straightYear(&out, off)
	case cin:
		err = dateError(body, off, 8, "in a CIN, character 9 is the production month, a letter from A (January) to L (December)")
	default:
		err = dateError(body, off, 8, "character 9 is the production month: a letter A-L (January-December), or M or a digit in the 1972-1984 formats")
	}
	if err != nil {
		return Decoded{}, err
	}
	d.issuer(&out)
	return out, nil
}

func (d *Decoder) issuer(out *Decoded) {
	out.Issuer = IssuerManufacturer
	// Every State and Coast Guard code but QQQ ends in Z.
	if out.MIC[2] == 'Z' || out.MIC == "QQQ" {
		if st, ok := stateMICs[out.MIC]; ok {
			out.Issuer, out.IssuingState = IssuerState, &st
		} else if cg, ok := coastGuardMICs[out.MIC]; ok {
			out.Issuer = cg
		}
	}
	if d.mics == nil {
		return
	}
	if m, ok := d.Lookup(out.MIC); ok {
		out.Manufacturer = m
	} else {
		out.Warnings = append(out.Warnings, warning(CodeUnknownMIC,
			"The manufacturer identification code ", out.MIC, " is not in the Coast Guard's list; the HIN may be mistyped or forged."))
	}
}

// current decodes characters 9-12 of the format required since August
// 1984: the production year's decade is the one nearest the model year.
func (d *Decoder) current(out *Decoded, off int) error {
	b := out.HIN
	if err := digits(b, off, 9, 12, "characters 10-12 are digits: the production year's last digit and the model year's last two"); err != nil {
		return err
	}
	out.ProductionMonth = int(b[8]-'A') + 1
	my, maxYear := 2000+twoDigits(b[10:12]), d.maxYear
	if maxYear == 0 {
		maxYear = time.Now().Year() + 1
	}
	if my > maxYear {
		my -= 100
	}
	out.ModelYear = yearRef(my)
	k := (int(b[9]-'0') - my%10 + 10) % 10
	if k > 4 {
		k -= 10
	}
	out.ProductionYear = my + k
	if start := windowStart(my); !within(out.ProductionYear, out.ProductionMonth, my-1, start, my, 7) {
		out.Warnings = append(out.Warnings, warning(CodeOutsideModelYear,
			"The production date ", date(out.ProductionMonth, out.ProductionYear), " is outside model year ", strconv.Itoa(my),
			", which runs from 1 ", date(start, my-1), " to 31 July ", strconv.Itoa(my), "."))
	}
	if !within(out.ProductionYear, out.ProductionMonth, 1984, 8, 9999, 12) {
		out.Warnings = append(out.Warnings, warning(CodeFormatPeriod,
			"The production date ", date(out.ProductionMonth, out.ProductionYear),
			" is before 1 August 1984, when this format became required; older HINs use the straight-year or model-year format."))
	}
	return nil
}

// windowStart is the first month of a model year: June since model year
// 2017 (the Coast Guard Authorization Act of 2015), August before.
func windowStart(my int) int {
	if my >= 2017 {
		return 6
	}
	return 8
}

// modelYearFormat decodes M, the model year and a month letter counted
// from August (A) to July (L).
func modelYearFormat(out *Decoded, off int) error {
	b := out.HIN
	if err := digits(b, off, 9, 11, "in the 1972-1984 model-year format, characters 10-11 are the model year's last two digits"); err != nil {
		return err
	}
	if c := b[11]; c < 'A' || c > 'L' {
		return dateError(b, off, 11, "in the 1972-1984 model-year format, character 12 is the month, a letter from A (August) to L (July)")
	}
	my := 1900 + twoDigits(b[9:11])
	out.ModelYear = yearRef(my)
	m := int(b[11]-'A') + 8
	out.ProductionYear = my - 1
	if m > 12 {
		m -= 12
		out.ProductionYear = my
	}
	out.ProductionMonth = m
	oldFormatPeriod(out)
	return nil
}

// straightYear decodes the production month 01-12 and year of 1972-1984.
func straightYear(out *Decoded, off int) error {
	b := out.HIN
	if err := digits(b, off, 8, 12, "in the 1972-1984 straight-year format, characters 9-12 are digits: the production month and year"); err != nil {
		return err
	}
	m := twoDigits(b[8:10])
	if m < 1 || m > 12 {
		return &Error{Code: CodeDate, Position: off + 9, Char: b[8:10],
			Rule: "in the 1972-1984 straight-year format, characters 9-10 are the production month, 01 to 12"}
	}
	out.ProductionMonth, out.ProductionYear = m, 1900+twoDigits(b[10:12])
	oldFormatPeriod(out)
	return nil
}

// oldFormatPeriod warns when a 1972-1984 format encodes a date outside
// November 1972-July 1984.
func oldFormatPeriod(out *Decoded) {
	if !within(out.ProductionYear, out.ProductionMonth, 1972, 11, 1984, 7) {
		out.Warnings = append(out.Warnings, warning(CodeFormatPeriod,
			"The production date ", date(out.ProductionMonth, out.ProductionYear),
			" is outside November 1972-July 1984, when the ", strings.ReplaceAll(string(out.Format), "_", "-"), " format was in use."))
	}
}

func within(y, m, y0, m0, y1, m1 int) bool {
	v := y*12 + m
	return v >= y0*12+m0 && v <= y1*12+m1
}

func twoDigits(s string) int { return int(s[0]-'0')*10 + int(s[1]-'0') }

// digits checks that b[from:to] are digits (0-based bounds).
func digits(b string, off, from, to int, rule string) error {
	for i := from; i < to; i++ {
		if !isDigit(b[i]) {
			return dateError(b, off, i, rule)
		}
	}
	return nil
}

func dateError(b string, off, i int, rule string) error {
	return &Error{Code: CodeDate, Position: off + i + 1, Char: b[i : i+1], Rule: rule}
}

// checkChars checks each character of s with ok; off is s's offset in the HIN.
func checkChars(s string, off int, ok func(byte) bool, rule string) error {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return charError(s, off, i, rule)
		}
	}
	return nil
}

func charError(s string, off, i int, rule string) error {
	r, _ := utf8.DecodeRuneInString(s[i:])
	pos := off + utf8.RuneCountInString(s[:i]) + 1
	return &Error{Code: CodeCharacter, Position: pos, Char: string(r), Rule: rule}
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'A' <= c && c <= 'Z' }
func isAlnum(c byte) bool  { return isDigit(c) || isLetter(c) }
func isSerial(c byte) bool { return isAlnum(c) && c != 'I' && c != 'O' && c != 'Q' }

var months = [...]string{"January", "February", "March", "April", "May", "June", "July",
	"August", "September", "October", "November", "December"}

// modelYears backs Decoded.ModelYear, so decoding allocates no int.
var modelYears = func() (ys [200]int) {
	for i := range ys {
		ys[i] = 1900 + i
	}
	return ys
}()

func yearRef(y int) *int { return &modelYears[y-1900] }

func plural(n int) string {
	if n == 1 {
		return "character"
	}
	return "characters"
}
