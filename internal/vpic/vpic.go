// Package vpic decodes VINs offline from a snapshot of NHTSA's vPIC
// database, following the rules of vPIC's stored procedure spVinDecode:
//
//  1. The WMI is positions 1-3, or 1-3 plus 12-14 when position 3 is "9"
//     (a manufacturer building fewer than 1,000 vehicles a year). An
//     unknown WMI is vPIC's error 7.
//  2. The model year is the position-10 code; of its 30-year candidates
//     (internal/vin narrows them with position 7 for cars, MPVs and light
//     trucks) the latest with a VinSchema for the WMI is taken.
//  3. The VinSchemas linked to the WMI for that year (Wmi_VinSchema.YearFrom
//     to YearTo) give Pattern rows whose Keys cover positions 4-8, a "|",
//     then 10-17, with "*" for any character and "[..]" for a class.
//  4. Where several matching patterns set one element, the most specific
//     key wins (literal characters before classes before "*"), then the
//     newest pattern. Lookup elements resolve through Element.LookupTable.
//  5. The make comes from the model (Make_Model), else from the WMI.
//
// See docs/data.md for the snapshot's origin and licence.
package vpic

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/store"
	_ "modernc.org/sqlite" // the snapshot is an SQLite file
)

// Snapshot is what the decoder reads of a vPIC database, in memory, with
// every name and lookup resolved.
type Snapshot struct {
	// Meta describes the file (ID, SHA256 and ImportedAt are the store's).
	Meta store.VPICSnapshot

	// strs holds every string once; the fields below index it, 0 is "".
	strs    []string
	wmis    map[string]*wmi
	schemas map[int32][]pattern
}

type wmi struct {
	make, manufacturer, vehicleType uint32
	schemas                         []wmiSchema
}

type wmiSchema struct{ schema, from, to int32 }

type pattern struct {
	keys, value, make uint32
	id                int32
	element           uint8
	rank              uint8 // specificity of keys
}

// The elements the decoder applies, by vPIC's Element.Code.
const (
	elModel uint8 = iota + 1
	elSeries
	elTrim
	elBodyClass
	elDoors
	elCylinders
	elDisplacementL
	elDisplacementCC
	elFuelType
	elPlantCity
	elPlantState
	elPlantCountry
)

var elementCodes = map[string]uint8{
	"Model": elModel, "Series": elSeries, "Trim": elTrim, "BodyClass": elBodyClass, "Doors": elDoors,
	"EngineCylinders": elCylinders, "DisplacementL": elDisplacementL, "DisplacementCC": elDisplacementCC,
	"FuelTypePrimary": elFuelType, "PlantCity": elPlantCity, "PlantState": elPlantState, "PlantCountry": elPlantCountry,
}

// MaxSnapshotBytes caps a snapshot file, or what a .gz unpacks to: the
// one vds is tested with unpacks to 74.5 MB.
const MaxSnapshotBytes = 256 << 20

var sqliteMagic = []byte("SQLite format 3\x00")

// Open loads the snapshot at path, a vPIC SQLite file or its .gz.
func Open(ctx context.Context, path string) (*Snapshot, error) {
	s, _, err := open(ctx, path)
	return s, err
}

// open also returns the sha256 of the file at path, hashed as it is read.
// Errors name path, never the temporary file a .gz unpacks to.
func open(ctx context.Context, path string) (*Snapshot, []byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	h := sha256.New()
	db := path
	if strings.HasSuffix(path, ".gz") {
		tmp, err := gunzip(io.TeeReader(f, h), path)
		if err != nil {
			return nil, nil, err
		}
		defer os.Remove(tmp)
		db = tmp
	} else if err := checkDB(f, h, path); err != nil {
		return nil, nil, err
	}
	if _, err := io.Copy(h, f); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	conn, err := sql.Open("sqlite", "file:"+db+"?mode=ro&immutable=1") // immutable: no -wal lookup, no writes beside it
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	defer conn.Close()
	s := &Snapshot{}
	if err := s.readMeta(ctx, conn); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := s.load(ctx, conn); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return s, h.Sum(nil), nil
}

func checkDB(f *os.File, h io.Writer, path string) error {
	if st, err := f.Stat(); err != nil {
		return err
	} else if st.Size() > MaxSnapshotBytes {
		return fmt.Errorf("%s: %d bytes, over the %d-byte limit of a vPIC snapshot", path, st.Size(), MaxSnapshotBytes)
	}
	return checkMagic(io.TeeReader(f, h), path)
}

func checkMagic(r io.Reader, path string) error {
	magic := make([]byte, len(sqliteMagic))
	if _, err := io.ReadFull(r, magic); err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return fmt.Errorf("%s: %w", path, err)
	}
	if !bytes.Equal(magic, sqliteMagic) {
		return fmt.Errorf("%s: %w: not an SQLite database", path, ErrNotVPIC)
	}
	return nil
}

// gunzip unpacks r, the .gz at path, to a temporary file: an SQLite file
// by its first bytes, within MaxSnapshotBytes.
func gunzip(r io.Reader, path string) (string, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return "", fmt.Errorf("%s: not a gzip file (%w)", path, err)
	}
	if err := checkMagic(zr, path); err != nil {
		return "", err
	}
	out, err := os.CreateTemp("", "vpic-*.db")
	if err != nil {
		return "", err
	}
	fail := func(err error) (string, error) {
		out.Close()
		os.Remove(out.Name())
		return "", err
	}
	if _, err := out.Write(sqliteMagic); err != nil {
		return fail(err)
	}
	left := int64(MaxSnapshotBytes - len(sqliteMagic))
	n, err := io.Copy(out, io.LimitReader(zr, left+1))
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fail(fmt.Errorf("%s: the gzip data is cut short (%w)", path, err))
	case err != nil:
		return fail(fmt.Errorf("%s: %w", path, err))
	case n > left:
		return fail(fmt.Errorf("%s: unpacks to more than %d bytes, the limit of a vPIC snapshot", path, MaxSnapshotBytes))
	}
	return out.Name(), out.Close()
}

// ErrNotVPIC is returned for a file that lacks a table the decoder needs.
var ErrNotVPIC = errors.New("not a vPIC snapshot")

// readMeta checks every table the decoder reads has rows, and fills Meta.
func (s *Snapshot) readMeta(ctx context.Context, db *sql.DB) error {
	s.Meta.Rows = map[string]int64{}
	for _, t := range []string{"Wmi", "Wmi_VinSchema", "Wmi_Make", "VinSchema", "Pattern", "Element", "Make", "Model", "Make_Model", "Manufacturer", "VehicleType"} {
		var n int64
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM "`+t+`"`).Scan(&n); err != nil {
			return fmt.Errorf("%w: table %s: %v", ErrNotVPIC, t, err)
		}
		if n == 0 {
			return fmt.Errorf("%w: table %s is empty", ErrNotVPIC, t)
		}
		s.Meta.Rows[t] = n
	}
	// Rows contributed by the snapshot's publisher rather than NHTSA are
	// marked on their VinSchema; the data date is NHTSA's newest schema change.
	const community = `SELECT Id FROM VinSchema WHERE Notes LIKE 'Community contribution%'`
	if err := db.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM VinSchema WHERE Id IN (`+community+`)) +
		(SELECT COUNT(*) FROM Wmi_VinSchema WHERE VinSchemaId IN (`+community+`)) +
		(SELECT COUNT(*) FROM Pattern WHERE VinSchemaId IN (`+community+`)),
		COALESCE((SELECT SUBSTR(MAX(COALESCE(UpdatedOn, CreatedOn)), 1, 10) FROM VinSchema WHERE Id NOT IN (`+community+`)), '')`).
		Scan(&s.Meta.Community, &s.Meta.DataDate); err != nil {
		return fmt.Errorf("%w: %v", ErrNotVPIC, err)
	}
	return nil
}

func (s *Snapshot) load(ctx context.Context, db *sql.DB) error {
	in := interner{strs: []string{""}, index: map[string]uint32{"": 0}}
	makes, err := names(ctx, db, "Make")
	if err != nil {
		return err
	}
	manufacturers, err := names(ctx, db, "Manufacturer")
	if err != nil {
		return err
	}
	vehicleTypes, err := names(ctx, db, "VehicleType")
	if err != nil {
		return err
	}

	s.wmis = map[string]*wmi{}
	byID := map[int]*wmi{}
	makeOf := map[*wmi]int{}
	if err := each(ctx, db, `SELECT Id, Wmi, COALESCE(MakeId, 0), COALESCE(ManufacturerId, 0), COALESCE(VehicleTypeId, 0) FROM Wmi`, func(r *sql.Rows) error {
		var id, makeID, manufacturerID, vehicleType int
		var code string
		if err := r.Scan(&id, &code, &makeID, &manufacturerID, &vehicleType); err != nil {
			return err
		}
		w := &wmi{manufacturer: in.of(manufacturers[manufacturerID]), vehicleType: in.of(vehicleTypes[vehicleType])}
		s.wmis[strings.ToUpper(code)], byID[id], makeOf[w] = w, w, makeID
		return nil
	}); err != nil {
		return err
	}
	if err := each(ctx, db, `SELECT WmiId, VinSchemaId, YearFrom, COALESCE(YearTo, 9999) FROM Wmi_VinSchema`, func(r *sql.Rows) error {
		var id int
		var ws wmiSchema
		if err := r.Scan(&id, &ws.schema, &ws.from, &ws.to); err != nil {
			return err
		}
		if w := byID[id]; w != nil {
			w.schemas = append(w.schemas, ws)
		}
		return nil
	}); err != nil {
		return err
	}
	// A WMI whose own row names no make may have exactly one in Wmi_Make.
	if err := each(ctx, db, `SELECT WmiId, MIN(MakeId) FROM Wmi_Make GROUP BY WmiId HAVING COUNT(*) = 1`, func(r *sql.Rows) error {
		var id, makeID int
		if err := r.Scan(&id, &makeID); err != nil {
			return err
		}
		if w := byID[id]; w != nil && makeOf[w] == 0 {
			makeOf[w] = makeID
		}
		return nil
	}); err != nil {
		return err
	}
	for w, id := range makeOf {
		w.make = in.of(makes[id])
	}

	// The elements the decoder applies, and the lookup tables they name.
	type elementRow struct {
		code   uint8
		lookup string
	}
	elements := map[int]elementRow{}
	lookups := map[string]map[string]string{}
	if err := each(ctx, db, `SELECT Id, COALESCE(Code, ''), COALESCE(LookupTable, '') FROM Element`, func(r *sql.Rows) error {
		var id int
		var code, lookup string
		if err := r.Scan(&id, &code, &lookup); err != nil {
			return err
		}
		if el, ok := elementCodes[code]; ok {
			elements[id] = elementRow{el, lookup}
			if lookup != "" {
				lookups[lookup] = nil
			}
		}
		return nil
	}); err != nil {
		return err
	}
	for t := range lookups {
		m := map[string]string{}
		err := each(ctx, db, `SELECT CAST(Id AS TEXT), Name FROM "`+t+`"`, func(r *sql.Rows) error {
			var id, name string
			if err := r.Scan(&id, &name); err != nil {
				return err
			}
			m[id] = name
			return nil
		})
		if err != nil && !strings.Contains(err.Error(), "no such table") {
			return err
		}
		lookups[t] = m
	}
	modelMake := map[int]string{}
	if err := each(ctx, db, `SELECT ModelId, MIN(MakeId) FROM Make_Model GROUP BY ModelId`, func(r *sql.Rows) error {
		var model, mk int
		if err := r.Scan(&model, &mk); err != nil {
			return err
		}
		modelMake[model] = makes[mk]
		return nil
	}); err != nil {
		return err
	}

	s.schemas = map[int32][]pattern{}
	err = each(ctx, db, `SELECT Id, VinSchemaId, Keys, ElementId, AttributeId FROM Pattern`, func(r *sql.Rows) error {
		var id, schema int32
		var elementID int
		var keys, attr string
		if err := r.Scan(&id, &schema, &keys, &elementID, &attr); err != nil {
			return err
		}
		e, ok := elements[elementID]
		if !ok {
			return nil
		}
		// A pattern whose value is empty still wins its element (and then
		// sets nothing), as in vPIC, so it is kept.
		value := strings.TrimSpace(attr)
		if name, ok := lookups[e.lookup][value]; ok {
			value = name
		}
		p := pattern{id: id, element: e.code, value: in.of(value)}
		p.keys = in.of(strings.ToUpper(keys))
		p.rank = uint8(specificity(in.strs[p.keys]))
		if e.code == elModel {
			if model, err := strconv.Atoi(strings.TrimSpace(attr)); err == nil {
				p.make = in.of(modelMake[model])
			}
		}
		s.schemas[schema] = append(s.schemas[schema], p)
		return nil
	})
	s.strs = in.strs
	return err
}

type interner struct {
	strs  []string
	index map[string]uint32
}

func (in *interner) of(v string) uint32 {
	if i, ok := in.index[v]; ok {
		return i
	}
	i := uint32(len(in.strs))
	in.strs = append(in.strs, v)
	in.index[v] = i
	return i
}

func names(ctx context.Context, db *sql.DB, table string) (map[int]string, error) {
	m := map[int]string{}
	return m, each(ctx, db, `SELECT Id, Name FROM "`+table+`"`, func(r *sql.Rows) error {
		var id int
		var name string
		if err := r.Scan(&id, &name); err != nil {
			return err
		}
		m[id] = name
		return nil
	})
}

func each(ctx context.Context, db *sql.DB, q string, fn func(*sql.Rows) error) error {
	rows, err := db.QueryContext(ctx, q)
	if err != nil {
		if strings.Contains(err.Error(), "no such table") {
			return fmt.Errorf("%w: %v", ErrNotVPIC, err)
		}
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// Import checks the snapshot at path (.db or .db.gz) and stores the
// decoder's tables as the snapshot every replica decodes from.
func Import(ctx context.Context, st store.VPICStore, path string, now time.Time) (store.VPICSnapshot, error) {
	snap, sum, err := open(ctx, path)
	if err != nil {
		return store.VPICSnapshot{}, err
	}
	meta := snap.Meta
	meta.SHA256 = hex.EncodeToString(sum)
	meta.ImportedAt = now
	return st.PutVPICSnapshot(ctx, meta, snap.marshal())
}

// ErrNoSnapshot is returned by Load when no snapshot has been imported.
var ErrNoSnapshot = errors.New("no vPIC snapshot imported (run vds vpic import FILE)")

// Load reads the imported snapshot from the store.
func Load(ctx context.Context, st store.VPICStore) (*Snapshot, error) {
	meta, err := st.VPICSnapshot(ctx)
	if errors.Is(err, store.ErrNotFound) {
		return nil, ErrNoSnapshot
	}
	if err != nil {
		return nil, err
	}
	file, err := st.VPICFile(ctx, meta.ID)
	if err != nil {
		return nil, err
	}
	snap, err := unmarshal(file)
	if err != nil {
		return nil, fmt.Errorf("vPIC snapshot %d: %w", meta.ID, err)
	}
	snap.Meta = meta
	return snap, nil
}

// Source names the snapshot in answers, e.g. "vPIC snapshot 2026-02-17".
func (s *Snapshot) Source() string { return catalog.VPICSourcePrefix + s.Meta.DataDate }

// Since is when the snapshot was imported.
func (s *Snapshot) Since() time.Time { return s.Meta.ImportedAt }
