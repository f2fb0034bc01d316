package mcptools_test

import (
	"bytes"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/mcptools"
)

var update = flag.Bool("update", false, "rewrite testdata/toolsnaps/*.json and testdata/TOOLS.md")

// updating reports whether the golden files are to be rewritten: with
// -update or UPDATE_TOOLSNAPS=1 (github-mcp-server's convention).
func updating() bool { return *update || os.Getenv("UPDATE_TOOLSNAPS") == "1" }

// golden compares got with a file of testdata. A different file fails,
// unless updating; a missing one fails under CI and is written otherwise,
// so a new tool's snapshot is created by the first local run and must be
// committed.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	want, err := os.ReadFile(path)
	switch {
	case updating():
		if err == nil && bytes.Equal(want, got) {
			return
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", path)
	case errors.Is(err, fs.ErrNotExist):
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is missing: run UPDATE_TOOLSNAPS=1 go test ./internal/mcptools/ and commit it", path)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("created %s: commit it", path)
	case err != nil:
		t.Fatal(err)
	case !bytes.Equal(want, got):
		t.Errorf("%s is out of date; if the change is intended, run UPDATE_TOOLSNAPS=1 go test ./internal/mcptools/ and commit the result.\n%s",
			path, firstDifference(string(want), string(got)))
	}
}

// firstDifference shows the first line that differs, to make a failure
// readable without a diff tool.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return "line " + strconv.Itoa(i+1) + ":\n  file: " + wl + "\n  now:  " + gl
		}
	}
	return ""
}

// TestToolSnapshots keeps each tool's definition (description, input and
// output schema, annotations) in testdata/toolsnaps/<tool>.json, so that
// any change to what clients see shows in review; a snapshot of a tool
// that no longer exists fails too.
func TestToolSnapshots(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("testdata", "toolsnaps")
	names := map[string]bool{}
	for _, tool := range mcptools.Tools(mcptools.Deps{}) {
		names[tool.Def.Name+".json"] = true
		t.Run(tool.Def.Name, func(t *testing.T) {
			snap, err := mcptools.Snapshot(tool)
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join(dir, tool.Def.Name+".json"), snap)
		})
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !names[e.Name()] {
			if updating() {
				if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
					t.Fatal(err)
				}
				continue
			}
			t.Errorf("%s/%s belongs to no tool: delete it (UPDATE_TOOLSNAPS=1 does)", dir, e.Name())
		}
	}
}

// Markers around the generated MCP section of README.md.
const (
	readmeBegin = "<!-- mcp-tools:begin (generated from the tool registry: UPDATE_TOOLSNAPS=1 go test ./internal/mcptools/) -->\n"
	readmeEnd   = "<!-- mcp-tools:end -->\n"
)

// TestToolsMarkdown keeps testdata/TOOLS.md and the README's MCP section in
// step with the registry, so the documented tools cannot drift from the
// served ones.
func TestToolsMarkdown(t *testing.T) {
	t.Parallel()
	md := mcptools.Markdown(mcptools.Tools(mcptools.Deps{}))
	golden(t, filepath.Join("testdata", "TOOLS.md"), []byte(md))

	readme := filepath.Join("..", "..", "README.md")
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i, j := strings.Index(doc, readmeBegin), strings.Index(doc, readmeEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q ... %q section", strings.TrimSpace(readmeBegin), strings.TrimSpace(readmeEnd))
	}
	section := doc[i+len(readmeBegin) : j]
	switch {
	case section == md:
	case updating():
		if err := os.WriteFile(readme, []byte(doc[:i+len(readmeBegin)]+md+doc[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote the MCP section of %s", readme)
	default:
		t.Errorf("README.md's MCP section is out of date; run UPDATE_TOOLSNAPS=1 go test ./internal/mcptools/ and commit it.\n%s",
			firstDifference(section, md))
	}
}
