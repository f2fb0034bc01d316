package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/vds-dev/vds/internal/credentials"
)

// TestServeDemo: on an empty database --demo loads the catalog, prints a
// working token and stores it for its URL as the current instance (0600); a
// restart keeps it.
func TestServeDemo(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	in := e.serve("--demo")
	token := regexp.MustCompile(`vds_[a-z2-7]{32}`).FindString(in.logs.String())
	if token == "" {
		t.Fatalf("no token printed:\n%s", in.logs.String())
	}
	path := credentials.Path(filepath.Join(e.dir, "config", "vds"))
	creds, err := credentials.Load(path)
	if err != nil || creds.Token(in.URL) != token || creds.Current != in.URL {
		t.Fatalf("stored credentials %+v (%v), want %s at %s", creds, err, token, in.URL)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	var stats struct {
		Meta struct{ Total int } `json:"meta"`
	}
	in.getJSON(token, "/v1/cars?make=Toyota", http.StatusOK, &stats)
	var me meBody
	in.getJSON(token, "/v1/me", http.StatusOK, &me)
	if stats.Meta.Total == 0 || me.Data.Plan.Name != "developer" {
		t.Fatalf("demo: %d Toyotas, plan %q", stats.Meta.Total, me.Data.Plan.Name)
	}
	in.stop()

	// Restarting on the same address keeps the stored token working.
	again := e.serve("--demo", "--addr", in.URL[len("http://"):])
	after, err := credentials.Load(path)
	if err != nil || after.Token(in.URL) != token || after.Current != in.URL {
		t.Fatalf("restart replaced the stored token: %+v, %v", after, err)
	}
	again.getJSON(token, "/v1/me", http.StatusOK, nil)
}
