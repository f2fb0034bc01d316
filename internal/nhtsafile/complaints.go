package nhtsafile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
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

// Complaints is the content of one complaint file: one complaint per ODI
// number × make/model/year, its components gathered from its rows.
type Complaints struct {
	List     []VehicleComplaint
	DataDate string
	rows     int
}

// VehicleComplaint is a complaint about one make, model and year.
type VehicleComplaint struct {
	Make, Model string
	Year        int
	upstream.Complaint
}

// complaintsChunk is how many complaints go in one gob message.
const complaintsChunk = 4096

// parseComplaints reads a FLAT_CMPL file: tab-separated, no header, no quoting.
func parseComplaints(r io.Reader, file string) (*Complaints, error) {
	d := &Complaints{}
	at := map[string]int{}
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
			if err := d.add(fields[:count], at, file, n); err != nil {
				return nil, err
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
	}
	if d.rows == 0 {
		return nil, fmt.Errorf("%s: no complaint rows", file)
	}
	return d, nil
}

func (d *Complaints) add(f [][]byte, at map[string]int, file string, n int) error {
	str := func(i int) string { return strings.Join(strings.Fields(string(f[i])), " ") }
	odi, err := strconv.ParseInt(str(cODI), 10, 64)
	if err != nil || odi <= 0 {
		return &LineError{file, n, fmt.Sprintf("ODINO %q is not a number", f[cODI])}
	}
	year, err := strconv.Atoi(str(cYear))
	if err != nil || year < 1900 || year > 9999 {
		return &LineError{file, n, fmt.Sprintf("YEARTXT %q is not a year", f[cYear])}
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
		return err
	}
	deaths, err := count(cDeaths, "DEATHS")
	if err != nil {
		return err
	}
	d.rows++
	make_, model := str(cMake), str(cModel)
	key := Key(make_, model, year) + "\x00" + strconv.FormatInt(odi, 10)
	comp := ComponentGroup(str(cComponent))
	if i, ok := at[key]; ok {
		c := &d.List[i].Complaint
		if comp != "" && !slices.Contains(c.Components, comp) {
			c.Components = append(c.Components, comp)
			slices.Sort(c.Components)
		}
		return nil
	}
	c := VehicleComplaint{Make: make_, Model: model, Year: year, Complaint: upstream.Complaint{
		ODINumber: odi, Components: []string{}, Crash: yes(f[cCrash]), Fire: yes(f[cFire]),
		Injuries: injured, Deaths: deaths, IncidentDate: optDate(f[cFailDate]), ReceivedDate: optDate(f[cReceived]),
	}}
	if comp != "" {
		c.Components = append(c.Components, comp)
	}
	if s := str(cSummary); s != "" {
		c.Summary = &s
	}
	if c.ReceivedDate != nil && *c.ReceivedDate > d.DataDate {
		d.DataDate = *c.ReceivedDate
	}
	at[key] = len(d.List)
	d.List = append(d.List, c)
	return nil
}

// ComponentGroup is a component as NHTSA's complaints API names it: the
// file's "SERVICE BRAKES, HYDRAULIC:PEDALS AND LINKAGES" up to its first colon.
func ComponentGroup(s string) string {
	s, _, _ = strings.Cut(s, ":")
	return strings.TrimSpace(s)
}

func optDate(b []byte) *string {
	if d := flatDate(bytes.TrimSpace(b)); d != "" {
		return &d
	}
	return nil
}

func (d *Complaints) counts() map[string]int64 {
	vehicles := map[string]bool{}
	for _, c := range d.List {
		vehicles[Key(c.Make, c.Model, c.Year)] = true
	}
	return map[string]int64{"rows": int64(d.rows), "complaints": int64(len(d.List)), "vehicles": int64(len(vehicles))}
}

func (d *Complaints) marshal() ([]byte, error) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	enc := gob.NewEncoder(zw)
	err := errors.Join(enc.Encode(d.DataDate), enc.Encode(len(d.List)))
	for i := 0; err == nil && i < len(d.List); i += complaintsChunk {
		err = enc.Encode(d.List[i:min(i+complaintsChunk, len(d.List))])
	}
	if err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func unmarshalComplaints(b []byte) (*Complaints, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	dec := gob.NewDecoder(zr)
	d := &Complaints{}
	var n int
	if err := errors.Join(dec.Decode(&d.DataDate), dec.Decode(&n)); err != nil {
		return nil, err
	}
	d.List = make([]VehicleComplaint, 0, min(n, 1<<20))
	for len(d.List) < n {
		var part []VehicleComplaint
		if err := dec.Decode(&part); err != nil {
			return nil, err
		}
		d.List = append(d.List, part...)
	}
	return d, nil
}

// ComplaintIndex answers complaints by make, model and year from imported files.
type ComplaintIndex struct {
	files []store.NHTSAFile
	date  string
	since time.Time
	byKey map[string][]upstream.Complaint
}

// NewComplaintIndex indexes the data of files (data[i] is files[i]'s),
// each vehicle's complaints newest received first.
func NewComplaintIndex(files []store.NHTSAFile, data []*Complaints) *ComplaintIndex {
	ix := &ComplaintIndex{files: files, byKey: map[string][]upstream.Complaint{}}
	for i, d := range data {
		ix.date = max(ix.date, d.DataDate)
		if files[i].ImportedAt.After(ix.since) {
			ix.since = files[i].ImportedAt
		}
		for _, c := range d.List {
			k := Key(c.Make, c.Model, c.Year)
			ix.byKey[k] = append(ix.byKey[k], c.Complaint)
		}
	}
	for _, l := range ix.byKey {
		upstream.SortComplaints(l)
	}
	return ix
}

// Complaints lists the complaints of a make, model and year, never nil.
// The slice is the caller's; the complaints' strings are shared.
func (ix *ComplaintIndex) Complaints(vehicleMake, model string, year int) []upstream.Complaint {
	l := ix.byKey[Key(vehicleMake, model, year)]
	if l == nil {
		return []upstream.Complaint{}
	}
	return slices.Clone(l)
}

// Has reports whether the files name the make, model and year at all.
func (ix *ComplaintIndex) Has(vehicleMake, model string, year int) bool {
	_, ok := ix.byKey[Key(vehicleMake, model, year)]
	return ok
}

// Source names the files in answers, e.g. "NHTSA complaint files 2026-05-04".
func (ix *ComplaintIndex) Source() string { return "NHTSA complaint files " + ix.date }

// DataDate is the newest date received of the files, YYYY-MM-DD.
func (ix *ComplaintIndex) DataDate() string { return ix.date }

// Since is when the newest file was imported.
func (ix *ComplaintIndex) Since() time.Time { return ix.since }

// ErrNoComplaintFiles is returned by LoadComplaints when no complaint file has been imported.
var ErrNoComplaintFiles = errors.New("no NHTSA complaint file imported (run vds ingest --source nhtsa-recalls FLAT_CMPL.zip)")

// LoadComplaints indexes the imported complaint files of st.
func LoadComplaints(ctx context.Context, st store.NHTSAFileStore) (*ComplaintIndex, error) {
	files, err := st.NHTSAFiles(ctx)
	if err != nil {
		return nil, err
	}
	var (
		keep []store.NHTSAFile
		data []*Complaints
	)
	for _, f := range files {
		if f.Kind != KindComplaints {
			continue
		}
		b, err := st.NHTSAFileData(ctx, f.ID)
		if err != nil {
			return nil, err
		}
		d, err := unmarshalComplaints(b)
		if err != nil {
			return nil, fmt.Errorf("NHTSA file %s: %w", f.Name, err)
		}
		keep, data = append(keep, f), append(data, d)
	}
	if len(keep) == 0 {
		return nil, ErrNoComplaintFiles
	}
	return NewComplaintIndex(keep, data), nil
}

// firstFields counts the fields of the first line of br, without reading it.
func firstFields(br *bufio.Reader) int {
	b, _ := br.Peek(maxLine)
	line, _, _ := bytes.Cut(b, []byte{'\n'})
	return bytes.Count(line, []byte{'\t'}) + 1
}
