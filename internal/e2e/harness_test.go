// Package e2e drives real vds processes: `vds serve` instances on loopback
// and the operator commands, on SQLite and on PostgreSQL.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/cli"
	"github.com/vds-dev/vds/internal/fixture"
	"github.com/vds-dev/vds/internal/httpapi"
	"github.com/vds-dev/vds/internal/httpapi/apitest"
	"github.com/vds-dev/vds/internal/store/storetest"
)

// asVDS makes the test binary behave as vds when set: an env with race set
// runs this race-enabled binary, so the server runs under the race
// detector. The tests that drive a server with concurrent clients or
// replicas do; the others run vdsBin, the `make build` vds, several times
// cheaper to start and ingest with.
const asVDS = "VDS_E2E_RUN_AS_VDS"

var vdsBin string

func TestMain(m *testing.M) {
	if os.Getenv(asVDS) == "1" {
		// As cmd/vds does: SIGTERM cancels the context for a graceful exit.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := cli.Main(ctx, os.Args[1:])
		stop()
		os.Exit(code)
	}
	bin, remove, err := fixture.BuildVDS()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	vdsBin = bin
	code := m.Run()
	remove()
	os.Exit(code)
}

// env is one isolated vds installation: its own config and data
// directories and database. Tests on their own envs run in parallel.
type env struct {
	t       *testing.T
	dir     string
	dbURL   string
	backend string
	// race runs this race-enabled test binary as vds instead of vdsBin.
	race bool
}

// backends runs fn once per store, in parallel: SQLite always, PostgreSQL
// when a server is available (and always under CI).
func backends(t *testing.T, fn func(t *testing.T, e *env)) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			fn(t, newEnv(t, backend))
		})
	}
}

func newEnv(t *testing.T, backend string) *env {
	dir := t.TempDir()
	e := &env{t: t, dir: dir, backend: backend}
	if backend == "postgres" {
		e.dbURL = storetest.PostgresURL(t)
	} else {
		e.dbURL = "sqlite:" + filepath.Join(dir, "vds.db")
	}
	return e
}

// writeConfig writes the config file every vds process of e reads.
func (e *env) writeConfig(yaml string) {
	p := filepath.Join(e.dir, "config", "vds", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(yaml), 0o600); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) command(args ...string) *exec.Cmd {
	cmd := exec.Command(vdsBin, args...)
	cmd.Env = os.Environ()
	if e.race {
		cmd = exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), asVDS+"=1",
			// The race detector sleeps 1 s at every exit unless told not to;
			// GORACE options set for the run come after, so they still win.
			strings.TrimSpace("GORACE=atexit_sleep_ms=0 "+os.Getenv("GORACE")))
	}
	cmd.Env = append(cmd.Env,
		"HOME="+e.dir,
		"XDG_CONFIG_HOME="+filepath.Join(e.dir, "config"),
		"XDG_DATA_HOME="+filepath.Join(e.dir, "data"),
		"VDS_DATABASE_URL="+e.dbURL,
	)
	return cmd
}

// vds runs an operator command and returns its stdout; a failure fails the test.
func (e *env) vds(args ...string) string {
	e.t.Helper()
	var out, errb bytes.Buffer
	cmd := e.command(args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		e.t.Fatalf("vds %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.String()
}

// newToken creates an account on plan and returns a token secret for it.
func (e *env) newToken(email, plan string) (id, secret string) {
	e.t.Helper()
	e.vds("accounts", "create", "--email", email, "--plan", plan)
	var tok struct{ ID, Token string }
	if err := json.Unmarshal([]byte(e.vds("tokens", "create", "--email", email, "--json")), &tok); err != nil {
		e.t.Fatal(err)
	}
	return tok.ID, tok.Token
}

// instance is a running `vds serve`.
type instance struct {
	t    *testing.T
	URL  string
	cmd  *exec.Cmd
	logs *syncBuffer
	done chan error
	// http validates every response it receives against the OpenAPI
	// document, so the whole suite holds the server to its contract.
	http *http.Client
}

// validator checks responses against the OpenAPI document; one serves
// every instance, as it checks concurrently.
var validator = sync.OnceValues(func() (*apitest.Validator, error) {
	doc, err := httpapi.OpenAPIDocument()
	if err != nil {
		return nil, err
	}
	return apitest.New(doc)
})

// validatingClient returns an HTTP client that checks every response
// against the OpenAPI document.
func validatingClient(t *testing.T) *http.Client {
	v, err := validator()
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Timeout: 30 * time.Second, Transport: v.Transport(t, sharedTransport)}
}

var sharedTransport = &http.Transport{MaxIdleConnsPerHost: 64}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serve starts `vds serve` on a free loopback port and waits until /readyz
// answers. The process is stopped with SIGTERM when the test ends.
func (e *env) serve(args ...string) *instance {
	e.t.Helper()
	cmd := e.command(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		e.t.Fatal(err)
	}
	in := &instance{t: e.t, cmd: cmd, logs: &syncBuffer{}, done: make(chan error, 1), http: validatingClient(e.t)}
	cmd.Stdout = in.logs
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(in.logs, line)
			var rec struct{ Msg, Addr string }
			if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "serving" {
				addr <- rec.Addr
			}
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	go func() { in.done <- cmd.Wait() }()
	select {
	case a := <-addr:
		in.URL = "http://" + a
	case err := <-in.done:
		e.t.Fatalf("vds serve exited early: %v\n%s", err, in.logs.String())
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		e.t.Fatalf("vds serve did not start\n%s", in.logs.String())
	}
	e.t.Cleanup(func() { in.stop() })
	return in
}

// stop sends SIGTERM and waits for a graceful exit.
func (in *instance) stop() {
	if in.cmd.ProcessState != nil {
		return
	}
	_ = in.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-in.done:
		if err != nil {
			in.t.Errorf("vds serve exited with %v\n%s", err, in.logs.String())
		}
	case <-time.After(20 * time.Second):
		_ = in.cmd.Process.Kill()
		in.t.Errorf("vds serve ignored SIGTERM\n%s", in.logs.String())
	}
}

// get performs an authenticated GET and returns status, headers and body.
func (in *instance) get(token, path string) (int, http.Header, []byte) {
	in.t.Helper()
	req, err := http.NewRequest(http.MethodGet, in.URL+path, nil)
	if err != nil {
		in.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := in.http.Do(req)
	if err != nil {
		in.t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		in.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, body
}

// getJSON GETs path, requires status want, and decodes the body into v.
func (in *instance) getJSON(token, path string, want int, v any) http.Header {
	in.t.Helper()
	status, h, body := in.get(token, path)
	if status != want {
		in.t.Fatalf("GET %s: status %d, want %d\n%s", path, status, want, body)
	}
	if v != nil {
		if err := json.Unmarshal(body, v); err != nil {
			in.t.Fatalf("GET %s: %v\n%s", path, err, body)
		}
	}
	return h
}

// eventually polls cond every 100ms until it holds or limit passes, and
// returns how long it took.
func eventually(t *testing.T, limit time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > limit {
			t.Fatalf("%s: not within %s", what, limit)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return time.Since(start)
}
