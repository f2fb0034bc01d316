package e2e

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/vds-dev/vds/internal/store/storetest"
)

// breakDatabase makes the database of e unusable under the running
// servers and returns the function that mends it. PostgreSQL: the test
// database stops accepting connections and its sessions are ended (the
// server stays up for other tests). SQLite: the file is overwritten in
// place with bytes that are not a database, as a failing disk would leave it.
func (e *env) breakDatabase() (mend func()) {
	e.t.Helper()
	if e.backend == "postgres" {
		u, err := url.Parse(e.dbURL)
		if err != nil {
			e.t.Fatal(err)
		}
		name := strings.TrimPrefix(u.Path, "/")
		admin := func(stmt string, args ...any) {
			db, err := sql.Open("pgx", os.Getenv(storetest.PostgresEnv))
			if err != nil {
				e.t.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(stmt, args...); err != nil {
				e.t.Fatalf("%s: %v", stmt, err)
			}
		}
		// ALTER DATABASE takes no parameters; name is a generated identifier.
		admin("ALTER DATABASE " + name + " WITH ALLOW_CONNECTIONS false")
		admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", name)
		return func() { admin("ALTER DATABASE " + name + " WITH ALLOW_CONNECTIONS true") }
	}

	path := strings.TrimPrefix(e.dbURL, "sqlite:")
	// Move everything from the write-ahead log into the file first, so
	// that no read can be answered from the log alone.
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		e.t.Fatal(err)
	}
	var busy, logged, moved int
	err = db.QueryRow("PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &logged, &moved)
	db.Close()
	if err != nil || busy != 0 {
		e.t.Fatalf("checkpoint: busy %d, %v", busy, err)
	}
	good, err := os.ReadFile(path)
	if err != nil {
		e.t.Fatal(err)
	}
	// Writing in place keeps the file the server has open; a zeroed
	// shared-memory index makes every connection look at the file again.
	overwrite := func(content []byte) {
		writeFile(e.t, path, string(content))
		shm, err := os.Stat(path + "-shm")
		if err != nil {
			e.t.Fatal(err)
		}
		writeFile(e.t, path+"-shm", string(make([]byte, shm.Size())))
	}
	overwrite([]byte(strings.Repeat("not a database ", len(good)/15+1)))
	return func() { overwrite(good) }
}

var csrfField = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// signIn signs into the dashboard as a browser does and returns a client
// that keeps the session cookie and does not follow redirects.
func (in *instance) signIn(email, password string) *http.Client {
	in.t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		in.t.Fatal(err)
	}
	c := &http.Client{Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(in.URL + "/dashboard/signin")
	if err != nil {
		in.t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := csrfField.FindSubmatch(page)
	if m == nil {
		in.t.Fatalf("sign-in page without a CSRF field:\n%s", page)
	}
	form := url.Values{"email": {email}, "password": {password}, "csrf": {string(m[1])}}
	req, err := http.NewRequest(http.MethodPost, in.URL+"/dashboard/signin", strings.NewReader(form.Encode()))
	if err != nil {
		in.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err = c.Do(req)
	if err != nil {
		in.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		in.t.Fatalf("sign in: status %d", resp.StatusCode)
	}
	return c
}

// TestDatabaseOutage: while the database is down, /v1/lists answers a 503
// service_unavailable problem, the my_garage tool an isError result saying
// service_unavailable, the dashboard's pages a 503 page and /readyz 503;
// once it is back, all of them work again without a restart.
func TestDatabaseOutage(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, e *env) {
		// Token checks are reused for 5 s, so that calls pass
		// authentication and reach the handlers while the database is down.
		e.writeConfig("server:\n  auth_cache_ttl: 5s\n")
		e.vds("ingest")
		const email, password = "garage@example.com", "a long enough password"
		_, tok := e.newToken(email, "developer")
		cmd := e.command("accounts", "set-password", email)
		cmd.Stdin = strings.NewReader(password + "\n")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("set-password: %v\n%s", err, out)
		}
		in := e.serve()
		browser := in.signIn(email, password)
		pages := []string{"/dashboard/", "/dashboard/garage", "/dashboard/tokens"}

		// each calls every surface once and reports what it answered.
		type answers map[string]string
		each := func() answers {
			got := answers{}
			status, h, body := in.get(tok, "/v1/lists")
			var p problemBody
			_ = json.Unmarshal(body, &p)
			got["/v1/lists"] = fmt.Sprintf("%d %s %s", status, p.Code, h.Get("Content-Type"))
			res, err := in.callTool(tok, "my_garage", map[string]any{})
			switch {
			case err != nil:
				got["my_garage"] = "protocol error: " + err.Error()
			case res.IsError:
				got["my_garage"] = "isError " + mcp.GetTextFromContent(res.Content[0])
			default:
				got["my_garage"] = "ok"
			}
			for _, path := range append(pages, "/readyz") {
				resp, err := browser.Get(in.URL + path)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				got[path] = resp.Status + " " + resp.Header.Get("Content-Type")
			}
			return got
		}
		healthy := func(got answers) bool {
			for what, a := range got {
				if a != "ok" && !strings.HasPrefix(a, "200 ") {
					t.Logf("%s: %s", what, a)
					return false
				}
			}
			return true
		}

		if got := each(); !healthy(got) {
			t.Fatalf("before the outage: %v", got)
		}
		mend := e.breakDatabase()
		got := each()
		if got["/v1/lists"] != "503 service_unavailable application/problem+json" {
			t.Errorf("GET /v1/lists with the database down: %s, want a 503 service_unavailable problem", got["/v1/lists"])
		}
		// The usage database (the call's charge) or the account database (the
		// garage) answers first, depending on whether this server still holds
		// leased quota units; either way the tool says service_unavailable.
		if g := got["my_garage"]; g != "isError service_unavailable: The account database is unavailable; retry shortly." &&
			!strings.HasPrefix(g, "isError service_unavailable: the usage database is unavailable") {
			t.Errorf("my_garage with the database down: %s, want an isError result saying service_unavailable", got["my_garage"])
		}
		for _, path := range pages {
			if got[path] != "503 Service Unavailable text/html; charset=utf-8" {
				t.Errorf("GET %s with the database down: %s, want a 503 page", path, got[path])
			}
		}
		if !strings.HasPrefix(got["/readyz"], "503 ") {
			t.Errorf("GET /readyz with the database down: %s", got["/readyz"])
		}

		mend()
		eventually(t, 15*time.Second, "recovery after the outage", func() bool { return healthy(each()) })
	})
}

// TestSQLiteFileReplaced: a SQLite file deleted, moved or replaced under
// a running server makes /readyz fail with a reason that names the file
// (writes would go to a file nobody can open again); the original file
// back in place makes it ready again.
func TestSQLiteFileReplaced(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	e.vds("ingest")
	in := e.serve()
	path := strings.TrimPrefix(e.dbURL, "sqlite:")
	ready := func(want int, reason string) {
		t.Helper()
		status, _, body := in.get("", "/readyz")
		var r struct {
			Status        string `json:"status"`
			Reason        string `json:"reason"`
			DatabaseError string `json:"database_error"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			t.Fatalf("readyz: %v\n%s", err, body)
		}
		if status != want || !strings.Contains(r.DatabaseError, reason) {
			t.Fatalf("readyz: %d %s, want %d with %q", status, body, want, reason)
		}
		if want != http.StatusOK && (r.Status != "unavailable" || r.Reason != "database" || !strings.Contains(r.DatabaseError, path)) {
			t.Fatalf("readyz: %s, want status unavailable, reason database and the file's path", body)
		}
	}
	ready(http.StatusOK, "")

	if err := os.Rename(path, path+".moved"); err != nil {
		t.Fatal(err)
	}
	ready(http.StatusServiceUnavailable, "is gone")
	good, err := os.ReadFile(path + ".moved")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, string(good))
	ready(http.StatusServiceUnavailable, "was replaced")
	if err := os.Rename(path+".moved", path); err != nil {
		t.Fatal(err)
	}
	ready(http.StatusOK, "")
}
