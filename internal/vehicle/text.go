package vehicle

import (
	"slices"
	"sort"
	"strings"
	"unicode"
)

// postingSet holds sorted keys, each with the ascending record positions
// that carry it. The running totals in cum let a query price the union of a
// key range (a year window, a q prefix) in O(1) before deciding to use it.
type postingSet struct {
	posts [][]int32
	// cum[i] is the number of positions in posts[:i].
	cum []int
}

func (p *postingSet) finish() {
	p.cum = make([]int, len(p.posts)+1)
	for i, l := range p.posts {
		p.cum[i+1] = p.cum[i] + len(l)
	}
}

// size is the number of positions in posts[lo:hi], duplicates included.
func (p *postingSet) size(lo, hi int) int { return p.cum[hi] - p.cum[lo] }

// textIndex is the free-text index: tokens sorted so that every token with a
// given prefix lies in one contiguous id range found by binary search, and
// each record's token ids so that a word can be checked on a candidate with
// integer comparisons only.
type textIndex struct {
	tokens []string
	postingSet
	recTok []int32
	// recOff[i]..recOff[i+1] delimits record i's token ids in recTok.
	recOff []int32
}

// prefixRange returns the ids of the tokens that start with w.
func (t *textIndex) prefixRange(w string) (lo, hi int) {
	lo = sort.SearchStrings(t.tokens, w)
	hi = lo + sort.Search(len(t.tokens)-lo, func(j int) bool { return !strings.HasPrefix(t.tokens[lo+j], w) })
	return lo, hi
}

// has reports whether record i has a token with an id in lo..hi-1. A
// record's ids ascend, so the first id at or above lo decides.
func (t *textIndex) has(i int32, lo, hi int32) bool {
	for _, id := range t.recTok[t.recOff[i]:t.recOff[i+1]] {
		if id >= lo {
			return id < hi
		}
	}
	return false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// appendTokens appends the tokens of a lowercase field: every run of letters
// and digits; the letter and digit parts of a run that mixes them, so that
// q=f-150 finds "F150" just as q=f150 finds "F-150"; and, when joined is
// set (make and model), all runs concatenated, so that q=crv finds "CR-V".
// Tokens are substrings of s, so they share its memory.
func appendTokens(dst []string, s string, joined bool) []string {
	runs := 0
	start := -1
	for i, r := range s {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			dst = appendRun(dst, s[start:i])
			runs++
			start = -1
		}
	}
	if start >= 0 {
		dst = appendRun(dst, s[start:])
		runs++
	}
	if joined && runs > 1 {
		dst = append(dst, strings.Map(func(r rune) rune {
			if isWordRune(r) {
				return r
			}
			return -1
		}, s))
	}
	return dst
}

// appendRun appends a run and, when it mixes letters and digits, its parts.
func appendRun(dst []string, run string) []string {
	dst = append(dst, run)
	start, digit := 0, false
	for i, r := range run {
		d := unicode.IsDigit(r)
		if i > 0 && d != digit {
			dst = append(dst, run[start:i])
			start = i
		}
		digit = d
	}
	// start moved only if the run was split; then its last part is pending.
	if start > 0 {
		dst = append(dst, run[start:])
	}
	return dst
}

// textBuilder accumulates token ids record by record, in position order.
// Postings are laid out only at the end, in one flat array: appending to a
// list per token would allocate and copy each list as it grows, which on a
// large catalog costs more than everything else in the build.
type textBuilder struct {
	ids    map[string]int32
	tokens []string
	recTok []int32
	recOff []int32
	// cache maps a field value to its token ids, computed once: catalogs
	// repeat the same make, body and fuel strings thousands of times.
	cache, joinedCache map[string][]int32
	// last is a one-entry cache per field slot; sorted records repeat the
	// previous record's make and model, which skips even the map lookup.
	last    []lastField
	scratch []int32
	toks    []string
}

type lastField struct {
	value string
	ids   []int32
}

func newTextBuilder(n int) *textBuilder {
	return &textBuilder{
		ids:         map[string]int32{},
		recTok:      make([]int32, 0, n*8),
		recOff:      make([]int32, 1, n+1),
		cache:       map[string][]int32{},
		joinedCache: map[string][]int32{},
	}
}

// field adds the tokens of one field value of the current record; slot
// identifies the field for the one-entry cache.
func (b *textBuilder) field(slot int, s string, joined bool) {
	for len(b.last) <= slot {
		b.last = append(b.last, lastField{})
	}
	if l := &b.last[slot]; l.ids != nil && l.value == s {
		b.scratch = append(b.scratch, l.ids...)
		return
	}
	c := b.cache
	if joined {
		c = b.joinedCache
	}
	ids, ok := c[s]
	if !ok {
		b.toks = appendTokens(b.toks[:0], strings.ToLower(s), joined)
		ids = make([]int32, 0, len(b.toks))
		for _, tok := range b.toks {
			id, seen := b.ids[tok]
			if !seen {
				id = int32(len(b.tokens))
				b.ids[tok] = id
				b.tokens = append(b.tokens, tok)
			}
			ids = append(ids, id)
		}
		c[s] = ids
	}
	b.last[slot] = lastField{s, ids}
	b.scratch = append(b.scratch, ids...)
}

// endRecord closes the current record.
func (b *textBuilder) endRecord() {
	slices.Sort(b.scratch)
	b.recTok = append(b.recTok, slices.Compact(b.scratch)...)
	b.recOff = append(b.recOff, int32(len(b.recTok)))
	b.scratch = b.scratch[:0]
}

// index renumbers the tokens in sorted order, which is what makes a prefix
// a contiguous id range, and lays out the postings.
func (b *textBuilder) index() textIndex {
	order := make([]int32, len(b.tokens))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int { return strings.Compare(b.tokens[x], b.tokens[y]) })
	rank := make([]int32, len(order))
	t := textIndex{tokens: make([]string, len(order)), recTok: slices.Clip(b.recTok), recOff: b.recOff}
	for newID, old := range order {
		rank[old] = int32(newID)
		t.tokens[newID] = b.tokens[old]
	}
	counts := make([]int, len(order))
	for i, id := range t.recTok {
		t.recTok[i] = rank[id]
		counts[rank[id]]++
	}
	for rec := range len(t.recOff) - 1 {
		slices.Sort(t.recTok[t.recOff[rec]:t.recOff[rec+1]])
	}
	t.posts = carve(counts)
	// Records are visited in position order, so every list comes out ascending.
	for rec := range len(t.recOff) - 1 {
		for _, id := range t.recTok[t.recOff[rec]:t.recOff[rec+1]] {
			t.posts[id] = append(t.posts[id], int32(rec))
		}
	}
	t.finish()
	return t
}

// carve returns empty lists with the given capacities, cut from one array;
// capacities are exact, so appends fill the array and never reallocate.
func carve(counts []int) [][]int32 {
	total := 0
	for _, c := range counts {
		total += c
	}
	flat := make([]int32, total)
	lists := make([][]int32, len(counts))
	off := 0
	for i, c := range counts {
		lists[i] = flat[off : off : off+c]
		off += c
	}
	return lists
}

// squash lowercases s and drops everything but letters and digits, the key
// under which "F-150", "F150" and "f 150" are one model family.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if isWordRune(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}
