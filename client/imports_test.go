package client

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestNoInternalImports enforces that the public SDK stands alone: none of
// its non-test files may import the module's internal packages, which
// code outside the module cannot import (and which would tie the SDK's
// users to server internals). Test files may, to check for wire drift.
func TestNoInternalImports(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	const module = "github.com/vds-dev/vds"
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.ImportsOnly)
		if err != nil {
			t.Fatalf("parse %s: %v", name, err)
		}
		checked++
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatalf("%s: import %s: %v", name, imp.Path.Value, err)
			}
			if strings.Contains(path+"/", "/internal/") {
				t.Errorf("%s imports %s: the public client must not import internal packages", name, path)
			} else if path == module || strings.HasPrefix(path, module+"/") {
				t.Errorf("%s imports %s: the client must not depend on the rest of the module", name, path)
			}
		}
	}
	if checked < 5 {
		t.Fatalf("checked only %d files: is the test running in the client directory?", checked)
	}
}
