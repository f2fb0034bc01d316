package vehicle

import (
	"math/bits"
	"slices"
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
	ix       *index
	q        *query
	checks   uint32
	words    []wordRange
	skipWord int
	// allNamed and noneNamed say a record's name decides nothing: every
	// word matches only names' tokens, or one matches none of them.
	allNamed, noneNamed bool
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
	for w, word := range q.words {
		lo, hi := ix.text.prefixRange(word)
		if lo == hi {
			return best, words, false
		}
		words = append(words, wordRange{int32(lo), int32(hi)})
		var found bool
		if hi-lo == 1 {
			found = list(ix.text.posts[lo], 0, w)
		} else {
			found = union(ix.text.posts[lo:hi], ix.text.size(lo, hi), 0, w)
		}
		if !found {
			return best, words, false
		}
	}
	if q.evOnly && ix.ev == nil {
		return best, words, false
	}
	return best, words, true
}

// ok runs the checks the source did not guarantee, without allocating.
func (m *matcher) ok(i int32) bool {
	ix, q, c := m.ix, m.q, m.checks
	if c != 0 {
		if c&bMake != 0 && ix.lmake[i] != q.make ||
			c&bModel != 0 && ix.lmodel[i] != q.model ||
			c&bYear != 0 && int(ix.year[i]) != q.year ||
			c&bYearMin != 0 && int(ix.year[i]) < q.yearMin ||
			c&bYearMax != 0 && int(ix.year[i]) > q.yearMax {
			return false
		}
		for a := range maxAttrs {
			if c&(bAttr0<<a) != 0 && ix.attrs[a][i] != q.attrs[a] {
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
	m := matcher{ix: ix, q: q, words: words, allNamed: true}
	for _, r := range words {
		name, other := ix.text.inName(r.lo, r.hi)
		m.allNamed = m.allNamed && !other
		m.noneNamed = m.noneNamed || !name
	}
	m.checks = q.active() &^ src.covers
	m.skipWord = src.word
	col := collector{from: off, to: off + limit}

	// When the source alone is the answer, make or make+model costs O(page);
	// so does one q word, unless some of its records have it in their name
	// and others elsewhere (then ranking needs each record).
	exact := m.checks == 0 && (len(m.words) == 0 || len(m.words) == 1 && src.word == 0 && (m.allNamed || m.noneNamed))
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
		// The bitmap covers the lists' positions in the window only, bit b
		// standing for position lo+b: a make's models sit together, so a
		// word of a few makes' models needs a few words, not the table's.
		whole := src.span.lo == 0 && int(src.span.hi) == ix.n
		inWindow := func(l []int32) []int32 {
			if whole {
				return l
			}
			return clip(l, src.span)
		}
		lo, hi := src.span.hi, src.span.lo
		for _, l := range src.lists {
			if l = inWindow(l); len(l) > 0 {
				lo, hi = min(lo, l[0]), max(hi, l[len(l)-1]+1)
			}
		}
		set := make([]uint64, (max(hi, lo)-lo+63)/64)
		for _, l := range src.lists {
			for _, i := range inWindow(l) {
				b := i - lo
				set[b>>6] |= 1 << (b & 63)
			}
		}
		for w, word := range set {
			for word != 0 {
				i := lo + int32(w<<6+bits.TrailingZeros64(word))
				word &= word - 1
				if m.ok(i) {
					col.add(i, m.named(i, &col))
				}
			}
		}
	}
	return col.finish()
}
