package dashboard_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/config"
)

// chromiumPath finds Debian's chromium. Without it the browser test skips,
// except under CI, where it must run (the CI script installs the package).
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("VDS_CHROMIUM"), "/usr/bin/chromium"} {
		if p != "" {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed but CI is set: the browser tests must run (apt-get install chromium)")
	}
	t.Skip("chromium is not installed (apt-get install chromium); skipping the browser tests")
	return ""
}

// screenshots is where the test writes a PNG of each page it visits:
// $VDS_SCREENSHOT_DIR when set (kept after the run, for a person to look
// at), else a temporary directory.
func screenshots(t *testing.T) string {
	dir := os.Getenv("VDS_SCREENSHOT_DIR")
	if dir == "" {
		dir = filepath.Join(t.TempDir(), "screenshots")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", dir)
	return dir
}

// tab drives one browser tab through the dashboard.
type tab struct {
	t    *testing.T
	ctx  context.Context
	base string
	dir  string
	n    int

	mu       sync.Mutex
	problems []string
}

// Viewport sizes of the screenshots: a desktop and a phone.
const (
	desktopW, desktopH = 1280, 900
	phoneW, phoneH     = 390, 844
)

func (b *tab) do(steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, steps...); err != nil {
		b.t.Fatal(err)
	}
}

// submit runs steps that navigate (a click on a link or a submit button)
// and waits for the new page, checking its status.
func (b *tab) submit(want int, steps ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	resp, err := chromedp.RunResponse(b.ctx, steps...)
	if err != nil {
		b.t.Fatal(err)
	}
	if int(resp.Status) != want {
		b.t.Fatalf("%s: status %d, want %d", resp.URL, resp.Status, want)
	}
}

func (b *tab) open(path string) {
	b.t.Helper()
	b.submit(http.StatusOK, chromedp.Navigate(b.base+path))
}

func (b *tab) value(sel string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Value(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatal(err)
	}
	return v
}

// count is how many elements match sel.
func (b *tab) count(sel string) int {
	b.t.Helper()
	n, err := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.querySelectorAll(`+strconv.Quote(sel)+`).length`))
	if err != nil {
		b.t.Fatal(err)
	}
	return n
}

func (b *tab) text(sel string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(sel)))
	if err != nil {
		b.t.Fatal(err)
	}
	return v
}

// layoutJS lists what squeezes the table in the box it selects: a table
// wider than the box, a cell that is no table cell or not as tall as its
// row, or a name, token, time or button broken over lines.
const layoutJS = `((sel) => {
  const wrap = document.querySelector(sel), table = wrap.querySelector("table"), out = [];
  if (table.scrollWidth > wrap.clientWidth + 1) out.push("table " + table.scrollWidth + "px wide in a " + wrap.clientWidth + "px box");
  for (const tr of table.tBodies[0].rows) {
    const h = tr.getBoundingClientRect().height;
    for (const c of tr.cells) {
      const name = c.dataset.label || c.className;
      if (getComputedStyle(c).display !== "table-cell") out.push(name + " is not a table cell");
      if (Math.abs(c.getBoundingClientRect().height - h) > 1) out.push(name + " is not as tall as its row");
    }
    for (const el of tr.querySelectorAll("th[scope=row], td.nowrap, .button")) {
      const r = document.createRange();
      r.selectNodeContents(el);
      const tops = [...r.getClientRects()].map((x) => x.top).sort((a, b) => a - b);
      if (tops.length && tops[tops.length - 1] - tops[0] > 8) out.push(JSON.stringify(el.textContent.trim()) + " wraps");
    }
  }
  return out.join("; ");
})`

// layout reports what squeezes the table in sel at the current viewport.
func (b *tab) layout(sel string) string {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](layoutJS+`(`+strconv.Quote(sel)+`)`))
	if err != nil {
		b.t.Fatal(err)
	}
	return v
}

// shot writes full-page screenshots of the current page, on the desktop
// and, when phone is set, at a phone's width too.
func (b *tab) shot(name string, phone bool) {
	b.t.Helper()
	b.n++
	sizes := []struct {
		label string
		w, h  int64
	}{{"desktop", desktopW, desktopH}}
	if phone {
		sizes = append(sizes, struct {
			label string
			w, h  int64
		}{"phone", phoneW, phoneH})
	}
	for _, sz := range sizes {
		opts := []chromedp.EmulateViewportOption{}
		if sz.label == "phone" {
			opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		b.do(chromedp.EmulateViewport(sz.w, sz.h, opts...))
		png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			b.t.Fatal(err)
		}
		p := filepath.Join(b.dir, fmt.Sprintf("%02d-%s-%s.png", b.n, name, sz.label))
		if err := os.WriteFile(p, png, 0o644); err != nil {
			b.t.Fatal(err)
		}
	}
	b.do(chromedp.EmulateViewport(desktopW, desktopH))
}

// colorScheme emulates prefers-color-scheme.
func colorScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		return err
	})
}

// mcpCall calls an MCP tool as a client configured from the Connect page
// would: a stateless tools/call over streamable HTTP.
func mcpCall(t *testing.T, base, token, tool, args string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	req, err := http.NewRequest(http.MethodPost, base+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(out), `"result"`) || strings.Contains(string(out), `"isError":true`) {
		t.Fatalf("MCP %s: %d %s", tool, resp.StatusCode, out)
	}
}

// TestBrowser drives the dashboard in a real headless Chromium: sign up,
// create a token and call the API with it, add a car to the garage by the
// drill-down and find it in /v1/lists, rotate the token and see the old one
// refused; with a screenshot of every page.
func TestBrowser(t *testing.T) {
	t.Parallel()
	chromium := chromiumPath(t)
	e := newEnv(t, func(c *config.Config) {
		// The tour calls more than the free plan's 10 a minute, with the
		// Requests page's loads.
		free := c.Plans["free"]
		free.RatePerMinute = 60
		c.Plans["free"] = free
	})
	// A real listener and Serve, so the usage flusher runs as in vds serve.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- e.srv.Serve(sctx, ln) }()
	t.Cleanup(func() {
		stop()
		if err := <-served; err != nil {
			t.Error(err)
		}
	})
	base := "http://" + ln.Addr().String()

	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(desktopW, desktopH),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("no-first-run", true))...)
	defer cancelAlloc()
	ctx, cancelTab := chromedp.NewContext(actx)
	defer cancelTab()
	ctx, cancelTime := context.WithTimeout(ctx, 3*time.Minute)
	defer cancelTime()
	b := &tab{t: t, ctx: ctx, base: base, dir: screenshots(t)}
	// Collect what the page complains about: script errors and
	// Content-Security-Policy refusals are bugs.
	if err := chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *log.EventEntryAdded:
			if ev.Entry.Level == log.EntryLevelError && !strings.Contains(ev.Entry.URL, "favicon") {
				b.problems = append(b.problems, ev.Entry.Text+" "+ev.Entry.URL)
			}
		case *runtime.EventExceptionThrown:
			b.problems = append(b.problems, ev.ExceptionDetails.Text)
		}
	}); err != nil {
		t.Fatal(err)
	}
	b.do(chromedp.EmulateViewport(desktopW, desktopH))

	// The root leads to sign-in; the first Tab reaches the skip link.
	b.open("/")
	b.do(chromedp.WaitVisible(chromedp.CSS("#email")), chromedp.KeyEvent(kb.Tab))
	if focused, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.className`)); err != nil || focused != "skip" {
		t.Fatalf("first Tab focused %q (%v), want the skip link", focused, err)
	}
	b.shot("signin", true)

	// Sign up.
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`a[href="/dashboard/signup"]`)))
	b.shot("signup", true)
	b.do(chromedp.SendKeys(chromedp.CSS("#email"), "e2e@example.com"),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		chromedp.SendKeys(chromedp.CSS("#confirm"), password))
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`form[action="/dashboard/signup"] button[type=submit]`)))
	if h := b.text("h1"); h != "Overview" {
		t.Fatalf("after sign-up the page is %q, want Overview", h)
	}
	b.shot("overview-new", true)

	// Create a token and read its secret off the page.
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`nav a[href="/dashboard/tokens"]`)))
	b.do(chromedp.SendKeys(chromedp.CSS("#name"), "e2e laptop"))
	// The form's answer redirects to the tokens page, which shows the secret once.
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`form[action="/dashboard/tokens"] button[type=submit]`)))
	// The copy button appears only when the script ran.
	b.do(chromedp.WaitVisible(chromedp.CSS(`button[data-copy="secret"]`)))
	token := b.value("#secret")
	if !strings.HasPrefix(token, "vds_") {
		t.Fatalf("secret on the page = %q", token)
	}
	b.shot("token-created", true)
	// A reload shows the secret no more and creates no second token.
	b.submit(http.StatusOK, chromedp.Reload())
	if n := b.count("#secret"); n != 0 {
		t.Fatalf("the secret is on the page after a reload (%d)", n)
	}
	if n := b.count(`a[href$="/rotate"]`); n != 1 {
		t.Fatalf("after a reload %d active tokens, want 1", n)
	}
	if status, _ := api(t, base, token, "/v1/me"); status != http.StatusOK {
		t.Fatalf("/v1/me with the dashboard's token: %d", status)
	}
	// A few charged calls, for the usage chart: REST and an MCP tool.
	for range 3 {
		if status, _ := api(t, base, token, "/v1/cars?make=Toyota"); status != http.StatusOK {
			t.Fatalf("/v1/cars with the dashboard's token: %d", status)
		}
	}
	mcpCall(t, base, token, "search_vehicles", `{"type":"car","make":"Toyota","model":"Camry"}`)

	// Add a car by drilling down type, make, model and year.
	var car catalog.Car
	for _, c := range e.cat.Cars {
		if c.Make == "Toyota" && c.Model == "Camry" {
			car = c
			break
		}
	}
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`nav a[href="/dashboard/garage"]`)))
	b.shot("garage-empty", false)
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`a.button.primary[href^="/dashboard/garage/add"]`)))
	b.shot("add-type", true)
	b.do(chromedp.Click(chromedp.CSS("#type-car")))
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`main form button[type=submit]`)))
	b.do(chromedp.SetValue(chromedp.CSS("#make"), car.Make))
	b.shot("add-make", false)
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`main form button[type=submit]`)))
	b.do(chromedp.SetValue(chromedp.CSS("#model"), car.Model))
	b.shot("add-model", false)
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`main form button[type=submit]`)))
	b.do(chromedp.SetValue(chromedp.CSS("#year"), strconv.Itoa(car.Year)))
	b.shot("add-year", false)
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`main form button[type=submit]`)))
	b.do(chromedp.Click(chromedp.CSS(`input[name=uuid][value="`+car.UUID.String()+`"]`)),
		chromedp.SendKeys(chromedp.CSS("#note"), "the e2e car"))
	b.shot("add-record", true)
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`form[action="/dashboard/garage/items"] button[type=submit]`)))
	if got := b.text(".notice"); got != "Added to the list." {
		t.Fatalf("after adding: notice %q", got)
	}
	b.shot("garage", true)
	if got := listsOf(t, base, token); got["My garage"][car.UUID.String()] != "the e2e car" {
		t.Fatalf("/v1/lists after adding in the browser = %v", got)
	}

	// The item links to its record.
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`a.item-title`)))
	if h := b.text("h1"); !strings.Contains(h, car.Model) {
		t.Fatalf("record page heading %q", h)
	}
	b.shot("record", true)

	// The requests page lists those calls, newest first; the request id of
	// an error finds its line.
	status, problem := api(t, base, token, "/v1/cars/00000000-0000-4000-8000-000000000000")
	rid, _ := problem["request_id"].(string)
	if status != http.StatusNotFound || rid == "" {
		t.Fatalf("unknown car: %d %v", status, problem)
	}
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`nav a[href="/dashboard/requests"]`)))
	if got := b.text("main tbody tr th code"); got != "GET /v1/cars/{uuid}" {
		t.Fatalf("newest request on the page = %q", got)
	}
	if got := b.text("main tbody"); !strings.Contains(got, "search_vehicles") || !strings.Contains(got, "MCP") {
		t.Fatalf("the requests page lacks the MCP call: %q", got)
	}
	b.shot("requests", true)
	b.do(chromedp.SendKeys(chromedp.CSS("#request_id"), rid), chromedp.SetValue(chromedp.CSS("#status"), "4xx"))
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`form[action="/dashboard/requests"] button[type=submit]`)))
	if got := b.text("main tbody"); !strings.Contains(got, rid) || !strings.Contains(got, "404") || !strings.Contains(got, "not_found") ||
		strings.Contains(got, "search_vehicles") {
		t.Fatalf("searching request id %s: %q", rid, got)
	}
	b.shot("requests-search", false)

	// Connect shows this instance's real URLs.
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`nav a[href="/dashboard/connect"]`)))
	if got := b.text("#c-me"); !strings.Contains(got, base+"/v1/me") {
		t.Fatalf("Connect's curl = %q", got)
	}
	b.shot("connect", true)

	// Rotate, through the confirmation page, with a grace period: both
	// tokens work until it ends, here early with "Revoke now".
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`nav a[href="/dashboard/tokens"]`)))
	if got := b.text(`td[data-label="Requests this month"]`); got == "" || got == "0" {
		t.Fatalf("requests this month of the used token = %q", got)
	}
	b.shot("tokens", true)
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`a.button[href$="/rotate"]`)))
	b.shot("rotate-confirm", true)
	b.do(chromedp.Click(chromedp.CSS("#grace-1h")))
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`form[action$="/rotate"] button[type=submit]`)))
	rotated := b.value("#secret")
	if rotated == token || !strings.HasPrefix(rotated, "vds_") {
		t.Fatalf("rotated secret = %q", rotated)
	}
	b.shot("token-rotated-grace", true)
	if problems := b.layout(".table-wrap:has(.actions)"); problems != "" {
		t.Fatalf("tokens table in a grace period at %dpx: %s", desktopW, problems)
	}
	for _, secret := range []string{token, rotated} {
		if status, _ := api(t, base, secret, "/v1/me"); status != http.StatusOK {
			t.Fatalf("%s… in the grace period: %d, want 200", secret[:10], status)
		}
	}
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`a.button.danger[aria-label$=" now"]`)))
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`form[action$="/revoke"] button[type=submit]`)))
	if status, _ := api(t, base, token, "/v1/me"); status != http.StatusUnauthorized {
		t.Fatalf("old token after its grace was ended: %d, want 401", status)
	}
	if status, _ := api(t, base, rotated, "/v1/me"); status != http.StatusOK {
		t.Fatalf("new token after rotation: %d, want 200", status)
	}

	// Revoke, through the confirmation page.
	b.open("/dashboard/tokens")
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`a.button.danger[href$="/revoke"]`)))
	b.shot("revoke-confirm", false)
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`form[action$="/revoke"] button[type=submit]`)))
	if got := b.text(".notice"); !strings.HasPrefix(got, "The token was revoked") {
		t.Fatalf("after revoking: notice %q", got)
	}
	if status, _ := api(t, base, rotated, "/v1/me"); status != http.StatusUnauthorized {
		t.Fatalf("revoked token: %d, want 401", status)
	}

	// The overview counts the calls (the flusher writes them within
	// server.usage_flush).
	deadline := time.Now().Add(10 * time.Second)
	for {
		b.open("/dashboard/")
		if strings.Contains(b.text(".legend"), "REST API: 4") || time.Now().After(deadline) {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	if got := b.text(".legend"); !strings.Contains(got, "REST API: 4") || !strings.Contains(got, "MCP tools: 1") {
		t.Fatalf("overview legend = %q, want 4 REST calls (3 searches and /v1/lists) and 1 MCP call", got)
	}
	b.shot("overview-usage", true)
	// The dark colour scheme, for a look at its contrast.
	b.do(colorScheme("dark"))
	b.shot("overview-dark", true)
	b.open("/dashboard/garage")
	b.shot("garage-dark", false)
	b.do(colorScheme("light"))

	// Change the password on the account page.
	const newPassword = "another long passphrase"
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`nav a[href="/dashboard/account"]`)))
	b.shot("account", true)
	b.do(chromedp.SendKeys(chromedp.CSS("#current"), password),
		chromedp.SendKeys(chromedp.CSS("#password"), newPassword),
		chromedp.SendKeys(chromedp.CSS("#confirm"), newPassword))
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`form[action="/dashboard/account/password"] button[type=submit]`)))
	if got := b.text(".notice"); !strings.HasPrefix(got, "Your password was changed.") {
		t.Fatalf("after changing the password: notice %q", got)
	}

	// Sign out, and in with the new password.
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`form.signout button`)))
	if got := b.text(".notice"); got != "You are signed out." {
		t.Fatalf("after signing out: notice %q", got)
	}
	b.do(chromedp.SendKeys(chromedp.CSS("#email"), "e2e@example.com"), chromedp.SendKeys(chromedp.CSS("#password"), newPassword))
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`form[action="/dashboard/signin"] button[type=submit]`)))
	if h := b.text("h1"); h != "Overview" {
		t.Fatalf("signed in with the new password, the page is %q", h)
	}

	// Delete the account, typing its email to confirm.
	b.open("/dashboard/account")
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`.danger-zone a.button.danger`)))
	b.do(chromedp.SendKeys(chromedp.CSS("#confirm-email"), "e2e@example.com"))
	b.shot("delete-account", true)
	b.submit(http.StatusOK, chromedp.Click(chromedp.CSS(`form[action="/dashboard/account/delete"] button[type=submit]`)))
	if got := b.text(".notice"); !strings.HasPrefix(got, "Your account was deleted") {
		t.Fatalf("after deleting the account: notice %q", got)
	}
	b.shot("account-deleted", false)

	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.problems) > 0 {
		t.Fatalf("the browser reported problems:\n%s", strings.Join(b.problems, "\n"))
	}
}
