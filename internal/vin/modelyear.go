package vin

import "strings"

// yearCodes are the position-10 codes of one 30-year cycle: code i is 1980+i
// and 2010+i (49 CFR 565.15, Table VI).
const yearCodes = "ABCDEFGHJKLMNPRSTVWXY123456789"

// The next cycle (2040-2069) needs a new rule from NHTSA; it is not guessed.
const (
	firstCycle  = 1980 // 1980–2009
	secondCycle = 2010 // 2010–2039
)

// modelYears returns the years the code can stand for, no later than maxYear,
// the one position 7 points at first; never nil, so JSON gets [].
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

// YearCode returns the position-10 code of a model year from 1980 on (it
// repeats every 30 years), 0 before.
func YearCode(year int) byte {
	if year < firstCycle {
		return 0
	}
	return yearCodes[(year-firstCycle)%len(yearCodes)]
}
