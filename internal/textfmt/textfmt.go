// Package textfmt holds text helpers shared by layers that must not import
// each other: digit grouping, typo distance and escaping for terminals.
package textfmt

import (
	"slices"
	"strconv"
	"strings"
)

// Thousands writes n with comma separators: 100,000.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	digits := strings.TrimPrefix(s, "-")
	var b strings.Builder
	if len(digits) < len(s) {
		b.WriteByte('-')
	}
	for i, c := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Closest returns the candidate within edit distance 2 of s, case folded, or
// ""; ties go to the earlier one, and values over 32 bytes are not compared.
func Closest(s string, candidates []string) string {
	if c := ClosestN(s, candidates, 1); len(c) > 0 {
		return c[0]
	}
	return ""
}

// ClosestN is Closest for up to n candidates, closest first.
func ClosestN(s string, candidates []string, n int) []string {
	if len(s) > 32 {
		return nil
	}
	ls := strings.ToLower(s)
	var byDist [3][]string
	for _, c := range candidates {
		if len(c)-len(s) > 2 || len(s)-len(c) > 2 {
			continue
		}
		if d := EditDistance(ls, strings.ToLower(c)); d < len(byDist) {
			byDist[d] = append(byDist[d], c)
		}
	}
	out := slices.Concat(byDist[:]...)
	return out[:min(n, len(out))]
}

// EditDistance is the optimal string alignment distance: Levenshtein plus adjacent swaps.
func EditDistance(a, b string) int {
	before := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], before[j-2]+1)
			}
		}
		before, prev, cur = prev, cur, before
	}
	return prev[len(b)]
}
