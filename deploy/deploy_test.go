// Package deploy_test checks the deployment files of this directory: the
// compose file and the systemd unit. The container image is built and
// checked by cmd/vds's TestImage.
package deploy_test

import (
	"bufio"
	"bytes"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/cli"
	"go.yaml.in/yaml/v3"
)

type composeFile struct {
	Services map[string]struct {
		Image       string
		Command     []string
		Environment map[string]string
		Ports       []string
		MemLimit    string                                `yaml:"mem_limit"`
		DependsOn   map[string]struct{ Condition string } `yaml:"depends_on"`
		Healthcheck struct {
			Test    []string
			Disable bool
		}
	}
	Volumes map[string]any
}

// TestCompose: PostgreSQL, then migrate, then ingest, then two vds serve
// replicas, each step waiting for the one before; every vds service runs a
// real vds command on the image `make image` builds, with one database URL.
func TestCompose(t *testing.T) {
	raw := readFile(t, "compose.yaml")
	// The database password has no default: compose refuses to start
	// without one, rather than run with a guessable password.
	required := regexp.MustCompile(`\$\{POSTGRES_PASSWORD:\?[^}]+\}`)
	if n := len(required.FindAll(raw, -1)); n != 2 || bytes.Contains(raw, []byte("${POSTGRES_PASSWORD:-")) || bytes.Contains(raw, []byte("${POSTGRES_PASSWORD}")) {
		t.Errorf("POSTGRES_PASSWORD is required in %d places, want the postgres service and the database URL, with no default", n)
	}
	raw = required.ReplaceAll(raw, []byte("secret"))
	// Other variables take their defaults, as with none set: ${VAR:-default}.
	file := regexp.MustCompile(`\$\{\w+:-([^}]*)\}`).ReplaceAll(raw, []byte("$1"))
	if m := regexp.MustCompile(`\$\{[^}]*\}`).Find(file); m != nil {
		t.Errorf("compose.yaml: %s has neither a default nor a required message", m)
	}
	var c composeFile
	if err := yaml.Unmarshal(file, &c); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	names := make([]string, 0, len(c.Services))
	for name := range c.Services {
		names = append(names, name)
	}
	slices.Sort(names)
	if want := []string{"ingest", "migrate", "postgres", "vds-1", "vds-2"}; !slices.Equal(names, want) {
		t.Fatalf("services %q, want %q", names, want)
	}
	m := regexp.MustCompile(`(?m)^IMAGE\s*\?=\s*(\S+)$`).FindSubmatch(readFile(t, "../Makefile"))
	if m == nil {
		t.Fatal("the Makefile sets no IMAGE ?= default")
	}
	wantImage := string(m[1])

	type dep struct{ service, on, condition string }
	var deps []dep
	for name, s := range c.Services {
		for on, d := range s.DependsOn {
			deps = append(deps, dep{name, on, d.Condition})
		}
	}
	slices.SortFunc(deps, func(a, b dep) int { return strings.Compare(a.service+" "+a.on, b.service+" "+b.on) })
	wantDeps := []dep{
		{"ingest", "migrate", "service_completed_successfully"},
		{"migrate", "postgres", "service_healthy"},
		{"vds-1", "ingest", "service_completed_successfully"},
		{"vds-1", "postgres", "service_healthy"},
		{"vds-2", "ingest", "service_completed_successfully"},
		{"vds-2", "postgres", "service_healthy"},
	}
	if !slices.Equal(deps, wantDeps) {
		t.Errorf("depends_on %v, want %v", deps, wantDeps)
	}

	pg := c.Services["postgres"]
	if !strings.HasPrefix(pg.Image, "docker.io/library/postgres:") || !slices.Contains(pg.Healthcheck.Test, "pg_isready") {
		t.Errorf("postgres: image %q healthcheck %q, want the official image checked with pg_isready", pg.Image, pg.Healthcheck.Test)
	}
	if _, ok := c.Volumes["pgdata"]; !ok {
		t.Error("no pgdata volume: the database would not outlive its container")
	}
	dbURL := c.Services["migrate"].Environment["VDS_DATABASE_URL"]
	if u, err := url.Parse(dbURL); err != nil || u.Scheme != "postgres" || u.Hostname() != "postgres" || u.User.Username() != pg.Environment["POSTGRES_USER"] || u.Path != "/"+pg.Environment["POSTGRES_DB"] {
		t.Errorf("VDS_DATABASE_URL %q is not the postgres service's database", dbURL)
	}
	wantCommand := map[string]string{"migrate": "migrate", "ingest": "ingest", "vds-1": "serve", "vds-2": "serve"}
	ports := map[string]bool{}
	for name, command := range wantCommand {
		s := c.Services[name]
		if s.Image != wantImage {
			t.Errorf("%s: image %q, want %q (the Makefile's IMAGE)", name, s.Image, wantImage)
		}
		if s.Environment["VDS_DATABASE_URL"] != dbURL {
			t.Errorf("%s: VDS_DATABASE_URL %q, want the shared %q", name, s.Environment["VDS_DATABASE_URL"], dbURL)
		}
		if checkVDS(t, name, s.Command) != command {
			t.Errorf("%s runs %q, want vds %s", name, s.Command, command)
		}
		if command != "serve" {
			if !s.Healthcheck.Disable || len(s.Ports) > 0 {
				t.Errorf("%s: a one-shot job with healthcheck %+v and ports %q", name, s.Healthcheck, s.Ports)
			}
			continue
		}
		if len(s.Healthcheck.Test) < 2 || s.Healthcheck.Test[0] != "CMD" || s.Healthcheck.Test[1] != "/vds" || checkVDS(t, name+" healthcheck", s.Healthcheck.Test[2:]) != "healthcheck" {
			t.Errorf("%s: healthcheck %q, want CMD /vds healthcheck", name, s.Healthcheck.Test)
		}
		if len(s.Ports) != 1 || !strings.HasSuffix(s.Ports[0], ":8080") || ports[s.Ports[0]] {
			t.Errorf("%s: ports %q, want one host port of its own for 8080", name, s.Ports)
		}
		ports[s.Ports[0]] = true
		// vds serve sets Go's memory limit from it (internal/memlimit).
		if s.MemLimit == "" {
			t.Errorf("%s: no mem_limit: a replica could take the host's memory", name)
		}
	}
}

// checkVDS resolves args as a vds command line and parses its flags; it
// returns the command's name.
func checkVDS(t *testing.T, what string, args []string) string {
	t.Helper()
	root := cli.NewRootCmd(cli.NewFactory(&cli.IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard}))
	cmd, rest, err := root.Find(args)
	if err != nil || cmd == root {
		t.Errorf("%s: %q is no vds command: %v", what, args, err)
		return ""
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Errorf("%s: %q: %v", what, args, err)
	}
	return cmd.Name()
}

// TestSystemdUnit checks the unit's command, state directory and hardening,
// then has systemd-analyze verify it and score its exposure where it can.
func TestSystemdUnit(t *testing.T) {
	unit := readFile(t, "vds.service")
	service := map[string][]string{}
	section := ""
	sc := bufio.NewScanner(bytes.NewReader(unit))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "["):
			section = line
		case section == "[Service]":
			k, v, _ := strings.Cut(line, "=")
			service[k] = append(service[k], v)
		}
	}
	const bin = "/usr/local/bin/vds"
	exec0 := strings.Fields(strings.Join(service["ExecStart"], ""))
	if len(exec0) < 2 || exec0[0] != bin || checkVDS(t, "ExecStart", exec0[1:]) != "serve" {
		t.Errorf("ExecStart %q, want %s serve", service["ExecStart"], bin)
	}
	for k, want := range map[string]string{
		"DynamicUser": "yes", "StateDirectory": "vds", "ProtectSystem": "strict", "ProtectHome": "yes",
		"PrivateTmp": "yes", "NoNewPrivileges": "yes", "CapabilityBoundingSet": "", "MemoryDenyWriteExecute": "yes",
		"LockPersonality": "yes", "ProtectKernelTunables": "yes", "ProtectKernelModules": "yes", "ProtectKernelLogs": "yes",
		"RestrictAddressFamilies": "AF_INET AF_INET6 AF_UNIX", "Restart": "on-failure",
	} {
		if got := service[k]; !slices.Equal(got, []string{want}) {
			t.Errorf("%s=%q, want %q", k, got, want)
		}
	}
	// %S is /var/lib, so the SQLite default is the state directory's vds.db.
	for _, env := range []string{"XDG_DATA_HOME=%S", "XDG_CONFIG_HOME=%E"} {
		if !slices.Contains(service["Environment"], env) {
			t.Errorf("Environment %q lacks %s", service["Environment"], env)
		}
	}
	if !slices.Contains(service["SystemCallFilter"], "@system-service") {
		t.Errorf("SystemCallFilter %q lacks @system-service", service["SystemCallFilter"])
	}

	analyze, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze is not installed: the unit is not verified")
	}
	// verify wants ExecStart's binary to exist: any executable does, here
	// this test binary.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "vds.service")
	if err := os.WriteFile(path, bytes.ReplaceAll(unit, []byte(bin), []byte(self)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(analyze, "verify", path).CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
	// The exposure score, 0 (locked down) to 10 (unprotected), in tenths:
	// the unit scores 1.2; a lost restriction raises it. --offline needs
	// systemd 250.
	out, err := exec.Command(analyze, "security", "--offline=yes", "--threshold=12", path).CombinedOutput()
	switch {
	case bytes.Contains(out, []byte("unrecognized option")):
		t.Logf("systemd-analyze security has no --offline: exposure not scored\n%s", out)
	case err != nil || !bytes.Contains(out, []byte("Overall exposure level for vds.service: 1.")):
		// The report without the restrictions the unit passes.
		var report []string
		for line := range strings.Lines(string(out)) {
			if !strings.Contains(line, "✓") {
				report = append(report, line)
			}
		}
		t.Errorf("systemd-analyze security: %v, want an exposure of at most 1.2\n%s", err, strings.Join(report, ""))
	}
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
