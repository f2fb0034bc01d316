package vehicle

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
)

// fields is what the index needs of one record, whatever its kind.
type fields struct {
	id                uuid.UUID
	make, model, trim string
	year              int
	// attrs are the lowercase values of the kind's string filters, by slot.
	attrs [maxAttrs]string
	// text are the fields q searches besides make and model.
	text   []string
	ev     bool
	hp     int
	length float64
}

type span struct{ lo, hi int32 }

// makeEntry indexes one lowercase make. Records are sorted by make and
// model, so both are spans and need no posting list.
type makeEntry struct {
	span
	models map[string]span
}

// index holds one kind's searchable columns by position in result order.
// Its string columns hold ids into values: numbers the collector does not
// trace, where a million strings' pointers were a cost of every cycle.
type index struct {
	n             int
	values        dict
	lmake, lmodel []uint32
	year          []int32
	attrs         [maxAttrs][]uint32
	// ev, hp and length are set only for the kinds that filter on them.
	ev     []bool
	hp     []int32
	length []float64

	makes   map[string]*makeEntry
	byModel map[string][]int32
	// years are the distinct years, ascending, with their positions in yearPosts.
	years     []int32
	yearPosts postingSet
	byAttr    [maxAttrs]map[string][]int32
	// listDense holds bitmaps of the commonest year and attribute lists,
	// by the list's first position's address.
	listDense map[*int32][]uint64
	text      textIndex
}

type table[T any] struct {
	recs []T
	// packed, once set, holds the records in place of recs (carRows).
	packed interface{ at(p int32) T }
	// raw holds each record's JSON from the first request that needs it:
	// encoding is most of a list's cost, and every record's up front was
	// a third of a million cars' memory.
	raw   []atomic.Pointer[json.RawMessage]
	byID  map[uuid.UUID]int32
	idx   index
	vocab [maxAttrs][]string
	taxonomy
}

// dict numbers the distinct lowercase values of an index's columns.
type dict struct {
	names []string
	ids   map[string]uint32
}

// noID is the id of a value no record holds.
const noID = ^uint32(0)

func (d *dict) id(s string) uint32 {
	if id, ok := d.ids[s]; ok {
		return id
	}
	if d.ids == nil {
		d.ids = map[string]uint32{}
	}
	id := uint32(len(d.names))
	d.names, d.ids[s] = append(d.names, s), id
	return id
}

// lookup returns the id of s, or noID.
func (d *dict) lookup(s string) uint32 {
	if id, ok := d.ids[s]; ok {
		return id
	}
	return noID
}

// interner shares one lowercase copy of each distinct string.
type interner map[string]string

func (in interner) lower(s string) string {
	// A string with nothing to lower is its own lowercase form; skipping the
	// map for it is most of what keeps the build fast.
	if isLowerASCII(s) {
		return s
	}
	if v, ok := in[s]; ok {
		return v
	}
	v := strings.ToLower(s)
	in[s] = v
	return v
}

func isLowerASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' || c >= 0x80 {
			return false
		}
	}
	return true
}

// strPool shares one copy of each distinct string among a table's
// records: loaded from a store, every record's make, model and types are
// strings of their own, the same few thousand over and over.
type strPool struct {
	m map[string]string
	// last are the previous record's shared values, by argument: sorted
	// records mostly repeat them, and comparing is cheaper than hashing.
	last []string
}

func (p *strPool) share(ss ...*string) {
	if p.last == nil {
		p.m, p.last = map[string]string{}, make([]string, len(ss))
	}
	for i, s := range ss {
		if *s != p.last[i] {
			v, ok := p.m[*s]
			if !ok {
				v = *s
				p.m[v] = v
			}
			p.last[i] = v
		}
		*s = p.last[i]
	}
}

// memo caches the last value of a field: neighbours mostly repeat it.
type memo struct {
	in        interner
	last, out string
	ok        bool
}

func (m *memo) lower(s string) string {
	if !m.ok || s != m.last {
		m.last, m.out, m.ok = s, m.in.lower(s), true
	}
	return m.out
}

// grouper lays out every value's positions in one flat array (see carve)
// rather than growing one slice per value.
type grouper struct {
	ids    map[string]int32
	keys   []string
	of     []int32
	last   string
	lastID int32
}

func newGrouper(n int) *grouper {
	return &grouper{ids: map[string]int32{}, of: make([]int32, 0, n), lastID: -1}
}

func (g *grouper) add(key string) {
	if g.lastID < 0 || key != g.last {
		id, ok := g.ids[key]
		if !ok {
			id = int32(len(g.keys))
			g.ids[key] = id
			g.keys = append(g.keys, key)
		}
		g.last, g.lastID = key, id
	}
	g.of = append(g.of, g.lastID)
}

// lists returns each value's ascending positions, except the empty value's.
func (g *grouper) lists() map[string][]int32 {
	counts := make([]int, len(g.keys))
	for _, id := range g.of {
		counts[id]++
	}
	lists := carve(counts)
	for pos, id := range g.of {
		lists[id] = append(lists[id], int32(pos))
	}
	m := make(map[string][]int32, len(g.keys))
	for id, k := range g.keys {
		if k != "" {
			m[k] = lists[id]
		}
	}
	return m
}

// sortKey orders results: make, model (ignoring case), year descending, trim, uuid.
type sortKey struct {
	make, model, trim string
	year              int
	id                uuid.UUID
}

func compareKeys(a, b *sortKey) int {
	if c := strings.Compare(a.make, b.make); c != 0 {
		return c
	}
	if c := strings.Compare(a.model, b.model); c != 0 {
		return c
	}
	if c := cmp.Compare(b.year, a.year); c != 0 {
		return c
	}
	if c := strings.Compare(a.trim, b.trim); c != 0 {
		return c
	}
	return bytes.Compare(a.id[:], b.id[:])
}

// newTable sorts the records, a copy of them unless own, and builds every
// index; extract runs twice per record so that peak memory stays low.
func newTable[T any](in []T, own bool, extract func(*T, *fields), share func(*T, *strPool), vocab *[maxAttrs][]string) (*table[T], error) {
	n := len(in)
	keys, perm := sortedKeys(in, extract)
	// The uuid map needs only the order, so it is built beside the rest.
	byID := make(chan map[uuid.UUID]int32, 1)
	go func() {
		m := make(map[uuid.UUID]int32, n)
		for k, p := range perm {
			m[keys[p].id] = int32(k)
		}
		byID <- m
	}()
	t := &table[T]{recs: in}
	if own {
		permute(in, perm)
	} else {
		t.recs = make([]T, n)
	}
	ix := &t.idx
	ix.n = n
	ix.lmake, ix.lmodel, ix.year = make([]uint32, n), make([]uint32, n), make([]int32, n)
	models := newGrouper(n)
	lower := interner{}
	var attrs [maxAttrs]*grouper
	var attrMemo [maxAttrs]memo
	for a := range attrs {
		attrs[a], attrMemo[a] = newGrouper(n), memo{in: lower}
		ix.attrs[a] = make([]uint32, n)
	}
	tb := newTextBuilder(n)
	// The original spellings, for the taxonomy's display names.
	makeNames, modelNames := make([]string, n), make([]string, n)
	// Encoding every record once refuses what JSON cannot carry (NaN, ±Inf
	// written into the store past validation) now, naming it, and not on
	// the request that meets it. It follows the loop below on the records
	// it has finished: a second of a million cars' start-up.
	finished := make(chan int, 4)
	encoded := make(chan error, 1)
	go func() {
		var err error
		start := 0
		for end := range finished {
			if err == nil {
				err = encodable(t.recs[start:end], extract)
			}
			start = end
		}
		encoded <- err
	}()
	var pool strPool
	var f fields
	for k, p := range perm {
		if !own {
			t.recs[k] = in[p]
		}
		share(&t.recs[k], &pool)
		key := &keys[p]
		ix.lmake[k], ix.lmodel[k], ix.year[k] = ix.values.id(key.make), ix.values.id(key.model), int32(key.year)
		models.add(key.model)

		f = fields{text: f.text[:0]}
		extract(&t.recs[k], &f)
		makeNames[k], modelNames[k] = f.make, f.model
		for a, v := range f.attrs {
			v = attrMemo[a].lower(v)
			ix.attrs[a][k] = ix.values.id(v)
			attrs[a].add(v)
		}
		ix.addValues(k, &f)
		tb.field(0, key.make, true)
		tb.field(1, key.model, true)
		tb.endName(k == 0 || ix.lmake[k] != ix.lmake[k-1] || ix.lmodel[k] != ix.lmodel[k-1])
		for i, s := range f.text {
			tb.field(2+i, s, false)
		}
		tb.endRecord()
		if done := k + 1; done%encodeBatch == 0 || done == n {
			finished <- done
		}
	}
	close(finished)
	ix.byModel = models.lists()
	for a := range attrs {
		ix.byAttr[a] = attrs[a].lists()
		if len(ix.byAttr[a]) == 0 {
			ix.attrs[a], ix.byAttr[a] = nil, nil
		}
	}
	for a, known := range vocab {
		if known != nil {
			t.vocab[a] = t.vocabulary(a, known, extract)
		}
	}
	ix.indexMakes()
	ix.indexYears()
	ix.indexListDense()
	ix.text = tb.index()
	taxErr := t.buildTaxonomy(makeNames, modelNames)
	if err := errors.Join(<-encoded, taxErr); err != nil {
		return nil, err
	}
	t.raw = make([]atomic.Pointer[json.RawMessage], n)
	t.byID = <-byID
	return t, nil
}

const encodeBatch = 1 << 14

// sortedKeys returns the records' sort keys and their order, each half's
// keys taken and sorted on a goroutine of its own, then merged.
func sortedKeys[T any](in []T, extract func(*T, *fields)) ([]sortKey, []int32) {
	n := len(in)
	keys, perm := make([]sortKey, n), make([]int32, n)
	byKey := func(a, b int32) int { return compareKeys(&keys[a], &keys[b]) }
	half := n / 2
	var wg sync.WaitGroup
	for _, r := range [][2]int{{0, half}, {half, n}} {
		wg.Go(func() {
			lower := interner{}
			mMake, mModel, mTrim := memo{in: lower}, memo{in: lower}, memo{in: lower}
			var f fields
			for i := r[0]; i < r[1]; i++ {
				f = fields{text: f.text[:0]}
				extract(&in[i], &f)
				keys[i] = sortKey{mMake.lower(f.make), mModel.lower(f.model), mTrim.lower(f.trim), f.year, f.id}
				perm[i] = int32(i)
			}
			slices.SortFunc(perm[r[0]:r[1]], byKey)
		})
	}
	wg.Wait()
	a, b := perm[:half], perm[half:]
	merged := make([]int32, 0, n)
	for len(a) > 0 && len(b) > 0 {
		if byKey(b[0], a[0]) < 0 {
			merged, b = append(merged, b[0]), b[1:]
		} else {
			merged, a = append(merged, a[0]), a[1:]
		}
	}
	return keys, append(append(merged, a...), b...)
}

// encodable returns an error naming the first record JSON cannot encode.
func encodable[T any](recs []T, extract func(*T, *fields)) error {
	enc := json.NewEncoder(io.Discard)
	check := func(r *T) error {
		err := enc.Encode(r)
		// A figure's error (catalog.Opt) reads as encoding/json's own.
		var m *json.MarshalerError
		if errors.As(err, &m) {
			return m.Unwrap()
		}
		return err
	}
	// All a car holds that JSON can refuse are its decimal figures:
	// checking them, not encoding the car, saves a million cars' start-up
	// two seconds of processor time.
	if _, ok := any(recs).([]catalog.Car); ok {
		check = func(r *T) error { return carFiguresEncodable(any(r).(*catalog.Car)) }
	}
	for k := range recs {
		if err := check(&recs[k]); err != nil {
			var f fields
			extract(&recs[k], &f)
			return fmt.Errorf("%s (%s %s %d): %w", f.id, f.make, f.model, f.year, err)
		}
	}
	return nil
}

// carFiguresEncodable returns the error JSON gives for the first of a
// car's decimal figures that is NaN or infinite.
func carFiguresEncodable(c *catalog.Car) error {
	for _, o := range [...]catalog.Opt[float64]{c.DisplacementL, c.MPGCity, c.MPGHighway, c.MPGCombined, c.CO2GPM} {
		if o.Valid && (math.IsNaN(o.V) || math.IsInf(o.V, 0)) {
			_, err := o.MarshalJSON()
			return err
		}
	}
	return nil
}

// permute reorders recs in place so that recs[k] is what recs[perm[k]] was.
func permute[T any](recs []T, perm []int32) {
	done := make([]bool, len(recs))
	for i := range recs {
		if done[i] {
			continue
		}
		first := recs[i]
		j := i
		for int(perm[j]) != i {
			recs[j] = recs[perm[j]]
			done[j] = true
			j = int(perm[j])
		}
		recs[j], done[j] = first, true
	}
}

// rec returns the record at position p.
func (t *table[T]) rec(p int32) T {
	if t.packed != nil {
		return t.packed.at(p)
	}
	return t.recs[p]
}

// json returns the JSON of the record at position p, encoding it on first use.
func (t *table[T]) json(p int32) json.RawMessage {
	if r := t.raw[p].Load(); r != nil {
		return *r
	}
	// newTable encoded every record once: this cannot fail.
	rec := t.rec(p)
	r, _ := encodeJSON(&rec)
	t.raw[p].Store(&r)
	return r
}

// vocabulary returns what filter slot a accepts: known values in order,
// then any other the records hold, sorted.
func (t *table[T]) vocabulary(a int, known []string, extract func(*T, *fields)) []string {
	out := slices.Clone(known)
	var extra []string
	for v, pos := range t.idx.byAttr[a] {
		if slices.ContainsFunc(known, func(k string) bool { return strings.ToLower(k) == v }) {
			continue
		}
		var f fields
		extract(&t.recs[pos[0]], &f)
		extra = append(extra, f.attrs[a])
	}
	slices.Sort(extra)
	return append(out, extra...)
}

func encodeJSON(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

func (ix *index) indexMakes() {
	ix.makes = map[string]*makeEntry{}
	start := 0
	for k := 1; k <= ix.n; k++ {
		if k < ix.n && ix.lmake[k] == ix.lmake[start] && ix.lmodel[k] == ix.lmodel[start] {
			continue
		}
		lmake := ix.values.names[ix.lmake[start]]
		me := ix.makes[lmake]
		if me == nil {
			me = &makeEntry{span: span{int32(start), int32(start)}, models: map[string]span{}}
			ix.makes[lmake] = me
		}
		me.hi = int32(k)
		me.models[ix.values.names[ix.lmodel[start]]] = span{int32(start), int32(k)}
		start = k
	}
}

func (ix *index) indexListDense() {
	lists := slices.Clone(ix.yearPosts.posts)
	for _, m := range ix.byAttr {
		for _, l := range m {
			lists = append(lists, l)
		}
	}
	ix.listDense = map[*int32][]uint64{}
	for k, d := range denseBitmaps(lists, ix.n) {
		if d != nil {
			ix.listDense[&lists[k][0]] = d
		}
	}
}

// indexYears counts first so that each list is allocated once.
func (ix *index) indexYears() {
	if ix.n == 0 {
		ix.yearPosts.finish()
		return
	}
	lo, hi := slices.Min(ix.year), slices.Max(ix.year)
	counts := make([]int, hi-lo+1)
	for _, y := range ix.year {
		counts[y-lo]++
	}
	lists := carve(counts)
	for pos, y := range ix.year {
		lists[y-lo] = append(lists[y-lo], int32(pos))
	}
	for i, l := range lists {
		if len(l) > 0 {
			ix.years = append(ix.years, lo+int32(i))
			ix.yearPosts.posts = append(ix.yearPosts.posts, l)
		}
	}
	ix.yearPosts.finish()
}

// addValues allocates a filter's column on first use, so kinds without it pay nothing.
func (ix *index) addValues(k int, f *fields) {
	if f.ev {
		if ix.ev == nil {
			ix.ev = make([]bool, ix.n)
		}
		ix.ev[k] = true
	}
	if f.hp != 0 || f.length != 0 {
		if ix.hp == nil {
			ix.hp, ix.length = make([]int32, ix.n), make([]float64, ix.n)
		}
		ix.hp[k], ix.length[k] = int32(f.hp), f.length
	}
}

func (ix *index) yearRange(lo, hi int) (int, int) {
	a := sort.Search(len(ix.years), func(i int) bool { return int(ix.years[i]) >= lo })
	b := sort.Search(len(ix.years), func(i int) bool { return int(ix.years[i]) > hi })
	return a, b
}
