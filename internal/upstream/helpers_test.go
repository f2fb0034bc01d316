package upstream

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	testfixture "github.com/vds-dev/vds/internal/fixture"
)

// fixture returns the upstream body captured in a file of testdata/, with
// the capture wrapper removed: vpic-api-fixtures hold {"url", ..., "content"},
// most npm-nhtsa-mocks hold {"status": 200, "data": {...}}, the rest are bare.
func fixture(t *testing.T, rel string) []byte {
	t.Helper()
	raw, err := os.ReadFile(testfixture.Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	var wrap map[string]json.RawMessage
	if err := json.Unmarshal(raw, &wrap); err != nil {
		t.Fatalf("fixture %s is not a JSON object: %v", rel, err)
	}
	if c, ok := wrap["content"]; ok && wrap["url"] != nil {
		var s string
		if json.Unmarshal(c, &s) == nil { // content stored as a string
			return []byte(s)
		}
		return c
	}
	if d, ok := wrap["data"]; ok && wrap["status"] != nil {
		return d
	}
	return raw
}

// fake is an upstream stand-in that counts the requests it receives.
type fake struct {
	*httptest.Server
	hits atomic.Int64

	mu      sync.Mutex
	handler http.Handler
	paths   []string // request URIs, in order
}

func newFake(t *testing.T, h http.Handler) *fake {
	t.Helper()
	f := &fake{handler: h}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.hits.Add(1)
		f.mu.Lock()
		f.paths = append(f.paths, r.URL.RequestURI())
		h := f.handler
		f.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(f.Close)
	return f
}

// set swaps the behaviour of the fake, e.g. from healthy to failing.
func (f *fake) set(h http.Handler) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.handler = h
}

func (f *fake) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.paths...)
}

// serveJSON answers every request with body.
func serveJSON(body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}
}

// status answers every request with an HTTP status and a short body.
func status(code int) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, http.StatusText(code), code)
	}
}

// sleepy waits d (or until the client gives up) before answering with next.
func sleepy(d time.Duration, next http.Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(d):
			next.ServeHTTP(w, r)
		case <-r.Context().Done():
		}
	}
}

// testConfig points both upstreams at the fake, with timings short enough
// for tests. vPIC gets a path prefix, as the real base URL has one.
func testConfig(base string) Config {
	return Config{
		VPICURL:   base + "/api/",
		NHTSAURL:  base,
		Timeout:   2 * time.Second,
		Retries:   2,
		RetryWait: 5 * time.Millisecond,
	}
}

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func newTestClient(t *testing.T, cfg Config, cache Cache) *Client {
	t.Helper()
	return New(cfg, cache, testLogger(t))
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

func ptr[T any](v T) *T { return &v }

// observed records what a Client tells its Observer.
type observed struct {
	mu     sync.Mutex
	events []string
}

func (o *observed) UpstreamFetch(service, outcome string) { o.add(service + " fetch " + outcome) }

func (o *observed) UpstreamCached(service string, stale bool) {
	if stale {
		o.add(service + " cached stale")
	} else {
		o.add(service + " cached")
	}
}

func (o *observed) add(e string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.events = append(o.events, e)
}

// wait returns the events once there are n, or after 5 s: a fetch that
// outlived its caller reports when it ends.
func (o *observed) wait(n int) []string {
	deadline := time.Now().Add(5 * time.Second)
	for {
		o.mu.Lock()
		got := slices.Clone(o.events)
		o.mu.Unlock()
		if len(got) >= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(10 * time.Millisecond)
	}
}
