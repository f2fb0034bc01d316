package dashboard_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/lists"
	"github.com/vds-dev/vds/internal/requestlog"
	"github.com/vds-dev/vds/internal/signin"
	"github.com/vds-dev/vds/internal/store"
)

// start serves e on a loopback httptest server.
func (e *env) start() string {
	ts := httptest.NewServer(e.srv.Handler())
	e.t.Cleanup(ts.Close)
	return ts.URL
}

func TestRootRedirectsToDashboard(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	b := newBrowser(t, e.start())
	b.get("/").want(t, http.StatusFound, "/dashboard/")
	if p := b.get("/dashboard"); p.StatusCode/100 != 3 || p.Header.Get("Location") != "/dashboard/" {
		t.Fatalf("/dashboard: %d to %q, want a redirect to /dashboard/", p.StatusCode, p.Header.Get("Location"))
	}
	b.get("/dashboard/").want(t, http.StatusSeeOther, "/dashboard/signin")
	b.get("/dashboard/tokens").want(t, http.StatusSeeOther, "/dashboard/signin?next=%2Fdashboard%2Ftokens")
	b.get("/dashboard/no-such-page").want(t, http.StatusNotFound, "").contains(t, "Page not found")
}

func TestSignUpSignOutSignIn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	base := e.start()
	b := newBrowser(t, base)
	b.signUp("Ann@Example.com", password)
	b.get("/dashboard/?n=welcome").want(t, http.StatusOK, "").
		contains(t, "ann@example.com", `<p class="big">free</p>`, "of 100 units used", "Welcome!", "Quota units used per day")
	a, err := e.acc.Account(context.Background(), "ann@example.com")
	if err != nil || a.Plan != "free" {
		t.Fatalf("signed-up account = %+v, %v; want it on the free plan", a, err)
	}
	saved, err := e.lists.Lists(context.Background(), a.ID)
	if err != nil || len(saved) != 1 || !saved[0].IsDefault {
		t.Fatalf("new account's lists = %+v, %v; want the default list", saved, err)
	}

	b.post("/dashboard/signout", url.Values{}).want(t, http.StatusSeeOther, "/dashboard/signin?n=signed-out")
	b.get("/dashboard/").want(t, http.StatusSeeOther, "/dashboard/signin")

	b.get("/dashboard/signin?next=/dashboard/garage").want(t, http.StatusOK, "")
	b.post("/dashboard/signin", url.Values{"email": {"ann@example.com"}, "password": {password}, "next": {"/dashboard/garage"}}).
		want(t, http.StatusSeeOther, "/dashboard/garage")
	b.get("/dashboard/garage").want(t, http.StatusOK, "").contains(t, "My garage")

	// Signing up again with the same address says so.
	other := newBrowser(t, base)
	other.get("/dashboard/signup")
	other.post("/dashboard/signup", url.Values{"email": {"ann@example.com"}, "password": {password}, "confirm": {password}}).
		want(t, http.StatusConflict, "").contains(t, "exists already")
}

func TestSignUpValidation(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	b := newBrowser(t, e.start())
	b.get("/dashboard/signup")
	for _, tc := range []struct {
		name, email, pw, confirm, want string
	}{
		{"bad email", "not-an-email", password, password, "Enter an email address"},
		{"short password", "bob@example.com", "short", "short", "at least 10"},
		{"mismatch", "bob@example.com", password, password + "x", "The two passwords differ"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := b.post("/dashboard/signup", url.Values{"email": {tc.email}, "password": {tc.pw}, "confirm": {tc.confirm}}).
				want(t, http.StatusBadRequest, "").contains(t, tc.want, `aria-invalid="true"`)
			// The page keeps what was typed, except the passwords.
			if strings.Contains(p.body, tc.pw) && tc.pw != "" {
				t.Fatal("a password was sent back into the page")
			}
		})
	}
	if _, err := e.acc.Account(context.Background(), "bob@example.com"); err == nil {
		t.Fatal("an invalid sign-up created an account")
	}
}

// TestSignInFailuresLookAlike: a wrong password, an unknown email and an
// account without a password get the same status and the same words.
func TestSignInFailuresLookAlike(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	base := e.start()
	newBrowser(t, base).signUp("real@example.com", password)
	if _, err := e.acc.CreateAccount(context.Background(), "nopassword@example.com", "free"); err != nil {
		t.Fatal(err)
	}
	var first page
	for i, email := range []string{"real@example.com", "nobody@example.com", "nopassword@example.com", "not an email"} {
		b := newBrowser(t, base)
		b.get("/dashboard/signin")
		p := b.post("/dashboard/signin", url.Values{"email": {email}, "password": {"wrong password!"}}).want(t, http.StatusUnauthorized, "")
		if p.alert() != "The email address or password is incorrect." {
			t.Fatalf("%s: alert %q", email, p.alert())
		}
		if i == 0 {
			first = p
		} else if p.alert() != first.alert() || len(p.Cookies()) != len(first.Cookies()) {
			t.Fatalf("%s: answered differently from a wrong password: %q", email, p.alert())
		}
		if strings.Contains(p.body, "wrong password!") {
			t.Fatal("the password was sent back into the page")
		}
	}
}

func TestSignInThrottle(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	base := e.start()
	newBrowser(t, base).signUp("victim@example.com", password)
	for _, email := range []string{"victim@example.com", "ghost@example.com"} {
		t.Run(email, func(t *testing.T) {
			b := newBrowser(t, base)
			b.get("/dashboard/signin")
			for range signin.MaxFailedSignIns {
				b.post("/dashboard/signin", url.Values{"email": {email}, "password": {"guess guess guess"}}).want(t, http.StatusUnauthorized, "")
			}
			p := b.post("/dashboard/signin", url.Values{"email": {email}, "password": {"guess guess guess"}}).
				want(t, http.StatusTooManyRequests, "")
			if !strings.HasPrefix(p.alert(), "Too many failed sign-ins for this email address. Try again in 15 minutes") {
				t.Fatalf("throttled alert = %q", p.alert())
			}
			if p.Header.Get("Retry-After") == "" {
				t.Fatal("no Retry-After on a throttled sign-in")
			}
			// Even the right password waits: the lock is per email, not per guess.
			b.post("/dashboard/signin", url.Values{"email": {email}, "password": {password}}).want(t, http.StatusTooManyRequests, "")
		})
	}
	// Other addresses are unaffected.
	b := newBrowser(t, base)
	b.signUp("bystander@example.com", password)
}

func TestCSRF(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	base := e.start()
	b := newBrowser(t, base)
	b.signUp("csrf@example.com", password)
	b.get("/dashboard/tokens").want(t, http.StatusOK, "")

	b.post("/dashboard/tokens", url.Values{"name": {"x"}, "csrf": {""}}).want(t, http.StatusForbidden, "").contains(t, "Form refused")
	b.post("/dashboard/tokens", url.Values{"name": {"x"}, "csrf": {"forged"}}).want(t, http.StatusForbidden, "")

	// The right token from a cross-site page is refused too (the browser
	// says where the form came from).
	req, _ := http.NewRequest(http.MethodPost, base+"/dashboard/tokens", strings.NewReader(url.Values{"name": {"x"}, "csrf": {b.csrf}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	b.do(req).want(t, http.StatusForbidden, "")
	req, _ = http.NewRequest(http.MethodPost, base+"/dashboard/tokens", strings.NewReader(url.Values{"name": {"x"}, "csrf": {b.csrf}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", "https://evil.example")
	b.do(req).want(t, http.StatusForbidden, "")

	a, _ := e.acc.Account(context.Background(), "csrf@example.com")
	if toks, _ := e.acc.Tokens(context.Background(), a.ID); len(toks) != 0 {
		t.Fatalf("a refused form created %d tokens", len(toks))
	}
	b.post("/dashboard/tokens", url.Values{"name": {"ok"}}).want(t, http.StatusSeeOther, "/dashboard/tokens")

	// Sign-in needs the double-submit cookie the sign-in page sets.
	fresh := newBrowser(t, base)
	fresh.post("/dashboard/signin", url.Values{"email": {"csrf@example.com"}, "password": {password}, "csrf": {"made-up"}}).
		want(t, http.StatusForbidden, "")
	fresh.get("/dashboard/signin")
	fresh.post("/dashboard/signin", url.Values{"email": {"csrf@example.com"}, "password": {password}, "csrf": {"made-up"}}).
		want(t, http.StatusForbidden, "")
	fresh.post("/dashboard/signin", url.Values{"email": {"csrf@example.com"}, "password": {password}}).
		want(t, http.StatusSeeOther, "/dashboard/")

	// Signing out needs the token as well, so a cross-site page cannot
	// sign a user out.
	fresh.post("/dashboard/signout", url.Values{"csrf": {"nope"}}).want(t, http.StatusForbidden, "")
}

func TestSessions(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	base := e.start()
	b := newBrowser(t, base)
	b.signUp("sess@example.com", password)
	ctx := context.Background()
	a, _ := e.acc.Account(ctx, "sess@example.com")

	// The cookie: HttpOnly, SameSite, the whole site, no __Host- over plain HTTP.
	c := newBrowser(t, base)
	c.get("/dashboard/signin")
	resp := c.post("/dashboard/signin", url.Values{"email": {"sess@example.com"}, "password": {password}}).want(t, http.StatusSeeOther, "")
	var cookie *http.Cookie
	for _, ck := range resp.Cookies() {
		if ck.Name == "vds_session" {
			cookie = ck
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Path != "/" || cookie.Secure || cookie.MaxAge != 3600 {
		t.Fatalf("session cookie = %+v", cookie)
	}
	// Only the hash is stored.
	if _, err := e.st.SessionByHash(ctx, cookie.Value); err == nil {
		t.Fatal("the cookie's value itself is a stored key")
	}
	if _, err := e.st.SessionByHash(ctx, account.HashSecret(cookie.Value)); err != nil {
		t.Fatalf("the session's hash is not stored: %v", err)
	}

	// An expired session sends the user to sign in, with the reason.
	secret, hash := account.NewSessionSecret()
	past := time.Now().Add(-2 * time.Hour)
	if err := e.st.CreateSession(ctx, account.Session{IDHash: hash, AccountID: a.ID, CSRF: "x", CreatedAt: past, ExpiresAt: past.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	exp := newBrowser(t, base)
	u, _ := url.Parse(base)
	exp.client.Jar.SetCookies(u, []*http.Cookie{{Name: "vds_session", Value: secret, Path: "/"}})
	exp.get("/dashboard/tokens").want(t, http.StatusSeeOther, "/dashboard/signin?n=expired&next=%2Fdashboard%2Ftokens")
	if _, err := e.st.SessionByHash(ctx, hash); err == nil {
		t.Fatal("an expired session was left in the store after use")
	}
	exp.get("/dashboard/signin?n=expired").contains(t, "Your session has ended")

	// Signing out ends the session on the server: the old cookie is dead
	// even if a copy of it is replayed.
	c.get("/dashboard/").want(t, http.StatusOK, "")
	c.post("/dashboard/signout", url.Values{}).want(t, http.StatusSeeOther, "")
	replay := newBrowser(t, base)
	replay.client.Jar.SetCookies(u, []*http.Cookie{{Name: "vds_session", Value: cookie.Value, Path: "/"}})
	replay.get("/dashboard/").want(t, http.StatusSeeOther, "/dashboard/signin?n=expired")
	// The other session (b) is untouched.
	b.get("/dashboard/").want(t, http.StatusOK, "")

	// An operator's new password ends every session of the account.
	if err := e.signin.SetPassword(ctx, a.ID, "another long password"); err != nil {
		t.Fatal(err)
	}
	b.get("/dashboard/").want(t, http.StatusSeeOther, "/dashboard/signin?n=expired")
}

func TestSecureCookies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		mode, proto string
		wantName    string
	}{
		{"auto", "https", "__Host-vds_session"},
		{"auto", "", "vds_session"},
		{"always", "", "__Host-vds_session"},
		{"never", "https", "vds_session"},
	} {
		t.Run(tc.mode+"/"+tc.proto, func(t *testing.T) {
			e := newEnv(t, func(c *config.Config) { c.Dashboard.SecureCookies = tc.mode })
			b := newBrowser(t, e.start())
			if tc.proto != "" {
				b.header.Set("X-Forwarded-Proto", tc.proto)
			}
			b.get("/dashboard/signup")
			p := b.post("/dashboard/signup", url.Values{"email": {"c@example.com"}, "password": {password}, "confirm": {password}}).
				want(t, http.StatusSeeOther, "")
			var got *http.Cookie
			for _, c := range p.Cookies() {
				if strings.HasSuffix(c.Name, "vds_session") {
					got = c
				}
			}
			if got == nil || got.Name != tc.wantName || got.Secure != strings.HasPrefix(tc.wantName, "__Host-") || !got.HttpOnly {
				t.Fatalf("cookie = %+v, want %s", got, tc.wantName)
			}
		})
	}
}

func TestSignUpDisabled(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *config.Config) { c.Dashboard.Signup = false })
	b := newBrowser(t, e.start())
	b.get("/dashboard/signin").want(t, http.StatusOK, "").lacks(t, "/dashboard/signup")
	b.get("/dashboard/signup").want(t, http.StatusForbidden, "").contains(t, "Sign-up is turned off").lacks(t, `name="password"`)
	b.post("/dashboard/signup", url.Values{"email": {"x@example.com"}, "password": {password}, "confirm": {password}}).
		want(t, http.StatusForbidden, "")
	if _, err := e.acc.Account(context.Background(), "x@example.com"); err == nil {
		t.Fatal("sign-up created an account while turned off")
	}
	// Operators still make accounts, and set passwords for them.
	ctx := context.Background()
	op, err := e.acc.CreateAccount(ctx, "op@example.com", "pro")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.signin.SetPassword(ctx, op.ID, password); err != nil {
		t.Fatal(err)
	}
	b.post("/dashboard/signin", url.Values{"email": {"op@example.com"}, "password": {password}}).want(t, http.StatusSeeOther, "/dashboard/")
	b.get("/dashboard/").want(t, http.StatusOK, "").contains(t, `<p class="big">pro</p>`, "of 1,000 units used")
}

var secretRE = regexp.MustCompile(`id="secret" class="mono" type="text" readonly value="(vds_[a-z2-7]+)"`)

func TestTokens(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	base := e.start()
	b := newBrowser(t, base)
	b.signUp("tok@example.com", password)
	b.get("/dashboard/tokens").want(t, http.StatusOK, "").contains(t, "No active tokens")

	b.post("/dashboard/tokens", url.Values{"name": {""}}).want(t, http.StatusBadRequest, "").contains(t, "Give the token a name")
	p := b.issue("/dashboard/tokens", url.Values{"name": {"laptop"}}).
		contains(t, "shown only this once", `data-copy="secret"`)
	m := secretRE.FindStringSubmatch(p.body)
	if m == nil {
		t.Fatalf("no secret on the page:\n%s", mainOf(p.body))
	}
	first := m[1]
	if status, body := api(t, base, first, "/v1/me"); status != http.StatusOK || fmt.Sprint(body["data"].(map[string]any)["account"].(map[string]any)["email"]) != "tok@example.com" {
		t.Fatalf("/v1/me with the new token: %d %v", status, body)
	}
	// The list shows the name and prefix, never the secret again.
	list := b.get("/dashboard/tokens").want(t, http.StatusOK, "").contains(t, "laptop", first[:10]+"…").lacks(t, first)

	// Rotate with no grace: a new secret, the old one refused at once.
	id := regexp.MustCompile(`/dashboard/tokens/(tok_[a-z2-7]+)/rotate`).FindStringSubmatch(list.body)[1]
	p = b.issue("/dashboard/tokens/"+id+"/rotate", url.Values{"grace": {"none"}}).contains(t, "rotated", first[:10]+"…</code> is revoked")
	second := secretRE.FindStringSubmatch(p.body)[1]
	if status, _ := api(t, base, first, "/v1/me"); status != http.StatusUnauthorized {
		t.Fatalf("old token after rotation: %d, want 401", status)
	}
	if status, _ := api(t, base, second, "/v1/me"); status != http.StatusOK {
		t.Fatalf("new token after rotation: %d, want 200", status)
	}
	b.get("/dashboard/tokens/"+id+"/rotate").want(t, http.StatusNotFound, "")
	b.post("/dashboard/tokens/"+id+"/rotate", url.Values{"grace": {"none"}}).want(t, http.StatusNotFound, "")

	// Revoke, after a confirmation page.
	list = b.get("/dashboard/tokens").contains(t, "Revoked tokens (1)")
	id2 := regexp.MustCompile(`/dashboard/tokens/(tok_[a-z2-7]+)/revoke`).FindStringSubmatch(list.body)[1]
	b.get("/dashboard/tokens/"+id2+"/revoke").want(t, http.StatusOK, "").contains(t, "Revoke token “laptop”?", "cannot be undone")
	if status, _ := api(t, base, second, "/v1/me"); status != http.StatusOK {
		t.Fatal("the confirmation page revoked the token by itself")
	}
	b.post("/dashboard/tokens/"+id2+"/revoke", url.Values{}).want(t, http.StatusSeeOther, "/dashboard/tokens?n=revoked")
	if status, _ := api(t, base, second, "/v1/me"); status != http.StatusUnauthorized {
		t.Fatalf("revoked token: %d, want 401", status)
	}
	b.get("/dashboard/tokens?n=revoked").contains(t, "The token was revoked", "Revoked tokens (2)", "No active tokens")

	// Another account's token cannot be touched, nor even confirmed.
	ctx := context.Background()
	a, err := e.acc.CreateAccount(ctx, "other@example.com", "free")
	if err != nil {
		t.Fatal(err)
	}
	theirs, theirSecret, err := e.acc.CreateToken(ctx, a.ID, "theirs")
	if err != nil {
		t.Fatal(err)
	}
	b.get("/dashboard/tokens/"+theirs.ID+"/revoke").want(t, http.StatusNotFound, "")
	b.post("/dashboard/tokens/"+theirs.ID+"/revoke", url.Values{}).want(t, http.StatusNotFound, "")
	b.get("/dashboard/tokens/"+theirs.ID+"/rotate").want(t, http.StatusNotFound, "")
	b.post("/dashboard/tokens/"+theirs.ID+"/rotate", url.Values{"grace": {"none"}}).want(t, http.StatusNotFound, "")
	if status, _ := api(t, base, theirSecret, "/v1/me"); status != http.StatusOK {
		t.Fatalf("another account's token after the attempts: %d, want 200", status)
	}
}

func TestSecurityHeadersAndStatic(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	b := newBrowser(t, e.start())
	p := b.get("/dashboard/signin").want(t, http.StatusOK, "")
	for k, want := range map[string]string{
		"X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff", "Cache-Control": "no-store",
	} {
		if got := p.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	if csp := p.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("Content-Security-Policy = %q", csp)
	}
	css := regexp.MustCompile(`href="(/dashboard/static/style\.css\?v=[0-9a-f]+)"`).FindStringSubmatch(p.body)
	if css == nil {
		t.Fatal("no stylesheet link")
	}
	s := b.get(css[1]).want(t, http.StatusOK, "")
	if !strings.HasPrefix(s.Header.Get("Content-Type"), "text/css") || !strings.Contains(s.Header.Get("Cache-Control"), "immutable") {
		t.Fatalf("stylesheet headers: %v", s.Header)
	}
	// No page loads anything from another origin.
	for _, path := range []string{"/dashboard/signin", "/dashboard/signup"} {
		b.get(path).lacks(t, "http://", "https://", "style=")
	}
	b.get("/dashboard/static/nothing.css").want(t, http.StatusNotFound, "")
}

func TestSafeRedirectAfterSignIn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	base := e.start()
	newBrowser(t, base).signUp("nx@example.com", password)
	for _, next := range []string{"https://evil.example/", "//evil.example/x", "/dashboard/\\evil", "/v1/me", "javascript:alert(1)"} {
		b := newBrowser(t, base)
		b.get("/dashboard/signin?next=" + url.QueryEscape(next))
		b.post("/dashboard/signin", url.Values{"email": {"nx@example.com"}, "password": {password}, "next": {next}}).
			want(t, http.StatusSeeOther, "/dashboard/")
	}
}

func TestConnectPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	base := e.start()
	b := newBrowser(t, base)
	b.signUp("conn@example.com", password)
	conn := b.get("/dashboard/connect").want(t, http.StatusOK, "").
		contains(t, base+"/v1", base+"/mcp", "Authorization: Bearer $VDS_TOKEN", `&#34;mcpServers&#34;`, `data-copy="c-mcp"`).
		lacks(t, "needs the token")
	// The reference links work without a token or a session.
	anon := newBrowser(t, base)
	for _, path := range []string{"/docs", "/llms.txt", "/v1/openapi.json"} {
		conn.contains(t, `href="`+base+path+`"`)
		anon.get(path).want(t, http.StatusOK, "")
	}
	// Behind a TLS proxy the page shows https URLs. (Cookies are then
	// Secure, which this plain-HTTP test client would not send back, so
	// the cookies are left plain here.)
	eh := newEnv(t, func(c *config.Config) { c.Dashboard.SecureCookies = "never" })
	hbase := eh.start()
	hb := newBrowser(t, hbase)
	hb.header.Set("X-Forwarded-Proto", "https")
	hb.signUp("conn@example.com", password)
	host := strings.TrimPrefix(hbase, "http://")
	hb.get("/dashboard/connect").want(t, http.StatusOK, "").contains(t, "https://"+host+"/v1", "https://"+host+"/mcp")

	// A configured public URL wins over the request.
	e2 := newEnv(t, func(c *config.Config) { c.Dashboard.PublicURL = "https://vds.example.com" })
	b2 := newBrowser(t, e2.start())
	b2.signUp("conn@example.com", password)
	b2.get("/dashboard/connect").contains(t, "https://vds.example.com/v1/cars?make=Toyota", "https://vds.example.com/mcp")
}

func TestOverviewUsage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	base := e.start()
	b := newBrowser(t, base)
	b.signUp("use@example.com", password)
	ctx := context.Background()
	a, _ := e.acc.Account(ctx, "use@example.com")
	now := time.Now().UTC()
	today := now.Format(time.DateOnly)
	if _, err := e.st.AddUsage(ctx, store.UsageDelta{AccountID: a.ID, Period: now.Format("2006-01"), Calls: 12,
		Days: map[store.DayChannel]int64{{Day: today, Channel: "rest"}: 9, {Day: today, Channel: "mcp"}: 3}}); err != nil {
		t.Fatal(err)
	}
	day := now.Format("2 Jan")
	b.get("/dashboard/").want(t, http.StatusOK, "").contains(t,
		"REST API: <strong>9</strong>", "MCP tools: <strong>3</strong>",
		"12 <span class=\"unit\">of 100 units used</span>", "<strong>88</strong> remaining",
		`class="bar-rest"`, `class="bar-mcp"`, day+": 9 REST units", day+": 3 MCP units",
		`<td class="num">9</td><td class="num">3</td>`)
}

// TestHTTPSSession runs the dashboard over real TLS: cookies are Secure
// with the __Host- prefix, and a cookie under the plain name, as a sibling
// subdomain or a plain-HTTP page could plant, is not a session.
func TestHTTPSSession(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	ts := httptest.NewTLSServer(e.srv.Handler())
	t.Cleanup(ts.Close)
	b := newBrowser(t, ts.URL)
	b.client.Transport = ts.Client().Transport
	b.get("/dashboard/signup")
	p := b.post("/dashboard/signup", url.Values{"email": {"tls@example.com"}, "password": {password}, "confirm": {password}}).
		want(t, http.StatusSeeOther, "/dashboard/?n=welcome")
	var secret string
	for _, c := range p.Cookies() {
		if c.Name == "__Host-vds_session" && c.Secure && c.HttpOnly && c.Path == "/" && c.Domain == "" {
			secret = c.Value
		}
	}
	if secret == "" {
		t.Fatalf("no __Host- session cookie over TLS: %v", p.Cookies())
	}
	b.get("/dashboard/").want(t, http.StatusOK, "").contains(t, "tls@example.com")

	planted := newBrowser(t, ts.URL)
	// A client of its own (ts.Client() is shared), with no cookie jar.
	planted.client = &http.Client{Transport: ts.Client().Transport, CheckRedirect: planted.client.CheckRedirect}
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/dashboard/", nil)
	req.AddCookie(&http.Cookie{Name: "vds_session", Value: secret})
	planted.do(req).want(t, http.StatusSeeOther, "/dashboard/signin")
}

// With the token cache on, as in production, revoking or rotating a token
// in the dashboard still refuses it on the very next call to this server:
// the cached answer goes with the token.
func TestRevokeAndRotateBeatTheTokenCache(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, backend string) {
		e := newEnvOn(t, backend, func(c *config.Config) { c.Server.AuthCacheTTL = time.Minute })
		base, b := e.signedUp("cache@example.com")
		// hammer uses the token until it is surely cached.
		hammer := func(secret string) {
			for range 3 {
				if status, _ := api(t, base, secret, "/v1/me"); status != http.StatusOK {
					t.Fatalf("token in use: %d, want 200", status)
				}
			}
		}

		id, secret := b.newToken("revoked")
		hammer(secret)
		b.post("/dashboard/tokens/"+id+"/revoke", url.Values{}).want(t, http.StatusSeeOther, "/dashboard/tokens?n=revoked")
		if status, _ := api(t, base, secret, "/v1/me"); status != http.StatusUnauthorized {
			t.Fatalf("the call after the revocation: %d, want 401", status)
		}

		id, old := b.newToken("rotated")
		hammer(old)
		p := b.issue("/dashboard/tokens/"+id+"/rotate", url.Values{"grace": {"none"}})
		next := secretRE.FindStringSubmatch(p.body)[1]
		if status, _ := api(t, base, old, "/v1/me"); status != http.StatusUnauthorized {
			t.Fatalf("the rotated-away token on the next call: %d, want 401", status)
		}
		hammer(next)
	})
}

// An account's lists and active tokens stop at their caps with a message
// in the form, and a revoked token makes room for a new one.
func TestListAndTokenCaps(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, backend string) {
		e := newEnvOn(t, backend, nil)
		b := newBrowser(t, e.start())
		b.signUp("caps@example.com", password)
		ctx := context.Background()
		a, err := e.acc.Account(ctx, "caps@example.com")
		if err != nil {
			t.Fatal(err)
		}
		for i := range lists.MaxLists - 2 { // the default list is one
			if _, err := e.lists.Create(ctx, a.ID, fmt.Sprintf("list %d", i)); err != nil {
				t.Fatal(err)
			}
		}
		b.get("/dashboard/garage").want(t, http.StatusOK, "")
		b.post("/dashboard/garage/lists", url.Values{"name": {"fiftieth"}}).want(t, http.StatusSeeOther, "")
		p := b.post("/dashboard/garage/lists", url.Values{"name": {"one too many"}}).want(t, http.StatusBadRequest, "")
		if got := p.alert(); got != "An account has at most 50 lists; delete one first." {
			t.Fatalf("list over the cap: alert %q", got)
		}

		var first account.Token
		for i := range access.MaxTokens - 1 {
			tok, _, err := e.acc.CreateToken(ctx, a.ID, fmt.Sprintf("t%d", i))
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = tok
			}
		}
		b.get("/dashboard/tokens").want(t, http.StatusOK, "")
		b.post("/dashboard/tokens", url.Values{"name": {"fiftieth"}}).want(t, http.StatusSeeOther, "/dashboard/tokens")
		p = b.post("/dashboard/tokens", url.Values{"name": {"one too many"}}).want(t, http.StatusBadRequest, "")
		if got := p.alert(); got != "An account has at most 50 active tokens; revoke one first." {
			t.Fatalf("token over the cap: alert %q", got)
		}
		p.contains(t, `value="one too many"`)
		b.post("/dashboard/tokens/"+first.ID+"/revoke", url.Values{}).want(t, http.StatusSeeOther, "/dashboard/tokens?n=revoked")
		b.post("/dashboard/tokens", url.Values{"name": {"after a revocation"}}).want(t, http.StatusSeeOther, "/dashboard/tokens")
	})
}

// One client signing up over and over is stopped with a 429 page and
// Retry-After; a client at another address (here behind a proxy on this
// host) still gets in.
func TestSignUpThrottle(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, backend string) {
		e := newEnvOn(t, backend, nil)
		base := e.start()
		for i := range signin.MaxSignUpsPerAddress {
			newBrowser(t, base).signUp(fmt.Sprintf("bulk%d@example.com", i), password)
		}
		b := newBrowser(t, base)
		b.get("/dashboard/signup")
		p := b.post("/dashboard/signup", url.Values{"email": {"one-more@example.com"}, "password": {password}, "confirm": {password}}).
			want(t, http.StatusTooManyRequests, "")
		if got := p.alert(); !strings.HasPrefix(got, "Too many accounts were created recently, from your network or in all. Try again in ") {
			t.Fatalf("alert %q", got)
		}
		if s, err := strconv.Atoi(p.Header.Get("Retry-After")); err != nil || s < 1 || s > 3600 {
			t.Fatalf("Retry-After %q, want 1 to 3600 seconds", p.Header.Get("Retry-After"))
		}
		if _, err := e.acc.Account(context.Background(), "one-more@example.com"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("the refused sign-up made an account: %v", err)
		}
		other := newBrowser(t, base)
		other.header.Set("X-Forwarded-For", "198.51.100.7")
		other.signUp("elsewhere@example.com", password)
	})
}

// TestRequestsPageRateLimited: loads of the Requests page count against the
// plan's per-minute window with the API's reads of the log; past it the page
// is a 429 that says when to come back and reads nothing.
func TestRequestsPageRateLimited(t *testing.T) {
	e := newEnv(t, nil)
	base := e.start()
	b := newBrowser(t, base)
	b.signUp("reader@example.com", password) // the free plan: 10 a minute
	ctx := context.Background()
	a, _ := e.acc.Account(ctx, "reader@example.com")
	_, secret, err := e.acc.CreateToken(ctx, a.ID, "t")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		if code, _ := api(t, base, secret, "/v1/me/requests"); code != http.StatusOK {
			t.Fatalf("API read %d: %d", i+1, code)
		}
		b.get("/dashboard/requests").want(t, http.StatusOK, "")
	}
	p := b.get("/dashboard/requests").want(t, http.StatusTooManyRequests, "").lacks(t, "<table")
	if !strings.Contains(p.alert(), "rate limit") || p.Header.Get("Retry-After") == "" {
		t.Fatalf("the 11th read: alert %q, Retry-After %q", p.alert(), p.Header.Get("Retry-After"))
	}
	if code, _ := api(t, base, secret, "/v1/me/requests"); code != http.StatusTooManyRequests {
		t.Fatalf("an API read after it: %d, want 429", code)
	}
}

// TestRequestsPageExplainsFailures: a failed call shows its query (secrets
// redacted), its problem's code and detail and the dashboard's time format;
// the log pages past the newest 100.
func TestRequestsPageExplainsFailures(t *testing.T) {
	e := newEnv(t, nil)
	base, b := e.signedUp("debug@example.com")
	ctx := context.Background()
	a, _ := e.acc.Account(ctx, "debug@example.com")
	tok, secret, err := e.acc.CreateToken(ctx, a.ID, "t")
	if err != nil {
		t.Fatal(err)
	}
	if code, _ := api(t, base, secret, "/v1/cars?make=Toyota&body=Truk"); code != http.StatusBadRequest {
		t.Fatalf("body=Truk: %d", code)
	}
	if code, _ := api(t, base, secret, "/v1/cars?make=Ford&api_key=hunter2"); code != http.StatusBadRequest {
		t.Fatalf("api_key: %d", code)
	}
	p := b.get("/dashboard/requests?status=4xx").want(t, http.StatusOK, "").
		contains(t, `<code class="query">?make=Toyota&amp;body=Truk</code>`, `<code>invalid_parameter</code>`,
			"body `Truk` is not a value of body for cars (did you mean",
			`?make=Ford&amp;api_key=REDACTED`, `<code>unknown_parameter</code>`, `class="status s4xx"`, " UTC</time>").
		lacks(t, "hunter2", "Older")
	if !regexp.MustCompile(`<time datetime="[0-9T:-]+Z">\d{1,2} [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d UTC</time>`).MatchString(p.body) {
		t.Errorf("times are not in the dashboard's format:\n%s", mainOf(p.body))
	}

	// 150 more lines: the newest 100, then the rest on an older page.
	at := time.Now().Add(-time.Hour)
	lines := make([]requestlog.Entry, 150)
	for i := range lines {
		lines[i] = requestlog.Entry{AccountID: a.ID, TokenID: tok.ID, At: at.Add(time.Duration(i) * time.Second), Channel: "rest",
			Operation: "GET /v1/cars/makes", Status: 200, Duration: 300 * time.Microsecond, RequestID: fmt.Sprintf("planted%03d", i)}
	}
	if err := e.st.AddRequests(ctx, lines, nil, requestlog.Keep); err != nil {
		t.Fatal(err)
	}
	p = b.get("/dashboard/requests?status=2xx").want(t, http.StatusOK, "").
		contains(t, "Requests 1 to 100 of 150 matching", "planted149", "0.3 ms", `href="/dashboard/requests?page=2&amp;status=2xx"`).
		lacks(t, "planted049", "Newer")
	p = b.get("/dashboard/requests?page=2&status=2xx").want(t, http.StatusOK, "").
		contains(t, "Requests 101 to 150 of 150 matching", "planted000", "planted049", `href="/dashboard/requests?page=1&amp;status=2xx"`).
		lacks(t, "planted050", "Older")
}

// The Overview counts quota units and the tokens page requests: each says
// which, and they differ when calls are free or fail.
func TestUsageLabels(t *testing.T) {
	e := newEnv(t, func(c *config.Config) { c.Plans["free"] = config.PlanLimits{RatePerMinute: 60, APIAccess: true} })
	base, b := e.signedUp("units@example.com")
	_, secret := b.newToken("ci")
	for _, path := range []string{"/v1/me", "/v1/me", "/v1/cars?make=Toyota", "/v1/cars/00000000-0000-4000-8000-000000000000"} {
		api(t, base, secret, path)
	}
	b.get("/dashboard/tokens").want(t, http.StatusOK, "").
		contains(t, `<th scope="col">Requests this month</th>`, `<td data-label="Requests this month">4</td>`).
		lacks(t, "Calls this month", "calls this month")
	b.get("/dashboard/").want(t, http.StatusOK, "").
		contains(t, "<p>Quota units used this month: <strong>1</strong></p>", "Quota units used per day").
		lacks(t, "Calls per day", "calls this month")
}
