package vin

import "strings"

// yearCodes lists the model-year codes of position 10 in the order of a
// 30-year cycle: code i stands for 1980+i and 2010+i. I, O and Q are never
// used in a VIN; U, Z and 0 are left out of the cycle so they cannot be
// mistaken for V, 2 and O (49 CFR 565.15, Table VI).
const yearCodes = "ABCDEFGHJKLMNPRSTVWXY123456789"

// The two cycles a year code can stand for. The next cycle (2040–2069)
// will need a new rule from NHTSA, so it is not guessed at here.
const (
	firstCycle  = 1980 // 1980–2009
	secondCycle = 2010 // 2010–2039
)

// modelYears returns the model years that the year code in position 10
// can stand for, the most likely first, and never later than maxYear.
//
// A code repeats every 30 years, so each one stands for a year in
// 1980–2009 and another in 2010–2039. For passenger cars, and for MPVs and
// trucks of 10,000 lb GVWR or less, 49 CFR 565.15 settles it with position
// 7: numeric means 1980–2009, a letter means 2010–2039. Other vehicles
// (motorcycles, heavy trucks, trailers, buses) and most VINs made for
// markets outside North America follow no such rule, and the vehicle type
// is unknown until the upstream decodes the VIN, so both years are
// returned, ordered by the position-7 rule, which is right for the
// passenger vehicles most people look up. Years after maxYear are dropped:
// a vehicle cannot be of a model year that is not on sale yet.
//
// A code outside the cycle (U, Z, 0), which European makers use when they
// do not encode the year, gives no candidates. The result is never nil,
// so it encodes as [] in JSON.
func modelYears(code, pos7 byte, maxYear int) []int {
	years := make([]int, 0, 2)
	i := strings.IndexByte(yearCodes, code)
	if i < 0 {
		return years
	}
	older, newer := firstCycle+i, secondCycle+i
	first, second := newer, older
	if '0' <= pos7 && pos7 <= '9' {
		first, second = older, newer
	}
	for _, y := range [2]int{first, second} {
		if y <= maxYear {
			years = append(years, y)
		}
	}
	return years
}
