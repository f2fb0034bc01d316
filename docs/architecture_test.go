// Package docs_test checks the pages of this directory against the code.
package docs_test

import (
	"bufio"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/vds-dev/vds/"

// TestImportGraph: the import graph of architecture.md is the one `go list`
// reports, edge for edge, between the packages it names, and it names every
// package but the test helpers and bench tools.
func TestImportGraph(t *testing.T) {
	doc := documentedGraph(t)
	real, helpers := listedGraph(t)

	for pkg, deps := range doc {
		got, ok := real[pkg]
		if !ok {
			t.Errorf("architecture.md names %s, which go list does not know", pkg)
			continue
		}
		for _, d := range deps {
			if !slices.Contains(got, d) {
				t.Errorf("architecture.md: %s → %s, but %s does not import %s", pkg, d, pkg, d)
			}
		}
	}
	for pkg, deps := range real {
		documented, ok := doc[pkg]
		if !ok {
			if !helpers[pkg] {
				t.Errorf("architecture.md's import graph lacks package %s", pkg)
			}
			continue
		}
		for _, d := range deps {
			if _, named := doc[d]; named && !slices.Contains(documented, d) {
				t.Errorf("architecture.md lacks %s → %s", pkg, d)
			}
		}
	}
}

// documentedGraph parses the code block under "## Import graph": lines
// "a → b c", "a, b → (none)", and indented lines that go on with the one before.
func documentedGraph(t *testing.T) map[string][]string {
	t.Helper()
	f, err := os.Open("architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	graph := map[string][]string{}
	var section, block bool
	var last []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			section = line == "## Import graph"
		case section && strings.HasPrefix(line, "```"):
			if block {
				return graph
			}
			block = true
		case !block || strings.TrimSpace(line) == "":
		case line[0] == ' ':
			if last == nil {
				t.Fatalf("architecture.md: continuation line with nothing before it: %q", line)
			}
			for _, p := range last {
				graph[p] = append(graph[p], strings.Fields(line)...)
			}
		default:
			names, deps, ok := strings.Cut(line, "→")
			if !ok {
				t.Fatalf("architecture.md: import graph line without →: %q", line)
			}
			last = nil
			for n := range strings.SplitSeq(names, ",") {
				last = append(last, strings.TrimSpace(n))
			}
			fields := strings.Fields(deps)
			if slices.Equal(fields, []string{"(none)"}) {
				fields = nil
			}
			for _, p := range last {
				if _, dup := graph[p]; dup {
					t.Fatalf("architecture.md names %s twice", p)
				}
				graph[p] = append([]string{}, fields...)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Fatal("architecture.md: no code block under ## Import graph")
	return nil
}

// listedGraph returns the module's packages with Go files, short-named as
// in the doc, each with the module packages it imports; and which of them
// are test helpers or bench tools, which the doc leaves out.
func listedGraph(t *testing.T) (graph map[string][]string, helpers map[string]bool) {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{if .GoFiles}}{{.ImportPath}} {{join .Imports " "}}{{end}}`, "./...")
	cmd.Dir = ".."
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	short := func(p string) string {
		return strings.TrimPrefix(strings.TrimPrefix(p, module), "internal/")
	}
	graph, helpers = map[string][]string{}, map[string]bool{}
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		pkg := short(fields[0])
		graph[pkg] = []string{}
		helpers[pkg] = strings.HasPrefix(pkg, "bench/")
		for _, imp := range fields[1:] {
			if imp == "testing" {
				helpers[pkg] = true
			}
			if strings.HasPrefix(imp, module) {
				graph[pkg] = append(graph[pkg], short(imp))
			}
		}
	}
	if len(graph) < 30 {
		t.Fatalf("go list found only %d packages: %v", len(graph), graph)
	}
	return graph, helpers
}
