package vpic

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// The store holds a snapshot as the decoder's own tables, not as the
// SQLite file it came from, so that a server loads it in a fraction of a
// second without a temporary file or SQLite:
//
//	magic     "VDSVPIC" and a format byte
//	strings   count, then each as length and bytes (string 0 is "")
//	wmis      count, then each: code (length and bytes), make,
//	          manufacturer, vehicle type (string numbers), schema count,
//	          then each: schema, from, to
//	schemas   count, then each: id, pattern count, then each pattern:
//	          keys, value, make (string numbers), id, element, rank
//
// Numbers are unsigned varints. A stored snapshot in another format (an
// older vds's) is refused with ErrStoredFormat, and imported again.
const magic = "VDSVPIC\x01"

// ErrStoredFormat is returned by Load for a stored snapshot this vds
// cannot read.
var ErrStoredFormat = errors.New("the stored vPIC snapshot is in a format this vds does not read; run vds vpic import FILE again")

func (s *Snapshot) marshal() []byte {
	b := []byte(magic)
	b = binary.AppendUvarint(b, uint64(len(s.strs)))
	for _, v := range s.strs {
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	codes := slices.Sorted(maps.Keys(s.wmis))
	b = binary.AppendUvarint(b, uint64(len(codes)))
	for _, code := range codes {
		w := s.wmis[code]
		b = binary.AppendUvarint(b, uint64(len(code)))
		b = append(b, code...)
		b = appendUvarints(b, uint64(w.make), uint64(w.manufacturer), uint64(w.vehicleType), uint64(len(w.schemas)))
		for _, ws := range w.schemas {
			b = appendUvarints(b, uint64(ws.schema), uint64(ws.from), uint64(ws.to))
		}
	}
	ids := slices.Sorted(maps.Keys(s.schemas))
	b = binary.AppendUvarint(b, uint64(len(ids)))
	for _, id := range ids {
		ps := s.schemas[id]
		b = appendUvarints(b, uint64(id), uint64(len(ps)))
		for _, p := range ps {
			b = appendUvarints(b, uint64(p.keys), uint64(p.value), uint64(p.make), uint64(p.id))
			b = append(b, p.element, p.rank)
		}
	}
	return b
}

func appendUvarints(b []byte, vs ...uint64) []byte {
	for _, v := range vs {
		b = binary.AppendUvarint(b, v)
	}
	return b
}

// unmarshal decodes what marshal encoded. The strings share one copy of
// their own: the rest of b, most of it, is not kept.
func unmarshal(b []byte) (*Snapshot, error) {
	if len(b) < len(magic) || string(b[:len(magic)]) != magic {
		return nil, ErrStoredFormat
	}
	all := string(b)
	r := reader{s: all, off: len(magic)}
	s := &Snapshot{}
	n := r.count()
	s.strs = make([]string, n)
	size := 0
	for i := range s.strs {
		s.strs[i] = r.string()
		size += len(s.strs[i])
	}
	var joined strings.Builder
	joined.Grow(size)
	for _, str := range s.strs {
		joined.WriteString(str)
	}
	pool := joined.String()
	for i, str := range s.strs {
		s.strs[i], pool = pool[:len(str)], pool[len(str):]
	}
	str := func() uint32 {
		i := r.uvarint()
		if i >= uint64(len(s.strs)) {
			r.fail("string number")
		}
		return uint32(i)
	}
	n = r.count()
	s.wmis = make(map[string]*wmi, n)
	for range n {
		code := strings.Clone(r.string())
		w := &wmi{make: str(), manufacturer: str(), vehicleType: str()}
		if n := r.count(); n > 0 {
			w.schemas = make([]wmiSchema, n)
		}
		for i := range w.schemas {
			w.schemas[i] = wmiSchema{schema: r.int32(), from: r.int32(), to: r.int32()}
		}
		if r.err != nil {
			return nil, r.err
		}
		s.wmis[code] = w
	}
	n = r.count()
	s.schemas = make(map[int32][]pattern, n)
	for range n {
		id := r.int32()
		ps := make([]pattern, r.count())
		for i := range ps {
			ps[i] = pattern{keys: str(), value: str(), make: str(), id: r.int32(), element: r.byte(), rank: r.byte()}
		}
		if r.err != nil {
			return nil, r.err
		}
		s.schemas[id] = ps
	}
	if r.err == nil && r.off != len(all) {
		r.fail("trailing bytes")
	}
	return s, r.err
}

type reader struct {
	s   string
	off int
	err error
}

func (r *reader) fail(what string) error {
	if r.err == nil {
		r.err = fmt.Errorf("%w (corrupt %s at byte %d)", ErrStoredFormat, what, r.off)
	}
	return r.err
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		if r.off >= len(r.s) {
			r.fail("number")
			return 0
		}
		c := r.s[r.off]
		r.off++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v
		}
	}
	r.fail("number")
	return 0
}

// count reads a length, bounded by what is left to read.
func (r *reader) count() int {
	v := r.uvarint()
	if v > uint64(len(r.s)-r.off) {
		r.fail("count")
		return 0
	}
	return int(v)
}

func (r *reader) string() string {
	l := r.count()
	if r.err != nil {
		return ""
	}
	v := r.s[r.off : r.off+l]
	r.off += l
	return v
}

func (r *reader) int32() int32 {
	v := r.uvarint()
	if v > 1<<31-1 {
		r.fail("number")
	}
	return int32(v)
}

func (r *reader) byte() uint8 {
	if r.err != nil || r.off >= len(r.s) {
		r.fail("byte")
		return 0
	}
	c := r.s[r.off]
	r.off++
	return c
}
