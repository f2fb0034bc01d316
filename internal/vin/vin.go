package vin

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// Length is the number of characters of every VIN since 1981.
const Length = 17

// Error says why a string is not a well-formed VIN, in one sentence fit for an API user.
type Error struct {
	Length int
	// Position is 1-based; it and Char are zero when the length is wrong.
	Position int
	Char     string

	msg string
}

func (e *Error) Error() string { return e.msg }

// Decoded is what can be learnt from a VIN without asking anyone.
type Decoded struct {
	VIN string `json:"vin"`
	WMI string `json:"wmi"`
	VDS string `json:"vds"`
	VIS string `json:"vis"`
	// Region and Country are "" when unknown.
	Region     string     `json:"region"`
	Country    string     `json:"country"`
	CheckDigit CheckDigit `json:"check_digit"`
	// ModelYears is empty when position 10 is not a year code.
	ModelYears []int  `json:"model_year_candidates"`
	Plant      string `json:"plant_code"`
	Serial     string `json:"serial"`
}

// CheckDigit is the verdict on position 9.
type CheckDigit struct {
	Expected string `json:"expected" jsonschema:"The check digit computed from the other 16 characters."`
	Found    string `json:"found" jsonschema:"The VIN's position 9."`
	Valid    bool   `json:"valid" jsonschema:"True when found equals expected."`
	// Advisory: the check digit is mandatory only in North America (49 CFR 565).
	Advisory bool `json:"advisory" jsonschema:"True when the check digit is not mandatory for this manufacturer's region (outside North America), so a mismatch is a warning only."`
}

// Normalize trims white space and upper-cases ASCII letters only, so look-alikes never pass.
func Normalize(s string) string {
	s = strings.TrimSpace(s)
	return strings.Map(func(r rune) rune {
		if 'a' <= r && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, s)
}

// Validate reports, as an *Error, whether s is 17 digits and letters other than
// I, O, Q; a wrong check digit is not an error (see CheckDigit.Advisory).
func Validate(s string) error {
	_, err := validate(s)
	return err
}

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

// Decode validates s and computes what the characters alone say.
func Decode(s string) (Decoded, error) {
	return decode(s, time.Now().Year()+1)
}

// decode takes the latest possible model year, so tests need no clock.
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
