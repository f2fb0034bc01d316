package vehicle

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"sync"
)

// Constraint bits: the per-record checks a query needs beyond its source.
const (
	bMake uint32 = 1 << iota
	bModel
	bYear
	bYearMin
	bYearMax
	bAttr0 // bAttr0<<slot for each attribute slot
	_
	_
	bEV
	bHPMin
	bHPMax
	bLenMin
	bLenMax
)

// wordRange is the token id range a q word prefix-matches.
type wordRange struct{ lo, hi int32 }

type sourceKind uint8

const (
	srcSpan  sourceKind = iota // positions lo..hi-1
	srcList                    // one ascending posting list
	srcUnion                   // the union of several posting lists, via a bitmap
	srcWord                    // a q word's groups and its other records (see wordSource)
	srcBits                    // every q word's records as a bitmap, ANDed (see bitsSource)
)

// source is the set of candidate positions a query scans, confined to the
// query's window (see plan).
type source struct {
	kind  sourceKind
	span  span
	list  []int32
	lists [][]int32
	// cost estimates the candidates to visit; the cheapest source wins.
	cost int
	// covers and word (-1 for none) need no per-record check.
	covers uint32
	word   int
}

func (s span) size() int { return int(s.hi - s.lo) }

// groupSpan is the groups of the positions of w, which starts and ends
// on group bounds (the whole table, a make or a make and model).
func (ix *index) groupSpan(w span) span {
	if w.lo == w.hi {
		return span{}
	}
	return span{ix.text.grpOf[w.lo], ix.text.grpOf[w.hi-1] + 1}
}

func clip(l []int32, w span) []int32 {
	lo, _ := slices.BinarySearch(l, w.lo)
	n, _ := slices.BinarySearch(l[lo:], w.hi)
	return l[lo : lo+n]
}

// maxClippedLists bounds the lists a union clips to price itself.
const maxClippedLists = 64

// maxInlineWords is how many q words a query plans without allocating.
const maxInlineWords = 8

type matcher struct {
	ix *index
	q  *query
	// ids are q's make, model and filter values in ix.values.
	makeID, modelID uint32
	attrIDs         [maxAttrs]uint32
	checks          uint32
	words           []wordRange
	skipWord        int
	// allNamed and noneNamed say a record's name decides nothing: every
	// word matches only names' tokens, or one matches none of them.
	allNamed, noneNamed bool
	// cursor is, per q word, where the last group's search in the word's
	// list ended.
	cursor [maxInlineWords]int
}

func (q *query) active() uint32 {
	var c uint32
	set := func(on bool, bit uint32) {
		if on {
			c |= bit
		}
	}
	set(q.make != "", bMake)
	set(q.model != "", bModel)
	set(q.year != 0, bYear)
	set(q.yearMin != 0, bYearMin)
	set(q.yearMax != 0, bYearMax)
	for a, v := range q.attrs {
		set(v != "", bAttr0<<a)
	}
	set(q.evOnly, bEV)
	set(q.hasHPMin, bHPMin)
	set(q.hasHPMax, bHPMax)
	set(q.hasLenMin, bLenMin)
	set(q.hasLenMax, bLenMax)
	return c
}

// plan picks the cheapest candidate source and appends each q word's token
// range to words; !ok means a constraint matches nothing. Posting lists
// are clipped to the make (or make+model) span before pricing. A function,
// so escape analysis keeps the caller's buffers on the stack.
func (ix *index) plan(q *query, words []wordRange) (best source, _ []wordRange, ok bool) {
	win := span{0, int32(ix.n)}
	var winCovers uint32
	if q.make != "" {
		me := ix.makes[q.make]
		if me == nil {
			return best, words, false
		}
		win, winCovers = me.span, bMake
		if q.model != "" {
			ms, found := me.models[q.model]
			if !found {
				return best, words, false
			}
			win, winCovers = ms, bMake|bModel
		}
	}
	best = source{kind: srcSpan, span: win, cost: int(win.hi - win.lo), covers: winCovers, word: -1}
	clipped := winCovers != 0
	// An empty list or union means the query has no match.
	list := func(l []int32, covers uint32, word int) bool {
		if clipped {
			l = clip(l, win)
		}
		if len(l) < best.cost {
			best = source{kind: srcList, span: win, list: l, cost: len(l), covers: covers | winCovers, word: word}
		}
		return len(l) > 0
	}
	union := func(lists [][]int32, size int, covers uint32, word int) bool {
		if clipped && len(lists) <= maxClippedLists {
			size = 0
			for _, l := range lists {
				size += len(clip(l, win))
			}
		}
		// A bitmap union visits every posting plus one word per 64 positions.
		if cost := size + int(win.hi-win.lo)/64 + 1; cost < best.cost {
			best = source{kind: srcUnion, span: win, lists: lists, cost: cost, covers: covers | winCovers, word: word}
		}
		return size > 0
	}

	if q.model != "" && q.make == "" && !list(ix.byModel[q.model], bModel, -1) {
		return best, words, false
	}
	switch {
	case q.year != 0:
		a, b := ix.yearRange(q.year, q.year)
		if a == b || !list(ix.yearPosts.posts[a], bYear, -1) {
			return best, words, false
		}
	case q.yearMin != 0 && q.yearMax != 0:
		a, b := ix.yearRange(q.yearMin, q.yearMax)
		if a == b || !union(ix.yearPosts.posts[a:b], ix.yearPosts.size(a, b), bYearMin|bYearMax, -1) {
			return best, words, false
		}
	}
	for a, v := range q.attrs {
		if v != "" && !list(ix.byAttr[a][v], bAttr0<<a, -1) {
			return best, words, false
		}
	}
	// Once the source is chosen, a q word's groups are taken whole when
	// nothing else is checked per record; otherwise each record is.
	perRecord := q.active()&^winCovers != 0
	for w, word := range q.words {
		lo, hi := ix.text.prefixRange(word)
		if lo == hi {
			return best, words, false
		}
		r := wordRange{int32(lo), int32(hi)}
		words = append(words, r)
		groups, others := ix.text.groups.size(lo, hi), ix.text.size(lo, hi)
		if perRecord {
			groups = ix.text.nameRecs[hi] - ix.text.nameRecs[lo]
		}
		ids := ix.text.otherIDs(r.lo, r.hi)
		if clipped {
			gwin := ix.groupSpan(win)
			if groups = min(groups, gwin.size()); hi-lo <= maxClippedLists && !perRecord {
				groups = 0
				for _, l := range ix.text.groups.posts[lo:hi] {
					groups += len(clip(l, gwin))
				}
			}
			if len(ids) <= maxClippedLists {
				others = 0
				for _, id := range ids {
					others += len(clip(ix.text.posts[id], win))
				}
			}
		}
		if groups+others == 0 {
			return best, words, false
		}
		switch {
		case len(ids) > 1:
			others += int(win.hi-win.lo)/64 + 1
		case len(q.words) == 1 && !perRecord:
			// wordSource takes one list of others whole.
			others = 0
		}
		if cost := groups + others; cost < best.cost {
			best = source{kind: srcWord, span: win, cost: cost, covers: winCovers, word: w}
		}
	}
	if q.evOnly && ix.ev == nil {
		return best, words, false
	}
	if q.active()&^(winCovers|listFilters) == 0 && len(words) > 0 && (q.model == "" || q.make != "") {
		if cost := ix.bitsCost(q, words, win); cost < best.cost*wordsPerVisit {
			best = source{kind: srcBits, span: win, cost: cost / wordsPerVisit, covers: q.active(), word: -1}
		}
	}
	return best, words, true
}

// wordsPerVisit is how many bitmap words cost what checking one candidate
// does, and bitsSetUp what a bitmap search costs on top of its words.
const (
	wordsPerVisit = 16
	bitsSetUp     = 256
)

// listFilters are the filters whose posting lists a bitmap search ANDs.
const listFilters = bYear | bYearMin | bYearMax | bAttr0 | bAttr0<<1 | bAttr0<<2

// filterLists returns, per filter of listFilters that q sets, the lists
// whose union it matches.
func (ix *index) filterLists(q *query) (out [2 + maxAttrs][][]int32, n int) {
	years := func(lo, hi int) {
		a, b := ix.yearRange(lo, hi)
		out[n], n = ix.yearPosts.posts[a:b], n+1
	}
	if q.year != 0 {
		years(q.year, q.year)
	}
	if q.yearMin != 0 || q.yearMax != 0 {
		years(cmp.Or(q.yearMin, math.MinInt), cmp.Or(q.yearMax, math.MaxInt))
	}
	for a, v := range q.attrs {
		if v != "" {
			out[n], n = [][]int32{ix.byAttr[a][v]}, n+1
		}
	}
	return out, n
}

// bitsCost prices bitsSource in bitmap words: per q word, a pass over the
// window for its groups and one per dense token, and each sparse posting.
func (ix *index) bitsCost(q *query, words []wordRange, win span) int {
	t := &ix.text
	n := win.size()/64 + 2
	cost := bitsSetUp
	for _, r := range words {
		cost += n + int(r.hi-r.lo)
		for _, id := range t.otherIDs(r.lo, r.hi) {
			if t.dense[id] != nil {
				cost += n
			} else {
				cost += len(t.posts[id])
			}
		}
	}
	lists, k := ix.filterLists(q)
	for _, ls := range lists[:k] {
		cost += n
		for _, l := range ls {
			if ix.listBits(l) != nil {
				cost += n
			} else {
				cost += len(l)
			}
		}
	}
	return cost
}

// ok runs the checks the source did not guarantee, without allocating.
func (m *matcher) ok(i int32) bool {
	ix, q, c := m.ix, m.q, m.checks
	if c != 0 {
		if c&bMake != 0 && ix.lmake[i] != m.makeID ||
			c&bModel != 0 && ix.lmodel[i] != m.modelID ||
			c&bYear != 0 && int(ix.year[i]) != q.year ||
			c&bYearMin != 0 && int(ix.year[i]) < q.yearMin ||
			c&bYearMax != 0 && int(ix.year[i]) > q.yearMax {
			return false
		}
		for a := range maxAttrs {
			if c&(bAttr0<<a) != 0 && ix.attrs[a][i] != m.attrIDs[a] {
				return false
			}
		}
		if c&bEV != 0 && !ix.ev[i] ||
			c&bHPMin != 0 && ix.hpAt(i) < q.hpMin ||
			c&bHPMax != 0 && ix.hpAt(i) > q.hpMax ||
			c&bLenMin != 0 && ix.lengthAt(i) < q.lenMin ||
			c&bLenMax != 0 && ix.lengthAt(i) > q.lenMax {
			return false
		}
	}
	for w, r := range m.words {
		if w != m.skipWord && !ix.text.has(i, r.lo, r.hi) {
			return false
		}
	}
	return true
}

func (ix *index) hpAt(i int32) int {
	if ix.hp == nil {
		return 0
	}
	return int(ix.hp[i])
}

func (ix *index) lengthAt(i int32) float64 {
	if ix.length == nil {
		return 0
	}
	return ix.length[i]
}

// named reports whether every q word matches the make's or model's tokens;
// once the named matches fill the page, no later record can reach it.
func (m *matcher) named(i int32, c *collector) bool {
	if m.allNamed || m.noneNamed || c.named >= c.to {
		return m.allNamed
	}
	for _, r := range m.words {
		if !m.ix.text.nameHas(i, r.lo, r.hi) {
			return false
		}
	}
	return true
}

// pageBuf is returned by value so that a page never needs the heap.
type pageBuf struct {
	pos [MaxPerPage]int32
	n   int
}

func (p *pageBuf) positions() []int32 { return p.pos[:p.n] }

// collector pages the matches, those whose name has every q word first
// (named), then the others, each group in position order; it keeps the
// first of the others that a page can reach.
type collector struct {
	total, from, to int
	page            pageBuf
	named           int
	others          [MaxReachable]int32
}

func (c *collector) add(i int32, named bool) {
	if named {
		if c.named >= c.from && c.named < c.to {
			c.page.pos[c.page.n] = i
			c.page.n++
		}
		c.named++
	} else if k := c.total - c.named; k < c.to && k < len(c.others) {
		c.others[k] = i
	}
	c.total++
}

// addRun adds the named matches lo..hi-1.
func (c *collector) addRun(s span) {
	for k := max(c.named, c.from); k < min(c.named+s.size(), c.to); k++ {
		c.page.pos[c.page.n] = s.lo + int32(k-c.named)
		c.page.n++
	}
	c.named += s.size()
	c.total += s.size()
}

// addOthers adds the matches l, none named.
func (c *collector) addOthers(l []int32) {
	if k := c.total - c.named; k < min(c.to, len(c.others)) {
		copy(c.others[k:min(c.to, len(c.others))], l)
	}
	c.total += len(l)
}

// addOthersRun adds the matches lo..hi-1, none named.
func (c *collector) addOthersRun(s span) {
	k0 := c.total - c.named
	for k := k0; k < min(k0+s.size(), c.to, len(c.others)); k++ {
		c.others[k] = s.lo + int32(k-k0)
	}
	c.total += s.size()
}

// finish fills the page past the named matches with the others.
func (c *collector) finish() (int, pageBuf) {
	for k := max(c.from, c.named); k < min(c.to, c.total); k++ {
		c.page.pos[c.page.n] = c.others[k-c.named]
		c.page.n++
	}
	return c.total, c.page
}

// match returns the number of matches and the positions of matches
// off..off+limit-1; positions are result order, so nothing is sorted.
func (ix *index) match(q *query, off, limit int) (int, pageBuf) {
	var wbuf [maxInlineWords]wordRange
	src, words, ok := ix.plan(q, wbuf[:0])
	if !ok {
		return 0, pageBuf{}
	}
	m := matcher{ix: ix, q: q, words: words, allNamed: true, makeID: ix.values.lookup(q.make), modelID: ix.values.lookup(q.model)}
	for a, v := range q.attrs {
		m.attrIDs[a] = ix.values.lookup(v)
	}
	for _, r := range words {
		name, other := ix.text.inName(r.lo, r.hi)
		m.allNamed = m.allNamed && !other
		m.noneNamed = m.noneNamed || !name
	}
	m.checks = q.active() &^ src.covers
	m.skipWord = src.word
	col := collector{from: off, to: off + limit}

	// When the source alone is the answer (a make, make and model or one
	// filter, no q), it costs O(page).
	exact := m.checks == 0 && len(m.words) == 0
	switch src.kind {
	case srcSpan:
		if exact {
			total := int(src.span.hi - src.span.lo)
			for k := off; k < min(off+limit, total); k++ {
				col.page.pos[col.page.n] = src.span.lo + int32(k)
				col.page.n++
			}
			return total, col.page
		}
		for i := src.span.lo; i < src.span.hi; i++ {
			if m.ok(i) {
				col.add(i, m.named(i, &col))
			}
		}
	case srcList:
		if exact {
			total := len(src.list)
			col.page.n = copy(col.page.pos[:limit], src.list[min(off, total):min(off+limit, total)])
			return total, col.page
		}
		for _, i := range src.list {
			if m.ok(i) {
				col.add(i, m.named(i, &col))
			}
		}
	case srcUnion:
		var it posIter
		it.init(src.lists, nil, src.span, m.whole(src.span))
		for i := it.peek(); i != noPos; i = it.peek() {
			it.pop()
			if m.ok(i) {
				col.add(i, m.named(i, &col))
			}
		}
	case srcWord:
		m.wordSource(src, &col)
	case srcBits:
		m.bitsSource(src.span, &col)
	}
	return col.finish()
}

var bitsPool = sync.Pool{New: func() any { return new([]uint64) }}

// bitsSource ANDs the q words' records in the window w, a bitmap each,
// adds the groups whose name has every word as the named matches and
// counts the rest, visiting no record but the page's: a query of words
// many records have costs a pass over the window's bits per word, not
// one per record its postings reach.
func (m *matcher) bitsSource(w span, col *collector) {
	if w.size() == 0 {
		return
	}
	base := w.lo &^ 63
	n := int(w.hi-base+63) / 64
	buf := bitsPool.Get().(*[]uint64)
	defer bitsPool.Put(buf)
	if cap(*buf) < 2*n {
		*buf = make([]uint64, 2*n)
	}
	acc, word := (*buf)[:n], (*buf)[n:2*n]
	m.wordBits(m.words[0], w, base, acc)
	acc[0] &^= 1<<(w.lo-base) - 1
	if end := (w.hi - base) & 63; end != 0 {
		acc[n-1] &= 1<<end - 1
	}
	total := 0
	if len(m.words) == 1 && m.q.active()&listFilters == 0 {
		total = onesCount(acc)
	}
	for _, r := range m.words[1:] {
		m.wordBits(r, w, base, word)
		total = andCount(acc, word)
	}
	lists, k := m.ix.filterLists(m.q)
	for _, ls := range lists[:k] {
		clear(word)
		for _, l := range ls {
			orList(word, l, m.ix.listBits(l), w, base)
		}
		total = andCount(acc, word)
	}
	t := &m.ix.text
	it := posIter{set: acc, base: base, cur: acc[0]}
	var groups posIter
	first := m.words[0]
	groups.init(t.groups.posts[first.lo:first.hi], nil, m.ix.groupSpan(w), m.whole(w))
	for g := groups.peek(); g != noPos; g = groups.peek() {
		groups.pop()
		if m.allInName(g) {
			total -= it.addNamed(span{t.grpOff[g], t.grpOff[g+1]}, col)
		}
	}
	it.addCounted(col, total)
}

// onesCount counts the set bits, four words at a time so that the counts
// do not wait on each other.
func onesCount(set []uint64) int {
	var n0, n1, n2, n3 int
	for ; len(set) >= 4; set = set[4:] {
		n0 += bits.OnesCount64(set[0])
		n1 += bits.OnesCount64(set[1])
		n2 += bits.OnesCount64(set[2])
		n3 += bits.OnesCount64(set[3])
	}
	for _, v := range set {
		n0 += bits.OnesCount64(v)
	}
	return n0 + n1 + n2 + n3
}

// andCount leaves dst AND src in dst and returns its set bits.
func andCount(dst, src []uint64) int {
	src = src[:len(dst)]
	var n0, n1 int
	j := 0
	for ; j+1 < len(dst); j += 2 {
		a, b := dst[j]&src[j], dst[j+1]&src[j+1]
		dst[j], dst[j+1] = a, b
		n0 += bits.OnesCount64(a)
		n1 += bits.OnesCount64(b)
	}
	if j < len(dst) {
		dst[j] &= src[j]
		n0 += bits.OnesCount64(dst[j])
	}
	return n0 + n1
}

func (m *matcher) allInName(g int32) bool {
	for _, r := range m.words {
		if !m.ix.text.groupHas(g, r.lo, r.hi) {
			return false
		}
	}
	return true
}

// wordBits sets in dst, whose bit b is position base+b, the records of
// the window w that have a token of r: its groups whole, then its others.
func (m *matcher) wordBits(r wordRange, w span, base int32, dst []uint64) {
	t := &m.ix.text
	clear(dst)
	gw := m.ix.groupSpan(w)
	for _, l := range t.groups.posts[r.lo:r.hi] {
		for _, g := range clip(l, gw) {
			setRange(dst, t.grpOff[g]-base, t.grpOff[g+1]-base)
		}
	}
	for _, id := range t.otherIDs(r.lo, r.hi) {
		orList(dst, t.posts[id], t.dense[id], w, base)
	}
}

// orList sets in dst the positions of l within the window w, from its
// bitmap d of every position when it has one.
func orList(dst []uint64, l []int32, d []uint64, w span, base int32) {
	if d == nil {
		setBits(dst, clip(l, w), base)
		return
	}
	d = d[base/64:]
	for j := range dst {
		dst[j] |= d[j]
	}
}

// listBits is the bitmap of a year or attribute list, if it has one.
func (ix *index) listBits(l []int32) []uint64 {
	if len(l) == 0 {
		return nil
	}
	return ix.listDense[&l[0]]
}

// setBits sets the bits of positions l, bit b standing for base+b.
func setBits(dst []uint64, l []int32, base int32) {
	for _, i := range l {
		b := i - base
		dst[b>>6] |= 1 << (b & 63)
	}
}

// setRange sets bits lo..hi-1.
func setRange(dst []uint64, lo, hi int32) {
	for b := lo; b < hi; {
		if b&63 == 0 && hi-b >= 64 {
			dst[b>>6] = math.MaxUint64
			b += 64
			continue
		}
		dst[b>>6] |= 1 << (b & 63)
		b++
	}
}

func (m *matcher) whole(w span) bool { return w.lo == 0 && w.size() == m.ix.n }

// wordSource visits the groups whose name has the source word and, in
// position order among them, the records having it elsewhere.
func (m *matcher) wordSource(src source, col *collector) {
	t := &m.ix.text
	r := m.words[src.word]
	var groups, others posIter
	whole := m.whole(src.span)
	groups.init(t.groups.posts[r.lo:r.hi], nil, m.ix.groupSpan(src.span), whole)
	others.init(t.posts, t.otherIDs(r.lo, r.hi), src.span, whole)
	// With one word and nothing else to check, the groups are named
	// matches and the other records all the others: each kind is counted
	// whole, the others once those in the groups are set apart.
	if len(m.words) == 1 && m.checks == 0 {
		for g := groups.peek(); g != noPos; g = groups.peek() {
			groups.pop()
			grp := span{t.grpOff[g], t.grpOff[g+1]}
			col.addRun(grp)
			others.exclude(grp, col)
		}
		others.addTo(col)
		return
	}
	for g := groups.peek(); g != noPos || others.peek() != noPos; g = groups.peek() {
		next := noPos
		if g != noPos {
			next = t.grpOff[g]
		}
		if i := others.peek(); i < next {
			others.pop()
			if !t.nameHas(i, r.lo, r.hi) && m.ok(i) {
				col.add(i, false)
			}
			continue
		}
		groups.pop()
		m.group(g, col)
	}
}

// maxOtherLists bounds the lists a group's missing word is clipped from.
const maxOtherLists = 4

// group adds the matches of group g, whose name has the source word: the
// whole group when its name has every word, the records having the one
// word it lacks when that is all there is to check, else record by record.
func (m *matcher) group(g int32, col *collector) {
	t := &m.ix.text
	grp := span{t.grpOff[g], t.grpOff[g+1]}
	missing, lacked := 0, -1
	for w, r := range m.words {
		if w != m.skipWord && !t.groupHas(g, r.lo, r.hi) {
			missing++
			lacked = w
		}
	}
	if m.checks == 0 && missing == 0 {
		col.addRun(grp)
		return
	}
	if m.checks != 0 || missing != 1 {
		m.each(grp, missing == 0, col)
		return
	}
	ids := t.otherIDs(m.words[lacked].lo, m.words[lacked].hi)
	if len(ids) == 1 && lacked < len(m.cursor) {
		// Mostly every record of a group has the word, or none does.
		switch t.otherCount(g, ids[0]) {
		case 0:
			return
		case grp.size():
			col.addOthersRun(grp)
			return
		}
		l := t.posts[ids[0]]
		lo := gallop(l, m.cursor[lacked], grp.lo)
		hi := gallop(l, lo, grp.hi)
		m.cursor[lacked] = hi
		col.addOthers(l[lo:hi])
		return
	}
	if len(ids) <= maxOtherLists {
		var hit []int32
		n := 0
		for _, id := range ids {
			if l := clip(t.posts[id], grp); len(l) > 0 {
				hit = l
				n++
			}
		}
		if n <= 1 {
			col.addOthers(hit)
			return
		}
	}
	m.each(grp, false, col)
}

// each checks the records of s one by one.
func (m *matcher) each(s span, named bool, col *collector) {
	for i := s.lo; i < s.hi; i++ {
		if m.ok(i) {
			col.add(i, named)
		}
	}
}

const noPos = int32(math.MaxInt32)

// posIter walks the union of ascending lists within a window in order:
// one list as it is, several through a bitmap whose bit b stands for
// position base+b (a make's models sit together, so a word of a few
// makes' models needs a few words, not the table's).
type posIter struct {
	list []int32
	set  []uint64
	base int32
	w    int
	cur  uint64
}

// init takes lists[id] for each of ids, or every list when ids is nil;
// whole says the window holds every position, so nothing is clipped.
func (it *posIter) init(lists [][]int32, ids []int32, win span, whole bool) {
	var one []int32
	n := 0
	lo, hi := win.hi, win.lo
	each := func(f func(l []int32)) {
		visit := func(l []int32) {
			if !whole {
				l = clip(l, win)
			}
			if len(l) > 0 {
				f(l)
			}
		}
		if ids == nil {
			for _, l := range lists {
				visit(l)
			}
			return
		}
		for _, id := range ids {
			visit(lists[id])
		}
	}
	each(func(l []int32) {
		one, n = l, n+1
		lo, hi = min(lo, l[0]), max(hi, l[len(l)-1]+1)
	})
	if n <= 1 {
		it.list = one
		return
	}
	it.base = lo
	it.set = make([]uint64, (hi-lo+63)/64)
	each(func(l []int32) {
		for _, i := range l {
			b := i - lo
			it.set[b>>6] |= 1 << (b & 63)
		}
	})
	it.cur = it.set[0]
}

// peek returns the next position, or noPos.
func (it *posIter) peek() int32 {
	if it.set == nil {
		if len(it.list) == 0 {
			return noPos
		}
		return it.list[0]
	}
	for it.cur == 0 {
		if it.w++; it.w >= len(it.set) {
			return noPos
		}
		it.cur = it.set[it.w]
	}
	return it.base + int32(it.w<<6+bits.TrailingZeros64(it.cur))
}

func (it *posIter) pop() {
	if it.set == nil {
		it.list = it.list[1:]
	} else {
		it.cur &= it.cur - 1
	}
}

// exclude removes the positions of s: from a list, after adding those
// before s to c as others; from a bitmap, whose positions addTo adds.
func (it *posIter) exclude(s span, c *collector) {
	if it.set == nil {
		c.addOthers(it.until(s.lo))
		it.until(s.hi)
		return
	}
	lo, hi := max(s.lo-it.base, 0), min(s.hi-it.base, int32(len(it.set)<<6))
	for b := lo; b < hi; {
		if b&63 == 0 && hi-b >= 64 {
			it.set[b>>6] = 0
			b += 64
			continue
		}
		it.set[b>>6] &^= 1 << (b & 63)
		b++
	}
}

// until takes the positions below end from a list.
func (it *posIter) until(end int32) []int32 {
	n, _ := slices.BinarySearch(it.list, end)
	l := it.list[:n]
	it.list = it.list[n:]
	return l
}

// addTo adds the positions left to c as others.
func (it *posIter) addTo(c *collector) {
	if it.set == nil {
		c.addOthers(it.list)
		return
	}
	it.addCounted(c, onesCount(it.set))
}

// addNamed adds the positions of s in the bitmap to c as named matches,
// reading them only as far as the page reaches, takes them out of it and
// returns how many there were.
func (it *posIter) addNamed(s span, c *collector) int {
	lo, hi := s.lo-it.base, s.hi-it.base
	n := 0
	for w := lo >> 6; w <= (hi-1)>>6; w++ {
		mask := ^uint64(0)
		if w == lo>>6 {
			mask &^= 1<<(lo&63) - 1
		}
		if w == (hi-1)>>6 && hi&63 != 0 {
			mask &= 1<<(hi&63) - 1
		}
		v := it.set[w] & mask
		it.set[w] &^= v
		n += bits.OnesCount64(v)
		for ; v != 0 && c.named < c.to; v &= v - 1 {
			c.add(it.base+w<<6+int32(bits.TrailingZeros64(v)), true)
		}
		k := bits.OnesCount64(v)
		c.named += k
		c.total += k
	}
	return n
}

// addCounted adds the n positions left in the bitmap to c as others,
// reading it only as far as the page reaches.
func (it *posIter) addCounted(c *collector, n int) {
	reach, k := min(c.to, len(c.others)), c.total-c.named
	for w := 0; w < len(it.set) && k < reach; w++ {
		for word := it.set[w]; word != 0 && k < reach; word &= word - 1 {
			c.others[k] = it.base + int32(w<<6+bits.TrailingZeros64(word))
			k++
		}
	}
	c.total += n
}

// gallop returns the index of the first of l[from:] at or above v,
// doubling its steps from from: the groups of a query ascend, so each
// search starts where the last ended.
func gallop(l []int32, from int, v int32) int {
	step := 1
	hi := from
	for hi < len(l) && l[hi] < v {
		from = hi + 1
		hi += step
		step <<= 1
	}
	n, _ := slices.BinarySearch(l[from:min(hi, len(l))], v)
	return from + n
}
