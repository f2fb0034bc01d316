package vin

// weights are the position weights of 49 CFR 565.15.
// Position 9, the check digit itself, weighs 0 so it does not count.
var weights = [Length]int{8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2}

// transliterate gives a VIN character's numeric value for the check digit.
// Letters count 1–9 in runs that skip I, O and Q: A–H 1–8, J–N 1–5, P 7,
// R 9, S–Z 2–9. The gaps (no 6 after N, no 8 after P) come from the
// original table, where O and Q held those values.
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
	// Unreachable for validated input: validate rejects everything else.
	return 0
}

// checkDigit computes the check digit of a validated 17-character VIN:
// the weighted sum of the transliterated characters modulo 11, where a
// remainder of 10 is written "X".
func checkDigit(v string) string {
	sum := 0
	for i := range Length {
		sum += transliterate(v[i]) * weights[i]
	}
	const digits = "0123456789X"
	r := sum % 11
	return digits[r : r+1]
}
