package cli

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/edge"
)

// TestNewAccessLog: vds serve's access lines are in log.format, and there
// are none when log.level is above info.
func TestNewAccessLog(t *testing.T) {
	for _, c := range []struct{ level, format, want string }{
		{"info", "json", `^\{"time":"[^"]+","level":"INFO","msg":"request","request_id":"[0-9a-f]{24}","method":"GET","path":"/x","query":"make=Ford&api_key=REDACTED","route":"unmatched","status":401,"duration_ms":[0-9.]+,"bytes":[1-9][0-9]*,"account_id":"","code":"unauthorized"\}\n$`},
		{"debug", "text", `^time=\S+ level=INFO msg=request request_id=[0-9a-f]{24} method=GET path=/x query="make=Ford&api_key=REDACTED" route=unmatched status=401 duration_ms=[0-9.e+-]+ bytes=[1-9][0-9]* account_id="" code=unauthorized\n$`},
		{"warn", "json", `^$`},
	} {
		var out bytes.Buffer
		al := newAccessLog(&config.Config{Log: config.Log{Level: c.level, Format: c.format}}, &out)
		h := edge.Observe(edge.Observer{Access: al}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			edge.WriteCode(w, r, edge.CodeUnauthorized, "", "no")
		}))
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/x?make=Ford&api_key=k", nil))
		al.Close()
		if !regexp.MustCompile(c.want).Match(out.Bytes()) {
			t.Errorf("level %s, format %s: %q, want %s", c.level, c.format, out.String(), c.want)
		}
	}
}

// TestRunnable: the banner names vds as the shell can run it: bare when
// PATH finds this very binary, else by the path it was started with.
func TestRunnable(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin", "vds")
	other := filepath.Join(dir, "other", "vds")
	for _, p := range []string{bin, other} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", filepath.Dir(other))
	for arg0, want := range map[string]string{"vds": "vds", bin: bin, other: "vds"} {
		if got := runnable(arg0); got != want {
			t.Errorf("runnable(%q) = %q, want %q", arg0, got, want)
		}
	}
}

// TestLogFormat: auto is text on a terminal and JSON lines otherwise; a
// format given is kept.
func TestLogFormat(t *testing.T) {
	for _, c := range []struct {
		format string
		tty    bool
		want   string
	}{{"auto", true, "text"}, {"auto", false, "json"}, {"json", true, "json"}, {"text", false, "text"}} {
		if got := logFormat(c.format, c.tty); got != c.want {
			t.Errorf("logFormat(%q, tty %v) = %q, want %q", c.format, c.tty, got, c.want)
		}
	}
}
