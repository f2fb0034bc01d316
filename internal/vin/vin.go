package vin

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Length is the number of characters of every VIN since 1981.
const Length = 17

// Error says why a string is not a well-formed VIN. Its message is a single
// sentence written for an API user, so handlers can show it as it is.
type Error struct {
	// Length is the number of characters of the normalized input.
	Length int
	// Position is the 1-based position of the offending character, or 0
	// when the length is wrong.
	Position int
	// Char is the offending character, or "" when the length is wrong.
	Char string

	msg string
}

// Error returns the one-sentence explanation.
func (e *Error) Error() string { return e.msg }

// Decoded is what can be learnt from a VIN without asking anyone.
type Decoded struct {
	// VIN is the normalized VIN (upper case, no surrounding space).
	VIN string `json:"vin"`
	// WMI is the world manufacturer identifier, positions 1–3.
	WMI string `json:"wmi"`
	// VDS is the vehicle descriptor section, positions 4–9 as ISO 3779
	// defines it; in North America position 9 is the check digit.
	VDS string `json:"vds"`
	// VIS is the vehicle identifier section, positions 10–17.
	VIS string `json:"vis"`
	// Region is the continent the WMI is assigned to ("North America",
	// "Europe", "Asia", "Africa", "Oceania", "South America"), or "" for
	// a first character no region has.
	Region string `json:"region"`
	// Country is the country the WMI is assigned to, or "" when the
	// table in this package does not know it.
	Country string `json:"country"`
	// CheckDigit is the verdict on position 9.
	CheckDigit CheckDigit `json:"check_digit"`
	// ModelYears are the model years position 10 can stand for (one in
	// 1980–2009, one in 2010–2039), never later than next year, the most
	// likely first: the older one when position 7 is a digit, as NHTSA's
	// rule for passenger vehicles has it. Empty when position 10 is not a
	// year code (U, Z, 0).
	ModelYears []int `json:"model_year_candidates"`
	// Plant is the assembly plant code, position 11.
	Plant string `json:"plant_code"`
	// Serial is the production sequence number, positions 12–17.
	Serial string `json:"serial"`
}

// CheckDigit is the verdict on the check digit in position 9.
type CheckDigit struct {
	// Expected is the check digit computed from the other 16 characters,
	// "0"–"9" or "X".
	Expected string `json:"expected"`
	// Found is the character in position 9.
	Found string `json:"found"`
	// Valid is true when Found equals Expected.
	Valid bool `json:"valid"`
	// Advisory is true when the check digit is not mandatory for this
	// VIN: only North American VINs (WMI region North America: first
	// character 1–5, or 7F–70) must carry one (49 CFR 565). Elsewhere
	// (ISO 3779) position 9 is free for the maker's use, so a mismatch is
	// reported but is not an error.
	Advisory bool `json:"advisory"`
}

// Normalize trims surrounding white space and upper-cases ASCII letters.
// Only ASCII is upper-cased: Unicode case mapping would turn look-alikes
// such as "ſ" (long s) into valid VIN letters and accept them.
func Normalize(s string) string {
	s = strings.TrimSpace(s)
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, s)
}

// Validate reports whether s, once normalized, is a well-formed VIN: exactly
// 17 characters, each a digit or a letter other than I, O and Q. The error
// is an *Error. A wrong check digit is not a validation error, because it
// is mandatory only in North America; Decode reports it.
func Validate(s string) error {
	_, err := validate(s)
	return err
}

// validate returns the normalized VIN so that Decode need not normalize
// twice.
func validate(s string) (string, error) {
	v := Normalize(s)
	n := utf8.RuneCountInString(v)
	if n != Length {
		return v, &Error{Length: n, msg: fmt.Sprintf(
			"the VIN has %d %s, but a VIN has exactly %d", n, plural(n, "character", "characters"), Length)}
	}
	pos := 0
	for _, r := range v {
		pos++
		var why string
		switch {
		case r == 'I' || r == 'O' || r == 'Q':
			why = "the letters I, O and Q never appear in a VIN"
		case ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9'):
			continue
		default:
			why = "a VIN has only the letters A to Z (except I, O and Q) and the digits 0 to 9"
		}
		return v, &Error{Length: n, Position: pos, Char: string(r), msg: fmt.Sprintf(
			"character %d is %q: %s", pos, string(r), why)}
	}
	return v, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Decode validates s (see Validate) and computes what the characters alone
// say: the sections, the WMI's region and country, the check-digit verdict
// and the model-year candidates. Years later than next year are never
// candidates, since no vehicle can carry them yet.
func Decode(s string) (Decoded, error) {
	return decode(s, time.Now().Year()+1)
}

// decode is Decode with the latest possible model year given, so that
// tests do not depend on the clock.
func decode(s string, maxYear int) (Decoded, error) {
	v, err := validate(s)
	if err != nil {
		return Decoded{}, err
	}
	region, country := lookupWMI(v[0], v[1])
	expected := checkDigit(v)
	found := v[8:9]
	return Decoded{
		VIN:     v,
		WMI:     v[0:3],
		VDS:     v[3:9],
		VIS:     v[9:17],
		Region:  region,
		Country: country,
		CheckDigit: CheckDigit{
			Expected: expected,
			Found:    found,
			Valid:    expected == found,
			Advisory: region != regionNorthAmerica,
		},
		ModelYears: modelYears(v[9], v[6], maxYear),
		Plant:      v[10:11],
		Serial:     v[11:17],
	}, nil
}
