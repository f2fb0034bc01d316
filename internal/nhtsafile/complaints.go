package nhtsafile

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/fnv"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/upstream"
)

// KindComplaints is the kind of a FLAT_CMPL file.
const KindComplaints = "complaints"

// Field counts of FLAT_CMPL: 49 since September 2015, 48 from April 2014,
// 51 reportedly since April 2026. The first line's count picks the kind.
var complaintLayouts = map[int]bool{49: true, 48: true, 51: true}

// complaint field positions, 0-based.
const (
	cODI       = 1
	cMake      = 3
	cModel     = 4
	cYear      = 5
	cCrash     = 6
	cFailDate  = 7
	cFire      = 8
	cInjured   = 9
	cDeaths    = 10
	cComponent = 11
	cReceived  = 16
	cSummary   = 19
)

// complaintBatch is how many complaint lines go to the store at once: a
// file is streamed, never held whole.
const complaintBatch = 1024

// TableKey is how the complaints table names a vehicle: Key's folded make,
// model and year, joined by "|" (PostgreSQL text holds no NUL).
func TableKey(vehicleMake, model string, year int) string {
	return fold(vehicleMake) + "|" + fold(model) + "|" + strconv.Itoa(year)
}

// complaintTally counts a complaint file as it is read: its lines, its
// complaints (ODI number × vehicle) and vehicles, its newest date received.
// A complaint is kept as a 64-bit hash, 8 bytes of the 2 million of
// NHTSA's whole file (a collision, about one chance in 10^7, counts one less).
type complaintTally struct {
	rows     int64
	dataDate string
	vehicles map[string]bool
	seen     []uint64
	h        hash.Hash64
	odi      [8]byte
}

func (t *complaintTally) add(c *store.NHTSAComplaint) {
	t.rows++
	t.dataDate = max(t.dataDate, c.ReceivedDate)
	t.vehicles[c.Vehicle] = true
	t.h.Reset()
	_, _ = io.WriteString(t.h, c.Vehicle)
	binary.LittleEndian.PutUint64(t.odi[:], uint64(c.ODI))
	_, _ = t.h.Write(t.odi[:])
	t.seen = append(t.seen, t.h.Sum64())
}

func (t *complaintTally) counts() map[string]int64 {
	slices.Sort(t.seen)
	return map[string]int64{"rows": t.rows, "complaints": int64(len(slices.Compact(t.seen))), "vehicles": int64(len(t.vehicles))}
}

// scanComplaints reads a FLAT_CMPL file (tab-separated, no header, no
// quoting), giving its lines to put in batches, and tallies it.
func scanComplaints(r io.Reader, file string, put func([]store.NHTSAComplaint) error) (*complaintTally, error) {
	t := &complaintTally{vehicles: map[string]bool{}, h: fnv.New64a()}
	batch := make([]store.NHTSAComplaint, 0, complaintBatch)
	br := bufio.NewReaderSize(r, 1<<20)
	fields := make([][]byte, 51)
	want := 0
	for n := 1; ; n++ {
		line, err := readLine(br)
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		if len(line) > maxLine {
			return nil, &LineError{file, n, fmt.Sprintf("longer than %d bytes", maxLine)}
		}
		if len(line) > 0 {
			count := bytes.Count(line, []byte{'\t'}) + 1
			switch {
			case want == 0 && !complaintLayouts[count]:
				return nil, &LineError{file, n, fmt.Sprintf("%d fields; a FLAT_CMPL line has 49 (48 in 2014-2015 files, 51 from 2026)", count)}
			case want == 0:
				want = count
			case count != want:
				return nil, &LineError{file, n, fmt.Sprintf("%d fields where the file's first line has %d", count, want)}
			}
			s := utf8Line(line)
			for i := range count {
				fields[i], s, _ = bytes.Cut(s, []byte{'\t'})
			}
			c, err := complaintLine(fields[:count], file, n)
			if err != nil {
				return nil, err
			}
			t.add(&c)
			if batch = append(batch, c); len(batch) == complaintBatch {
				if err := put(batch); err != nil {
					return nil, err
				}
				batch = batch[:0]
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
	}
	if t.rows == 0 {
		return nil, fmt.Errorf("%s: no complaint rows", file)
	}
	if len(batch) > 0 {
		if err := put(batch); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func complaintLine(f [][]byte, file string, n int) (store.NHTSAComplaint, error) {
	str := func(i int) string { return strings.Join(strings.Fields(string(f[i])), " ") }
	odi, err := strconv.ParseInt(str(cODI), 10, 64)
	if err != nil || odi <= 0 {
		return store.NHTSAComplaint{}, &LineError{file, n, fmt.Sprintf("ODINO %q is not a number", f[cODI])}
	}
	year, err := strconv.Atoi(str(cYear))
	if err != nil || year < 1900 || year > 9999 {
		return store.NHTSAComplaint{}, &LineError{file, n, fmt.Sprintf("YEARTXT %q is not a year", f[cYear])}
	}
	count := func(i int, name string) (int, error) {
		if str(i) == "" {
			return 0, nil
		}
		v, err := strconv.Atoi(str(i))
		if err != nil || v < 0 {
			return 0, &LineError{file, n, fmt.Sprintf("%s %q is not a count", name, f[i])}
		}
		return v, nil
	}
	injured, err := count(cInjured, "INJURED")
	if err != nil {
		return store.NHTSAComplaint{}, err
	}
	deaths, err := count(cDeaths, "DEATHS")
	if err != nil {
		return store.NHTSAComplaint{}, err
	}
	return store.NHTSAComplaint{Vehicle: TableKey(str(cMake), str(cModel), year), ODI: odi,
		Component: ComponentGroup(str(cComponent)), Crash: yes(f[cCrash]), Fire: yes(f[cFire]), Injuries: injured, Deaths: deaths,
		IncidentDate: flatDate(bytes.TrimSpace(f[cFailDate])), ReceivedDate: flatDate(bytes.TrimSpace(f[cReceived])), Summary: str(cSummary)}, nil
}

// ComponentGroup is a component as NHTSA's complaints API names it: the
// file's "SERVICE BRAKES, HYDRAULIC:PEDALS AND LINKAGES" up to its first colon.
func ComponentGroup(s string) string {
	s, _, _ = strings.Cut(s, ":")
	return strings.TrimSpace(s)
}

// gather makes a vehicle's complaint lines its complaints, one per ODI
// number with the lines' components, newest received first.
func gather(lines []store.NHTSAComplaint) []upstream.Complaint {
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	at := map[int64]int{}
	var out []upstream.Complaint
	for _, l := range lines {
		i, ok := at[l.ODI]
		if !ok {
			i, at[l.ODI] = len(out), len(out)
			out = append(out, upstream.Complaint{ODINumber: l.ODI, Components: []string{}, Crash: l.Crash, Fire: l.Fire,
				Injuries: l.Injuries, Deaths: l.Deaths, IncidentDate: opt(l.IncidentDate), ReceivedDate: opt(l.ReceivedDate), Summary: opt(l.Summary)})
		}
		if c := &out[i]; l.Component != "" && !slices.Contains(c.Components, l.Component) {
			c.Components = append(c.Components, l.Component)
		}
	}
	for i := range out {
		slices.Sort(out[i].Components)
	}
	upstream.SortComplaints(out)
	return out
}

// ComplaintIndex answers complaints by make, model and year from the
// imported files' table.
type ComplaintIndex struct {
	st    store.NHTSAFileStore
	files []store.NHTSAFile
	date  string
	since time.Time
}

// Complaints lists the complaints of a make, model and year, newest
// received first; nil when the files name none.
func (ix *ComplaintIndex) Complaints(ctx context.Context, vehicleMake, model string, year int) ([]upstream.Complaint, error) {
	lines, err := ix.st.NHTSAComplaints(ctx, TableKey(vehicleMake, model, year))
	if err != nil {
		return nil, err
	}
	return gather(lines), nil
}

// Source names the files in answers, e.g. "NHTSA complaint files 2026-05-04".
func (ix *ComplaintIndex) Source() string { return "NHTSA complaint files " + ix.date }

// DataDate is the newest date received of the files, YYYY-MM-DD.
func (ix *ComplaintIndex) DataDate() string { return ix.date }

// Since is when the newest file was imported.
func (ix *ComplaintIndex) Since() time.Time { return ix.since }

// ErrNoComplaintFiles is returned by LoadComplaints when no complaint file has been imported.
var ErrNoComplaintFiles = errors.New("no NHTSA complaint file imported (run vds ingest --source nhtsa-recalls FLAT_CMPL.zip)")

// LoadComplaints describes the imported complaint files of st, whose
// complaints it then reads per vehicle.
func LoadComplaints(ctx context.Context, st store.NHTSAFileStore) (*ComplaintIndex, error) {
	files, err := st.NHTSAFiles(ctx)
	if err != nil {
		return nil, err
	}
	ix := &ComplaintIndex{st: st}
	for _, f := range files {
		if f.Kind != KindComplaints {
			continue
		}
		ix.files = append(ix.files, f)
		ix.date = max(ix.date, f.DataDate)
		if f.ImportedAt.After(ix.since) {
			ix.since = f.ImportedAt
		}
	}
	if len(ix.files) == 0 {
		return nil, ErrNoComplaintFiles
	}
	return ix, nil
}

// firstFields counts the fields of the first line of br, without reading it.
func firstFields(br *bufio.Reader) int {
	b, _ := br.Peek(maxLine)
	line, _, _ := bytes.Cut(b, []byte{'\n'})
	return bytes.Count(line, []byte{'\t'}) + 1
}
