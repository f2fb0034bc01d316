package upstream

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

const fordVIN = "1FTMW1T88MFA00001"

func fordBody(t *testing.T) []byte {
	return fixture(t, "vpic-api-fixtures/test_decode__decode-vin.json")
}

func TestSecondCallWithinTTLIsCached(t *testing.T) {
	t.Parallel()
	f := newFake(t, serveJSON(fordBody(t)))
	cache := NewMemCache()
	c := newTestClient(t, testConfig(f.URL), cache)
	ctx := context.Background()

	first, m1, err := c.DecodeVIN(ctx, fordVIN)
	if err != nil {
		t.Fatal(err)
	}
	second, m2, err := c.DecodeVIN(ctx, strings.ToLower(fordVIN))
	if err != nil {
		t.Fatal(err)
	}
	if n := f.hits.Load(); n != 1 {
		t.Errorf("%d upstream calls, want 1", n)
	}
	if m1.FromCache || !m2.FromCache || m2.Stale || !m2.FetchedAt.Equal(m1.FetchedAt) || m2.Warning() != "" {
		t.Errorf("meta first %+v second %+v", m1, m2)
	}
	if deref(first.Model) != deref(second.Model) || deref(second.ModelYear) != 2021 {
		t.Errorf("cached answer differs: %+v", second)
	}
	// PostgreSQL keeps microseconds: a fresh answer must say the time its
	// cached copy will.
	if m1.FetchedAt.Nanosecond()%1000 != 0 || m1.FetchedAt.Location() != time.UTC {
		t.Errorf("fetched_at %v is finer than the store keeps, or not UTC", m1.FetchedAt)
	}
	if keys := cache.Keys(); len(keys) != 1 || keys[0] != "vpic:decode:"+fordVIN {
		t.Errorf("cache keys %q", keys)
	}
	// The normalised result is stored, not the 148-key upstream body.
	raw, _, _, _ := cache.GetCache(ctx, "vpic:decode:"+fordVIN)
	if !bytes.HasPrefix(raw, []byte(`{"make":"FORD"`)) {
		t.Errorf("cached value %s", raw)
	}
}

func TestCacheKeysNormalised(t *testing.T) {
	t.Parallel()
	f := newFake(t, serveJSON([]byte(modernRecalls)))
	cache := NewMemCache()
	c := newTestClient(t, testConfig(f.URL), cache)
	for _, mk := range []string{"Ford", "FORD", " ford  "} {
		if _, _, err := c.Recalls(context.Background(), mk, "Mustang  Mach-E", 2025); err != nil {
			t.Fatal(err)
		}
	}
	if n := f.hits.Load(); n != 1 {
		t.Errorf("%d upstream calls, want 1", n)
	}
	if keys := cache.Keys(); len(keys) != 1 || keys[0] != "nhtsa:recalls:ford|mustang mach-e|2025" {
		t.Errorf("keys %q", keys)
	}
}

func TestExpiredEntryIsRefetched(t *testing.T) {
	t.Parallel()
	f := newFake(t, serveJSON(fordBody(t)))
	cache := NewMemCache()
	cfg := testConfig(f.URL)
	cfg.CacheTTL = time.Hour
	c := newTestClient(t, cfg, cache)
	ctx := context.Background()
	key := "vpic:decode:" + fordVIN
	old := time.Now().Add(-2 * time.Hour)
	if err := cache.PutCache(ctx, key, []byte(`{"make":"OLD"}`), old); err != nil {
		t.Fatal(err)
	}
	got, meta, err := c.DecodeVIN(ctx, fordVIN)
	if err != nil {
		t.Fatal(err)
	}
	if f.hits.Load() != 1 || deref(got.Make) != "FORD" || meta.FromCache || meta.Stale {
		t.Errorf("hits %d, make %v, meta %+v", f.hits.Load(), deref(got.Make), meta)
	}
	if _, at, _, _ := cache.GetCache(ctx, key); !at.After(old) {
		t.Error("cache entry not replaced")
	}
}

func TestUpstream500RetriesAndIsNotCached(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := newPipeFake(t, status(http.StatusInternalServerError))
		cache := NewMemCache()
		c := f.client(t, testConfig(f.URL), cache)
		for round := 1; round <= 2; round++ {
			_, _, err := c.DecodeVIN(context.Background(), fordVIN)
			if !errors.Is(err, ErrUpstreamUnavailable) {
				t.Fatalf("err = %v, want ErrUpstreamUnavailable", err)
			}
			var ue *Error
			if !errors.As(err, &ue) || ue.Upstream != UpstreamVPIC || ue.Status != 500 {
				t.Errorf("error %#v", ue)
			}
			// 1 attempt + 2 retries per call, and the second call tries again.
			if n := f.hits.Load(); n != int64(3*round) {
				t.Errorf("round %d: %d upstream calls, want %d", round, n, 3*round)
			}
		}
		if keys := cache.Keys(); len(keys) != 0 {
			t.Errorf("failure cached: %q", keys)
		}
	})
}

func TestTransient5xxRecovers(t *testing.T) {
	t.Parallel()
	body := fordBody(t)
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		calls := 0
		f := newPipeFake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			calls++
			n := calls
			mu.Unlock()
			if n < 3 {
				status(http.StatusBadGateway)(w, r)
				return
			}
			serveJSON(body)(w, r)
		}))
		c := f.client(t, testConfig(f.URL), NewMemCache())
		got, _, err := c.DecodeVIN(context.Background(), fordVIN)
		if err != nil || deref(got.Make) != "FORD" || f.hits.Load() != 3 {
			t.Errorf("make %v, err %v, hits %d", deref(got.Make), err, f.hits.Load())
		}
	})
}

func TestNoRetryOn4xx(t *testing.T) {
	t.Parallel()
	for code, kind := range map[int]error{
		http.StatusNotFound:        ErrUpstreamBad,
		http.StatusBadRequest:      ErrUpstreamBad,
		http.StatusTooManyRequests: ErrUpstreamUnavailable,
	} {
		f := newFake(t, status(code))
		c := newTestClient(t, testConfig(f.URL), NewMemCache())
		_, _, err := c.Recalls(context.Background(), "Ford", "F-150", 2020)
		if !errors.Is(err, kind) {
			t.Errorf("%d: err = %v, want %v", code, err, kind)
		}
		if n := f.hits.Load(); n != 1 {
			t.Errorf("%d: %d upstream calls, want 1", code, n)
		}
	}
}

// Timeout is the budget of the whole call: a hanging attempt uses it up
// instead of leaving room for retries, each as long again.
func TestHangingUpstreamAnswersWithinTimeout(t *testing.T) {
	t.Parallel()
	body := fordBody(t)
	synctest.Test(t, func(t *testing.T) {
		f := newPipeFake(t, sleepy(10*time.Second, serveJSON(body)))
		cfg := testConfig(f.URL)
		cfg.Timeout = 500 * time.Millisecond
		c := f.client(t, cfg, NewMemCache())
		start := time.Now()
		_, _, err := c.DecodeVIN(context.Background(), fordVIN)
		elapsed := time.Since(start)
		if !errors.Is(err, ErrUpstreamUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("err = %v, want ErrUpstreamUnavailable from the deadline", err)
		}
		if elapsed != cfg.Timeout {
			t.Errorf("answered after %v, want the 500ms budget, not the 10s hang", elapsed)
		}
		if n := f.hits.Load(); n != 1 {
			t.Errorf("%d attempts, want 1: the first one used the budget", n)
		}
	})
}

// Quick failures are retried, but only while the budget lasts.
func TestRetriesStopAtTimeout(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := newPipeFake(t, sleepy(100*time.Millisecond, status(http.StatusServiceUnavailable)))
		cfg := testConfig(f.URL)
		cfg.Timeout = time.Second
		cfg.Retries = 100 // 10s of attempts: only the budget can end the call early
		c := f.client(t, cfg, nil)
		start := time.Now()
		_, _, err := c.Recalls(context.Background(), "Ford", "F-150", 2020)
		elapsed := time.Since(start)
		if !errors.Is(err, ErrUpstreamUnavailable) {
			t.Fatalf("err = %v, want ErrUpstreamUnavailable", err)
		}
		if elapsed != cfg.Timeout {
			t.Errorf("answered after %v, want the 1s budget, not the 10s of retries", elapsed)
		}
		// Each attempt takes 100ms and a backoff of at most 40ms.
		if n := f.hits.Load(); n < 8 || n > 10 {
			t.Errorf("%d attempts of 100ms in a 1s budget, want 8 to 10", n)
		}
	})
}

// A caller that joins a fetch already under way waits no longer than its
// own budget, even when the fetch does not end, and still gets the stale
// entry when there is one.
func TestJoinedCallerAnswersByItsOwnDeadline(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		cache := NewMemCache()
		storedAt := time.Now().Add(-48 * time.Hour)
		_ = cache.PutCache(context.Background(), "k", []byte(`7`), storedAt)
		c := newTestClient(t, Config{Timeout: 300 * time.Millisecond}, cache)
		release := make(chan struct{})
		defer close(release)
		stuck := func(context.Context) (int, error) {
			<-release // ignores its context: a fetch that does not end
			return 1, nil
		}
		type answer struct {
			v       int
			meta    Meta
			err     error
			elapsed time.Duration
		}
		call := func(ctx context.Context) chan answer {
			ch := make(chan answer, 1)
			go func() {
				start := time.Now()
				v, meta, err := load(ctx, c, "test", "test", "k", stuck)
				ch <- answer{v, meta, err, time.Since(start)}
			}()
			return ch
		}
		first := call(context.Background())
		time.Sleep(150 * time.Millisecond)
		joined := call(context.Background())
		for name, ch := range map[string]chan answer{"first": first, "joined": joined} {
			a := <-ch // the fetch never ends: only the budget can answer
			if a.err != nil || a.v != 7 || !a.meta.Stale || !a.meta.FetchedAt.Equal(storedAt) {
				t.Errorf("%s caller: %d %+v %v, want the stale entry", name, a.v, a.meta, a.err)
			}
			if a.elapsed != 300*time.Millisecond {
				t.Errorf("%s caller answered after %v, want its 300ms budget", name, a.elapsed)
			}
		}
	})
}

func TestSlowButWithinTimeoutSucceeds(t *testing.T) {
	t.Parallel()
	body := fordBody(t)
	synctest.Test(t, func(t *testing.T) {
		f := newPipeFake(t, sleepy(150*time.Millisecond, serveJSON(body)))
		cfg := testConfig(f.URL)
		cfg.Timeout = time.Second
		c := f.client(t, cfg, NewMemCache())
		start := time.Now()
		got, _, err := c.DecodeVIN(context.Background(), fordVIN)
		if err != nil || deref(got.Make) != "FORD" || f.hits.Load() != 1 || time.Since(start) != 150*time.Millisecond {
			t.Errorf("make %v, err %v, hits %d after %v", deref(got.Make), err, f.hits.Load(), time.Since(start))
		}
	})
}

// A body that starts arriving but stalls is cut off by the same timeout.
func TestStalledBodyTimesOut(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := newPipeFake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"Count":1,"Results":[`))
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}))
		cfg := testConfig(f.URL)
		cfg.Timeout = 200 * time.Millisecond
		cfg.Retries = -1
		c := f.client(t, cfg, nil)
		start := time.Now()
		_, _, err := c.DecodeVIN(context.Background(), fordVIN)
		if !errors.Is(err, ErrUpstreamUnavailable) || time.Since(start) != cfg.Timeout {
			t.Errorf("err %v after %v, want the 200ms timeout", err, time.Since(start))
		}
		if f.hits.Load() != 1 {
			t.Errorf("Retries -1 should disable retries; %d attempts", f.hits.Load())
		}
	})
}

func TestMalformedJSONIsBadAndNotRetried(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"truncated": `{"Count":134,"Results":[{"Make":"FORD"`,
		"html":      `<!DOCTYPE html><html><body>Maintenance</body></html>`,
		"empty":     ``,
		"wrong":     `{"Count":1,"Results":"FORD"}`,
	} {
		t.Run(name, func(t *testing.T) {
			f := newFake(t, serveJSON([]byte(body)))
			cache := NewMemCache()
			c := newTestClient(t, testConfig(f.URL), cache)
			_, _, err := c.DecodeVIN(context.Background(), fordVIN)
			if !errors.Is(err, ErrUpstreamBad) {
				t.Fatalf("err = %v, want ErrUpstreamBad", err)
			}
			if errors.Is(err, ErrUpstreamUnavailable) {
				t.Error("error is both kinds")
			}
			if f.hits.Load() != 1 || len(cache.Keys()) != 0 {
				t.Errorf("hits %d, keys %q", f.hits.Load(), cache.Keys())
			}
		})
	}
}

func TestOversizedBodyIsBad(t *testing.T) {
	t.Parallel()
	big := append([]byte(`{"Results":[{"Make":"`), bytes.Repeat([]byte("A"), MaxBodyBytes)...)
	big = append(big, `"}]}`...)
	f := newFake(t, serveJSON(big))
	c := newTestClient(t, testConfig(f.URL), nil)
	_, _, err := c.DecodeVIN(context.Background(), fordVIN)
	if !errors.Is(err, ErrUpstreamBad) || f.hits.Load() != 1 {
		t.Errorf("err %v, hits %d", err, f.hits.Load())
	}
}

func TestConnectionRefused(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := newPipeFake(t, serveJSON(nil))
		f.Close()
		c := f.client(t, testConfig(f.URL), nil)
		_, _, err := c.Recalls(context.Background(), "Ford", "F-150", 2020)
		if !errors.Is(err, ErrUpstreamUnavailable) {
			t.Errorf("err = %v, want ErrUpstreamUnavailable", err)
		}
	})
}

func TestStaleEntryServedWhenUpstreamFails(t *testing.T) {
	t.Parallel()
	body := fordBody(t)
	for name, failing := range map[string]http.Handler{
		"error":   status(http.StatusServiceUnavailable),
		"bad":     serveJSON([]byte(`{"Results":[`)),
		"timeout": sleepy(5*time.Second, serveJSON(nil)),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				f := newPipeFake(t, serveJSON(body))
				cache := NewMemCache()
				cfg := testConfig(f.URL)
				cfg.Timeout = 200 * time.Millisecond
				cfg.CacheTTL = time.Hour
				obs := &observed{}
				cfg.Observer = obs
				c := f.client(t, cfg, cache)
				ctx := context.Background()
				if _, _, err := c.DecodeVIN(ctx, fordVIN); err != nil {
					t.Fatal(err)
				}
				// Age the entry past the TTL, then break the upstream.
				key := "vpic:decode:" + fordVIN
				raw, _, _, _ := cache.GetCache(ctx, key)
				storedAt := time.Now().Add(-3 * time.Hour)
				_ = cache.PutCache(ctx, key, raw, storedAt)
				f.set(failing)

				got, meta, err := c.DecodeVIN(ctx, fordVIN)
				if err != nil {
					t.Fatalf("err = %v, want the stale entry", err)
				}
				if !meta.Stale || !meta.FromCache || !meta.FetchedAt.Equal(storedAt) || meta.Warning() != StaleWarning {
					t.Errorf("meta %+v", meta)
				}
				if deref(got.Model) != "F-150" {
					t.Errorf("stale value %+v", got)
				}
				// The stale entry is kept as it was, not refreshed.
				if _, at, _, _ := cache.GetCache(ctx, key); !at.Equal(storedAt) {
					t.Errorf("stale entry rewritten at %v", at)
				}
				outcome := map[string]string{"error": OutcomeError, "bad": OutcomeError, "timeout": OutcomeTimeout}[name]
				want := []string{"vpic fetch ok", "vpic cached stale", "vpic fetch " + outcome}
				synctest.Wait() // a fetch that outlived its caller reports when it ends
				if got := obs.wait(len(want)); !slices.Equal(got, want) && !slices.Equal(got, []string{want[0], want[2], want[1]}) {
					t.Errorf("observed %q, want %q in some order", got, want)
				}
			})
		})
	}
}

func TestConcurrentCallsShareOneFetch(t *testing.T) {
	t.Parallel()
	body := fordBody(t)
	synctest.Test(t, func(t *testing.T) {
		f := newPipeFake(t, sleepy(200*time.Millisecond, serveJSON(body)))
		c := f.client(t, testConfig(f.URL), NewMemCache())
		const n = 50
		var wg sync.WaitGroup
		results := make([]VINResult, n)
		errs := make([]error, n)
		for i := range n {
			wg.Go(func() {
				results[i], _, errs[i] = c.DecodeVIN(context.Background(), fordVIN)
			})
		}
		wg.Wait()
		if hits := f.hits.Load(); hits != 1 {
			t.Errorf("%d upstream calls for %d concurrent requests, want 1", hits, n)
		}
		for i := range n {
			if errs[i] != nil || deref(results[i].Make) != "FORD" {
				t.Fatalf("call %d: %v %+v", i, errs[i], results[i])
			}
		}
		// Each caller gets its own copy: changing one cannot affect another.
		*results[0].Make = "CHANGED"
		results[0].ErrorCodes[0] = "X"
		if deref(results[1].Make) != "FORD" || results[1].ErrorCodes[0] != "0" {
			t.Error("callers share result memory")
		}
	})
}

func TestConcurrentFailuresShareOneFetch(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := newPipeFake(t, sleepy(50*time.Millisecond, status(http.StatusInternalServerError)))
		cfg := testConfig(f.URL)
		cfg.Retries = -1
		c := f.client(t, cfg, NewMemCache())
		var wg sync.WaitGroup
		for range 20 {
			wg.Go(func() {
				if _, _, err := c.Recalls(context.Background(), "Ford", "F-150", 2020); !errors.Is(err, ErrUpstreamUnavailable) {
					t.Errorf("err = %v", err)
				}
			})
		}
		wg.Wait()
		if hits := f.hits.Load(); hits != 1 {
			t.Errorf("%d upstream calls, want 1", hits)
		}
	})
}

// A caller that gives up gets its answer at once; the shared fetch goes on
// and fills the cache for the next caller. The upstream answers only once
// the caller has returned, so no clock decides whether it waited.
func TestCallerCancellation(t *testing.T) {
	t.Parallel()
	body := fordBody(t)
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		f := newPipeFake(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			<-release
			serveJSON(body).ServeHTTP(w, r)
		}))
		cache := NewMemCache()
		c := f.client(t, testConfig(f.URL), cache)
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, _, err := c.DecodeVIN(ctx, fordVIN)
		close(release)
		if !errors.Is(err, ErrUpstreamUnavailable) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v", err)
		}
		synctest.Wait() // the shared fetch has filled the cache
		if _, meta, err := c.DecodeVIN(context.Background(), fordVIN); err != nil || !meta.FromCache || f.hits.Load() != 1 {
			t.Errorf("after the abandoned fetch: meta %+v, err %v, hits %d", meta, err, f.hits.Load())
		}
	})
}

// brokenCache fails every operation; the client must still answer.
type brokenCache struct{}

func (brokenCache) GetCache(context.Context, string) ([]byte, time.Time, bool, error) {
	return nil, time.Time{}, false, errors.New("database is down")
}

func (brokenCache) PutCache(context.Context, string, []byte, time.Time) error {
	return errors.New("database is down")
}

func TestBrokenCacheDegradesToFetching(t *testing.T) {
	t.Parallel()
	f := newFake(t, serveJSON(fordBody(t)))
	c := newTestClient(t, testConfig(f.URL), brokenCache{})
	for range 2 {
		got, meta, err := c.DecodeVIN(context.Background(), fordVIN)
		if err != nil || deref(got.Make) != "FORD" || meta.FromCache {
			t.Fatalf("make %v, meta %+v, err %v", deref(got.Make), meta, err)
		}
	}
	if f.hits.Load() != 2 {
		t.Errorf("%d upstream calls, want 2", f.hits.Load())
	}
}

func TestUndecodableCacheEntryIsRefetched(t *testing.T) {
	t.Parallel()
	f := newFake(t, serveJSON(fordBody(t)))
	cache := NewMemCache()
	_ = cache.PutCache(context.Background(), "vpic:decode:"+fordVIN, []byte(`not json`), time.Now())
	c := newTestClient(t, testConfig(f.URL), cache)
	got, _, err := c.DecodeVIN(context.Background(), fordVIN)
	if err != nil || deref(got.Make) != "FORD" || f.hits.Load() != 1 {
		t.Errorf("make %v, err %v, hits %d", deref(got.Make), err, f.hits.Load())
	}
}

func TestConfigDefaults(t *testing.T) {
	t.Parallel()
	got := New(Config{VPICURL: "http://x/api/", Retries: -3}, nil, nil).Config()
	if got.VPICURL != "http://x/api" || got.NHTSAURL != DefaultNHTSAURL || got.Timeout != DefaultTimeout ||
		got.CacheTTL != 24*time.Hour || got.Retries != 0 || got.RetryWait != DefaultRetryWait || got.UserAgent == "" {
		t.Errorf("config %+v", got)
	}
	if d := New(Config{}, nil, nil).Config(); d.Retries != DefaultRetries || d.VPICURL != DefaultVPICURL {
		t.Errorf("defaults %+v", d)
	}
}

func TestErrorType(t *testing.T) {
	t.Parallel()
	cause := context.DeadlineExceeded
	err := error(unavailable(UpstreamNHTSA, 503, cause))
	if !errors.Is(err, ErrUpstreamUnavailable) || errors.Is(err, ErrUpstreamBad) || !errors.Is(err, cause) {
		t.Error("errors.Is")
	}
	if got := err.Error(); got != "nhtsa: upstream unavailable (HTTP 503): context deadline exceeded" {
		t.Errorf("message %q", got)
	}
	if !errors.Is(bad(UpstreamVPIC, 0, nil), ErrUpstreamBad) {
		t.Error("bad kind")
	}
}
