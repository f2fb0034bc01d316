package nhtsafile

import (
	"bytes"
	"compress/gzip"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/upstream"
)

// chunk is how many campaigns go in one gob message: gob buffers a whole
// message, and the campaigns' texts are most of a file.
const chunk = 1024

// marshal writes d gzipped as gob messages: the strings, the date, the
// rows, the campaign count, then the campaigns in chunks.
func (d *Data) marshal() ([]byte, error) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	enc := gob.NewEncoder(zw)
	err := errors.Join(enc.Encode(d.Strs), enc.Encode(d.DataDate), enc.Encode(d.Rows), enc.Encode(len(d.Camps)))
	for i := 0; err == nil && i < len(d.Camps); i += chunk {
		err = enc.Encode(d.Camps[i:min(i+chunk, len(d.Camps))])
	}
	if err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func unmarshal(b []byte) (*Data, error) {
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	dec := gob.NewDecoder(zr)
	d := &Data{}
	var n int
	if err := errors.Join(dec.Decode(&d.Strs), dec.Decode(&d.DataDate), dec.Decode(&d.Rows), dec.Decode(&n)); err != nil {
		return nil, err
	}
	d.Camps = make([]Campaign, 0, min(n, len(d.Rows)))
	for len(d.Camps) < n {
		var part []Campaign
		if err := dec.Decode(&part); err != nil {
			return nil, err
		}
		d.Camps = append(d.Camps, part...)
	}
	for _, r := range d.Rows {
		if int(r.Camp) >= len(d.Camps) || int(max(r.Make, r.Model, r.Component)) >= len(d.Strs) {
			return nil, fmt.Errorf("row of campaign %d refers past the data", r.Camp)
		}
	}
	return d, nil
}

// Index answers recalls by make, model and year from imported files.
type Index struct {
	files   []store.NHTSAFile
	date    string
	since   time.Time
	recalls map[string][]upstream.Recall
	// encoded holds Find's encoded lists, at most maxEncoded of them.
	encoded  sync.Map
	nEncoded atomic.Int64
}

// maxEncoded bounds the lists kept encoded: about the catalog's make, model
// and year triples, a few KB each.
const maxEncoded = 16384

// Key is how the index names a vehicle: make and model folded to lower-case
// letters and digits ("F-150" and "F150" agree), and the year.
func Key(vehicleMake, model string, year int) string {
	return fold(vehicleMake) + "\x00" + fold(model) + "\x00" + strconv.Itoa(year)
}

func fold(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// NewIndex indexes the data of files (data[i] is files[i]'s). A vehicle's
// recalls are one per campaign, its components joined by ", " as the API does.
func NewIndex(files []store.NHTSAFile, data []*Data) *Index {
	ix := &Index{files: files, recalls: map[string][]upstream.Recall{}}
	type at struct {
		key  string
		camp string
	}
	pos := map[at]int{}
	for i, d := range data {
		ix.date = max(ix.date, d.DataDate)
		if files[i].ImportedAt.After(ix.since) {
			ix.since = files[i].ImportedAt
		}
		camps := make([]*upstream.Recall, len(d.Camps))
		for j := range d.Camps {
			camps[j] = d.Camps[j].recall()
		}
		for _, r := range d.Rows {
			key := Key(d.Strs[r.Make], d.Strs[r.Model], int(r.Year))
			c := camps[r.Camp]
			comp := d.Strs[r.Component]
			k := at{key, c.CampaignNumber}
			if p, ok := pos[k]; ok {
				rec := &ix.recalls[key][p]
				if comp != "" && !slices.Contains(strings.Split(deref(rec.Component), ", "), comp) {
					joined := deref(rec.Component) + ", " + comp
					rec.Component = &joined
				}
				continue
			}
			rec := *c
			if comp != "" {
				rec.Component = &comp
			}
			pos[k] = len(ix.recalls[key])
			ix.recalls[key] = append(ix.recalls[key], rec)
		}
	}
	return ix
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func (c *Campaign) recall() *upstream.Recall {
	opt := func(s string) *string {
		if s == "" {
			return nil
		}
		return &s
	}
	return &upstream.Recall{CampaignNumber: c.Number, Manufacturer: opt(c.Manufacturer), Summary: opt(c.Summary),
		Consequence: opt(c.Consequence), Remedy: opt(c.Remedy), Notes: opt(c.Notes), ReportDate: opt(c.ReportDate),
		ParkIt: c.ParkIt, ParkOutside: c.ParkOutside, OTAUpdate: c.OTAUpdate}
}

// Find lists the campaigns of a make, model and year, and the same encoded
// as the API sends them (HTML characters unescaped), kept per vehicle for the
// life of the index: one data version. ok reports whether the files name the
// vehicle; when not, it has no campaigns, since they are NHTSA's whole
// database. The slice is the caller's; the recalls' strings are shared.
func (ix *Index) Find(vehicleMake, model string, year int) (recalls []upstream.Recall, encoded []byte, ok bool) {
	key := Key(vehicleMake, model, year)
	l, ok := ix.recalls[key]
	if l == nil {
		l = []upstream.Recall{}
	}
	if b, hit := ix.encoded.Load(key); hit {
		return slices.Clone(l), b.([]byte), ok
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(l); err != nil {
		return slices.Clone(l), nil, ok
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	if ix.nEncoded.Add(1) <= maxEncoded {
		ix.encoded.Store(key, b)
	}
	return slices.Clone(l), b, ok
}

// Source names the files in answers, e.g. "NHTSA recall files 2026-05-04".
func (ix *Index) Source() string { return "NHTSA recall files " + ix.date }

// DataDate is the newest record date of the files, YYYY-MM-DD.
func (ix *Index) DataDate() string { return ix.date }

// Since is when the newest file was imported.
func (ix *Index) Since() time.Time { return ix.since }

// Files describes the files indexed.
func (ix *Index) Files() []store.NHTSAFile { return ix.files }
