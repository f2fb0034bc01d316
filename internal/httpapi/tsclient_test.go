package httpapi_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/httpapi"
)

// TestTypeScriptClientCompiles generates TypeScript types from the document
// as a server on loopback serves it, with the pinned openapi-typescript, and
// compiles testdata/tsclient/client.ts against them with tsc --strict: the
// document must work for a generated client unchanged. Node and npm must be
// installed; without them the test skips, except under CI, where it fails
// (scripts/test.sh installs them there).
func TestTypeScriptClientCompiles(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not installed but CI is set: the TypeScript client check must run (apt-get install nodejs npm)", tool)
			}
			t.Skipf("%s is not installed (apt-get install nodejs npm); skipping the TypeScript client check", tool)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	for _, name := range []string{"package.json", "package-lock.json", "client.ts"} {
		b, err := os.ReadFile(filepath.Join("testdata", "tsclient", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	mux := http.NewServeMux()
	httpapi.New(nil, nil, nil, nil, nil, nil, httpapi.Options{}).Mount(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/v1/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /v1/openapi.json: status %d, %v", resp.StatusCode, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "openapi.json"), doc, 0o644); err != nil {
		t.Fatal(err)
	}

	run := func(name string, args ...string) string {
		t.Helper()
		start := time.Now()
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		t.Logf("%s %s: %v", filepath.Base(name), args[0], time.Since(start).Round(time.Millisecond))
		return string(out)
	}
	// --ignore-scripts: neither package needs an install script.
	run("npm", "ci", "--ignore-scripts", "--prefer-offline", "--loglevel=error")
	bin := filepath.Join(dir, "node_modules", ".bin")
	run(filepath.Join(bin, "openapi-typescript"), "openapi.json", "--output", "vds.d.ts")
	types, err := os.ReadFile(filepath.Join(dir, "vds.d.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(types), `"/v1/cars": {`) || !strings.Contains(string(types), "CarPage: {") {
		t.Fatalf("vds.d.ts has no /v1/cars path or CarPage schema:\n%.2000s", types)
	}
	// --skipDefaultLibCheck halves tsc's time: TypeScript's own lib files
	// need no checking; vds.d.ts and client.ts are checked in full.
	if out := run(filepath.Join(bin, "tsc"), "--noEmit", "--strict", "--skipDefaultLibCheck", "--target", "es2022", "--lib", "es2022,dom",
		"--module", "es2022", "--moduleResolution", "bundler", "client.ts"); out != "" {
		t.Errorf("tsc printed:\n%s", out)
	}
}
