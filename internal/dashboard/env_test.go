package dashboard_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/lists"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/signin"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
)

// env is an in-process vds (REST, MCP and the dashboard, composed by
// server.New as vds serve composes them) on a SQLite store with the demo
// catalog.
type env struct {
	t      *testing.T
	srv    *server.Server
	st     store.Store
	acc    *access.Service
	lists  *lists.Service
	signin *signin.Service
	cfg    *config.Config
	cat    *catalog.Catalog
}

// newEnv builds a server; configure may change the configuration first.
func newEnv(t *testing.T, configure func(*config.Config)) *env {
	t.Helper()
	return newEnvOn(t, "sqlite", configure)
}

// backends runs fn once per store, in parallel: SQLite always, PostgreSQL
// when a server is available (and always under CI).
func backends(t *testing.T, fn func(t *testing.T, backend string)) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			t.Parallel()
			fn(t, backend)
		})
	}
}

// newEnvOn is newEnv on the named store, "sqlite" or "postgres".
func newEnvOn(t *testing.T, backend string, configure func(*config.Config)) *env {
	t.Helper()
	st, c := storetest.Demo(t, backend)
	return newEnvFrom(t, st, c, configure)
}

// newEnvFrom is newEnv on st, holding the catalog c.
func newEnvFrom(t *testing.T, st store.Store, c *catalog.Catalog, configure func(*config.Config)) *env {
	t.Helper()
	ctx := context.Background()
	cfg := &config.Config{Plans: maps.Clone(config.DefaultPlans)}
	// No token cache: a suspension or plan change made in the store is
	// seen on the very next call.
	cfg.Server.AuthCacheTTL = 0
	cfg.Server.UsageFlush = 100 * time.Millisecond
	cfg.Server.CatalogPoll = time.Second
	cfg.Server.ShutdownTimeout = 5 * time.Second
	cfg.Dashboard = config.Dashboard{Signup: true, SessionTTL: time.Hour, SecureCookies: "auto"}
	cfg.Server.TrustedProxies = config.DefaultTrustedProxies // a proxy on this host, as tests pose
	if configure != nil {
		configure(cfg)
	}
	srv, err := server.New(ctx, cfg, st, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	acc := access.New(st, cfg.Plan, cfg.PlanNames())
	return &env{t: t, srv: srv, st: st, acc: acc, lists: lists.New(st), signin: signin.New(st, acc), cfg: cfg, cat: c}
}

// browser is a cookie-keeping HTTP client that does not follow redirects,
// so tests see each 303, and that remembers the last CSRF token a page
// carried, as a browser remembers the page's hidden fields.
type browser struct {
	t      *testing.T
	base   string
	client *http.Client
	csrf   string
	// header is sent with every request (X-Forwarded-Proto, Origin...).
	header http.Header
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

func newBrowser(t *testing.T, base string) *browser {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return &browser{t: t, base: base, header: http.Header{}, client: &http.Client{
		Jar: jar, Timeout: 30 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// page is a response with its body read.
type page struct {
	*http.Response
	body string
}

func (b *browser) do(req *http.Request) page {
	b.t.Helper()
	for k, v := range b.header {
		req.Header[k] = v
	}
	resp, err := b.client.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	if m := csrfRE.FindStringSubmatch(string(body)); m != nil {
		b.csrf = m[1]
	}
	return page{resp, string(body)}
}

func (b *browser) get(path string) page {
	b.t.Helper()
	req, err := http.NewRequest(http.MethodGet, b.base+path, nil)
	if err != nil {
		b.t.Fatal(err)
	}
	return b.do(req)
}

// post submits a form as a same-origin page would: with the last CSRF
// token seen (unless form sets csrf) and the browser's Sec-Fetch-Site.
func (b *browser) post(path string, form url.Values) page {
	b.t.Helper()
	if _, ok := form["csrf"]; !ok {
		form.Set("csrf", b.csrf)
	}
	req, err := http.NewRequest(http.MethodPost, b.base+path, strings.NewReader(form.Encode()))
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	return b.do(req)
}

// want checks a response's status and, when set, its redirect target.
func (p page) want(t *testing.T, status int, location string) page {
	t.Helper()
	if p.StatusCode != status {
		t.Fatalf("%s %s: status %d, want %d\n%s", p.Request.Method, p.Request.URL.Path, p.StatusCode, status, mainOf(p.body))
	}
	if location != "" && p.Header.Get("Location") != location {
		t.Fatalf("%s %s: Location %q, want %q", p.Request.Method, p.Request.URL.Path, p.Header.Get("Location"), location)
	}
	return p
}

func (p page) contains(t *testing.T, parts ...string) page {
	t.Helper()
	for _, s := range parts {
		if !strings.Contains(p.body, s) {
			t.Fatalf("%s %s lacks %q:\n%s", p.Request.Method, p.Request.URL.Path, s, mainOf(p.body))
		}
	}
	return p
}

func (p page) lacks(t *testing.T, parts ...string) page {
	t.Helper()
	for _, s := range parts {
		if strings.Contains(p.body, s) {
			t.Fatalf("%s %s contains %q:\n%s", p.Request.Method, p.Request.URL.Path, s, mainOf(p.body))
		}
	}
	return p
}

// mainOf cuts a page down to its <main> for failure messages.
func mainOf(body string) string {
	if i := strings.Index(body, "<main"); i >= 0 {
		body = body[i:]
	}
	if i := strings.Index(body, "</main>"); i >= 0 {
		body = body[:i]
	}
	return body
}

var alertRE = regexp.MustCompile(`<p class="error" role="alert" id="form-error">([^<]*)</p>`)

// alert is the page's error message.
func (p page) alert() string {
	if m := alertRE.FindStringSubmatch(p.body); m != nil {
		return m[1]
	}
	return ""
}

// signUp creates an account through the sign-up form and leaves b signed in.
func (b *browser) signUp(email, password string) {
	b.t.Helper()
	b.get("/dashboard/signup").want(b.t, http.StatusOK, "")
	b.post("/dashboard/signup", url.Values{"email": {email}, "password": {password}, "confirm": {password}}).
		want(b.t, http.StatusSeeOther, "/dashboard/?n=welcome")
}

// api calls the REST API with a bearer token.
func api(t *testing.T, base, token, path string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return resp.StatusCode, body
}

const password = "correct horse battery"
