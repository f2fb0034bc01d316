package e2e

import (
	"encoding/json"

	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type meBody struct {
	Data struct {
		Plan struct {
			Name string `json:"name"`
		} `json:"plan"`
		Quota struct {
			Limit     *int   `json:"limit"`
			Used      int64  `json:"used"`
			Remaining *int64 `json:"remaining"`
		} `json:"quota"`
	} `json:"data"`
}

type problemBody struct {
	Code       string `json:"code"`
	Detail     string `json:"detail"`
	Limit      string `json:"limit"`
	RetryAfter int    `json:"retry_after"`
	RequestID  string `json:"request_id"`
}

// hammer runs workers that call path until the server refuses with 429,
// and returns how many calls succeeded and which other statuses appeared.
func hammer(in *instance, token, path string, workers int) (int64, map[int]int) {
	var okCount atomic.Int64
	var mu sync.Mutex
	other := map[int]int{}
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				status, _, _ := in.get(token, path)
				switch status {
				case http.StatusOK:
					okCount.Add(1)
					continue
				case http.StatusTooManyRequests:
				default:
					mu.Lock()
					other[status]++
					mu.Unlock()
				}
				return
			}
		})
	}
	wg.Wait()
	return okCount.Load(), other
}

// hammerPatiently is hammer for clients that keep retrying 429s until they
// have been refused for patience in a row.
func hammerPatiently(in *instance, token, path string, workers int, patience time.Duration) int64 {
	var okCount atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			refusedSince := time.Time{}
			for {
				status, _, _ := in.get(token, path)
				switch {
				case status == http.StatusOK:
					okCount.Add(1)
					refusedSince = time.Time{}
				case refusedSince.IsZero():
					refusedSince = time.Now()
				case time.Since(refusedSince) > patience:
					return
				default:
					time.Sleep(50 * time.Millisecond)
				}
			}
		})
	}
	wg.Wait()
	return okCount.Load()
}

// TestQuotaExactAndDurable: 50 concurrent clients of a free account get
// exactly its 100 calls; /me reports 100 used, and still does after a
// restart, which also keeps refusing.
func TestQuotaExactAndDurable(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, e *env) {
		e.race = true
		// The free plan's quota with its rate limit lifted, so only the
		// quota stops the clients.
		e.writeConfig("plans:\n  free:\n    rate_per_minute: 0\n")
		e.vds("ingest")
		_, tok := e.newToken("free@example.com", "free")
		in := e.serve()

		ok, other := hammer(in, tok, "/v1/cars/makes", 50)
		if ok != 100 || len(other) != 0 {
			t.Fatalf("50 clients got %d successes (other statuses %v), want exactly 100", ok, other)
		}
		var me meBody
		in.getJSON(tok, "/v1/me", http.StatusOK, &me)
		if me.Data.Quota.Used != 100 || *me.Data.Quota.Remaining != 0 || *me.Data.Quota.Limit != 100 {
			t.Fatalf("/me quota = %+v, want 100 used of 100", me.Data.Quota)
		}
		status, h, body := in.get(tok, "/v1/cars/makes")
		var p problemBody
		_ = json.Unmarshal(body, &p)
		retry, _ := strconv.Atoi(h.Get("Retry-After"))
		if status != 429 || p.Code != "quota_exceeded" || p.Limit != "monthly_quota" || retry <= 0 || h.Get("X-Quota-Remaining") != "0" {
			t.Fatalf("after the quota: %d %+v Retry-After %q X-Quota-Remaining %q", status, p, h.Get("Retry-After"), h.Get("X-Quota-Remaining"))
		}

		in.stop()
		again := e.serve()
		in2 := meBody{}
		again.getJSON(tok, "/v1/me", http.StatusOK, &in2)
		if in2.Data.Quota.Used != 100 {
			t.Fatalf("after a restart /me reports %d used, want 100", in2.Data.Quota.Used)
		}
		if status, _, _ := again.get(tok, "/v1/cars/makes"); status != 429 {
			t.Fatalf("after a restart a call got %d, want 429", status)
		}
	})
}

// TestRateLimit: the free plan's 10 requests a minute, then 429 with
// Retry-After and a body that names the limit. Free endpoints count too.
func TestRateLimit(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "sqlite")
	e.vds("ingest")
	_, tok := e.newToken("rate@example.com", "free")
	in := e.serve()
	for i := range 10 {
		h := in.getJSON(tok, "/v1/boats/hull-types", http.StatusOK, nil)
		if got := h.Get("X-RateLimit-Remaining"); got != strconv.Itoa(9-i) {
			t.Fatalf("call %d: X-RateLimit-Remaining %q, want %d", i, got, 9-i)
		}
		if h.Get("X-RateLimit-Limit") != "10" || h.Get("X-Quota-Limit") != "100" || h.Get("RateLimit-Policy") == "" {
			t.Fatalf("limit headers missing: %v", h)
		}
	}
	status, h, body := in.get(tok, "/v1/me")
	var p problemBody
	_ = json.Unmarshal(body, &p)
	retry, _ := strconv.Atoi(h.Get("Retry-After"))
	if status != 429 || p.Code != "rate_limited" || p.Limit != "rate_per_minute" || retry < 1 || retry > 60 {
		t.Fatalf("11th call: %d %+v Retry-After %d", status, p, retry)
	}
}

// TestCatalogFollowsIngest: an ingest while the server runs is served
// within 5 seconds, without a restart.
func TestCatalogFollowsIngest(t *testing.T) {
	t.Parallel()
	backends(t, func(t *testing.T, e *env) {
		e.race = true // the reload swaps the catalog under requests
		e.vds("ingest")
		_, tok := e.newToken("dev@example.com", "developer")
		in := e.serve()
		path := "/v1/cars?make=Tesla&q=fleet"
		var page struct {
			Meta struct{ Total int } `json:"meta"`
		}
		in.getJSON(tok, path, http.StatusOK, &page)
		if page.Meta.Total != 0 {
			t.Fatalf("the fleet car exists before the ingest: %d", page.Meta.Total)
		}
		file := filepath.Join(e.dir, "cars-fleet.json")
		writeFile(t, file, `[{"make": "Tesla", "model": "Model 3", "year": 2024, "trim": "Fleet", "body": "Sedan",
			"fuel_type": "BATTERY ELECTRIC VEHICLE (BEV)", "drive_type": "RWD", "transmission": "Automatic (A1)"}]`)
		start := time.Now()
		e.vds("ingest", "--source", file, "--allow-removals")
		took := eventually(t, 5*time.Second, "new catalog served", func() bool {
			in.getJSON(tok, path, http.StatusOK, &page)
			return page.Meta.Total == 1
		})
		t.Logf("%s: new catalog served %v after the ingest returned (%v after it started)", e.backend, took, time.Since(start))
	})
}

// TestTwoReplicas: two servers on one PostgreSQL share revocations,
// catalog changes and the quota.
func TestTwoReplicas(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "postgres")
	e.race = true
	e.writeConfig("plans:\n  free:\n    rate_per_minute: 600\n")
	e.vds("ingest")
	devID, dev := e.newToken("dev@example.com", "developer")
	a, b := e.serve(), e.serve()
	for _, in := range []*instance{a, b} {
		in.getJSON(dev, "/v1/me", http.StatusOK, nil)
	}

	e.vds("tokens", "revoke", devID)
	start := time.Now()
	for name, in := range map[string]*instance{"A": a, "B": b} {
		took := eventually(t, 5*time.Second-time.Since(start), "revocation on replica "+name, func() bool {
			status, _, _ := in.get(dev, "/v1/me")
			return status == http.StatusUnauthorized
		})
		t.Logf("replica %s refused the revoked token after %v", name, took)
	}

	_, tok := e.newToken("ops@example.com", "developer")
	file := filepath.Join(e.dir, "boats-one.csv")
	writeFile(t, file, "make,model,year,model_type,length_ft,beam_ft,dry_weight_lbs,engine_count,hp,hull_type,fuel_type\n"+
		"Lund,1875 Crossover XS,2024,Bass Boat,18.8,7.9,1900,1,150,Aluminum,Gas\n")
	e.vds("ingest", "--source", file, "--allow-removals")
	for name, in := range map[string]*instance{"A": a, "B": b} {
		eventually(t, 5*time.Second, "catalog change on replica "+name, func() bool {
			var hulls struct {
				Data []struct {
					Name  string
					Count int
				}
			}
			in.getJSON(tok, "/v1/boats/hull-types", http.StatusOK, &hulls)
			counts := map[string]int{}
			for _, h := range hulls.Data {
				counts[h.Name] = h.Count
			}
			return counts["Aluminum"] == 1 && counts["Fiberglass"] == 0
		})
	}

	// Both replicas hammer one free account (quota 100, 600 a minute).
	// Clients retry a 429 for a while: units one replica leased and did not
	// use go back at its next flush and the other can then grant them.
	_, free := e.newToken("free@example.com", "free")
	var okA, okB int64
	var wg sync.WaitGroup
	wg.Go(func() { okA = hammerPatiently(a, free, "/v1/boats/makes", 10, 3*time.Second) })
	wg.Go(func() { okB = hammerPatiently(b, free, "/v1/boats/makes", 10, 3*time.Second) })
	wg.Wait()
	total := okA + okB
	t.Logf("two replicas admitted %d + %d = %d calls on a quota of 100", okA, okB, total)
	if total != 100 {
		t.Fatalf("two replicas admitted %d calls on a shared quota of 100, want exactly 100", total)
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
