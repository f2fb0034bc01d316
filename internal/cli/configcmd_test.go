package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/spf13/viper"
	"github.com/vds-dev/vds/internal/config"
)

// flatten maps the leaves of nested objects to their dotted keys.
func flatten(prefix string, v any, out map[string]any) {
	m, ok := v.(map[string]any)
	if !ok {
		out[prefix] = v
		return
	}
	for k, sub := range m {
		flatten(joinKey(prefix, k), sub, out)
	}
}

// sameValue compares a default with the value in the JSON:
// durations by length (120s is 2m0s), the rest as printed.
func sameValue(example, shown any) bool {
	if a, ok := example.(string); ok {
		if b, ok := shown.(string); ok {
			da, errA := time.ParseDuration(a)
			db, errB := time.ParseDuration(b)
			if errA == nil && errB == nil {
				return da == db
			}
		}
	}
	return fmt.Sprint(example) == fmt.Sprint(shown)
}

// TestConfigShowJSON: config show --json has exactly the config keys
// (those of configs/vds.example.yaml, which the config package checks),
// nested as in the file, with their defaults, durations as duration strings.
func TestConfigShowJSON(t *testing.T) {
	isolate(t)
	v := viper.New()
	config.SetDefaults(v)
	want := map[string]any{}
	for _, k := range v.AllKeys() {
		want[k] = v.Get(k)
	}

	r := vds(t, piped, "config", "show", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.err)
	}
	dec := json.NewDecoder(bytes.NewReader([]byte(r.out)))
	dec.UseNumber()
	var shown map[string]any
	if err := dec.Decode(&shown); err != nil {
		t.Fatalf("%v\n%s", err, r.out)
	}
	got := map[string]any{}
	flatten("", shown, got)
	if got["config_file"] != "" {
		t.Errorf("config_file = %v, want empty", got["config_file"])
	}
	delete(got, "config_file")
	if !slices.Equal(slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want))) {
		t.Fatalf("keys of config show --json:\n%v\nconfig keys:\n%v", slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)))
	}
	for k, v := range want {
		if k == "database.url" { // empty by default: a path under $XDG_DATA_HOME
			continue
		}
		if !sameValue(v, got[k]) {
			t.Errorf("%s = %#v, want the default %#v", k, got[k], v)
		}
	}
	for k, v := range map[string]any{"server.write_timeout": "30s", "dashboard.session_ttl": "168h0m0s", "upstream.cache_ttl": "24h0m0s"} {
		if got[k] != v {
			t.Errorf("%s = %#v, want %q", k, got[k], v)
		}
	}
}
