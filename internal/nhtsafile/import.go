package nhtsafile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/vds-dev/vds/internal/store"
)

// Change is what an import does to one file.
type Change struct {
	store.NHTSAFile
	Source string `json:"source"`
	// Status is added (a new name), replaced (a new version of a stored
	// name) or unchanged (the same sha256 as stored: nothing is written).
	Status           string           `json:"status"`
	Before           map[string]int64 `json:"rows_before,omitempty"`
	CampaignsAdded   int              `json:"campaigns_added"`
	CampaignsRemoved int              `json:"campaigns_removed"`
}

// Options are the settings of one Import.
type Options struct {
	DryRun bool
	Now    time.Time
	HTTP   *http.Client
}

// Import reads the files or URLs srcs, each checked whole, and stores the
// ones that differ from the stored file of the same name in one
// transaction: all or nothing. A dry run reports the same and writes nothing.
func Import(ctx context.Context, st store.NHTSAFileStore, srcs []string, opts Options) ([]Change, error) {
	stored, err := st.NHTSAFiles(ctx)
	if err != nil {
		return nil, err
	}
	byName := map[string]store.NHTSAFile{}
	for _, f := range stored {
		byName[f.Name] = f
	}
	var (
		changes []Change
		puts    []store.NHTSAFilePut
		seen    = map[string]string{}
		// sources of complaint files, read within the store's transaction
		open []*source
	)
	defer func() {
		for _, s := range open {
			_ = s.close()
		}
	}()
	for _, src := range srcs {
		c, put, s, err := readFile(ctx, st, src, byName, opts)
		if s != nil {
			open = append(open, s)
		}
		if err != nil {
			return nil, err
		}
		if other, dup := seen[c.Name]; dup {
			return nil, fmt.Errorf("%s and %s are both %s: give one file of a name", other, src, c.Name)
		}
		seen[c.Name] = src
		changes = append(changes, c)
		if c.Status != "unchanged" {
			puts = append(puts, put)
		}
	}
	if opts.DryRun || len(puts) == 0 {
		return changes, nil
	}
	saved, err := st.PutNHTSAFiles(ctx, puts)
	if err != nil {
		return nil, err
	}
	for i, j := 0, 0; i < len(changes); i++ {
		if changes[i].Status != "unchanged" {
			changes[i].NHTSAFile = saved[j]
			j++
		}
	}
	return changes, nil
}

// readFile reads src, or only its name and sha256 when it is unchanged. A
// complaint file is read when stored (or now, on a dry run): its source is
// returned open, for the caller to close.
func readFile(ctx context.Context, st store.NHTSAFileStore, src string, stored map[string]store.NHTSAFile, opts Options) (Change, store.NHTSAFilePut, *source, error) {
	s, err := open(ctx, src, opts.HTTP)
	if err != nil {
		return Change{}, store.NHTSAFilePut{}, nil, err
	}
	c := Change{Source: src, Status: "added"}
	old, had := stored[s.name]
	if had && old.SHA256 == s.sha256 {
		c.NHTSAFile, c.Status = old, "unchanged"
		return c, store.NHTSAFilePut{}, s, nil
	}
	br := bufio.NewReaderSize(s, 1<<20)
	if complaintLayouts[firstFields(br)] {
		c, put, err := readComplaints(s, br, c, old, had, opts)
		return c, put, s, err
	}
	defer func() { _ = s.close() }()
	d, err := parseRecalls(br, s.label)
	if err != nil {
		return Change{}, store.NHTSAFilePut{}, nil, err
	}
	if err := s.close(); err != nil {
		return Change{}, store.NHTSAFilePut{}, nil, fmt.Errorf("%s: %w", s.label, err)
	}
	s.close = func() error { return nil }
	c.NHTSAFile = store.NHTSAFile{Name: s.name, Kind: KindRecalls, FileDate: s.fileDate, DataDate: d.DataDate,
		SHA256: s.sha256, Rows: d.counts(), ImportedAt: opts.Now}
	campaigns := map[string]bool{}
	for _, cp := range d.Camps {
		campaigns[cp.Number] = true
	}
	c.CampaignsAdded = len(campaigns)
	if had {
		c.Status, c.Before = "replaced", old.Rows
		prev, err := load(ctx, st, old)
		if err != nil {
			return Change{}, store.NHTSAFilePut{}, nil, err
		}
		c.CampaignsAdded = 0
		for _, cp := range prev.Camps {
			if !campaigns[cp.Number] {
				c.CampaignsRemoved++
			}
			delete(campaigns, cp.Number)
		}
		c.CampaignsAdded = len(campaigns)
	}
	if opts.DryRun {
		return c, store.NHTSAFilePut{}, nil, nil
	}
	blob, err := d.marshal()
	return c, store.NHTSAFilePut{File: c.NHTSAFile, Data: blob}, nil, err
}

// readComplaints is readFile for a FLAT_CMPL file: its lines are streamed
// to the store in its transaction, so the file is never held whole.
func readComplaints(s *source, br *bufio.Reader, c Change, old store.NHTSAFile, had bool, opts Options) (Change, store.NHTSAFilePut, error) {
	f := store.NHTSAFile{Name: s.name, Kind: KindComplaints, FileDate: s.fileDate, SHA256: s.sha256, ImportedAt: opts.Now}
	if had {
		c.Status, c.Before = "replaced", old.Rows
	}
	scan := func(put func([]store.NHTSAComplaint) error) (store.NHTSAFile, error) {
		t, err := scanComplaints(br, s.label, put)
		if err != nil {
			return f, err
		}
		if err := s.close(); err != nil {
			return f, fmt.Errorf("%s: %w", s.label, err)
		}
		s.close = func() error { return nil }
		f.Rows, f.DataDate = t.counts(), t.dataDate
		return f, nil
	}
	c.NHTSAFile = f
	if opts.DryRun {
		var err error
		c.NHTSAFile, err = scan(func([]store.NHTSAComplaint) error { return nil })
		return c, store.NHTSAFilePut{}, err
	}
	return c, store.NHTSAFilePut{File: f, Complaints: scan}, nil
}

func (d *Data) counts() map[string]int64 {
	vehicles := map[[3]uint32]bool{}
	for _, r := range d.Rows {
		vehicles[[3]uint32{r.Make, r.Model, uint32(r.Year)}] = true
	}
	return map[string]int64{"rows": int64(len(d.Rows)), "campaigns": int64(len(d.Camps)), "vehicles": int64(len(vehicles))}
}

func load(ctx context.Context, st store.NHTSAFileStore, f store.NHTSAFile) (*Data, error) {
	b, err := st.NHTSAFileData(ctx, f.ID)
	if err != nil {
		return nil, err
	}
	d, err := unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("NHTSA file %s: %w", f.Name, err)
	}
	return d, nil
}

// ErrNoFiles is returned by Load when no recall file has been imported.
var ErrNoFiles = errors.New("no NHTSA recall file imported (run vds ingest --source nhtsa-recalls FILE)")

// Load indexes the imported recall files of st.
func Load(ctx context.Context, st store.NHTSAFileStore) (*Index, error) {
	files, err := st.NHTSAFiles(ctx)
	if err != nil {
		return nil, err
	}
	var (
		keep []store.NHTSAFile
		data []*Data
	)
	for _, f := range files {
		if f.Kind != KindRecalls {
			continue
		}
		d, err := load(ctx, st, f)
		if err != nil {
			return nil, err
		}
		keep, data = append(keep, f), append(data, d)
	}
	if len(keep) == 0 {
		return nil, ErrNoFiles
	}
	return NewIndex(keep, data), nil
}
