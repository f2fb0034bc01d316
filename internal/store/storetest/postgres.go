package storetest

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"testing"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/vds-dev/vds/internal/account"
)

// PostgresEnv names the variable holding the URL of a PostgreSQL server the
// tests may create databases on. scripts/pg-test-db.sh starts one and sets it.
const PostgresEnv = "VDS_TEST_DATABASE_URL"

// PostgresURL creates a fresh, empty database for the calling test and
// returns its URL; the database is dropped when the test ends. Without
// VDS_TEST_DATABASE_URL the test is skipped, except under CI, where
// PostgreSQL tests must run and a missing server is a failure.
func PostgresURL(t testing.TB) string {
	t.Helper()
	base := os.Getenv(PostgresEnv)
	if base == "" {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not set but CI is: PostgreSQL tests must run (use make test, which starts a server)", PostgresEnv)
		}
		t.Skipf("%s not set; run the suite with make test to include PostgreSQL", PostgresEnv)
	}
	u, drop, err := CreateDatabase(base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := drop(); err != nil {
			t.Error(err)
		}
	})
	return u
}

// CreateDatabase creates a database with a random name on the server at
// base and returns its URL and a function that drops it.
func CreateDatabase(base string) (string, func() error, error) {
	name := "vds_test_" + account.NewID("db")[3:]
	exec := func(stmt string) error {
		admin, err := sql.Open("pgx", base)
		if err != nil {
			return err
		}
		defer admin.Close()
		_, err = admin.ExecContext(context.Background(), stmt)
		return err
	}
	if err := exec("CREATE DATABASE " + name); err != nil {
		return "", nil, fmt.Errorf("create test database: %w", err)
	}
	drop := func() error {
		if err := exec("DROP DATABASE " + name + " WITH (FORCE)"); err != nil {
			return fmt.Errorf("drop test database %s: %w", name, err)
		}
		return nil
	}
	u, err := url.Parse(base)
	if err != nil {
		_ = drop()
		return "", nil, fmt.Errorf("parse %s: %w", PostgresEnv, err)
	}
	u.Path = "/" + name
	return u.String(), drop, nil
}

// Registering the pgx driver name "pgx" for database/sql is a side effect
// of importing stdlib; keep the import used explicitly.
var _ = stdlib.GetDefaultDriver

func must(t testing.TB, err error, what string, args ...any) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", fmt.Sprintf(what, args...), err)
	}
}
