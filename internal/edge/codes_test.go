package edge

import (
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestEveryCodeHasAStatus: every exported Code* string constant of the
// packages whose errors reach the edge, and of this one, has a row in the
// table, so a new code cannot ship as a silent 500.
func TestEveryCodeHasAStatus(t *testing.T) {
	t.Parallel()
	seen := 0
	for _, dir := range []string{"../vehicle", "../lookup", "../limits", "../views", "."} {
		for name, value := range codeConsts(t, dir) {
			seen++
			c, ok := codes[value]
			if !ok {
				t.Errorf("%s: %s = %q has no status in edge.codes", dir, name, value)
				continue
			}
			if http.StatusText(c.status) == "" || c.status < 400 {
				t.Errorf("%s: %q maps to %d, not an error status", dir, value, c.status)
			}
		}
	}
	if seen != len(codes) {
		t.Errorf("found %d Code* constants, the table has %d rows: a row without a constant", seen, len(codes))
	}
}

// codeConsts returns the exported Code* string constants declared in dir.
func codeConsts(t *testing.T, dir string) map[string]string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	out := map[string]string{}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if !strings.HasPrefix(id.Name, "Code") || i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING {
						continue
					}
					v, _ := strconv.Unquote(lit.Value)
					out[id.Name] = v
				}
			}
		}
	}
	return out
}

func TestStatus(t *testing.T) {
	t.Parallel()
	for code, want := range map[string]int{
		"not_found": 404, "rate_limited": 429, "service_unavailable": 503, "invalid_request": 400,
		"headers_too_large": 431, "no_such_code": 500,
	} {
		if got := Status(code); got != want {
			t.Errorf("Status(%q) = %d, want %d", code, got, want)
		}
	}
}

// TestAPICodes: the OpenAPI document lists what REST operations send, not
// the codes of unreadable requests or of the MCP transport.
func TestAPICodes(t *testing.T) {
	t.Parallel()
	api := APICodes()
	for _, c := range []string{CodeInvalidRequest, CodeForbidden, CodeCrossOriginRequest, CodeRequestTooLarge,
		CodeHeadersTooLarge, CodeNotImplemented, CodeHTTPVersionNotSupported} {
		if _, ok := api[c]; ok {
			t.Errorf("APICodes lists %q", c)
		}
	}
	if api["quota_exceeded"] != 429 || api[CodeUnauthorized] != 401 || len(api) != 20 {
		t.Errorf("APICodes = %v", api)
	}
}
