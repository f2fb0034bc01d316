package sqldb

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unique"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/store"
	"golang.org/x/sync/errgroup"
)

// table maps one record kind to its table; cols are what ingest writes
// (uuid first). EPA columns are enrich's unless the file pins the EPA id.
type table[T any] struct {
	name string
	cols []string
	args func(*T) []any
	load string
	// order sorts a load whose order shows (a diff's deletions); a
	// server's snapshot sorts the records itself, and sorting a million
	// cars in SQLite cost a quarter of loading them.
	order string
	// scan returns the row scanner of one load, which may keep state
	// across its rows.
	scan   func() func(rowScanner) (T, error)
	id     func(*T) uuid.UUID
	delta  func(*catalog.Changes) *catalog.KindChanges[T]
	record func(*catalog.Catalog) *[]T
}

var carTable = table[catalog.Car]{
	name: "cars",
	cols: []string{"uuid", "make", "model", "source_model", "year", "trim", "body", "fuel_type", "drive_type", "transmission", "displacement_l", "cylinders",
		"epa_id", "mpg_city", "mpg_highway", "mpg_combined", "epa_range_miles", "epa_electric_range_miles", "annual_fuel_cost", "co2_gpm"},
	args: func(c *catalog.Car) []any {
		return []any{c.UUID.String(), c.Make, c.Model, c.SourceModel, c.Year, c.Trim, c.Body, c.FuelType, c.DriveType, c.Transmission,
			value(c.DisplacementL), value(c.Cylinders), value(c.EPAID), value(c.MPGCity), value(c.MPGHighway), value(c.MPGCombined),
			value(c.EPARangeMiles), value(c.EPAElectricRangeMiles), value(c.AnnualFuelCost), value(c.CO2GPM)}
	},
	load: `SELECT uuid, make, model, source_model, year, trim, body, fuel_type, drive_type, transmission, displacement_l, cylinders,
		epa_id, mpg_city, mpg_highway, mpg_combined, epa_range_miles, epa_electric_range_miles, annual_fuel_cost, co2_gpm FROM cars`,
	order:  " ORDER BY make, model, year DESC, trim, uuid",
	scan:   scanCars,
	id:     func(c *catalog.Car) uuid.UUID { return c.UUID },
	delta:  func(ch *catalog.Changes) *catalog.KindChanges[catalog.Car] { return &ch.Cars },
	record: func(c *catalog.Catalog) *[]catalog.Car { return &c.Cars },
}

// null and value read and write a figure as the sql.Null it converts to.
func null[T int | float64](o *catalog.Opt[T]) *sql.Null[T] { return (*sql.Null[T])(o) }

func value[T int | float64](o catalog.Opt[T]) sql.Null[T] { return sql.Null[T](o) }

func stateless[T any](scan func(rowScanner) (T, error)) func() func(rowScanner) (T, error) {
	return func() func(rowScanner) (T, error) { return scan }
}

// scanCars shares what cars repeat across one load: a million cars hold a
// few thousand distinct makes, models and engines, and a string of each
// car's own was a quarter of what the load held.
func scanCars() func(rowScanner) (catalog.Car, error) {
	strs := map[string]string{}
	return func(r rowScanner) (catalog.Car, error) {
		var (
			c  catalog.Car
			id string
		)
		err := r.Scan(&id, &c.Make, &c.Model, &c.SourceModel, &c.Year, &c.Trim, &c.Body, &c.FuelType, &c.DriveType, &c.Transmission,
			null(&c.DisplacementL), null(&c.Cylinders), null(&c.EPAID), null(&c.MPGCity), null(&c.MPGHighway), null(&c.MPGCombined),
			null(&c.EPARangeMiles), null(&c.EPAElectricRangeMiles), null(&c.AnnualFuelCost), null(&c.CO2GPM))
		if err != nil {
			return c, err
		}
		c.Derive()
		for _, s := range []*string{&c.Make, &c.Model, &c.SourceModel, &c.Trim, &c.Body, &c.FuelType, &c.DriveType, &c.Transmission, &c.Engine} {
			if v, ok := strs[*s]; ok {
				*s = v
			} else {
				strs[*s] = *s
			}
		}
		c.UUID, err = uuid.Parse(id)
		return c, err
	}
}

var motorcycleTable = table[catalog.Motorcycle]{
	name: "motorcycles",
	cols: []string{"uuid", "make", "model", "year", "motorcycle_type", "vehicle_type", "displacement_cc", "engine_type", "power_hp", "body_class", "fuel_type", "source"},
	args: func(m *catalog.Motorcycle) []any {
		return []any{m.UUID.String(), m.Make, m.Model, m.Year, m.MotorcycleType, m.VehicleType, m.DisplacementCC, m.EngineType, m.PowerHP, m.BodyClass, m.FuelType, m.Source}
	},
	load: `SELECT uuid, make, model, year, motorcycle_type, vehicle_type, displacement_cc, engine_type, power_hp, body_class, fuel_type, source
		FROM motorcycles`,
	order: " ORDER BY make, model, year DESC, uuid",
	scan: stateless(func(r rowScanner) (catalog.Motorcycle, error) {
		var m catalog.Motorcycle
		var id string
		if err := r.Scan(&id, &m.Make, &m.Model, &m.Year, &m.MotorcycleType, &m.VehicleType, &m.DisplacementCC, &m.EngineType, &m.PowerHP, &m.BodyClass, &m.FuelType, &m.Source); err != nil {
			return m, err
		}
		// A few hundred values repeat over the vPIC catalog's 127,000 records.
		for _, s := range []*string{&m.Make, &m.MotorcycleType, &m.VehicleType, &m.EngineType, &m.BodyClass, &m.FuelType, &m.Source} {
			*s = unique.Make(*s).Value()
		}
		var err error
		m.UUID, err = uuid.Parse(id)
		return m, err
	}),
	id:     func(m *catalog.Motorcycle) uuid.UUID { return m.UUID },
	delta:  func(ch *catalog.Changes) *catalog.KindChanges[catalog.Motorcycle] { return &ch.Motorcycles },
	record: func(c *catalog.Catalog) *[]catalog.Motorcycle { return &c.Motorcycles },
}

var boatTable = table[catalog.Boat]{
	name: "boats",
	cols: []string{"uuid", "make", "model", "year", "model_type", "length_ft", "beam_ft", "dry_weight_lbs", "engine_count", "hp", "hull_type", "fuel_type"},
	args: func(b *catalog.Boat) []any {
		return []any{b.UUID.String(), b.Make, b.Model, b.Year, b.ModelType, b.LengthFt, b.BeamFt, b.DryWeightLbs, b.EngineCount, b.HP, b.HullType, b.FuelType}
	},
	load: `SELECT uuid, make, model, year, model_type, length_ft, beam_ft, dry_weight_lbs, engine_count, hp, hull_type, fuel_type
		FROM boats`,
	order: " ORDER BY make, model, year DESC, uuid",
	scan: stateless(func(r rowScanner) (catalog.Boat, error) {
		var b catalog.Boat
		var id string
		if err := r.Scan(&id, &b.Make, &b.Model, &b.Year, &b.ModelType, &b.LengthFt, &b.BeamFt, &b.DryWeightLbs, &b.EngineCount, &b.HP, &b.HullType, &b.FuelType); err != nil {
			return b, err
		}
		var err error
		b.UUID, err = uuid.Parse(id)
		return b, err
	}),
	id:     func(b *catalog.Boat) uuid.UUID { return b.UUID },
	delta:  func(ch *catalog.Changes) *catalog.KindChanges[catalog.Boat] { return &ch.Boats },
	record: func(c *catalog.Catalog) *[]catalog.Boat { return &c.Boats },
}

var tireTable = table[catalog.TireFitment]{
	name: "tire_fitments",
	cols: []string{"uuid", "make", "model", "year", "trim", "tire_size", "load_index", "speed_rating",
		"rear_tire_size", "rear_load_index", "rear_speed_rating", "alternate_sizes", "rear_alternate_sizes",
		"bolt_pattern", "center_bore_mm", "offset_min_mm", "offset_max_mm", "rim_width_min_in", "rim_width_max_in",
		"lug_thread", "lug_torque_nm", "tpms"},
	args: func(t *catalog.TireFitment) []any {
		// The alternates are short lists that are only ever read whole:
		// JSON text columns keep one schema for both backends.
		alts, _ := json.Marshal(t.AlternateSizes)
		rearAlts, _ := json.Marshal(t.RearAlternateSizes)
		w := &t.WheelSpecs
		return []any{t.UUID.String(), t.Make, t.Model, t.Year, t.Trim, t.TireSize, t.LoadIndex, t.SpeedRating,
			t.RearTireSize, t.RearLoadIndex, t.RearSpeedRating, string(alts), string(rearAlts),
			w.BoltPattern, w.CenterBoreMM, w.OffsetMinMM, w.OffsetMaxMM, w.RimWidthMinIn, w.RimWidthMaxIn, w.LugThread, w.LugTorqueNM, w.TPMS}
	},
	load: `SELECT uuid, make, model, year, trim, tire_size, load_index, speed_rating,
		rear_tire_size, rear_load_index, rear_speed_rating, alternate_sizes, rear_alternate_sizes,
		bolt_pattern, center_bore_mm, offset_min_mm, offset_max_mm, rim_width_min_in, rim_width_max_in, lug_thread, lug_torque_nm, tpms
		FROM tire_fitments`,
	order: " ORDER BY make, model, year DESC, trim, uuid",
	scan: stateless(func(r rowScanner) (catalog.TireFitment, error) {
		var t catalog.TireFitment
		var id, alts, rearAlts string
		w := &t.WheelSpecs
		if err := r.Scan(&id, &t.Make, &t.Model, &t.Year, &t.Trim, &t.TireSize, &t.LoadIndex, &t.SpeedRating,
			&t.RearTireSize, &t.RearLoadIndex, &t.RearSpeedRating, &alts, &rearAlts,
			&w.BoltPattern, &w.CenterBoreMM, &w.OffsetMinMM, &w.OffsetMaxMM, &w.RimWidthMinIn, &w.RimWidthMaxIn, &w.LugThread, &w.LugTorqueNM, &w.TPMS); err != nil {
			return t, err
		}
		if err := json.Unmarshal([]byte(alts), &t.AlternateSizes); err != nil {
			return t, fmt.Errorf("tire fitment %s: alternate_sizes: %w", id, err)
		}
		if err := json.Unmarshal([]byte(rearAlts), &t.RearAlternateSizes); err != nil {
			return t, fmt.Errorf("tire fitment %s: rear_alternate_sizes: %w", id, err)
		}
		var err error
		t.UUID, err = uuid.Parse(id)
		return t, err
	}),
	id:     func(t *catalog.TireFitment) uuid.UUID { return t.UUID },
	delta:  func(ch *catalog.Changes) *catalog.KindChanges[catalog.TireFitment] { return &ch.TireSizes },
	record: func(c *catalog.Catalog) *[]catalog.TireFitment { return &c.TireSizes },
}

type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func loadAll[T any](ctx context.Context, q queryer, t table[T], c *catalog.Catalog, sorted bool, expect int) error {
	query := t.load
	if sorted {
		query += t.order
	}
	rs, err := appendAll(ctx, q, "load "+t.name, t.scan(), make([]T, 0, expect), query)
	*t.record(c) = rs
	return err
}

// loadCatalog loads the records of the kinds in only, every kind when nil,
// in each table's order when sorted; expect, the counts of the version
// read in the same transaction, sizes each kind's slice.
func loadCatalog(ctx context.Context, q queryer, only map[catalog.Kind]bool, sorted bool, expect catalog.Counts) (*catalog.Catalog, error) {
	c := &catalog.Catalog{}
	for kind, load := range map[catalog.Kind]func() error{
		catalog.KindCar:        func() error { return loadAll(ctx, q, carTable, c, sorted, expect.Cars) },
		catalog.KindMotorcycle: func() error { return loadAll(ctx, q, motorcycleTable, c, sorted, expect.Motorcycles) },
		catalog.KindBoat:       func() error { return loadAll(ctx, q, boatTable, c, sorted, expect.Boats) },
		catalog.KindTireSize:   func() error { return loadAll(ctx, q, tireTable, c, sorted, expect.TireSizes) },
	} {
		if only != nil && !only[kind] {
			continue
		}
		if err := load(); err != nil {
			return nil, err
		}
	}
	return c, nil
}

const versionQuery = `SELECT version, published_at, source, cars, motorcycles, boats, tire_sizes
	FROM catalog_versions ORDER BY version DESC LIMIT 1`

func readVersion(ctx context.Context, q queryer) (catalog.Version, error) {
	var v catalog.Version
	err := q.QueryRowContext(ctx, versionQuery).Scan(&v.Number, &v.PublishedAt, &v.Source,
		&v.Counts.Cars, &v.Counts.Motorcycles, &v.Counts.Boats, &v.Counts.TireSizes)
	if err == sql.ErrNoRows {
		return catalog.Version{}, nil
	}
	if err != nil {
		return v, fmt.Errorf("read catalog version: %w", err)
	}
	v.PublishedAt = v.PublishedAt.UTC()
	return v, nil
}

// LoadCatalog reads every record and the version they belong to, in one
// read transaction so records and version agree; a large catalog's cars
// in parts, each in a transaction of its own on the same version.
func (s *DB) LoadCatalog(ctx context.Context) (*catalog.Catalog, catalog.Version, error) {
	tx, err := s.readTx(ctx)
	if err != nil {
		return nil, catalog.Version{}, err
	}
	defer func() { _ = tx.Rollback() }()
	v, err := readVersion(ctx, tx)
	if err != nil {
		return nil, v, err
	}
	if parts := s.loadParts(v.Counts.Cars); parts > 1 {
		g, gctx := errgroup.WithContext(ctx)
		var cars []catalog.Car
		g.Go(func() (err error) {
			cars, err = s.loadCarParts(gctx, v, parts)
			return err
		})
		c, err := loadCatalog(gctx, tx, otherKinds, false, v.Counts)
		if err := errors.Join(err, g.Wait()); err != nil {
			return nil, v, err
		}
		if cars != nil {
			c.Cars = cars
			return c, v, nil
		}
	}
	c, err := loadCatalog(ctx, tx, nil, false, v.Counts)
	return c, v, err
}

var otherKinds = map[catalog.Kind]bool{catalog.KindMotorcycle: true, catalog.KindBoat: true, catalog.KindTireSize: true}

func (s *DB) readTx(ctx context.Context) (*sql.Tx, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true, Isolation: s.d.ReadIsolation})
	if err != nil {
		return nil, fmt.Errorf("begin read: %w", err)
	}
	return tx, nil
}

// minLoadPart is the fewest cars worth a connection of their own.
const minLoadPart = 50_000

// carParts splits a large catalog's cars over the cores, up to four:
// decoding rows is most of its load, and one connection decodes on one.
func carParts(cars int) int {
	return max(1, min(runtime.GOMAXPROCS(0), 4, cars/minLoadPart))
}

// loadCarParts reads v's cars in parts by uuid range, concurrently. It
// returns nil when a part met another version, or the parts together not
// v's count of cars: the caller then reads them in its own transaction.
func (s *DB) loadCarParts(ctx context.Context, v catalog.Version, parts int) ([]catalog.Car, error) {
	cars := make([]catalog.Car, v.Counts.Cars)
	var (
		next  atomic.Int64
		stale atomic.Bool
	)
	g, gctx := errgroup.WithContext(ctx)
	for i := range parts {
		// Catalog uuids are hashes, so even ranges hold even shares.
		var conds []string
		var args []any
		if i > 0 {
			conds, args = append(conds, fmt.Sprintf("uuid >= $%d", len(args)+1)), append(args, uuidBound(i, parts))
		}
		if i < parts-1 {
			conds, args = append(conds, fmt.Sprintf("uuid < $%d", len(args)+1)), append(args, uuidBound(i+1, parts))
		}
		g.Go(func() error {
			tx, err := s.readTx(gctx)
			if err != nil {
				return err
			}
			defer func() { _ = tx.Rollback() }()
			pv, err := readVersion(gctx, tx)
			if err != nil || pv.Number != v.Number {
				stale.Store(true)
				return err
			}
			full, err := fillCars(gctx, tx, cars, &next, carTable.load+" WHERE "+strings.Join(conds, " AND "), args...)
			if !full {
				stale.Store(true)
			}
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if stale.Load() || next.Load() != int64(len(cars)) {
		return nil, nil
	}
	return cars, nil
}

// uuidBound is the uuid at i/n of the uuid space.
func uuidBound(i, n int) string {
	return fmt.Sprintf("%08x-0000-0000-0000-000000000000", uint64(i)<<32/uint64(n))
}

// fillCars scans the cars of query into cars, a batch at a time into
// the slots it claims from next; false when they are more than fit.
func fillCars(ctx context.Context, q queryer, cars []catalog.Car, next *atomic.Int64, query string, args ...any) (bool, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return false, fmt.Errorf("load cars: %w", err)
	}
	defer rows.Close()
	scan := carTable.scan()
	batch := make([]catalog.Car, 0, 256)
	flush := func() bool {
		end := next.Add(int64(len(batch)))
		if end > int64(len(cars)) {
			return false
		}
		copy(cars[end-int64(len(batch)):], batch)
		batch = batch[:0]
		return true
	}
	for rows.Next() {
		c, err := scan(rows)
		if err != nil {
			return false, fmt.Errorf("load cars: %w", err)
		}
		if batch = append(batch, c); len(batch) == cap(batch) && !flush() {
			return false, nil
		}
	}
	if err := rows.Err(); err != nil {
		return false, fmt.Errorf("load cars: %w", err)
	}
	return flush(), nil
}

func (s *DB) CatalogVersion(ctx context.Context) (catalog.Version, error) {
	return readVersion(ctx, s.db)
}

// errDryRun rolls a dry run's transaction back; it never leaves
// ReplaceCatalog.
var errDryRun = errors.New("dry run")

// ReplaceCatalog applies next's difference to the stored catalog in one transaction.
func (s *DB) ReplaceCatalog(ctx context.Context, next *catalog.Catalog, kinds []catalog.Kind, opts store.ReplaceOptions) (catalog.Changes, catalog.Version, error) {
	var ch catalog.Changes
	var ver catalog.Version
	err := s.inConnTx(ctx, func(conn *sql.Conn, tx *sql.Tx) error {
		if s.d.LockCatalog != "" {
			if _, err := tx.ExecContext(ctx, s.d.LockCatalog); err != nil {
				return fmt.Errorf("lock catalog: %w", err)
			}
		}
		// Only the kinds replaced are diffed: the others need not be read.
		replace := make(map[catalog.Kind]bool, len(kinds))
		for _, k := range kinds {
			replace[k] = true
		}
		var err error
		if ver, err = readVersion(ctx, tx); err != nil {
			return err
		}
		current, err := loadCatalog(ctx, tx, replace, true, ver.Counts)
		if err != nil {
			return err
		}
		if opts.Prepare != nil {
			opts.Prepare(current, next)
		}
		ch = catalog.Diff(current, next, replace)
		if opts.Check != nil {
			if err := opts.Check(&ch); err != nil {
				return err
			}
		}
		if opts.DryRun {
			return errDryRun
		}
		if ch.Empty() {
			return nil
		}
		w := &writer{ctx: ctx, conn: conn, tx: tx, progress: opts.Progress, total: changeCount(&ch), rowAtATime: s.d.RowAtATime, copyFrom: s.d.CopyFrom}
		if err := applyKind(w, carTable, &ch); err != nil {
			return err
		}
		if err := applyKind(w, motorcycleTable, &ch); err != nil {
			return err
		}
		if err := applyKind(w, boatTable, &ch); err != nil {
			return err
		}
		if err := applyKind(w, tireTable, &ch); err != nil {
			return err
		}
		ver, err = publishVersion(ctx, tx, ver, opts.Source)
		return err
	})
	if errors.Is(err, errDryRun) {
		err = nil
	}
	return ch, ver, err
}

// publishVersion records the catalog version after prev, with the record
// counts as they stand in tx. Called last in a catalog write transaction.
func publishVersion(ctx context.Context, tx *sql.Tx, prev catalog.Version, source string) (catalog.Version, error) {
	counts, err := countRecords(ctx, tx)
	if err != nil {
		return prev, err
	}
	v := catalog.Version{Number: prev.Number + 1, PublishedAt: time.Now().UTC().Truncate(time.Microsecond), Source: source, Counts: counts}
	_, err = tx.ExecContext(ctx, `INSERT INTO catalog_versions (version, published_at, source, cars, motorcycles, boats, tire_sizes)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, v.Number, v.PublishedAt, v.Source, counts.Cars, counts.Motorcycles, counts.Boats, counts.TireSizes)
	if err != nil {
		return prev, fmt.Errorf("publish catalog version: %w", err)
	}
	return v, nil
}

func changeCount(ch *catalog.Changes) int {
	n := 0
	for _, s := range ch.Summaries() {
		n += s.Added + s.Changed + s.Removed
	}
	return n
}

// writer carries one catalog write and its progress reporting.
type writer struct {
	ctx      context.Context
	tx       *sql.Tx
	progress func(done, total int)
	done     int
	total    int
	conn     *sql.Conn
	// rowAtATime and copyFrom are the dialect's insert strategy.
	rowAtATime bool
	copyFrom   func(ctx context.Context, driverConn any, table string, cols []string, n int, row func(int) []any) (int64, error)
}

func (w *writer) step(n int) {
	w.done += n
	if w.progress != nil {
		w.progress(w.done, w.total)
	}
}

func applyKind[T any](w *writer, t table[T], ch *catalog.Changes) error {
	d := t.delta(ch)
	if !d.Replace {
		return nil
	}
	for _, id := range d.Delete {
		if _, err := w.tx.ExecContext(w.ctx, "DELETE FROM "+t.name+" WHERE uuid = $1", id.String()); err != nil {
			return fmt.Errorf("delete from %s: %w", t.name, err)
		}
		w.step(1)
	}
	if len(d.Update) > 0 {
		sets := make([]string, 0, len(t.cols)-1)
		for i, c := range t.cols[1:] {
			sets = append(sets, fmt.Sprintf("%s = $%d", c, i+2))
		}
		stmt, err := w.tx.PrepareContext(w.ctx, "UPDATE "+t.name+" SET "+strings.Join(sets, ", ")+" WHERE uuid = $1")
		if err != nil {
			return fmt.Errorf("prepare update of %s: %w", t.name, err)
		}
		defer stmt.Close()
		for i := range d.Update {
			if _, err := stmt.ExecContext(w.ctx, t.args(&d.Update[i])...); err != nil {
				return fmt.Errorf("update %s %s: %w", t.name, t.id(&d.Update[i]), err)
			}
			w.step(1)
		}
	}
	// In uuid order the primary key's index grows at its end: in the
	// file's order each insert lands on a random page of it, which at a
	// million cars SQLite's page cache misses nearly every time.
	order := make([]int32, len(d.Insert))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		ia, ib := t.id(&d.Insert[a]), t.id(&d.Insert[b])
		return bytes.Compare(ia[:], ib[:])
	})
	row := func(i int) []any { return t.args(&d.Insert[order[i]]) }
	if w.copyFrom != nil && len(order) > 0 {
		return w.conn.Raw(func(dc any) error {
			n, err := w.copyFrom(w.ctx, dc, t.name, t.cols, len(order), row)
			if err != nil {
				return fmt.Errorf("copy into %s: %w", t.name, err)
			}
			w.step(int(n))
			return nil
		})
	}
	if w.rowAtATime {
		return insertRowAtATime(w.ctx, w.tx, t.name, t.cols, len(order), row, w.step)
	}
	rows := make([][]any, len(order))
	for i := range rows {
		rows[i] = row(i)
	}
	return insertRows(w.ctx, w.tx, t.name, t.cols, rows, w.step)
}

func countRecords(ctx context.Context, q queryer) (catalog.Counts, error) {
	var c catalog.Counts
	err := q.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM cars), (SELECT COUNT(*) FROM motorcycles),
		(SELECT COUNT(*) FROM boats), (SELECT COUNT(*) FROM tire_fitments)`).Scan(&c.Cars, &c.Motorcycles, &c.Boats, &c.TireSizes)
	if err != nil {
		return c, fmt.Errorf("count records: %w", err)
	}
	return c, nil
}

func tableOf(kind catalog.Kind) (string, error) {
	switch kind {
	case catalog.KindCar:
		return carTable.name, nil
	case catalog.KindMotorcycle:
		return motorcycleTable.name, nil
	case catalog.KindBoat:
		return boatTable.name, nil
	case catalog.KindTireSize:
		return tireTable.name, nil
	}
	return "", fmt.Errorf("unknown record kind %q", kind)
}

func (s *DB) HasRecord(ctx context.Context, kind catalog.Kind, id uuid.UUID) (bool, error) {
	name, err := tableOf(kind)
	if err != nil {
		return false, err
	}
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+name+" WHERE uuid = $1", id.String()).Scan(&n); err != nil {
		return false, fmt.Errorf("look up %s %s: %w", kind, id, err)
	}
	return n > 0, nil
}

// EnrichCars writes the EPA id and fuel-economy fields of every car.
func (s *DB) EnrichCars(ctx context.Context, economy map[uuid.UUID]catalog.FuelEconomy, source string) (int, catalog.Version, error) {
	var (
		changed int
		ver     catalog.Version
	)
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		if s.d.LockCatalog != "" {
			if _, err := tx.ExecContext(ctx, s.d.LockCatalog); err != nil {
				return fmt.Errorf("lock catalog: %w", err)
			}
		}
		current := &catalog.Catalog{}
		if err := loadAll(ctx, tx, carTable, current, true, len(economy)); err != nil {
			return err
		}
		stmt, err := tx.PrepareContext(ctx, `UPDATE cars SET mpg_city = $2, mpg_highway = $3, mpg_combined = $4,
			epa_range_miles = $5, annual_fuel_cost = $6, co2_gpm = $7, epa_id = $8, epa_electric_range_miles = $9 WHERE uuid = $1`)
		if err != nil {
			return fmt.Errorf("prepare enrichment: %w", err)
		}
		defer stmt.Close()
		for _, c := range current.Cars {
			next := economy[c.UUID] // zero value: all null
			if reflect.DeepEqual(next, c.FuelEconomy) {
				continue
			}
			if _, err := stmt.ExecContext(ctx, c.UUID.String(), value(next.MPGCity), value(next.MPGHighway), value(next.MPGCombined),
				value(next.EPARangeMiles), value(next.AnnualFuelCost), value(next.CO2GPM), value(next.EPAID), value(next.EPAElectricRangeMiles)); err != nil {
				return fmt.Errorf("enrich car %s: %w", c.UUID, err)
			}
			changed++
		}
		if ver, err = readVersion(ctx, tx); err != nil || changed == 0 {
			return err
		}
		ver, err = publishVersion(ctx, tx, ver, source)
		return err
	})
	return changed, ver, err
}
