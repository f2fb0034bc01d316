package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestVersionStamp builds the binary the way the Makefile and goreleaser do,
// with -ldflags -X, and checks that `vds version` reports what was stamped.
func TestVersionStamp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "vds")
	const pkg = "github.com/vds-dev/vds/internal/buildinfo"
	ldflags := "-X " + pkg + ".Version=1.2.3 -X " + pkg + ".Commit=abc123 -X " + pkg + ".Date=2026-01-02T03:04:05Z"
	if out, err := exec.Command("go", "build", "-ldflags", ldflags, "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version", "--json").Output()
	if err != nil {
		t.Fatalf("vds version: %v", err)
	}
	var got struct{ Version, Commit, Date string }
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("version --json: %v\n%s", err, out)
	}
	if got.Version != "1.2.3" || got.Commit != "abc123" || got.Date != "2026-01-02T03:04:05Z" {
		t.Fatalf("version reports %+v, want the stamped 1.2.3 / abc123 / 2026-01-02T03:04:05Z", got)
	}
}
