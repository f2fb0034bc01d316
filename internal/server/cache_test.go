package server_test

import (
	"context"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/access/accesstest"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/httpapi"
	"github.com/vds-dev/vds/internal/httpapi/apitest"
	"github.com/vds-dev/vds/internal/ingest"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
)

// webServer is a real server on loopback over the demo catalog, with an
// account "tiny" whose monthly quota is 5 calls and an unlimited "big".
type webServer struct {
	srv    *server.Server
	st     store.Store
	cat    *catalog.Catalog
	url    string
	tokens map[string]string
	// client checks every response against the OpenAPI document.
	client *http.Client
}

func newWebServer(t *testing.T, tweak func(*config.Config)) *webServer {
	t.Helper()
	st, c := storetest.DemoSQLite(t, false)
	cfg := &config.Config{Plans: map[string]config.PlanLimits{
		"free": config.DefaultPlans["free"],
		"tiny": {RatePerMinute: 100, MonthlyQuota: 5, APIAccess: true},
		"big":  {APIAccess: true},
	}}
	cfg.Server.CacheMaxAge = 90 * time.Second
	cfg.Server.BodyCacheMB = 64
	if tweak != nil {
		tweak(cfg)
	}
	acc := access.New(st, cfg.Plan, cfg.PlanNames())
	ws := &webServer{st: st, cat: c, tokens: map[string]string{}}
	for name, a := range accesstest.Create(t, acc, map[string]string{"tiny": "tiny", "big": "big"}) {
		ws.tokens[name] = a.Token
	}
	srv, err := server.New(context.Background(), cfg, st, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ws.srv = srv
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(ts.Close)
	ws.url = ts.URL
	v, err := validator()
	if err != nil {
		t.Fatal(err)
	}
	ws.client = &http.Client{Transport: v.Transport(t, nil)}
	return ws
}

// validator checks every answer against the OpenAPI document; one serves
// every test, as loading it takes seconds under the race detector.
var validator = sync.OnceValues(func() (*apitest.Validator, error) {
	doc, err := httpapi.OpenAPIDocument()
	if err != nil {
		return nil, err
	}
	return apitest.New(doc)
})

// do sends method path with token (none if "") and header pairs.
func (ws *webServer) do(t *testing.T, method, path, token string, header ...string) (*http.Response, string) {
	t.Helper()
	req := newRequest(t, method, ws.url+path, token, "", header...)
	client := ws.client
	if method == http.MethodOptions {
		client = http.DefaultClient // CORS preflights are not part of the document
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(body)
}

var tagPattern = regexp.MustCompile(`^"v([0-9]+)-[0-9a-f]{16}"$`)

// TestConditionalRequests: a catalog answer carries a strong ETag; sending
// it back is a 304 with no body that the monthly quota does not count
// (the rate window does), even once the quota is spent; a new catalog
// version changes the tag.
func TestConditionalRequests(t *testing.T) {
	t.Parallel()
	ws := newWebServer(t, nil)
	tok := ws.tokens["tiny"]
	const list = "/v1/cars?make=Toyota&per_page=5"
	get := func(path, token string, want int, header ...string) *http.Response {
		t.Helper()
		resp, body := ws.do(t, http.MethodGet, path, token, header...)
		if resp.StatusCode != want {
			t.Fatalf("GET %s %v: %d, want %d\n%s", path, header, resp.StatusCode, want, body)
		}
		if want == http.StatusNotModified && body != "" {
			t.Fatalf("GET %s: a 304 with a body: %q", path, body)
		}
		return resp
	}
	used := func(resp *http.Response) int {
		t.Helper()
		n, err := strconv.Atoi(resp.Header.Get("X-Quota-Used"))
		if err != nil {
			t.Fatalf("X-Quota-Used %q", resp.Header.Get("X-Quota-Used"))
		}
		return n
	}
	remaining := func(resp *http.Response) int {
		n, _ := strconv.Atoi(resp.Header.Get("X-RateLimit-Remaining"))
		return n
	}

	first := get(list, tok, http.StatusOK)
	tag := first.Header.Get("ETag")
	if !tagPattern.MatchString(tag) || first.Header.Get("Cache-Control") != "private, max-age=90" || used(first) != 1 {
		t.Fatalf("first answer: ETag %q, Cache-Control %q, X-Quota-Used %d", tag, first.Header.Get("Cache-Control"), used(first))
	}
	if vary := strings.Join(first.Header.Values("Vary"), ", "); !strings.Contains(vary, "Authorization") || !strings.Contains(vary, "Accept-Encoding") {
		t.Fatalf("Vary %q lacks Authorization or Accept-Encoding", vary)
	}

	again := get(list, tok, http.StatusNotModified, "If-None-Match", tag)
	if again.Header.Get("ETag") != tag || again.Header.Get("Cache-Control") != "private, max-age=90" || used(again) != 1 ||
		remaining(again) != remaining(first)-1 || again.Header.Get("Content-Encoding") != "" {
		t.Fatalf("304: ETag %q, Cache-Control %q, quota used %d, rate remaining %d after %d, Content-Encoding %q",
			again.Header.Get("ETag"), again.Header.Get("Cache-Control"), used(again), remaining(again), remaining(first), again.Header.Get("Content-Encoding"))
	}
	// The parameters in another order, the tag in a list and compared weakly.
	get("/v1/cars?per_page=5&make=Toyota", tok, http.StatusNotModified, "If-None-Match", `"v1-0000000000000000", W/`+tag)
	// Another page is another answer.
	if other := get(list+"&page=2", tok, http.StatusOK, "If-None-Match", tag); other.Header.Get("ETag") == tag || used(other) != 2 {
		t.Fatalf("page 2: ETag %q (page 1's %q), quota used %d, want 2", other.Header.Get("ETag"), tag, used(other))
	}
	// The caller is still authenticated; account answers are never stored.
	get(list, "vds_"+strings.Repeat("a", 32), http.StatusUnauthorized, "If-None-Match", tag)
	if me := get("/v1/me", tok, http.StatusOK); used(me) != 2 || me.Header.Get("Cache-Control") != "no-store" || me.Header.Get("ETag") != "" {
		t.Fatalf("/v1/me: quota used %d, Cache-Control %q, ETag %q", used(me), me.Header.Get("Cache-Control"), me.Header.Get("ETag"))
	}

	// A gzip answer is another representation: its own tag.
	plain := get("/v1/cars/makes", ws.tokens["big"], http.StatusOK, "Accept-Encoding", "identity")
	zipped := get("/v1/cars/makes", ws.tokens["big"], http.StatusOK, "Accept-Encoding", "gzip")
	if plain.Header.Get("ETag") == zipped.Header.Get("ETag") || zipped.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("identity and gzip tags %q and %q (Content-Encoding %q)", plain.Header.Get("ETag"), zipped.Header.Get("ETag"), zipped.Header.Get("Content-Encoding"))
	}
	if z := get("/v1/cars/makes", ws.tokens["big"], http.StatusNotModified, "Accept-Encoding", "gzip", "If-None-Match", zipped.Header.Get("ETag")); z.Header.Get("Content-Encoding") != "" {
		t.Fatalf("a 304 says Content-Encoding %q", z.Header.Get("Content-Encoding"))
	}

	// A new catalog version: the same If-None-Match gets the new answer.
	c := *ws.cat
	c.Cars = c.Cars[:len(c.Cars)-1]
	if _, err := ingest.Run(context.Background(), ws.st, &c, []catalog.Kind{catalog.KindCar}, ingest.Options{Source: "one car fewer", AllowRemovals: true}); err != nil {
		t.Fatal(err)
	}
	if err := ws.srv.Reload(context.Background()); err != nil {
		t.Fatal(err)
	}
	renewed := get(list, tok, http.StatusOK, "If-None-Match", tag)
	newTag := renewed.Header.Get("ETag")
	if m := tagPattern.FindStringSubmatch(newTag); m == nil || m[1] != strconv.FormatInt(ws.srv.CatalogVersion(), 10) || newTag == tag || used(renewed) != 3 {
		t.Fatalf("after version %d: ETag %q (was %q), quota used %d, want 3", ws.srv.CatalogVersion(), newTag, tag, used(renewed))
	}

	// Spend the quota: a current tag is refused like any call.
	car := "/v1/cars/" + ws.cat.Cars[0].UUID.String()
	get(car, tok, http.StatusOK)
	last := get("/v1/cars/makes", tok, http.StatusOK)
	if used(last) != 5 {
		t.Fatalf("quota used %d, want 5", used(last))
	}
	get("/v1/cars/makes", tok, http.StatusTooManyRequests)
	if spent := get("/v1/cars/makes", tok, http.StatusTooManyRequests, "If-None-Match", last.Header.Get("ETag")); used(spent) != 5 {
		t.Fatalf("a revalidation past the quota: used %d", used(spent))
	}
}

// TestConditionalRevealsNothingFree repeats the attack on free 304s: a 304
// may only confirm a tag the client got with a 200. If-None-Match: * is
// answered as if absent (a count through Link, or whether a uuid exists,
// is worth what a 200 charges); a 304 carries no Link; a spent quota is a
// 429 whatever If-None-Match says.
func TestConditionalRevealsNothingFree(t *testing.T) {
	ws := newWebServer(t, nil)
	tok := ws.tokens["tiny"] // 5 calls a month
	const list = "/v1/cars?make=Toyota&per_page=1"
	car := "/v1/cars/" + ws.cat.Cars[0].UUID.String()
	none := "/v1/cars/" + uuid.NewSHA1(uuid.NameSpaceURL, []byte("none")).String()
	used := 0
	send := func(method, path string, want, charge int, header ...string) *http.Response {
		t.Helper()
		resp, body := ws.do(t, method, path, tok, header...)
		used += charge
		if resp.StatusCode != want || resp.Header.Get("X-Quota-Used") != strconv.Itoa(used) {
			t.Fatalf("%s %s %v: %d, X-Quota-Used %s; want %d and %d\n%s", method, path, header, resp.StatusCode, resp.Header.Get("X-Quota-Used"), want, used, body)
		}
		if resp.StatusCode != http.StatusOK && resp.Header.Get("Link") != "" {
			t.Fatalf("%s %s %v: a %d with Link %q", method, path, header, resp.StatusCode, resp.Header.Get("Link"))
		}
		return resp
	}

	// * is no condition: the full answer, charged, with the tag a later
	// revalidation may send.
	star := send(http.MethodGet, list, http.StatusOK, 1, "If-None-Match", "*")
	if !strings.Contains(star.Header.Get("Link"), `rel="last"`) || !tagPattern.MatchString(star.Header.Get("ETag")) {
		t.Fatalf("a 200 to *: Link %q, ETag %q", star.Header.Get("Link"), star.Header.Get("ETag"))
	}
	tag := star.Header.Get("ETag")
	send(http.MethodGet, none, http.StatusNotFound, 0, "If-None-Match", "*")
	head := send(http.MethodHead, car, http.StatusOK, 1, "If-None-Match", "*").Header.Get("ETag")
	// The tag it got revalidates for free, GET or HEAD, alone or in a list,
	// and the 304 shows no page links.
	send(http.MethodGet, list, http.StatusNotModified, 0, "If-None-Match", tag)
	send(http.MethodGet, list, http.StatusNotModified, 0, "If-None-Match", `"v0-0000000000000000", `+tag+", *")
	send(http.MethodHead, car, http.StatusNotModified, 0, "If-None-Match", head)
	// A stale or foreign tag is no condition either.
	send(http.MethodGet, "/v1/cars/makes", http.StatusOK, 1, "If-None-Match", `"v1-0123456789abcdef"`)
	// If-Modified-Since is not supported: no condition.
	since := time.Now().UTC().Format(http.TimeFormat)
	send(http.MethodGet, "/v1/boats/makes", http.StatusOK, 1, "If-Modified-Since", since)
	last := send(http.MethodGet, car, http.StatusOK, 1, "If-None-Match", tag)
	if used != 5 {
		t.Fatalf("quota used %d, want 5", used)
	}

	// The quota is spent: no condition gets an answer past the 429.
	for _, tc := range []struct{ method, path, inm string }{
		{http.MethodGet, list, "*"},
		{http.MethodGet, list, tag},
		{http.MethodHead, car, head},
		{http.MethodGet, list, `"v1-0123456789abcdef", W/` + tag},
		{http.MethodGet, car, "*"},
		{http.MethodGet, car, last.Header.Get("ETag")},
		{http.MethodGet, none, "*"},
		{http.MethodGet, "/v1/boats?year=2020&per_page=1", "*"},
	} {
		resp := send(tc.method, tc.path, http.StatusTooManyRequests, 0, "If-None-Match", tc.inm)
		if resp.Header.Get("ETag") != "" {
			t.Errorf("%s %s with %s: a 429 with ETag %q", tc.method, tc.path, tc.inm, resp.Header.Get("ETag"))
		}
	}
	send(http.MethodGet, car, http.StatusTooManyRequests, 0, "If-Modified-Since", since)
}

// TestLinkHeaderAbsolute: pagination links are absolute, from
// dashboard.public_url when set, else from the request.
func TestLinkHeaderAbsolute(t *testing.T) {
	t.Parallel()
	const list = "/v1/cars?make=Toyota&per_page=2"
	ws := newWebServer(t, func(c *config.Config) { c.Server.TrustedProxies = config.DefaultTrustedProxies })
	host := strings.TrimPrefix(ws.url, "http://")
	for proto, want := range map[string]string{"": "http://" + host, "https": "https://" + host} {
		resp, _ := ws.do(t, http.MethodGet, list, ws.tokens["big"], "X-Forwarded-Proto", proto)
		if link := resp.Header.Get("Link"); !strings.HasPrefix(link, "<"+want+"/v1/cars?make=Toyota&per_page=2&page=1>; rel=\"first\"") ||
			!strings.Contains(link, "<"+want+"/v1/cars?make=Toyota&per_page=2&page=2>; rel=\"next\"") {
			t.Errorf("X-Forwarded-Proto %q: Link %q, want URLs under %s", proto, link, want)
		}
	}
	public := newWebServer(t, func(c *config.Config) { c.Dashboard.PublicURL = "https://vds.example.com/" })
	resp, _ := public.do(t, http.MethodGet, list, public.tokens["big"])
	if link := resp.Header.Get("Link"); !strings.HasPrefix(link, "<https://vds.example.com/v1/cars?make=Toyota&per_page=2&page=1>") {
		t.Errorf("with public_url: Link %q", link)
	}
}

// TestCORS: allowed origins get the CORS headers on every answer, errors
// included, and a preflight without a token; others get none.
func TestCORS(t *testing.T) {
	t.Parallel()
	const app = "https://app.example.com"
	ws := newWebServer(t, func(c *config.Config) { c.Server.CORSOrigins = []string{app, "http://localhost:3000"} })
	tok := ws.tokens["big"]

	resp, _ := ws.do(t, http.MethodOptions, "/v1/cars?make=Toyota", "",
		"Origin", app, "Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "authorization, if-none-match")
	h := resp.Header
	if resp.StatusCode != http.StatusNoContent || h.Get("Access-Control-Allow-Origin") != app ||
		h.Get("Access-Control-Allow-Methods") != "GET, HEAD, OPTIONS" || h.Get("Access-Control-Max-Age") != "600" ||
		!strings.Contains(h.Get("Access-Control-Allow-Headers"), "Authorization") || !strings.Contains(h.Get("Access-Control-Allow-Headers"), "If-None-Match") ||
		!strings.Contains(strings.Join(h.Values("Vary"), ","), "Origin") || h.Get("Access-Control-Allow-Credentials") != "" {
		t.Fatalf("preflight: %d %v", resp.StatusCode, h)
	}
	if resp, _ := ws.do(t, http.MethodOptions, "/v1/nowhere", "", "Origin", "https://evil.example", "Access-Control-Request-Method", "GET"); resp.StatusCode != http.StatusNoContent ||
		resp.Header.Get("Access-Control-Allow-Origin") != "" || resp.Header.Get("Access-Control-Allow-Methods") != "" {
		t.Fatalf("preflight from another origin: %d %v", resp.StatusCode, resp.Header)
	}

	resp, _ = ws.do(t, http.MethodGet, "/v1/cars/makes", tok, "Origin", "http://localhost:3000")
	exposed := resp.Header.Get("Access-Control-Expose-Headers")
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Access-Control-Allow-Origin") != "http://localhost:3000" {
		t.Fatalf("GET from an allowed origin: %d %v", resp.StatusCode, resp.Header)
	}
	for _, name := range []string{"ETag", "Link", "X-Request-Id", "X-Quota-Used", "X-RateLimit-Remaining", "RateLimit", "Retry-After"} {
		if !strings.Contains(exposed, name) {
			t.Errorf("Access-Control-Expose-Headers %q lacks %s", exposed, name)
		}
	}
	if resp, _ := ws.do(t, http.MethodGet, "/v1/cars/makes", "", "Origin", app); resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("Access-Control-Allow-Origin") != app {
		t.Fatalf("a 401 to an allowed origin: %d, Access-Control-Allow-Origin %q", resp.StatusCode, resp.Header.Get("Access-Control-Allow-Origin"))
	}
	if resp, _ := ws.do(t, http.MethodGet, "/v1/cars/makes", tok, "Origin", "https://evil.example"); resp.StatusCode != http.StatusOK ||
		resp.Header.Get("Access-Control-Allow-Origin") != "" || resp.Header.Get("Access-Control-Expose-Headers") != "" {
		t.Fatalf("GET from another origin: %d %v", resp.StatusCode, resp.Header)
	}

	star := newWebServer(t, func(c *config.Config) { c.Server.CORSOrigins = []string{"*"} })
	resp, _ = star.do(t, http.MethodGet, "/v1/cars/makes", star.tokens["big"], "Origin", "https://anyone.example")
	if resp.Header.Get("Access-Control-Allow-Origin") != "*" || strings.Contains(strings.Join(resp.Header.Values("Vary"), ","), "Origin") {
		t.Fatalf("with *: Access-Control-Allow-Origin %q, Vary %v", resp.Header.Get("Access-Control-Allow-Origin"), resp.Header.Values("Vary"))
	}

	// CORS off: no headers, and OPTIONS stays a 405.
	off := newWebServer(t, nil)
	if resp, _ := off.do(t, http.MethodOptions, "/v1/cars", "", "Origin", app, "Access-Control-Request-Method", "GET"); resp.StatusCode != http.StatusMethodNotAllowed ||
		resp.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("CORS off: preflight %d %v", resp.StatusCode, resp.Header)
	}
}

// TestEncodedAnswers: a catalog answer goes out in the coding the client
// prefers, with its length and a strong tag of its own per coding, and
// decompresses to the identity answer, whether rendered or kept; a tag
// names one coding only for If-None-Match; a HEAD answer is the identity
// one's head; each answer, kept or not, is charged; with the cache off the
// answers are the same.
func TestEncodedAnswers(t *testing.T) {
	t.Parallel()
	ws := newWebServer(t, nil)
	off := newWebServer(t, func(c *config.Config) { c.Server.BodyCacheMB = 0 })
	big := ws.tokens["big"]
	for _, path := range []string{"/v1/cars?make=" + url.QueryEscape(ws.cat.Cars[0].Make), "/v1/cars/makes", "/v1/cars/" + ws.cat.Cars[0].UUID.String()} {
		plainResp, plain := ws.do(t, http.MethodGet, path, big, "Accept-Encoding", "identity")
		if plainResp.StatusCode != http.StatusOK || plainResp.Header.Get("Content-Encoding") != "" {
			t.Fatalf("%s: %d, Content-Encoding %q", path, plainResp.StatusCode, plainResp.Header.Get("Content-Encoding"))
		}
		tags := map[string]string{"": plainResp.Header.Get("ETag")}
		for _, c := range []struct{ accept, coding string }{
			{"gzip", "gzip"}, {"gzip", "gzip"}, {"gzip, deflate, br, zstd", "zstd"}, {"zstd;q=0.5, gzip", "gzip"},
		} {
			for _, srv := range []*webServer{ws, off} {
				resp, body := srv.do(t, http.MethodGet, path, srv.tokens["big"], "Accept-Encoding", c.accept)
				if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != c.coding ||
					!strings.Contains(strings.Join(resp.Header.Values("Vary"), ","), "Accept-Encoding") {
					t.Fatalf("%s, %s: %d, Content-Encoding %q, Vary %v", path, c.accept, resp.StatusCode, resp.Header.Get("Content-Encoding"), resp.Header.Values("Vary"))
				}
				if n, _ := strconv.Atoi(resp.Header.Get("Content-Length")); n != len(body) || n == 0 {
					t.Errorf("%s, %s: Content-Length %q for %d bytes", path, c.accept, resp.Header.Get("Content-Length"), len(body))
				}
				if got, err := apitest.Decode(c.coding, []byte(body)); err != nil || string(got) != plain {
					t.Errorf("%s, %s: decodes to %.80q (%v), want %.80q", path, c.accept, got, err, plain)
				}
				if srv == off {
					continue
				}
				tag := resp.Header.Get("ETag")
				if prev, seen := tags[c.coding]; seen && prev != tag || !seen && slices.Contains(slices.Collect(maps.Values(tags)), tag) {
					t.Errorf("%s, %s: ETag %s; tags so far %v", path, c.accept, tag, tags)
				}
				tags[c.coding] = tag
			}
		}
		for _, c := range []struct {
			accept, tag string
			status      int
		}{{"zstd", tags["zstd"], 304}, {"gzip", tags["zstd"], 200}, {"gzip", tags["gzip"], 304}, {"identity", tags["gzip"], 200}, {"identity", tags[""], 304}} {
			if resp, _ := ws.do(t, http.MethodGet, path, big, "Accept-Encoding", c.accept, "If-None-Match", c.tag); resp.StatusCode != c.status {
				t.Errorf("%s, %s, If-None-Match %s: %d, want %d", path, c.accept, c.tag, resp.StatusCode, c.status)
			}
		}
		head, _ := ws.do(t, http.MethodHead, path, big, "Accept-Encoding", "gzip, zstd")
		if head.StatusCode != http.StatusOK || head.Header.Get("Content-Encoding") != "" || head.Header.Get("ETag") != tags[""] ||
			head.Header.Get("Content-Length") != strconv.Itoa(len(plain)) {
			t.Errorf("%s: HEAD %d %v, want the identity answer's head (%d bytes, %s)", path, head.StatusCode, head.Header, len(plain), tags[""])
		}
	}
	tiny := ws.tokens["tiny"] // 5 calls a month: a kept answer is counted too
	used := 0
	for i := range 3 {
		resp, _ := ws.do(t, http.MethodGet, "/v1/cars/body-types", tiny, "Accept-Encoding", "gzip")
		if u := mustAtoi(t, resp.Header.Get("X-Quota-Used")); resp.StatusCode != http.StatusOK || i > 0 && u != used+1 {
			t.Fatalf("call %d: %d, quota used %d after %d", i, resp.StatusCode, u, used)
		}
		used = mustAtoi(t, resp.Header.Get("X-Quota-Used"))
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return n
}
