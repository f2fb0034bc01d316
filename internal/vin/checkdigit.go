package vin

// weights are the position weights of 49 CFR 565.15; the check digit weighs 0.
var weights = [Length]int{8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2}

// transliterate gives a character's value: letters count 1-9 in runs that skip
// I, O and Q, with the gaps where O and Q once were.
func transliterate(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'A' <= c && c <= 'H':
		return int(c-'A') + 1
	case 'J' <= c && c <= 'N':
		return int(c-'J') + 1
	case c == 'P':
		return 7
	case c == 'R':
		return 9
	case 'S' <= c && c <= 'Z':
		return int(c-'S') + 2
	}
	return 0
}

// checkDigit computes position 9 of a validated VIN ("X" for 10).
func checkDigit(v string) string {
	sum := 0
	for i := range Length {
		sum += transliterate(v[i]) * weights[i]
	}
	const digits = "0123456789X"
	r := sum % 11
	return digits[r : r+1]
}
