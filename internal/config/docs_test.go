package config

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"
)

// TestEveryKeyDocumented: docs/operations.md explains every key, and
// configs/vds.example.yaml lists every key with its default and nothing
// else, so a new key cannot ship undocumented.
func TestEveryKeyDocumented(t *testing.T) {
	t.Parallel()
	v := viper.New()
	SetDefaults(v)
	keys := v.AllKeys()
	slices.Sort(keys)
	if len(keys) < 20 {
		t.Fatalf("only %d keys: %q", len(keys), keys)
	}

	doc, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	plan := regexp.MustCompile(`^plans\.[^.]+\.`)
	for _, k := range keys {
		row := "| `" + plan.ReplaceAllString(k, "plans.NAME.") + "`"
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/operations.md has no table row %s… for %s", row, k)
		}
	}

	b, err := os.ReadFile("../../configs/vds.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var example map[string]any
	if err := yaml.Unmarshal(b, &example); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	flatten("", example, got)
	for _, k := range keys {
		want := fmt.Sprint(v.Get(k))
		if g, ok := got[k]; !ok || g != want {
			t.Errorf("configs/vds.example.yaml: %s is %q, want the default %q", k, g, want)
		}
		delete(got, k)
	}
	for k := range got {
		t.Errorf("configs/vds.example.yaml: %s is no key", k)
	}
}

// flatten stores the leaves of a YAML mapping under their dotted keys.
func flatten(prefix string, m map[string]any, out map[string]string) {
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			flatten(prefix+k+".", sub, out)
			continue
		}
		out[prefix+k] = fmt.Sprint(v)
	}
}
