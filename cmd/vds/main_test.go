package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/vds-dev/vds/internal/buildinfo"
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
	// With the flags of `make build` and `make image` (CGO_ENABLED=0,
	// -trimpath), so that TestImage's build finds the packages compiled.
	build := exec.Command("go", "build", "-trimpath", "-ldflags", ldflags, "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	if got := versionOf(t, bin); got.Version != "1.2.3" || got.Commit != "abc123" || got.Date != "2026-01-02T03:04:05Z" {
		t.Fatalf("version reports %+v, want the stamped 1.2.3 / abc123 / 2026-01-02T03:04:05Z", got)
	}
}

// versionOf runs bin version --json.
func versionOf(t *testing.T, bin string) buildinfo.Info {
	t.Helper()
	out, err := exec.Command(bin, "version", "--json").Output()
	if err != nil {
		t.Fatalf("vds version: %v", err)
	}
	var info buildinfo.Info
	if err := json.Unmarshal(out, &info); err != nil {
		t.Fatalf("version --json: %v\n%s", err, out)
	}
	return info
}
