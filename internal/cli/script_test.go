package cli_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/cli"
	"github.com/vds-dev/vds/internal/credentials"
	"github.com/vds-dev/vds/internal/fixture"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/postgres"
	"github.com/vds-dev/vds/internal/store/sqlite"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/tlstest"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

// vdsDir holds the vds binary the scripts run, built once by TestMain.
var vdsDir string

// TestMain builds the vds the scripts run as a real subprocess, with the
// flags of `make build` and without the race detector: the scripts check
// what a command prints, writes and exits with, which a race report would
// not change.
func TestMain(m *testing.M) {
	bin, remove, err := fixture.BuildVDS()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	vdsDir = filepath.Dir(bin)
	code := m.Run()
	remove()
	os.Exit(code)
}

// TestScriptsSQLite runs every script on the default SQLite store.
func TestScriptsSQLite(t *testing.T) {
	testscript.Run(t, scriptParams(t, nil))
}

// TestScriptsPostgres runs again, with VDS_DATABASE_URL on a fresh
// PostgreSQL database per script, every script that uses the store.
func TestScriptsPostgres(t *testing.T) {
	base := storetest.PostgresURL(t) // skips, or fails under CI, without a server
	p := scriptParams(t, func(env *testscript.Env) error {
		u, drop, err := storetest.CreateDatabase(base)
		if err != nil {
			return err
		}
		env.Defer(func() { _ = drop() })
		env.Setenv("VDS_DATABASE_URL", u)
		return nil
	})
	p.Files = storeScripts(t, p.Dir)
	p.Dir = ""
	testscript.Run(t, p)
}

// storeScripts lists the scripts of dir that use the store the test gives
// them: those that run an operator command (the "operator" group of vds
// --help, on the database) before setting VDS_DATABASE_URL to a value of
// their own, and without --database. The others run the same on any store.
// The custom commands that read the store need one an operator command made.
func storeScripts(t *testing.T, dir string) []string {
	t.Helper()
	root := cli.NewRootCmd(cli.NewFactory(&cli.IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard}))
	operator := func(args []string) bool {
		i := slices.IndexFunc(args, func(a string) bool { return !strings.HasPrefix(a, "-") })
		if i < 0 || slices.Contains(args, "--database") {
			return false
		}
		c, _, err := root.Find(args[i : i+1])
		return err == nil && c != root && c.GroupID == "operator"
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no scripts in %s: %v", dir, err)
	}
	var out []string
	for _, path := range paths {
		a, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
	lines:
		for line := range strings.Lines(string(a.Comment)) {
			words := strings.Fields(strings.NewReplacer("'", " ", `"`, " ").Replace(line))
			for len(words) > 0 && (words[0] == "!" || words[0] == "?" || strings.HasPrefix(words[0], "[")) {
				words = words[1:]
			}
			switch {
			case len(words) > 1 && words[0] == "env" && strings.HasPrefix(words[1], "VDS_DATABASE_URL=") && !strings.Contains(words[1], "$"):
				break lines
			case len(words) == 0 || words[0] != "exec" && words[0] != "exitcode":
				continue
			}
			for i, w := range words {
				if w == "vds" && operator(words[i+1:]) {
					out = append(out, path)
					break lines
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no script in %s runs an operator command: the PostgreSQL pass would test nothing", dir)
	}
	t.Logf("on SQLite only, as they use no store: %v", slices.DeleteFunc(paths, func(p string) bool { return slices.Contains(out, p) }))
	return out
}

func scriptParams(t *testing.T, setup func(*testscript.Env) error) testscript.Params {
	// One fake NHTSA for all the scripts of a run, at $NHTSA_URL: a script
	// points vds serve at it through VDS_UPSTREAM_VPIC_URL and
	// VDS_UPSTREAM_NHTSA_URL, so vds vin and vds recalls replay the
	// captured answers and never leave the machine.
	nhtsa := upstreamtest.New(t)
	// The vPIC snapshot cut down to a few manufacturers: whole, it takes
	// seconds to load, per vds command.
	vpicSubset := vpictest.Cut(t, "1FT", "5UX", "1HD")
	epaZip, epa2015 := fixture.EPAZip(t), fixture.EPA2015(t)
	// A web server that is not vds, at $NOTVDS_URL: a page at / and an
	// HTML 404 elsewhere, as python3 -m http.server answers.
	notVDS := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path != "/" {
			w.WriteHeader(http.StatusNotFound)
		}
		fmt.Fprint(w, "<!DOCTYPE HTML>\n<html><head><title>Error response</title></head></html>\n")
	}))
	t.Cleanup(notVDS.Close)
	return testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", vdsDir+string(filepath.ListSeparator)+env.Getenv("PATH"))
			env.Setenv("HOME", env.WorkDir)
			env.Setenv("XDG_DATA_HOME", filepath.Join(env.WorkDir, "data"))
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, "config"))
			env.Setenv("VDS_DATABASE_URL", "")
			env.Setenv("EPA_ZIP", epaZip)
			env.Setenv("EPA_2015_CSV", epa2015)
			env.Setenv("NHTSA_URL", nhtsa.URL)
			env.Setenv("NOTVDS_URL", notVDS.URL)
			env.Setenv("KNOWN_VIN", upstreamtest.KnownVIN)
			env.Setenv("VPIC_SNAPSHOT", vpicSubset)
			env.Setenv("NHTSA_RCL_2014", fixture.Path(t, "nhtsa-recalls", "flat-rcl-2014-sample.txt"))
			env.Setenv("NHTSA_CMPL_2020", fixture.Path(t, "nhtsa-recalls", "flat-cmpl-2020-sample.txt"))
			if setup != nil {
				return setup(env)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"jsonget":   cmdJSONGet,
			"dumpuuids": cmdDumpUUIDs,
			"nosecret":  cmdNoSecret,
			"nosecretfile": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: nosecretfile FILE")
				}
				ts.Setenv("SECRET_FROM_FILE", strings.TrimRight(ts.ReadFile(args[0]), "\r\n"))
				cmdNoSecret(ts, false, []string{"SECRET_FROM_FILE"})
			},
			"uuidof":       cmdUUIDOf,
			"waitserve":    cmdWaitServe,
			"exitcode":     cmdExitCode,
			"tsvfield":     cmdTSVField,
			"capture":      cmdCapture,
			"mode":         cmdMode,
			"badnumber":    cmdBadNumber,
			"addtokens":    cmdAddTokens,
			"plantlog":     cmdPlantLog,
			"helpexamples": cmdHelpExamples,
			"spent":        cmdSpent,
			"tlscert":      cmdTLSCert,
		},
		RequireExplicitExec: true,
	}
}

// addtokens EMAIL N gives the account N more active tokens straight in the
// store, faster than N vds processes.
func cmdAddTokens(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: addtokens EMAIL N")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	st := openStore(ts)
	defer st.Close()
	ctx := context.Background()
	a, err := st.AccountByEmail(ctx, args[0])
	ts.Check(err)
	for i := range n {
		_, hash, prefix := account.NewSecret()
		ts.Check(st.CreateToken(ctx, account.Token{ID: account.NewID("tok"), AccountID: a.ID, Name: fmt.Sprintf("t%d", i),
			Prefix: prefix, Hash: hash, Scopes: []string{account.ScopeRead}, CreatedAt: time.Now()}, access.MaxTokens))
	}
}

// plantlog EMAIL writes a request-log line for the account whose operation
// holds terminal escapes, a bidi override and a DEL, straight into the
// database as a server before the log checked its text could have.
func cmdPlantLog(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: plantlog EMAIL")
	}
	driver, dsn := "sqlite", "file:"+sqlitePath(ts)+"?_time_format=sqlite"
	if u := ts.Getenv("VDS_DATABASE_URL"); u != "" {
		driver, dsn = "pgx", u
	}
	db, err := sql.Open(driver, dsn)
	ts.Check(err)
	defer db.Close()
	var accountID, tokenID string
	ts.Check(db.QueryRow(`SELECT a.id, t.id FROM accounts a JOIN tokens t ON t.account_id = a.id WHERE a.email = $1 LIMIT 1`, args[0]).
		Scan(&accountID, &tokenID))
	const op = "\x1b[2J\x1b[31mlist_makes\x1b[0m\x1b]0;pwned\x07\x1b]52;c;ZWNobyBwd25lZA==\x07\r\x1b[Ksearch\u202e_vehicles\x7f\u009b"
	_, err = db.Exec(`INSERT INTO request_log (account_id, token_id, at, channel, operation, status, duration_us, request_id)
		VALUES ($1, $2, $3, 'mcp', $4, 404, 1000, 'planted')`, accountID, tokenID, time.Now().UTC(), op)
	ts.Check(err)
}

// jsonget FILE KEY VAR sets VAR to the string at KEY of the JSON object in FILE.
func cmdJSONGet(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: jsonget FILE KEY VAR")
	}
	var obj map[string]any
	ts.Check(json.Unmarshal([]byte(ts.ReadFile(args[0])), &obj))
	v, ok := obj[args[1]].(string)
	if !ok {
		ts.Fatalf("%s has no string %q", args[0], args[1])
	}
	ts.Setenv(args[2], v)
}

// openStore opens the database the script's vds commands use.
func openStore(ts *testscript.TestScript) store.Store {
	var (
		st  store.Store
		err error
	)
	if u := ts.Getenv("VDS_DATABASE_URL"); u != "" {
		st, err = postgres.Open(context.Background(), u)
	} else {
		st, err = sqlite.Open(sqlitePath(ts))
	}
	ts.Check(err)
	return st
}

func sqlitePath(ts *testscript.TestScript) string {
	return filepath.Join(ts.Getenv("XDG_DATA_HOME"), "vds", "vds.db")
}

// dumpuuids FILE writes every catalog record's kind and uuid, sorted, to FILE.
func cmdDumpUUIDs(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: dumpuuids FILE")
	}
	st := openStore(ts)
	defer st.Close()
	c, _, err := st.LoadCatalog(context.Background())
	ts.Check(err)
	var lines []string
	for _, r := range c.Cars {
		lines = append(lines, "car "+r.UUID.String())
	}
	for _, r := range c.Motorcycles {
		lines = append(lines, "motorcycle "+r.UUID.String())
	}
	for _, r := range c.Boats {
		lines = append(lines, "boat "+r.UUID.String())
	}
	for _, r := range c.TireSizes {
		lines = append(lines, "tire_size "+r.UUID.String())
	}
	slices.Sort(lines)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.Join(lines, "\n")+"\n"), 0o644))
}

// uuidof FILE KIND VAR sets VAR to the first uuid of KIND in a dumpuuids file.
func cmdUUIDOf(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: uuidof FILE KIND VAR")
	}
	for line := range strings.SplitSeq(ts.ReadFile(args[0]), "\n") {
		if kind, id, ok := strings.Cut(line, " "); ok && kind == args[1] {
			ts.Setenv(args[2], id)
			return
		}
	}
	ts.Fatalf("no %s in %s", args[1], args[0])
}

// nosecret VAR fails if the value of VAR appears anywhere in the database:
// in any byte of the SQLite files, or in any row of any PostgreSQL table.
func cmdNoSecret(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: nosecret VAR")
	}
	secret := ts.Getenv(args[0])
	if len(secret) < 20 {
		ts.Fatalf("$%s = %q does not look like a token", args[0], secret)
	}
	if u := ts.Getenv("VDS_DATABASE_URL"); u != "" {
		db, err := sql.Open("pgx", u)
		ts.Check(err)
		defer db.Close()
		rows, err := db.Query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`)
		ts.Check(err)
		var tables []string
		for rows.Next() {
			var name string
			ts.Check(rows.Scan(&name))
			tables = append(tables, name)
		}
		rows.Close()
		if !slices.Contains(tables, "tokens") {
			ts.Fatalf("no tokens table among %v", tables)
		}
		for _, table := range tables {
			var n int
			ts.Check(db.QueryRow(fmt.Sprintf(`SELECT COUNT(*) FROM %q t WHERE t::text LIKE '%%' || $1 || '%%'`, table), secret).Scan(&n))
			if n > 0 {
				ts.Fatalf("the secret appears in %d row(s) of table %s", n, table)
			}
		}
		return
	}
	files, err := filepath.Glob(sqlitePath(ts) + "*")
	ts.Check(err)
	if len(files) == 0 {
		ts.Fatalf("no database files at %s", sqlitePath(ts))
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		ts.Check(err)
		if bytes.Contains(b, []byte(secret)) {
			ts.Fatalf("the secret appears in %s", f)
		}
	}
}

// waitserve waits until a background `vds serve --demo` has stored its URL
// and token in the credentials file (as the current instance) and answers
// /readyz, then sets $URL and $TOKEN. The file is how a server on --addr 127.0.0.1:0 tells its
// port, so the scripts never guess a free one.
func cmdWaitServe(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: waitserve")
	}
	path := credentials.Path(filepath.Join(ts.Getenv("XDG_CONFIG_HOME"), "vds"))
	hc := http.DefaultClient
	if ca := ts.Getenv("VDS_CLIENT_CA_FILE"); ca != "" {
		roots := x509.NewCertPool()
		roots.AppendCertsFromPEM([]byte(ts.ReadFile(ca)))
		hc = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := credentials.Load(path)
		if err == nil && c.Current != "" && c.Token(c.Current) != "" {
			if resp, err := hc.Get(c.Current + "/readyz"); err == nil {
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					ts.Setenv("URL", c.Current)
					ts.Setenv("TOKEN", c.Token(c.Current))
					return
				}
			}
		}
		if time.Now().After(deadline) {
			ts.Fatalf("vds serve stored no URL in %s or never got ready (last error: %v)", path, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// tlscert DIR writes a new CA to DIR/ca.pem and a server certificate it
// signed for loopback to DIR/cert.pem and DIR/key.pem.
func cmdTLSCert(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tlscert DIR")
	}
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(dir, 0o755))
	ca := tlstest.NewCA(ts)
	ca.WriteCA(ts, dir)
	ca.WriteServer(ts, dir)
}

// exitcode N PROG [ARGS...] runs PROG and fails unless it exits with N;
// stdout and stderr are kept for the next stdout and stderr checks. It is
// how the scripts pin the documented exit codes, which `! exec` cannot.
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N PROG [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%s: %v", args[1], err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", strings.Join(args[1:], " "), got, want)
	}
}

// tsvfield FILE PATTERN N VAR sets VAR to the Nth tab-separated field
// (from 1) of the first line of FILE matching the regular expression.
func cmdTSVField(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: tsvfield FILE PATTERN N VAR")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	n, err := strconv.Atoi(args[2])
	ts.Check(err)
	sc := bufio.NewScanner(strings.NewReader(ts.ReadFile(args[0])))
	for sc.Scan() {
		if !re.MatchString(sc.Text()) {
			continue
		}
		fields := strings.Split(sc.Text(), "\t")
		if n < 1 || n > len(fields) {
			ts.Fatalf("line %q has no field %d", sc.Text(), n)
		}
		ts.Setenv(args[3], fields[n-1])
		return
	}
	ts.Fatalf("no line of %s matches %q", args[0], args[1])
}

// capture FILE REGEXP VAR sets VAR to the first group of REGEXP's first
// match in FILE (a request id from an error message, say).
func cmdCapture(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: capture FILE REGEXP VAR")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	m := re.FindStringSubmatch(ts.ReadFile(args[0]))
	if len(m) < 2 {
		ts.Fatalf("%s has no match of %q with a group", args[0], args[1])
	}
	ts.Setenv(args[2], m[1])
}

// spent FROM TO N [FILE REGEXP] fails unless the quota used in file TO
// (the output of vds api me --jq .data.quota.used) is that in FROM plus N,
// plus one per line of FILE matching REGEXP (one call per record listed).
func cmdSpent(ts *testscript.TestScript, neg bool, args []string) {
	if neg || (len(args) != 3 && len(args) != 5) {
		ts.Fatalf("usage: spent FROM TO N [FILE REGEXP]")
	}
	used := func(file string) int {
		n, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(file)))
		ts.Check(err)
		return n
	}
	want, err := strconv.Atoi(args[2])
	ts.Check(err)
	if len(args) == 5 {
		re, err := regexp.Compile(args[4])
		ts.Check(err)
		for line := range strings.SplitSeq(ts.ReadFile(args[3]), "\n") {
			if re.MatchString(line) {
				want++
			}
		}
	}
	if got := used(args[1]) - used(args[0]); got != want {
		ts.Fatalf("spent %d quota units, want %d", got, want)
	}
}

// mode FILE PERM fails unless FILE's permission bits are PERM (octal).
func cmdMode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: mode FILE PERM")
	}
	want, err := strconv.ParseUint(args[1], 8, 32)
	ts.Check(err)
	fi, err := os.Stat(ts.MkAbs(args[0]))
	ts.Check(err)
	if got := fi.Mode().Perm(); got != os.FileMode(want) {
		ts.Fatalf("%s has mode %#o, want %#o", args[0], got, want)
	}
}

// badnumber publishes, straight in SQL past validation, a catalog version
// in which one car's displacement is a number JSON cannot carry, and sets
// $BAD_UUID to that car's uuid.
func cmdBadNumber(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: badnumber")
	}
	dsn := ts.Getenv("VDS_DATABASE_URL")
	if dsn == "" {
		dsn = sqlitePath(ts)
	}
	id, _, err := storetest.PublishDisplacement(context.Background(), dsn, storetest.Unloadable(dsn))
	ts.Check(err)
	ts.Setenv("BAD_UUID", id)
}
