package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/spf13/cobra"
	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/access/accesstest"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/credentials"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
)

// These tests run the client commands in process, with test streams, against
// a real vds server on loopback: the demo catalog on SQLite, accounts on
// several plans, and a fake NHTSA.

// testServer is a running vds server and what the tests need to know of it.
type testServer struct {
	URL    string
	tokens map[string]string // by account name: dev, pro, tiny, noapi
	nhtsa  *upstreamtest.Fake
	// f150 is a 2021 Ford F-150 car, camry a car whose recalls nobody has
	// asked for yet, moto a motorcycle, fitment a tire fitment, gone the
	// uuid of a car in dev's garage that left the catalog.
	f150, camry, moto, fitment, gone string
	// wrangler is a 2020 Jeep Wrangler, whose complaints the fake NHTSA holds.
	wrangler string
}

func newTestServer(t *testing.T) *testServer {
	t.Helper()
	ctx := context.Background()
	st, c := storetest.DemoSQLite(t, false)
	ts := &testServer{tokens: map[string]string{}, nhtsa: upstreamtest.New(t)}
	for _, car := range c.Cars {
		switch {
		case ts.f150 == "" && car.Make == "Ford" && car.Model == "F-150" && car.Year == 2021:
			ts.f150 = car.UUID.String()
		case ts.camry == "" && car.Make == "Toyota" && car.Model == "Camry":
			ts.camry = car.UUID.String()
		case ts.wrangler == "" && car.Make == "Jeep" && car.Model == "Wrangler" && car.Year == 2020:
			ts.wrangler = car.UUID.String()
		}
	}
	ts.moto, ts.fitment = c.Motorcycles[0].UUID.String(), c.TireSizes[0].UUID.String()

	plans := maps.Clone(config.DefaultPlans)
	plans["tiny"] = config.PlanLimits{RatePerMinute: 1, MonthlyQuota: 1000, APIAccess: true}
	plans["noapi"] = config.PlanLimits{RatePerMinute: 10, MonthlyQuota: 100}
	cfg := &config.Config{
		Server: config.Server{Addr: "127.0.0.1:0", CatalogPoll: time.Hour, UsageFlush: time.Hour, AuthCacheTTL: time.Second,
			ShutdownTimeout: time.Second, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 5 * time.Second,
			WriteTimeout: 10 * time.Second, IdleTimeout: 5 * time.Second},
		Database: config.Database{URL: "sqlite:" + filepath.Join(t.TempDir(), "unused.db")},
		// No test here waits on the upstream timeout; at 300 ms the fake,
		// under the race detector on a loaded machine, missed it.
		Upstream: config.Upstream{VPICURL: ts.nhtsa.URL, NHTSAURL: ts.nhtsa.URL, EPAURL: ts.nhtsa.URL,
			Timeout: 5 * time.Second, CacheTTL: time.Hour},
		Log:   config.Log{Level: "info", Format: "json"},
		Plans: plans,
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	acc := access.New(st, cfg.Plan, cfg.PlanNames())
	accounts := accesstest.Create(t, acc, map[string]string{"dev": "developer", "pro": "pro", "tiny": "tiny", "noapi": "noapi"})
	for name, a := range accounts {
		ts.tokens[name] = a.Token
	}
	dev := accounts["dev"]
	// dev's garage: the F-150 and a car that then leaves the catalog.
	ts.gone = storetest.GarageWithGoneCar(t, st, c, dev.ID, "test note", storetest.SavedItem{Kind: catalog.KindCar, ID: uuid.MustParse(ts.f150)}).UUID.String()

	srv, err := server.New(ctx, cfg, st, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	ts.URL = hs.URL
	return ts
}

// isolate keeps the tests off the user's credentials and environment.
func isolate(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(dir, "data"))
	for _, k := range []string{"VDS_URL", "VDS_TOKEN", "VDS_DATABASE_URL", "NO_COLOR"} {
		t.Setenv(k, "")
	}
}

// streams describes the test IOStreams of a run.
type streams struct {
	tty, color bool
	stdin      string
}

type result struct {
	code     int
	out, err string
}

// vds runs one command line as Main would, on test streams.
func vds(t *testing.T, s streams, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	io := &IOStreams{In: strings.NewReader(s.stdin), Out: &out, ErrOut: &errOut, OutTTY: s.tty, ErrTTY: s.tty, Color: s.color}
	f := NewFactory(io)
	defer f.Close()
	code := run(context.Background(), f, args)
	return result{code: code, out: out.String(), err: errOut.String()}
}

// as runs a client command with the server's URL and the named account's token.
func (ts *testServer) as(t *testing.T, account string, s streams, args ...string) result {
	t.Helper()
	return vds(t, s, append(args, "--url", ts.URL, "--token", ts.tokens[account])...)
}

var (
	piped   = streams{}
	tty     = streams{tty: true}
	colored = streams{tty: true, color: true}
)

// check asserts a result: exit code, and regexps that stdout and stderr
// must (want, wantErr) or must not (not) match, in multi-line mode.
func check(t *testing.T, r result, code int, want, not, wantErr []string) {
	t.Helper()
	if r.code != code {
		t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", r.code, code, r.out, r.err)
	}
	for _, re := range want {
		if !regexp.MustCompile("(?m)" + re).MatchString(r.out) {
			t.Errorf("stdout does not match %q:\n%s\nstderr:\n%s", re, r.out, r.err)
		}
	}
	for _, re := range not {
		if regexp.MustCompile("(?m)" + re).MatchString(r.out) {
			t.Errorf("stdout matches %q:\n%s", re, r.out)
		}
	}
	for _, re := range wantErr {
		if !regexp.MustCompile("(?m)" + re).MatchString(r.err) {
			t.Errorf("stderr does not match %q:\n%s", re, r.err)
		}
	}
}

func decodeJSON[T any](t *testing.T, r result) T {
	t.Helper()
	var v T
	if r.code != 0 {
		t.Fatalf("exit code %d: %s", r.code, r.err)
	}
	if err := json.Unmarshal([]byte(r.out), &v); err != nil {
		t.Fatalf("--json output does not decode into %T: %v\n%s", v, err, r.out)
	}
	return v
}

// TestClientCommandsRun covers options to output: each command on a
// terminal (aligned, with a header), piped (tab-separated, no header) and
// with --json.
func TestClientCommandsRun(t *testing.T) {
	isolate(t)
	ts := newTestServer(t)
	uuidRE := `[0-9a-f]{8}-[0-9a-f-]{27}`

	tests := []struct {
		name         string
		s            streams
		args         []string
		want, not    []string
		wantErr      []string
		wantExitCode int
	}{
		{name: "makes tty", s: tty, args: []string{"makes", "car"},
			want: []string{`\AMAKE {2,}RECORDS\n`, `^Toyota {2,}[0-9]+$`}},
		{name: "makes piped", s: piped, args: []string{"makes", "cars"},
			want: []string{`^Toyota\t[0-9]+$`}, not: []string{`MAKE`, ` {2,}`}},
		{name: "models", s: piped, args: []string{"models", "car", "--make", "ford"},
			want: []string{`^F-150\t[0-9]+\t20[0-9]{2}\t20[0-9]{2}$`}},
		{name: "models unknown make", s: tty, args: []string{"models", "boat", "--make", "Nobody"},
			want: []string{`^No boats of make "Nobody": see vds makes boat$`}},
		{name: "search tty", s: tty, args: []string{"search", "cars", "--make", "Toyota", "--model", "Camry"},
			want: []string{`\AUUID {2,}YEAR {2,}MAKE {2,}MODEL {2,}TRIM {2,}BODY {2,}ENGINE {2,}DRIVE {2,}MPG\n`,
				`^` + uuidRE + ` {2,}20[0-9]{2} {2,}Toyota {2,}Camry `, `^Page 1 of 1, [0-9]+ matches\.$`}},
		{name: "search piped", s: piped, args: []string{"search", "cars", "--make", "Toyota", "--model", "Camry"},
			want: []string{`\A` + uuidRE + `\t20[0-9]{2}\tToyota\tCamry\t[^\t]+\tSedan\t[^\t]+\t[A-Z0-9]+\t[0-9.]+\n`},
			not:  []string{`UUID`, `Page`}},
		{name: "search empty tty", s: tty, args: []string{"search", "motorcycles", "--make", "Nobody"},
			want: []string{`^No motorcycles match\.$`}},
		{name: "search empty piped", s: piped, args: []string{"search", "motorcycles", "--make", "Nobody"},
			not: []string{`.`}},
		{name: "search boats zero bound", s: piped, args: []string{"search", "boats", "--hp-min", "0", "--year", "2020", "--per-page", "2"},
			want: []string{`\A(` + uuidRE + `\t2020\t[^\n]+\n){2}\z`}},
		{name: "search tire sizes", s: piped, args: []string{"search", "tire-size", "--make", "Ford", "--model", "F-150", "--year", "2021"},
			want: []string{`^` + uuidRE + `\t2021\tFord\tF-150\t[^\t]+\t[^\t]+\t-\t[^\t]+\t-$`}},
		{name: "get car tty", s: tty, args: []string{"get", "car", ts.f150},
			want: []string{`\AUUID {2,}` + ts.f150 + `\n`, `^Model {2,}F-150$`, `^Model year {2,}2021$`, `^City MPG {2,}24$`, `^Engine displacement \(L\) {2,}`}},
		{name: "get motorcycle piped", s: piped, args: []string{"get", "motorcycles", ts.moto},
			want: []string{`\AUUID\t` + ts.moto + `\n`, `^Vehicle class\t`}},
		{name: "get fitment", s: piped, args: []string{"get", "tire", ts.fitment},
			want: []string{`^OEM tire size\t[^\t]+$`}},
		{name: "vin tty", s: tty, args: []string{"vin", upstreamtest.KnownVIN},
			want: []string{`^Make {2,}Ford$`, `^Model {2,}F-150$`, `^Year {2,}2021$`, `^Check digit {2,}8 \(valid\)$`,
				`^WMI {2,}1FT \(North America, United States\)$`,
				`^Linked records: [1-9][0-9]* catalog cars? and [1-9][0-9]* tire fitments? of this make, model and year; --links lists them \([0-9]+ more calls?\)$`},
			not: []string{"\x1b", `UUID`}},
		{name: "vin piped", s: piped, args: []string{"vin", strings.ToLower(upstreamtest.KnownVIN)},
			want: []string{`\AVIN\t1FTMW1T88MFA00001\n`, `^car\t` + uuidRE + `$`, `^tire\t` + uuidRE + `$`},
			not:  []string{`Linked records`}},
		{name: "vin links tty", s: tty, args: []string{"vin", upstreamtest.KnownVIN, "--links"},
			want: []string{`^Catalog cars \([1-9][0-9]*\)\nUUID {2,}MODEL {2,}TRIM {2,}BODY {2,}ENGINE {2,}DRIVE {2,}TRANSMISSION {2,}MPG\n` +
				uuidRE + ` {2,}F-150 {2,}[^ ].* {2,}Pickup {2,}[0-9.]+L [0-9]+-cyl[^\n]* {2,}[0-9A-Z]+WD {2,}[^ -].* {2,}[0-9.]+\n`,
				`^Tire fitments \([1-9][0-9]*\)\nUUID {2,}MODEL {2,}TRIM {2,}SIZE {2,}REAR\n` + uuidRE + ` {2,}F-150 {2,}[^ ]+ {2,}[0-9]{3}/`},
			not: []string{"\x1b", `Linked records`}},
		{name: "vin links piped", s: piped, args: []string{"vin", upstreamtest.KnownVIN, "--links"},
			want: []string{`^car\t` + uuidRE + `\tF-150(\t[^\t]+){6}$`, `^tire\t` + uuidRE + `\tF-150(\t[^\t]+){3}$`}},
		{name: "vin no links deprecated", s: piped, args: []string{"vin", upstreamtest.KnownVIN, "--no-links"},
			want: []string{`^car\t` + uuidRE + `$`}},
		{name: "vin links json", s: piped, args: []string{"vin", upstreamtest.KnownVIN, "--links", "--json"}, wantExitCode: ExitUsage,
			wantErr: []string{`--links lists the linked records of one VIN`}},
		{name: "vin links batch", s: piped, args: []string{"vin", upstreamtest.KnownVIN, upstreamtest.KnownVIN, "--links"}, wantExitCode: ExitUsage,
			wantErr: []string{`not with several VINs`}},
		{name: "vin batch piped", s: piped, args: []string{"vin", upstreamtest.KnownVIN, "ZZZZZZZZZZZZZZZZZ", "ABC"},
			want:    []string{`\A1FTMW1T88MFA00001\tFord\tF-150\t2021\tSuperCrew-SSV\tPickup\t\nZZZZZZZZZZZZZZZZZ(\t){6}vin_not_decodable\nABC(\t){6}invalid_vin\n\z`},
			wantErr: []string{`\A2 of 3 VINs were not decoded \(not charged\)\n\z`}},
		{name: "vin batch tty", s: tty, args: []string{"vin", upstreamtest.KnownVIN, "ABC"},
			want: []string{`\AVIN {2,}MAKE {2,}MODEL {2,}YEAR {2,}TRIM {2,}BODY {2,}ERROR\n1FTMW1T88MFA00001 {2,}Ford {2,}F-150 {2,}2021 {2,}SuperCrew-SSV {2,}Pickup {2,}-\nABC {2,}- {2,}- {2,}- {2,}- {2,}- {2,}invalid_vin\n\z`}},
		{name: "vin stdin csv", s: streams{stdin: strings.ToLower(upstreamtest.KnownVIN) + "\n\n ZZZZZZZZZZZZZZZZZ, " + upstreamtest.KnownVIN + "\n"}, args: []string{"vin", "--csv", "-"},
			want: []string{`\Avin,make,model,year,trim,body,body_class,error\n1FTMW1T88MFA00001,Ford,F-150,2021,SuperCrew-SSV,Pickup,Pickup,\nZZZZZZZZZZZZZZZZZ,,,,,,,vin_not_decodable\n1FTMW1T88MFA00001,Ford,F-150,2021,SuperCrew-SSV,Pickup,Pickup,\n\z`}},
		{name: "vin progress", s: streams{tty: true, stdin: strings.Repeat(upstreamtest.KnownVIN+"\n", 60)}, args: []string{"vin", "-"},
			want: []string{`\AVIN {2,}MAKE[^\n]+\n(1FTMW1T88MFA00001 {2,}Ford {2,}F-150 {2,}2021 [^\n]+\n){60}\z`}, wantErr: []string{`decoding VINs .*\(50/60\)`}},
		{name: "vin empty stdin", s: piped, args: []string{"vin", "-"}, wantExitCode: ExitUsage, wantErr: []string{`no VINs on stdin`}},
		{name: "tires colour", s: colored, args: []string{"tires", "--make", "Ford", "--model", "F-150", "--year", "2021"},
			want: []string{`^\x1b\[1m2021 Ford F-150 [^\n]+\x1b\[0m  ` + uuidRE + `$`,
				`^SIZE {2,}DIAMETER \(in\) {2,}WIDTH \(in\) {2,}SIDEWALL \(in\) {2,}REVS/MILE {2,}DIFF \(in\) {2,}DIFF % {2,}VERDICT$`,
				`^265/70R17 115T {2,}31\.61 {2,}10\.43 {2,}7\.30 {2,}[0-9.]+ {2,}- {2,}- {2,}OEM$`,
				`\+1\.5% {2,}\x1b\[32mOK\x1b\[0m$`, `^275/65R17 {2,}31\.07 {2,}10\.83 {2,}7\.04 {2,}[0-9.]+ {2,}-0\.53 {2,}-1\.7% {2,}\x1b\[32mOK\x1b\[0m$`}},
		{name: "tires no colour", s: tty, args: []string{"tires", "--make", "Ford", "--model", "F-150", "--year", "2021"},
			want: []string{`^275/65R17 {2,}31\.07 {2,}10\.83 {2,}7\.04 {2,}[0-9.]+ {2,}-0\.53 {2,}-1\.7% {2,}OK$`}, not: []string{"\x1b"}},
		{name: "tires piped", s: piped, args: []string{"tires", "--make", "Ford", "--model", "F-150", "--year", "2021"},
			want: []string{`^` + uuidRE + `\t265/70R17 115T\t31\.61\t10\.43\t7\.30\t[0-9.]+\t-\t-\tOEM$`, `^` + uuidRE + `\t275/65R17\t31\.07\t10\.83\t7\.04\t[0-9.]+\t-0\.53\t-1\.7%\tOK$`},
			not:  []string{"SIZE", "\x1b"}},
		{name: "tires of a car", s: piped, args: []string{"tires", ts.f150},
			want: []string{`\tOEM$`}, wantErr: []string{`^car ` + ts.f150 + ` \(2021 Ford F-150 [^)]*\): fitments of its make and model in its model year$`}},
		{name: "tires of a fitment", s: piped, args: []string{"tires", ts.fitment},
			want: []string{`\A` + ts.fitment + `\t[^\t]+(\t[0-9.]+){4}\t-\t-\tOEM\n`}},
		{name: "tires of nothing", s: piped, args: []string{"tires", "--make", "Nobody", "--model", "None"},
			wantErr: []string{`^no tire fitments match$`}},
		{name: "recalls car tty", s: tty, args: []string{"recalls", "car", ts.f150},
			want: []string{`^2021 Ford F-150 .* car ` + ts.f150 + `, coverage US \(NHTSA\)$`,
				`^Recalls \(2, from NHTSA recalls API\)\nCAMPAIGN {2,}DATE {2,}COMPONENT {2,}ADVICE {2,}SUMMARY\n00V421001 {2,}2000-12-18 `,
				`^NCAP crash ratings, stars \(3 variants\)\nVARIANT {2,}OVERALL {2,}FRONT {2,}SIDE {2,}ROLLOVER\n`}},
		{name: "recalls car piped", s: piped, args: []string{"recalls", "cars", ts.f150},
			want: []string{`\Arecall\t00V421001\t2000-12-18\t`, `^rating\t[^\t]+(\t([1-5]|-)){4}$`}, not: []string{"CAMPAIGN"}},
		{name: "recalls motorcycle", s: piped, args: []string{"recalls", "motorcycle", ts.moto},
			want: []string{`^recall\t`}},
		{name: "complaints piped", s: piped, args: []string{"recalls", "complaints", "car", ts.wrangler, "--per-page", "2", "--page", "3"},
			want:    []string{`\Acomponent\t[A-Z][^\t]*\t[0-9]+\n`, `^complaint\t1[0-9]{7}\t2024-1[0-2]-[0-9]{2}\t[-0-9]+\t[^\t]+\t[^\t]+\t[^\t]+\ncomplaint\t[^\n]+\n\z`},
			wantErr: []string{`\A387 complaints: [0-9]+ crashes, [0-9]+ fires, [0-9]+ injured, 0 killed \(from NHTSA complaints API\)\n\z`}},
		{name: "complaints tty", s: tty, args: []string{"recalls", "complaints", "motorcycle", ts.moto},
			want: []string{`^By component\nnone\n`, `^Complaints \(page 1 of 1\)\nnone\n`}},
		{name: "complaints of a boat", s: piped, args: []string{"recalls", "complaints", "boat", ts.moto}, wantExitCode: ExitUsage,
			wantErr: []string{`complaints are known for cars and motorcycles, not boats`}},
		{name: "complaints per page", s: piped, args: []string{"recalls", "complaints", "car", ts.wrangler, "--per-page", "11"}, wantExitCode: ExitUsage},
		{name: "garage tty", s: colored, args: []string{"garage"},
			want: []string{`\ALIST {2,}TYPE {2,}UUID/VIN {2,}MAKE {2,}MODEL {2,}YEAR {2,}NOTE {2,}RECALLS {2,}STATUS\n`,
				`^My garage {2,}car {2,}` + ts.f150 + ` {2,}Ford {2,}F-150 {2,}2021 {2,}test note {2,}not checked yet {2,}\x1b\[32mok\x1b\[0m$`,
				`^My garage {2,}car {2,}` + ts.gone + ` {2,}- {2,}- {2,}- {2,}test note {2,}- {2,}\x1b\[33mmissing from catalog\x1b\[0m$`}},
		{name: "garage piped", s: piped, args: []string{"garage"},
			want: []string{`^My garage\tcar\t` + ts.f150 + `\tFord\tF-150\t2021\ttest note\tnot checked yet\tok$`,
				`^My garage\tcar\t` + ts.gone + `\t-\t-\t-\ttest note\t-\tmissing from catalog$`}},
		{name: "whoami", s: piped, args: []string{"whoami"},
			want: []string{`\AInstance\t` + regexp.QuoteMeta(ts.URL) + ` \(from flag\)\nEmail\tdev@example.com\n`, `^Plan\tdeveloper \(API access\)$`, `^Token\ttok_[a-z2-7]+ \(from flag\)$`,
				`^Rate limit\t300/min, [0-9]+ left this minute$`, `^Quota\t[0-9]+ of 100000 used in [0-9]{4}-[0-9]{2}, resets `}},

		// Errors: the problem's detail and request id, and the exit code.
		{name: "unknown uuid", s: piped, args: []string{"get", "boat", "00000000-0000-0000-0000-000000000000"}, wantExitCode: ExitNotFound,
			wantErr: []string{`\Avds: .*00000000-0000-0000-0000-000000000000.* \(request id [0-9a-f]+\)\n\z`}},
		{name: "unknown tires uuid", s: piped, args: []string{"tires", "00000000-0000-0000-0000-000000000000"}, wantExitCode: ExitNotFound,
			wantErr: []string{`\Avds: no tire fitment or car with uuid 00000000-0000-0000-0000-000000000000\n\z`}},
		{name: "recalls of an unknown car", s: piped, args: []string{"recalls", "car", "00000000-0000-0000-0000-000000000000"}, wantExitCode: ExitNotFound},
		{name: "query too broad", s: piped, args: []string{"search", "cars", "--year-min", "2000", "--year-max", "2025"}, wantExitCode: ExitUsage,
			wantErr: []string{`\Avds: --year-min=2000\.\.--year-max=2025 spans .*narrow by --make, --model, --q or a filter \(--body, --fuel-type, --drive-type or --ev-only\) \(request id [0-9a-f]+\)\n\z`}},
		{name: "bad parameter value", s: piped, args: []string{"search", "cars", "--make", "Ford", "--page", "41"}, wantExitCode: ExitUsage,
			wantErr: []string{`\Avds: --page=41 is outside 1\.\.40: `}},
		{name: "invalid vin", s: piped, args: []string{"vin", "ABC"}, wantExitCode: ExitUsage,
			wantErr: []string{`\Avds: the VIN has 3 characters, but a VIN has exactly 17\. \(request id [0-9a-f]+\)\n\z`}},
		{name: "vin that cannot leave the path", s: piped, args: []string{"vin", "../me"}, wantExitCode: ExitUsage},
		{name: "vin nobody knows", s: piped, args: []string{"vin", "JH4KA7561PC008269"}, wantExitCode: ExitError,
			wantErr: []string{`does not know the manufacturer`}},
		{name: "inapplicable filter", s: piped, args: []string{"search", "boats", "--ev-only"}, wantExitCode: ExitUsage,
			wantErr: []string{`\Avds: --ev-only does not apply to boats; their filters are --fuel-type, --hull-type, --model-type, --hp-min, --hp-max, --length-min, --length-max\nRun 'vds --help' for usage\.\n\z`}},
		{name: "unknown type", s: piped, args: []string{"makes", "trucks"}, wantExitCode: ExitUsage,
			wantErr: []string{`unknown TYPE "trucks": use car, motorcycle, boat, tire`}},
		{name: "bad flag value", s: piped, args: []string{"search", "cars", "--year", "soon"}, wantExitCode: ExitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.as(t, "dev", tt.s, tt.args...)
			check(t, r, tt.wantExitCode, tt.want, tt.not, tt.wantErr)
		})
	}
}

// TestClientCommandsJSON decodes every command's --json output.
func TestClientCommandsJSON(t *testing.T) {
	isolate(t)
	ts := newTestServer(t)

	// --json is the API's data: a list command prints an array.
	cars := decodeJSON[[]client.Car](t, ts.as(t, "dev", tty, "search", "cars", "--make", "Toyota", "--json"))
	if len(cars) == 0 {
		t.Errorf("search --json: no records")
	}
	for _, c := range cars {
		if c.Make != "Toyota" {
			t.Errorf("search --make Toyota returned a %s", c.Make)
		}
	}

	makes := decodeJSON[[]client.MakeCount](t, ts.as(t, "dev", piped, "makes", "boat", "--json"))
	if len(makes) == 0 || makes[0].Count == 0 {
		t.Errorf("makes --json: %+v", makes)
	}

	car := decodeJSON[client.Car](t, ts.as(t, "dev", piped, "get", "car", ts.f150, "--json"))
	if car.UUID != ts.f150 || car.Model != "F-150" {
		t.Errorf("get --json: %+v", car)
	}

	vin := decodeJSON[client.VINReport](t, ts.as(t, "dev", piped, "vin", upstreamtest.KnownVIN, "--json"))
	if vin.VIN != upstreamtest.KnownVIN || len(vin.Links.Cars) == 0 || len(vin.Links.TireSizes) == 0 {
		t.Errorf("vin --json: %+v", vin)
	}
	batch := decodeJSON[[]struct {
		VIN, Model string
		Error      *struct{ Code string }
	}](t, ts.as(t, "dev", piped, "vin", upstreamtest.KnownVIN, "ABC", "--json"))
	if len(batch) != 2 || batch[0].Model != "F-150" || batch[0].Error != nil || batch[1].VIN != "ABC" || batch[1].Error == nil || batch[1].Error.Code != "invalid_vin" {
		t.Errorf("vin batch --json: %+v", batch)
	}
	// tires prints the fitments' geometries; which car matched goes to stderr.
	carRun := ts.as(t, "dev", piped, "tires", ts.f150, "--json")
	carTires := decodeJSON[[]client.FitmentGeometry](t, carRun)
	if len(carTires) == 0 || carTires[0].Fitment.Model != "F-150" || !strings.Contains(carRun.err, "car "+ts.f150+" (2021 Ford F-150") {
		t.Errorf("tires CAR --json: %+v, stderr %q", carTires, carRun.err)
	}
	fitTires := decodeJSON[[]client.FitmentGeometry](t, ts.as(t, "dev", piped, "tires", ts.fitment, "--json"))
	if len(fitTires) != 1 || fitTires[0].Fitment.UUID != ts.fitment {
		t.Errorf("tires FITMENT --json: %+v", fitTires)
	}
	// Nothing found is an empty list, never null.
	if r := ts.as(t, "dev", piped, "tires", "--make", "Nobody", "--model", "None", "--json"); r.out != "[]\n" {
		t.Errorf("tires with no match --json: %q", r.out)
	}

	recalls := decodeJSON[client.CarRecalls](t, ts.as(t, "dev", piped, "recalls", "car", ts.f150, "--json"))
	if len(recalls.Recalls) != 2 || len(recalls.Ratings) != 3 || recalls.Car.UUID != ts.f150 {
		t.Errorf("recalls --json: %+v", recalls)
	}

	lists := decodeJSON[[]client.List](t, ts.as(t, "dev", piped, "garage", "--json"))
	if len(lists) != 1 || len(lists[0].Items) != 2 || !lists[0].Items[1].Missing {
		t.Errorf("garage --json: %+v", lists)
	}

	who := decodeJSON[map[string]any](t, ts.as(t, "dev", piped, "whoami", "--json"))
	if who["url"] != ts.URL || who["url_source"] != sourceFlag || who["token_source"] != sourceFlag || who["account"] == nil || who["quota"] == nil {
		t.Errorf("whoami --json: %v", who)
	}
	if _, leaked := who["token"].(map[string]any)["secret"]; leaked {
		t.Errorf("whoami --json shows a secret: %v", who)
	}
}

// TestClientErrorExitCodes covers the exit codes the API's answers map to.
func TestClientErrorExitCodes(t *testing.T) {
	isolate(t)
	ts := newTestServer(t)
	closed := httptest.NewServer(nil)
	closed.Close()

	t.Run("unknown token", func(t *testing.T) {
		r := vds(t, piped, "whoami", "--url", ts.URL, "--token", "vds_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
		check(t, r, ExitAuth, nil, nil, []string{`\Avds: the bearer token is unknown or revoked; run vds login with a working token \(vds auth status shows the one in use\) \(request id [0-9a-f]+\)\n\z`})
	})
	t.Run("plan without API access", func(t *testing.T) {
		check(t, ts.as(t, "noapi", piped, "makes", "car"), ExitAuth, nil, nil, []string{`request id`})
	})
	t.Run("no token", func(t *testing.T) {
		check(t, vds(t, piped, "garage", "--url", ts.URL), ExitAuth, nil, nil,
			[]string{`\Avds: not logged in to ` + regexp.QuoteMeta(ts.URL) + `: run vds login, or set VDS_TOKEN or --token\n\z`})
	})
	t.Run("rate limited", func(t *testing.T) {
		check(t, ts.as(t, "tiny", piped, "makes", "car"), ExitOK, nil, nil, nil)
		// The sliding window frees the unit a minute after that call, a
		// longer wait than the client sits out, so the 429 comes back at once.
		check(t, ts.as(t, "tiny", piped, "makes", "car"), ExitRateLimited, nil, nil,
			[]string{`\Avds: rate limit of 1 requests per minute exceeded; retry in [0-9]+ s \(request id [0-9a-f]+\)\n\z`})
	})
	t.Run("upstream down", func(t *testing.T) {
		ts.nhtsa.SetMode(upstreamtest.Fail, 0)
		defer ts.nhtsa.SetMode(upstreamtest.Normal, 0)
		check(t, ts.as(t, "dev", piped, "recalls", "car", ts.camry), ExitServer, nil, nil,
			[]string{`\Avds: NHTSA is unavailable and nothing usable is cached; retry later\. \(request id [0-9a-f]+\)\n\z`})
	})
	t.Run("server unreachable", func(t *testing.T) {
		r := vds(t, piped, "whoami", "--url", closed.URL, "--token", "vds_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa")
		check(t, r, ExitServer, nil, nil, []string{`\Avds: cannot reach the server: GET ` + regexp.QuoteMeta(closed.URL) + `/v1/me: .*refused \(is vds serve running there\?\)\n\z`})
	})
	t.Run("bad URL", func(t *testing.T) {
		check(t, vds(t, piped, "whoami", "--url", "ftp://example.com"), ExitUsage, nil, nil, []string{`want http://HOST`})
	})
}

// TestLoginLogout: login checks the token and stores it 0600 for its
// instance; auth status reports where URL and token came from; flags and
// environment override the file; a stored token is never sent to another
// URL; logout removes one instance's token and keeps the others.
func TestLoginLogout(t *testing.T) {
	isolate(t)
	ts := newTestServer(t)
	path := credentialsPath()
	// The same server under another host name is another instance.
	other := strings.Replace(ts.URL, "127.0.0.1", "localhost", 1)

	check(t, vds(t, streams{stdin: ts.tokens["dev"] + "\n"}, "login", "--url", ts.URL+"/"), ExitOK,
		[]string{`\ALogged in to ` + regexp.QuoteMeta(ts.URL) + ` as dev@example.com \(developer plan\)\n\z`}, nil, nil)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("credentials mode %#o, want 0600", fi.Mode().Perm())
	}
	creds, err := credentials.Load(path)
	if err != nil || creds.Current != ts.URL || creds.Token(ts.URL) != ts.tokens["dev"] {
		t.Fatalf("stored %+v, %v", creds, err)
	}

	check(t, vds(t, piped, "whoami"), ExitOK, []string{
		`\AInstance\t` + regexp.QuoteMeta(ts.URL) + ` \(from credentials file\)$`,
		`^Token\ttok_[a-z2-7]+ \(from credentials file ` + regexp.QuoteMeta(path) + `\)$`,
	}, []string{`^Also stored`}, nil)

	// A refused token is not stored; an empty one is a usage error.
	check(t, vds(t, streams{stdin: "vds_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}, "login"), ExitAuth, nil, nil, []string{`\Avds: that token was refused by ` + regexp.QuoteMeta(ts.URL) + `; create one in the dashboard at ` + regexp.QuoteMeta(ts.URL) + `/dashboard/tokens \(request id [0-9a-f]+\)\n\z`})
	check(t, vds(t, streams{stdin: "\n"}, "login"), ExitUsage, nil, nil, []string{`no token given`})
	if c, _ := credentials.Load(path); c.Token(ts.URL) != ts.tokens["dev"] {
		t.Fatalf("a failed login replaced the stored token: %+v", c)
	}

	// A second instance: its own token, and it becomes current.
	check(t, vds(t, streams{stdin: ts.tokens["pro"]}, "auth", "login", "--url", strings.ToUpper(other[:4])+other[4:]), ExitOK,
		[]string{`\ALogged in to ` + regexp.QuoteMeta(other) + ` as pro@example.com \(pro plan\)\n\z`}, nil, nil)
	check(t, vds(t, piped, "auth", "status"), ExitOK, []string{`^Instance\t` + regexp.QuoteMeta(other) + ` \(from credentials file\)$`,
		`^Email\tpro@example.com$`, `^Quota\t[0-9]+ of 1000 used in `, `^Also stored\t` + regexp.QuoteMeta(ts.URL) + `$`}, nil, nil)
	check(t, vds(t, piped, "whoami", "--url", ts.URL+"/"), ExitOK, []string{`^Email\tdev@example.com$`,
		`^Also stored\t` + regexp.QuoteMeta(other) + ` \(current\)$`}, nil, nil)
	status := decodeJSON[map[string]any](t, vds(t, piped, "auth", "status", "--json"))
	if status["url"] != other || status["account"].(map[string]any)["email"] != "pro@example.com" ||
		!reflect.DeepEqual(status["instances"], []any{map[string]any{"url": ts.URL, "current": false}, map[string]any{"url": other, "current": true}}) {
		t.Errorf("auth status --json: %v", status)
	}
	check(t, vds(t, piped, "auth", "switch", ts.URL+"/"), ExitOK, []string{`\ASwitched to ` + regexp.QuoteMeta(ts.URL) + `\n\z`}, nil, nil)
	check(t, vds(t, piped, "whoami"), ExitOK, []string{`^Email\tdev@example.com$`}, nil, nil)
	check(t, vds(t, piped, "auth", "switch", "http://127.0.0.1:1"), ExitAuth, nil, nil,
		[]string{`\Avds: no token stored for http://127.0.0.1:1: run vds login --url http://127.0.0.1:1 first \(stored: ` + regexp.QuoteMeta(ts.URL+", "+other) + `\)\n\z`})
	check(t, vds(t, piped, "auth", "switch", "ftp://x"), ExitUsage, nil, nil, []string{`want http://HOST`})

	// The environment overrides the file, and flags the environment.
	t.Setenv("VDS_TOKEN", ts.tokens["pro"])
	check(t, vds(t, piped, "whoami"), ExitOK, []string{`^Email\tpro@example.com$`, `\(from environment\)$`}, nil, nil)
	check(t, vds(t, piped, "whoami", "--token", ts.tokens["dev"]), ExitOK, []string{`^Email\tdev@example.com$`, `\(from flag\)$`}, nil, nil)
	t.Setenv("VDS_TOKEN", "")
	t.Setenv("VDS_URL", other)
	check(t, vds(t, piped, "whoami"), ExitOK, []string{`^Instance\t` + regexp.QuoteMeta(other) + ` \(from environment\)$`, `^Email\tpro@example.com$`}, nil, nil)
	t.Setenv("VDS_URL", "http://127.0.0.1:1")
	check(t, vds(t, piped, "whoami"), ExitAuth, nil, nil,
		[]string{`not logged in to http://127.0.0.1:1: .*\(tokens are stored for ` + regexp.QuoteMeta(ts.URL+", "+other) + `: vds auth switch URL uses one\)`})
	t.Setenv("VDS_URL", "")

	login := decodeJSON[map[string]string](t, vds(t, streams{stdin: ts.tokens["dev"]}, "login", "--json"))
	if login["url"] != ts.URL || login["email"] != "dev@example.com" || login["plan"] != "developer" || login["credentials_path"] != path {
		t.Errorf("login --json: %v", login)
	}

	// Logging out of the current instance keeps the other and names it.
	check(t, vds(t, piped, "logout"), ExitOK,
		[]string{`\ALogged out of ` + regexp.QuoteMeta(ts.URL) + `: removed its token from ` + regexp.QuoteMeta(path) + `\n` +
			`Still stored: ` + regexp.QuoteMeta(other) + ` \(vds auth switch URL makes one current\)\n\z`}, nil, nil)
	if c, _ := credentials.Load(path); c.Token(ts.URL) != "" || c.Current != ts.URL || c.Token(other) != ts.tokens["pro"] {
		t.Fatalf("after logout: %+v", c)
	}
	check(t, vds(t, piped, "whoami"), ExitAuth, nil, nil, []string{`not logged in`})
	check(t, vds(t, piped, "logout"), ExitOK, []string{`\ANot logged in to ` + regexp.QuoteMeta(ts.URL) + `: no token stored for it in `}, nil, nil)
	check(t, vds(t, piped, "whoami", "--url", other), ExitOK, []string{`^Email\tpro@example.com$`}, nil, nil)
	// The URL stayed current: login asks only for the token.
	check(t, vds(t, streams{stdin: ts.tokens["dev"]}, "login"), ExitOK, []string{`^Logged in to ` + regexp.QuoteMeta(ts.URL) + ` `}, nil, nil)
	check(t, vds(t, piped, "logout", "--url", other), ExitOK, []string{`\ALogged out of ` + regexp.QuoteMeta(other) + `: removed its token from [^\n]+\n\z`}, nil, nil)
	if c, _ := credentials.Load(path); !reflect.DeepEqual(c.URLs(), []string{ts.URL}) || c.Current != ts.URL {
		t.Fatalf("after logout --url: %+v", c)
	}
}

// runParsed builds cmd on its own with a runF hook and runs args, for the
// argv → options tests.
func runParsed(t *testing.T, cmd *cobra.Command, args ...string) error {
	t.Helper()
	cmd.SetArgs(args)
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	_, err := cmd.ExecuteC()
	return err
}

func intPtr(n int) *int           { return &n }
func floatPtr(v float64) *float64 { return &v }
func errText(err error) string    { return strings.TrimSpace(errorMessage(err)) }
func isUsage(err error) bool      { return exitCode(err) == ExitUsage }

func testFactory() *Factory {
	return NewFactory(&IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, ErrOut: &bytes.Buffer{}})
}

// TestNewCmdSearch maps argv to the typed query of each TYPE.
func TestNewCmdSearch(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		kind    client.Kind
		query   any
		wantErr string
	}{
		{name: "car", args: []string{"cars", "--make", "Toyota", "--model", "Camry", "--year", "2022"},
			kind: client.KindCar, query: client.CarQuery{Make: "Toyota", Model: "Camry", Year: 2022}},
		{name: "car filters", args: []string{"car", "--q", "model 3", "--ev-only", "--body", "Sedan", "--fuel-type", "bev", "--drive-type", "AWD", "--page", "2", "--per-page", "5"},
			kind: client.KindCar, query: client.CarQuery{Q: "model 3", EVOnly: true, Body: "Sedan", FuelType: "bev", DriveType: "AWD", Page: 2, PerPage: 5}},
		{name: "motorcycle", args: []string{"Motorcycles", "--make", "Honda", "--motorcycle-type", "Scooter", "--vehicle-type", "Motorcycle", "--year-min", "2015", "--year-max", "2020"},
			kind: client.KindMotorcycle, query: client.MotorcycleQuery{Make: "Honda", MotorcycleType: "Scooter", VehicleType: "Motorcycle", YearMin: 2015, YearMax: 2020}},
		{name: "boat bounds", args: []string{"boat", "--hull-type", "Aluminum", "--hp-min", "0", "--length-max", "20.5", "--fuel-type", "Gas", "--model-type", "Pontoon"},
			kind: client.KindBoat, query: client.BoatQuery{HullType: "Aluminum", HPMin: intPtr(0), LengthMax: floatPtr(20.5), FuelType: "Gas", ModelType: "Pontoon"}},
		{name: "boat unbounded", args: []string{"boats", "--make", "Bayliner"},
			kind: client.KindBoat, query: client.BoatQuery{Make: "Bayliner"}},
		{name: "tire", args: []string{"tire_sizes", "--tire-size", "225/45R17"},
			kind: client.KindTireSize, query: client.TireSizeQuery{TireSize: "225/45R17"}},
		{name: "unknown type", args: []string{"trucks"}, wantErr: `unknown TYPE "trucks": use car, motorcycle, boat, tire (plurals, tire-size and tire_size work too)`},
		{name: "no type", args: nil, wantErr: `expected 1 argument(s): TYPE; got 0`},
		{name: "car flag on boats", args: []string{"boats", "--body", "SUV"}, wantErr: `--body does not apply to boats`},
		{name: "boat flag on cars", args: []string{"car", "--hp-max", "100"}, wantErr: `--hp-max does not apply to cars; their filters are --body, --fuel-type, --drive-type, --ev-only`},
		{name: "tire flag on motorcycles", args: []string{"motorcycle", "--tire-size", "x"}, wantErr: `--tire-size does not apply to motorcycles; their filters are --motorcycle-type, --vehicle-type`},
		{name: "car flag on tires", args: []string{"tire", "--ev-only"}, wantErr: `--ev-only does not apply to tire fitments; their filters are --tire-size`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *searchOptions
			err := runParsed(t, newSearchCmd(testFactory(), func(o *searchOptions) error { got = o; return nil }), tt.args...)
			if tt.wantErr != "" {
				if err == nil || !isUsage(err) || !strings.Contains(errText(err), tt.wantErr) {
					t.Fatalf("error %v (exit %d), want a usage error with %q", err, exitCode(err), tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Kind != tt.kind || !reflect.DeepEqual(got.Query, tt.query) {
				t.Errorf("got %s %#v, want %s %#v", got.Kind, got.Query, tt.kind, tt.query)
			}
		})
	}
}

// TestNewCmdArgs covers the argument checks of the other client commands.
func TestNewCmdArgs(t *testing.T) {
	const id = "0b6f7c1e-5c55-4c36-9a2d-1c3f2f0e9a11"
	t.Run("tires", func(t *testing.T) {
		tests := []struct {
			name    string
			args    []string
			want    tiresOptions
			wantErr string
		}{
			{name: "uuid", args: []string{id}, want: tiresOptions{UUID: id}},
			{name: "vehicle", args: []string{"--make", "Ford", "--model", "F-150", "--year", "2021"}, want: tiresOptions{Make: "Ford", Model: "F-150", Year: 2021}},
			{name: "vehicle without year", args: []string{"--make", "Ford", "--model", "F-150"}, want: tiresOptions{Make: "Ford", Model: "F-150"}},
			{name: "both", args: []string{id, "--make", "Ford"}, wantErr: "not both"},
			{name: "neither", args: nil, wantErr: "give a tire fitment or car UUID"},
			{name: "make only", args: []string{"--make", "Ford", "--year", "2021"}, wantErr: "--make and --model"},
			{name: "bad uuid", args: []string{"F-150"}, wantErr: `"F-150" is not a UUID`},
			{name: "two uuids", args: []string{id, id}, wantErr: "at most 1 argument"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				var got *tiresOptions
				err := runParsed(t, newTiresCmd(testFactory(), func(o *tiresOptions) error { got = o; return nil }), tt.args...)
				if tt.wantErr != "" {
					if err == nil || !isUsage(err) || !strings.Contains(errText(err), tt.wantErr) {
						t.Fatalf("error %v, want a usage error with %q", err, tt.wantErr)
					}
					return
				}
				if err != nil || *got != tt.want {
					t.Fatalf("got %+v, %v; want %+v", got, err, tt.want)
				}
			})
		}
	})
	t.Run("recalls", func(t *testing.T) {
		var got *recallsOptions
		hook := func(o *recallsOptions) error { got = o; return nil }
		if err := runParsed(t, newRecallsCmd(testFactory(), hook), "motorcycles", id); err != nil || got.Kind != client.KindMotorcycle || got.UUID != id {
			t.Fatalf("got %+v, %v", got, err)
		}
		for _, args := range [][]string{{"boat", id}, {"tire", id}, {"car", "nope"}, {"car"}} {
			if err := runParsed(t, newRecallsCmd(testFactory(), hook), args...); !isUsage(err) {
				t.Errorf("recalls %v: %v, want a usage error", args, err)
			}
		}
	})
	t.Run("get", func(t *testing.T) {
		var got *getOptions
		hook := func(o *getOptions) error { got = o; return nil }
		if err := runParsed(t, newGetCmd(testFactory(), hook), "tire-size", id); err != nil || got.Kind != client.KindTireSize || got.UUID != id {
			t.Fatalf("got %+v, %v", got, err)
		}
		if err := runParsed(t, newGetCmd(testFactory(), hook), "car", id[:35]); !isUsage(err) {
			t.Errorf("a short uuid: %v, want a usage error", err)
		}
	})
	t.Run("models", func(t *testing.T) {
		var got *modelsOptions
		hook := func(o *modelsOptions) error { got = o; return nil }
		if err := runParsed(t, newModelsCmd(testFactory(), hook), "boats", "--make", "Bayliner"); err != nil || *got != (modelsOptions{Kind: client.KindBoat, Make: "Bayliner"}) {
			t.Fatalf("got %+v, %v", got, err)
		}
		if err := runParsed(t, newModelsCmd(testFactory(), hook), "car"); !isUsage(err) || !strings.Contains(errText(err), "--make is required") {
			t.Errorf("models without --make: %v", err)
		}
	})
	t.Run("makes", func(t *testing.T) {
		var got *makesOptions
		if err := runParsed(t, newMakesCmd(testFactory(), func(o *makesOptions) error { got = o; return nil }), "TIRES"); err != nil || got.Kind != client.KindTireSize {
			t.Fatalf("got %+v, %v", got, err)
		}
	})
	t.Run("vin", func(t *testing.T) {
		var got *vinOptions
		if err := runParsed(t, newVINCmd(testFactory(), func(o *vinOptions) error { got = o; return nil }), " 1ftmw1t88mfa00001 ", "-", "--csv"); err != nil ||
			!reflect.DeepEqual(*got, vinOptions{VINs: []string{"1ftmw1t88mfa00001", "-"}, CSV: true}) {
			t.Fatalf("got %+v, %v", got, err)
		}
	})
	t.Run("login", func(t *testing.T) {
		var got *loginOptions
		if err := runParsed(t, newLoginCmd(testFactory(), func(o *loginOptions) error { got = o; return nil }), "--token", "vds_x", "--url", "http://h"); err != nil || got.Token != "vds_x" {
			t.Fatalf("got %+v, %v", got, err)
		}
	})
	t.Run("auth switch", func(t *testing.T) {
		var got *authSwitchOptions
		hook := func(o *authSwitchOptions) error { got = o; return nil }
		if err := runParsed(t, newAuthSwitchCmd(testFactory(), hook), "http://h/"); err != nil || got.URL != "http://h/" {
			t.Fatalf("got %+v, %v", got, err)
		}
		if err := runParsed(t, newAuthSwitchCmd(testFactory(), hook)); !isUsage(err) || !strings.Contains(errText(err), "expected 1 argument(s): URL") {
			t.Errorf("no URL: %v", err)
		}
	})
	t.Run("lists add and remove", func(t *testing.T) {
		var got *listItemOptions
		hook := func(o *listItemOptions) error { got = o; return nil }
		if err := runParsed(t, newListsItemCmd(testFactory(), true, hook), "--email", "a@b.c", "--type", "tire_size", "--uuid", id, "--note", "spare"); err != nil ||
			!got.Add || got.Kind != catalog.KindTireSize || got.ID != uuid.MustParse(id) || got.Note != "spare" {
			t.Fatalf("got %+v, %v", got, err)
		}
		if err := runParsed(t, newListsItemCmd(testFactory(), false, hook), "--email", "a@b.c", "--type", "car", "--uuid", id); err != nil || got.Add || got.Kind != catalog.KindCar {
			t.Fatalf("remove: got %+v, %v", got, err)
		}
		if err := runParsed(t, newListsItemCmd(testFactory(), false, hook), "--email", "a@b.c", "--type", "car", "--uuid", "nope"); !isUsage(err) || !strings.Contains(errText(err), `--uuid "nope" is not a UUID`) {
			t.Errorf("a bad --uuid: %v", err)
		}
	})
	t.Run("accounts", func(t *testing.T) {
		var plan *accountsSetPlanOptions
		if err := runParsed(t, newAccountsSetPlanCmd(testFactory(), func(o *accountsSetPlanOptions) error { plan = o; return nil }), "a@b.c", "pro"); err != nil || *plan != (accountsSetPlanOptions{Email: "a@b.c", Plan: "pro"}) {
			t.Fatalf("set-plan: got %+v, %v", plan, err)
		}
		var susp *accountsSuspendOptions
		if err := runParsed(t, newAccountsSuspendCmd(testFactory(), false, func(o *accountsSuspendOptions) error { susp = o; return nil }), "a@b.c"); err != nil || *susp != (accountsSuspendOptions{Email: "a@b.c"}) {
			t.Fatalf("unsuspend: got %+v, %v", susp, err)
		}
		var create *accountsCreateOptions
		hook := func(o *accountsCreateOptions) error { create = o; return nil }
		if err := runParsed(t, newAccountsCreateCmd(testFactory(), hook), "--email", "a@b.c"); err != nil || *create != (accountsCreateOptions{Email: "a@b.c", Plan: "free"}) {
			t.Fatalf("create: got %+v, %v", create, err)
		}
		if err := runParsed(t, newAccountsCreateCmd(testFactory(), hook), "--plan", "pro"); !isUsage(err) || !strings.Contains(errText(err), "--email is required") {
			t.Errorf("create without --email: %v", err)
		}
	})
	t.Run("tokens", func(t *testing.T) {
		var rot *tokensRotateOptions
		if err := runParsed(t, newTokensRotateCmd(testFactory(), func(o *tokensRotateOptions) error { rot = o; return nil }), "tok_1"); err != nil || rot.ID != "tok_1" {
			t.Fatalf("rotate: got %+v, %v", rot, err)
		}
		var list *tokensListOptions
		if err := runParsed(t, newTokensListCmd(testFactory(), func(o *tokensListOptions) error { list = o; return nil }), "--email", "a@b.c"); err != nil || list.Email != "a@b.c" {
			t.Fatalf("list: got %+v, %v", list, err)
		}
	})
}

func TestColorEnabled(t *testing.T) {
	tests := []struct {
		name string
		tty  bool
		env  map[string]string
		want bool
	}{
		{"terminal", true, nil, true},
		{"piped", false, nil, false},
		{"NO_COLOR", true, map[string]string{"NO_COLOR": "1"}, false},
		{"empty NO_COLOR", true, map[string]string{"NO_COLOR": ""}, true},
		{"dumb terminal", true, map[string]string{"TERM": "dumb"}, false},
		{"xterm", true, map[string]string{"TERM": "xterm-256color"}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ColorEnabled(tt.tty, func(k string) string { return tt.env[k] }); got != tt.want {
				t.Errorf("ColorEnabled = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestAPIExitCode(t *testing.T) {
	for status, want := range map[int]int{
		400: ExitUsage, 401: ExitAuth, 403: ExitAuth, 404: ExitNotFound, 405: ExitError,
		422: ExitError, 429: ExitRateLimited, 500: ExitServer, 502: ExitServer, 503: ExitServer,
	} {
		if got := exitCode(&client.APIError{Status: status}); got != want {
			t.Errorf("status %d: exit %d, want %d", status, got, want)
		}
	}
	if got := exitCode(context.Canceled); got != ExitInterrupt {
		t.Errorf("interrupted: %d", got)
	}
	if got := exitCode(errors.New("x")); got != ExitError {
		t.Errorf("plain error: %d", got)
	}
}

// TestCompletion: the completion scripts exist for each shell, TYPE
// arguments complete to the four types, and flags complete their values
// (--make from the server).
func TestCompletion(t *testing.T) {
	isolate(t)
	ts := newTestServer(t)
	var stored credentials.Credentials
	for _, u := range []string{"https://a.example", "https://b.example"} {
		if err := stored.Set(u, "vds_x"); err != nil {
			t.Fatal(err)
		}
	}
	if err := credentials.Save(credentialsPath(), stored); err != nil {
		t.Fatal(err)
	}
	for shell, want := range map[string]string{"bash": "__start_vds", "zsh": "#compdef vds", "fish": "complete -c vds"} {
		t.Run(shell, func(t *testing.T) {
			check(t, vds(t, piped, "completion", shell), ExitOK, []string{regexp.QuoteMeta(want)}, nil, nil)
		})
	}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"search TYPE", []string{"__complete", "search", ""}, []string{"car", "motorcycle", "boat", "tire"}},
		{"recalls TYPE", []string{"__complete", "recalls", ""}, []string{"car", "motorcycle"}},
		{"get UUID", []string{"__complete", "get", "car", ""}, nil},
		{"drive type", []string{"__complete", "search", "car", "--drive-type", ""}, []string{"FWD", "4WD"}},
		{"make", []string{"__complete", "models", "boat", "--url", ts.URL, "--token", ts.tokens["dev"], "--make", ""}, []string{"Bayliner"}},
		{"tire make", []string{"__complete", "tires", "--url", ts.URL, "--token", ts.tokens["dev"], "--make", ""}, []string{"Ford"}},
		{"auth switch URL", []string{"__complete", "auth", "switch", ""}, []string{"https://a.example", "https://b.example"}},
		{"--url", []string{"__complete", "search", "car", "--url", ""}, []string{"https://a.example", "https://b.example"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := vds(t, piped, tt.args...)
			lines := strings.Split(r.out, "\n")
			for _, w := range tt.want {
				if !slices.Contains(lines, w) {
					t.Errorf("completions %q lack %q", lines, w)
				}
			}
			// :4 is ShellCompDirectiveNoFileComp: never offer file names.
			if !strings.HasPrefix(r.out, ":4\n") && !strings.Contains(r.out, "\n:4\n") {
				t.Errorf("completions allow files: %q", r.out)
			}
		})
	}
}

// TestHelpDocumentsExitCodes: vds help exit-codes lists every exit code,
// and vds --help lists the commands and points there.
func TestHelpDocumentsExitCodes(t *testing.T) {
	r := vds(t, piped, "help", "exit-codes")
	for _, re := range []string{`^  0 {4}success$`, `^  2 {4}usage error`, `^  3 {4}not found`, `^  4 {4}not authenticated`,
		`^  5 {4}rate limited or monthly quota exceeded$`, `^  6 {4}server or network error`, `^  130  interrupted$`} {
		if !regexp.MustCompile("(?m)" + re).MatchString(r.out) {
			t.Errorf("vds help exit-codes does not match %q:\n%s", re, r.out)
		}
	}
	r = vds(t, piped, "--help")
	for _, re := range []string{`^ +login +Store a token`, ` tires +Tire fitments, geometry$`, `vds help exit-codes\.$`} {
		if !regexp.MustCompile("(?m)" + re).MatchString(r.out) {
			t.Errorf("vds --help does not match %q:\n%s", re, r.out)
		}
	}
}
