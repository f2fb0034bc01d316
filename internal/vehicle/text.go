package vehicle

import (
	"slices"
	"sort"
	"strings"
	"unicode"
)

// postingSet holds sorted keys with their positions; cum prices the union
// of a key range (a year window, a q prefix) in O(1).
type postingSet struct {
	posts [][]int32
	cum   []int
}

func (p *postingSet) finish() {
	p.cum = make([]int, len(p.posts)+1)
	for i, l := range p.posts {
		p.cum[i+1] = p.cum[i] + len(l)
	}
}

func (p *postingSet) size(lo, hi int) int { return p.cum[hi] - p.cum[lo] }

// textIndex sorts tokens so that a prefix is one id range, and keeps each
// record's token ids so that a candidate is checked by integer comparisons.
// Records of one make and model form a group, which shares its name's
// (make's and model's) tokens: a q word found in a name selects whole
// groups, so a search costs the groups and records it finds, not the
// records behind each group.
type textIndex struct {
	tokens []string
	// postingSet lists, per token, the records having it outside their name.
	postingSet
	// groups lists, per token, the groups whose name has it.
	groups postingSet
	// nameRecs counts the records below each token id having it in their name.
	nameRecs []int
	recTok   []int32
	// recOff[i]..recOff[i+1] delimits record i's token ids in recTok.
	recOff []int32
	// grpOff[g]..grpOff[g+1] are group g's positions, grpOf the group of a
	// position. grpTok holds, from grpTokOff[g], the number k of group g's
	// name tokens, their k ids ascending, then (id, records) pairs for the
	// tokens its records have outside the name: what a search asks of a
	// group, in one place.
	grpOff, grpOf     []int32
	grpTok, grpTokOff []int32
	// others are the token ids with records outside names, ascending;
	// otherCum[id] counts those below id.
	others, otherCum []int32
	// dense holds the records of the tokens most records have outside
	// their name as bitmaps of positions (see denseBitmaps).
	dense [][]uint64
}

// A token one record in denseShare has outside its name gets a bitmap:
// ORing its words then costs no more than setting its postings' bits.
const denseShare = 256

// inName reports whether some record has a token of lo..hi-1 in its name,
// and whether some record has one elsewhere.
func (t *textIndex) inName(lo, hi int32) (name, other bool) {
	return t.groups.size(int(lo), int(hi)) > 0, t.size(int(lo), int(hi)) > 0
}

// otherIDs are the token ids of lo..hi-1 that records have outside names.
func (t *textIndex) otherIDs(lo, hi int32) []int32 {
	return t.others[t.otherCum[lo]:t.otherCum[hi]]
}

func (t *textIndex) prefixRange(w string) (lo, hi int) {
	lo = sort.SearchStrings(t.tokens, w)
	hi = lo + sort.Search(len(t.tokens)-lo, func(j int) bool { return !strings.HasPrefix(t.tokens[lo+j], w) })
	return lo, hi
}

func (t *textIndex) has(i int32, lo, hi int32) bool {
	return hasID(t.recTok[t.recOff[i]:t.recOff[i+1]], lo, hi)
}

// groupName returns group g's name token ids and its (id, records) pairs.
func (t *textIndex) groupName(g int32) (name, others []int32) {
	seg := t.grpTok[t.grpTokOff[g]:t.grpTokOff[g+1]]
	return seg[1 : 1+seg[0]], seg[1+seg[0]:]
}

// groupHas reports whether group g's name has a token of lo..hi-1.
func (t *textIndex) groupHas(g int32, lo, hi int32) bool {
	name, _ := t.groupName(g)
	return hasID(name, lo, hi)
}

// otherCount is how many of group g's records have token id outside the name.
func (t *textIndex) otherCount(g, id int32) int {
	_, pairs := t.groupName(g)
	for k := 0; k < len(pairs); k += 2 {
		if pairs[k] == id {
			return int(pairs[k+1])
		}
	}
	return 0
}

func (t *textIndex) nameHas(i int32, lo, hi int32) bool { return t.groupHas(t.grpOf[i], lo, hi) }

// hasID reports whether the ascending ids hold one in lo..hi-1.
func hasID(ids []int32, lo, hi int32) bool {
	for _, id := range ids {
		if id >= lo {
			return id < hi
		}
	}
	return false
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// appendTokens appends every letter-and-digit run of a lowercase field,
// and the joined runs (q=crv finds "CR-V"); tokens share s's memory.
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

// textBuilder lays postings out at the end in one flat array: growing a
// list per token costs more than the rest of the build on a large catalog.
type textBuilder struct {
	ids             map[string]int32
	tokens          []string
	recTok, nameTok []int32
	recOff, nameOff []int32
	grpOff          []int32
	nameLen         int // of scratch, after the make's and model's tokens
	// cache: catalogs repeat the same make, body and fuel strings.
	cache, joinedCache map[string][]int32
	// last skips even the map lookup for a repeated make or model.
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
		nameTok:     make([]int32, 0, n*3),
		nameOff:     make([]int32, 1),
		cache:       map[string][]int32{},
		joinedCache: map[string][]int32{},
	}
}

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

// endName marks the record's tokens so far as its name's (make and model);
// newGroup says they differ from the previous record's.
func (b *textBuilder) endName(newGroup bool) {
	b.nameLen = len(b.scratch)
	if !newGroup {
		return
	}
	b.grpOff = append(b.grpOff, int32(len(b.recOff)-1))
	name := b.nameTok[len(b.nameTok):]
	name = append(name, b.scratch[:b.nameLen]...)
	slices.Sort(name)
	b.nameTok = append(b.nameTok, slices.Compact(name)...)
	b.nameOff = append(b.nameOff, int32(len(b.nameTok)))
}

func (b *textBuilder) endRecord() {
	slices.Sort(b.scratch)
	b.recTok = append(b.recTok, slices.Compact(b.scratch)...)
	b.recOff = append(b.recOff, int32(len(b.recTok)))
	b.scratch = b.scratch[:0]
}

// index renumbers the tokens in sorted order and lays out the postings.
func (b *textBuilder) index() textIndex {
	order := make([]int32, len(b.tokens))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int { return strings.Compare(b.tokens[x], b.tokens[y]) })
	rank := make([]int32, len(order))
	n := len(b.recOff) - 1
	t := textIndex{tokens: make([]string, len(order)), recTok: slices.Clip(b.recTok), recOff: b.recOff,
		grpOff: append(b.grpOff, int32(n)), grpOf: make([]int32, n), grpTokOff: make([]int32, 1, len(b.grpOff)+1)}
	for newID, old := range order {
		rank[old] = int32(newID)
		t.tokens[newID] = b.tokens[old]
	}
	for i, id := range t.recTok {
		t.recTok[i] = rank[id]
	}
	for i, id := range b.nameTok {
		b.nameTok[i] = rank[id]
	}
	groupCounts, otherCounts := make([]int, len(order)), make([]int, len(order))
	t.nameRecs = make([]int, len(order)+1)
	// outside lists the group's distinct tokens outside its name, recs their records.
	var outside []int32
	recs := make([]int32, len(order))
	for g := range len(t.grpOff) - 1 {
		name := b.nameTok[b.nameOff[g]:b.nameOff[g+1]]
		slices.Sort(name)
		for _, id := range name {
			groupCounts[id]++
			t.nameRecs[id+1] += int(t.grpOff[g+1] - t.grpOff[g])
		}
		outside = outside[:0]
		for rec := t.grpOff[g]; rec < t.grpOff[g+1]; rec++ {
			t.grpOf[rec] = int32(g)
			all := t.recTok[t.recOff[rec]:t.recOff[rec+1]]
			slices.Sort(all)
			for _, id := range all {
				if _, found := slices.BinarySearch(name, id); !found {
					otherCounts[id]++
					if recs[id] == 0 {
						outside = append(outside, id)
					}
					recs[id]++
				}
			}
		}
		t.grpTok = append(append(t.grpTok, int32(len(name))), name...)
		slices.Sort(outside)
		for _, id := range outside {
			t.grpTok = append(t.grpTok, id, recs[id])
			recs[id] = 0
		}
		t.grpTokOff = append(t.grpTokOff, int32(len(t.grpTok)))
	}
	t.grpTok = slices.Clip(t.grpTok)
	for id := range order {
		t.nameRecs[id+1] += t.nameRecs[id]
	}
	t.otherCum = make([]int32, len(order)+1)
	for id, c := range otherCounts {
		t.otherCum[id+1] = t.otherCum[id]
		if c > 0 {
			t.others = append(t.others, int32(id))
			t.otherCum[id+1]++
		}
	}
	t.posts, t.groups.posts = carve(otherCounts), carve(groupCounts)
	// Groups and records are visited in position order, so every list comes out ascending.
	for g := range int32(len(t.grpOff) - 1) {
		name, _ := t.groupName(g)
		for _, id := range name {
			t.groups.posts[id] = append(t.groups.posts[id], g)
		}
		for rec := t.grpOff[g]; rec < t.grpOff[g+1]; rec++ {
			for _, id := range t.recTok[t.recOff[rec]:t.recOff[rec+1]] {
				if _, found := slices.BinarySearch(name, id); !found {
					t.posts[id] = append(t.posts[id], rec)
				}
			}
		}
	}
	t.finish()
	t.groups.finish()
	t.dense = denseBitmaps(t.posts, n)
	return t
}

// denseBitmaps returns bitmaps of n positions for the commonest of lists,
// nil for the others: for those one position in denseShare is in, as many
// as fit in the lists' own size, laid out in one array.
func denseBitmaps(lists [][]int32, n int) [][]uint64 {
	words, total := (n+63)/64, 0
	var ids []int
	for id, l := range lists {
		total += len(l)
		if len(l) > 0 && len(l)*denseShare >= n {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, func(a, b int) int { return len(lists[b]) - len(lists[a]) })
	// A posting is 4 bytes, a bitmap's word 8.
	ids = ids[:min(len(ids), total/2/max(words, 1))]
	flat := make([]uint64, len(ids)*words)
	dense := make([][]uint64, len(lists))
	for _, id := range ids {
		dense[id], flat = flat[:words:words], flat[words:]
		setBits(dense[id], lists[id], 0)
	}
	return dense
}

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

// squash keeps lowercase letters and digits: "F-150" and "f 150" are one family.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if isWordRune(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}
