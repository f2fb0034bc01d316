package credentials

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestNormalizeURL(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"http://127.0.0.1:8080":         "http://127.0.0.1:8080",
		" http://127.0.0.1:8080/ ":      "http://127.0.0.1:8080",
		"HTTPS://VDS.Example.COM//":     "https://vds.example.com",
		"https://vds.example.com:443/":  "https://vds.example.com",
		"http://vds.example.com:80":     "http://vds.example.com",
		"http://vds.example.com:443":    "http://vds.example.com:443",
		"https://Example.com/Vds/":      "https://example.com/Vds",
		"http://[::1]:80/":              "http://[::1]",
		"http://[::1]:8080":             "http://[::1]:8080",
		"https://vds.example.com:8443/": "https://vds.example.com:8443",
		"http://127.0.0.1:8080/v1":      "http://127.0.0.1:8080",
		"http://127.0.0.1:8080/v1/":     "http://127.0.0.1:8080",
		"https://example.com/vds/v1":    "https://example.com/vds",
		"https://example.com/v12":       "https://example.com/v12",
	} {
		if got, err := NormalizeURL(raw); err != nil || got != want {
			t.Errorf("NormalizeURL(%q) = %q, %v; want %q", raw, got, err, want)
		}
	}
	for _, bad := range []string{"", "vds.example.com", "ftp://vds.example.com", "http://", "http://ann:pw@vds.example.com", "http://h?x=1", "http://h/#frag", "http://h:bad", "http:///v1"} {
		if got, err := NormalizeURL(bad); err == nil || !strings.Contains(err.Error(), "want http://HOST[:PORT]") {
			t.Errorf("NormalizeURL(%q) = %q, %v; want an error", bad, got, err)
		}
	}
}

// TestMigrateSingleEntry: a file of the old single-entry format loads as a
// stored, current instance and is rewritten in the new format on save,
// without losing the token.
func TestMigrateSingleEntry(t *testing.T) {
	t.Parallel()
	path := Path(t.TempDir())
	if err := os.WriteFile(path, []byte("url: http://127.0.0.1:8080/\ntoken: vds_old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := Credentials{Current: "http://127.0.0.1:8080", Instances: map[string]Instance{"http://127.0.0.1:8080": {Token: "vds_old"}}}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("loaded %+v, want %+v", c, want)
	}
	if c.Token("HTTP://127.0.0.1:8080") != "vds_old" {
		t.Errorf("Token of another spelling of the URL: %q", c.Token("HTTP://127.0.0.1:8080"))
	}

	if err := c.Set("https://vds.example.com", "vds_new"); err != nil {
		t.Fatal(err)
	}
	if err := Save(path, c); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const wantFile = `current: https://vds.example.com
instances:
    http://127.0.0.1:8080:
        token: vds_old
    https://vds.example.com:
        token: vds_new
`
	if string(b) != wantFile {
		t.Errorf("saved\n%s\nwant\n%s", b, wantFile)
	}
	again, err := Load(path)
	if err != nil || again.Current != "https://vds.example.com" || !reflect.DeepEqual(again.URLs(), []string{"http://127.0.0.1:8080", "https://vds.example.com"}) ||
		again.Token("http://127.0.0.1:8080") != "vds_old" {
		t.Errorf("reloaded %+v, %v", again, err)
	}
}

// TestMigrateLoggedOut: an old file whose token was removed by vds logout
// keeps its URL current with nothing stored for it.
func TestMigrateLoggedOut(t *testing.T) {
	t.Parallel()
	path := Path(t.TempDir())
	if err := os.WriteFile(path, []byte("url: http://vds.example.com\ntoken: \"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(path)
	if err != nil || c.Current != "http://vds.example.com" || len(c.Instances) != 0 {
		t.Errorf("loaded %+v, %v", c, err)
	}
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if c, err := Load(Path(dir)); err != nil || c.Current != "" || len(c.Instances) != 0 {
		t.Errorf("a missing file: %+v, %v", c, err)
	}
	for name, body := range map[string]string{"garbage": "current: [", "old bad URL": "url: ftp://x\ntoken: t\n"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want an error naming the file", name, err)
		}
	}
}

func TestSetRemoveSwitch(t *testing.T) {
	t.Parallel()
	var c Credentials
	if err := c.Set("http://a.example/", "tok_a"); err != nil {
		t.Fatal(err)
	}
	if err := c.Set("http://b.example", "tok_b"); err != nil {
		t.Fatal(err)
	}
	if c.Current != "http://b.example" {
		t.Errorf("current after two logins: %q", c.Current)
	}
	if err := c.Switch("HTTP://A.example/"); err != nil || c.Current != "http://a.example" {
		t.Errorf("switch: %q, %v", c.Current, err)
	}
	if err := c.Switch("http://c.example"); !errors.Is(err, ErrNotStored) || c.Current != "http://a.example" {
		t.Errorf("switch to an unknown instance: %q, %v", c.Current, err)
	}
	if err := c.Set("ftp://a.example", "x"); err == nil {
		t.Error("Set accepted an ftp URL")
	}
	if !c.Remove("http://a.example") || c.Remove("http://a.example") {
		t.Error("Remove did not report what it removed")
	}
	if c.Current != "http://a.example" || c.Token("http://a.example") != "" || c.Token("http://b.example") != "tok_b" {
		t.Errorf("after remove: %+v", c)
	}
}

func TestSaveMode(t *testing.T) {
	t.Parallel()
	path := Path(filepath.Join(t.TempDir(), "vds"))
	if err := Save(path, Credentials{Current: "http://a.example", Instances: map[string]Instance{"http://a.example": {Token: "t"}}}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("stat: %v, %v", fi, err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".credentials-*")); len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}
