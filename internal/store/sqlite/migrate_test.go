package sqlite

import (
	"context"
	"database/sql"
	"io/fs"
	"log/slog"
	"path/filepath"
	"testing"

	"github.com/pressly/goose/v3"
)

// TestTireModelMigration writes fitments the way the store held them before
// 00007 and checks that the migration splits off the load index and speed
// rating and joins the flotation LT suffix.
func TestTireModelMigration(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "vds.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		t.Fatal(err)
	}
	p, err := goose.NewProvider(goose.DialectSQLite3, db, sub, goose.WithDisableGlobalRegistry(true), goose.WithSlog(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 5); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ExecContext(ctx, `INSERT INTO tire_fitments (uuid, make, model, year, trim, tire_size, rear_tire_size, alternate_sizes) VALUES
		('a', 'BMW', '5 Series', 2017, '540i', '245/40R19 98Y', '275/35R19 100Y', '["255/35R20"]'),
		('b', 'Toyota', 'Tundra', 2017, 'TRD Pro', 'LT275/65R18 123S', NULL, '["35x12.50R18 LT","LT285/60R18"]'),
		('c', 'Honda', 'Civic', 2020, 'LX', '215/55R16', NULL, '["205/60R16"]')`); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	type row struct {
		size, alts, rearAlts   string
		rear, speed, rearSpeed sql.NullString
		load, rearLoad         sql.NullInt64
	}
	want := map[string]row{
		"a": {size: "245/40R19", load: sql.NullInt64{Int64: 98, Valid: true}, speed: sql.NullString{String: "Y", Valid: true},
			rear: sql.NullString{String: "275/35R19", Valid: true}, rearLoad: sql.NullInt64{Int64: 100, Valid: true},
			rearSpeed: sql.NullString{String: "Y", Valid: true}, alts: `["255/35R20"]`, rearAlts: "[]"},
		"b": {size: "LT275/65R18", load: sql.NullInt64{Int64: 123, Valid: true}, speed: sql.NullString{String: "S", Valid: true},
			alts: `["35x12.50R18LT","LT285/60R18"]`, rearAlts: "[]"},
		"c": {size: "215/55R16", alts: `["205/60R16"]`, rearAlts: "[]"},
	}
	for id, w := range want {
		var got row
		if err := db.QueryRowContext(ctx, `SELECT tire_size, load_index, speed_rating, rear_tire_size, rear_load_index,
			rear_speed_rating, alternate_sizes, rear_alternate_sizes FROM tire_fitments WHERE uuid = ?`, id).
			Scan(&got.size, &got.load, &got.speed, &got.rear, &got.rearLoad, &got.rearSpeed, &got.alts, &got.rearAlts); err != nil {
			t.Fatal(err)
		}
		if got != w {
			t.Errorf("fitment %s after 00007 = %+v, want %+v", id, got, w)
		}
	}
	if _, err := p.DownTo(ctx, 5); err != nil {
		t.Fatal(err)
	}
	var size string
	if err := db.QueryRowContext(ctx, `SELECT tire_size FROM tire_fitments WHERE uuid = 'a'`).Scan(&size); err != nil || size != "245/40R19 98Y" {
		t.Errorf("tire_size after down = %q, %v; want 245/40R19 98Y", size, err)
	}
}
