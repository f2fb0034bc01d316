package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/access/accesstest"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
	"github.com/vds-dev/vds/internal/vpic"
	"github.com/vds-dev/vds/internal/vpic/vpictest"
)

// offlineServer is a server decoding by mode from a snapshot of Ford's 1FT
// schemas, whose NHTSA address is a port nothing listens on; its one
// account is on a plan of quota monthly calls.
func offlineServer(t *testing.T, mode string, quota int) (http.Handler, string) {
	t.Helper()
	return offlineServerOn(t, openStore(t), mode, quota, "1FT")
}

// offlineServerOn is offlineServer on st with the schemas of wmis.
func offlineServerOn(t *testing.T, st store.Store, mode string, quota int, wmis ...string) (http.Handler, string) {
	t.Helper()
	ctx := context.Background()
	cfg := &config.Config{Plans: map[string]config.PlanLimits{"small": {APIAccess: true, RatePerMinute: 100, MonthlyQuota: quota}}}
	cfg.Upstream = config.Upstream{VPICURL: "http://127.0.0.1:1", NHTSAURL: "http://127.0.0.1:1", Timeout: time.Second, CacheTTL: time.Hour}
	cfg.VIN.Decoder = mode
	log := slog.New(slog.DiscardHandler)
	if _, err := server.New(ctx, cfg, st, log); mode == "offline" && !errors.Is(err, vpic.ErrNoSnapshot) {
		t.Fatalf("offline without a snapshot: got %v, want ErrNoSnapshot", err)
	}
	if _, err := vpic.Import(ctx, st, vpictest.Cut(t, wmis...), time.Now()); err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(ctx, cfg, st, log)
	if err != nil {
		t.Fatal(err)
	}
	token := accesstest.Create(t, access.New(st, cfg.Plan, cfg.PlanNames()), map[string]string{"dev": "small"})["dev"].Token
	return srv.Handler(), token
}

func get(t *testing.T, h http.Handler, token, path string, v any) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if err := json.Unmarshal(w.Body.Bytes(), v); err != nil {
		t.Fatalf("%s: %v: %s", path, err, w.Body)
	}
	return w
}

type vinReport struct {
	VIN, Make, Model, Source, Body string
	Year                           int
	Error                          *struct{ Code, Detail string }
}

// With vin.decoder offline the server decodes from the imported snapshot
// and never needs NHTSA; a VIN it cannot place keeps its local checks.
func TestOfflineVINDecoding(t *testing.T) {
	t.Parallel()
	h, token := offlineServer(t, "offline", 100)
	var ready struct {
		Status     string
		VINDecoder string `json:"vin_decoder"`
	}
	if w := get(t, h, "", "/readyz", &ready); w.Code != http.StatusOK || ready.VINDecoder != "vPIC snapshot 2026-02-17" {
		t.Errorf("/readyz: %d %s", w.Code, w.Body)
	}
	var body struct{ Data vinReport }
	if w := get(t, h, token, "/v1/vin/"+upstreamtest.KnownVIN, &body); w.Code != http.StatusOK {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if d := body.Data; d.Make != "Ford" || d.Model != "F-150" || d.Year != 2021 || d.Body != "Pickup" || d.Source != "vPIC snapshot 2026-02-17" {
		t.Errorf("got %+v", d)
	}

	var problem struct {
		Code       string
		CheckDigit *struct{ Expected, Found string } `json:"check_digit"`
		WMI        *struct{ Code, Country string }
		Years      []int `json:"model_year_candidates"`
	}
	w := get(t, h, token, "/v1/vin/ZZZZZZZZZMZ000001", &problem)
	if w.Code != http.StatusUnprocessableEntity || problem.Code != "vin_not_decodable" {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if problem.CheckDigit == nil || problem.CheckDigit.Found != "Z" || problem.WMI == nil || problem.WMI.Code != "ZZZ" || len(problem.Years) != 2 || problem.Years[0] != 2021 {
		t.Errorf("the problem lacks the local checks: %s", w.Body)
	}
}

// A batch answers one entry per VIN in order and charges only the VINs it
// decodes, once each; when the quota runs out part-way the rest say so, and
// a VIN that costs nothing never holds a unit (red-team R7).
// In auto mode the snapshot is loaded before the first request, so none
// goes to NHTSA (unreachable here).
func TestVINBatch(t *testing.T) {
	t.Parallel()
	h, token := offlineServer(t, "auto", 5)
	ford := func(serial string) string { return upstreamtest.KnownVIN[:11] + serial }
	batch := func(vins ...string) string {
		q := url.Values{"vin": vins}
		return "/v1/vins?" + q.Encode()
	}
	var body struct{ Data []vinReport }

	w := get(t, h, token, batch(ford("000001"), "not-a-vin", "ZZZZZZZZZZZZZZZZZ", strings.ToLower(ford("000001")), ford("000002")), &body)
	if w.Code != http.StatusOK || len(body.Data) != 5 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	d := body.Data
	if d[0].Make != "Ford" || d[0].Model != "F-150" || d[0].Year != 2021 || d[3].VIN != d[0].VIN || d[3].Model != "F-150" || d[4].VIN != ford("000002") {
		t.Errorf("decoded entries: %s", w.Body)
	}
	if d[1].Error == nil || d[1].Error.Code != "invalid_vin" || d[1].VIN != "NOT-A-VIN" || d[2].Error == nil || d[2].Error.Code != "vin_not_decodable" {
		t.Errorf("failed entries: %s", w.Body)
	}
	if used := w.Header().Get("X-Quota-Used"); used != "2" {
		t.Errorf("X-Quota-Used %s after two distinct decoded VINs, want 2", used)
	}

	// An undecodable VIN costs nothing, so it never holds a unit: the last
	// one goes to the decodable VIN after it.
	w = get(t, h, token, batch(ford("000003"), ford("000004"), "ZZZZZZZZZZZZZZZZZ", ford("000005"), ford("000006")), &body)
	if w.Code != http.StatusOK || len(body.Data) != 5 {
		t.Fatalf("status %d: %s", w.Code, w.Body)
	}
	if d := body.Data; d[2].Error == nil || d[2].Error.Code != "vin_not_decodable" || d[3].Model != "F-150" ||
		d[4].Error == nil || d[4].Error.Code != "quota_exceeded" || d[4].VIN != ford("000006") {
		t.Errorf("the quota ran out after 3: %s", w.Body)
	}
	if used, left := w.Header().Get("X-Quota-Used"), w.Header().Get("X-Quota-Remaining"); used != "5" || left != "0" {
		t.Errorf("X-Quota-Used %s, X-Quota-Remaining %s, want 5 and 0", used, left)
	}

	var problem struct{ Code string }
	if w = get(t, h, token, batch(ford("000007")), &problem); w.Code != http.StatusTooManyRequests || problem.Code != "quota_exceeded" {
		t.Errorf("a batch with no quota left: status %d: %s", w.Code, w.Body)
	}
	// Invalid VINs cost nothing, so they are answered with no quota left.
	if w = get(t, h, token, batch("1FTMW1T88"), &body); w.Code != http.StatusOK || body.Data[0].Error == nil || body.Data[0].Error.Code != "invalid_vin" {
		t.Errorf("a batch of invalid VINs: status %d: %s", w.Code, w.Body)
	}
}

// TestVINBatchRace: batches that each hold an undecodable VIN and a
// decodable one race for the last units on a real server. Exactly the
// quota is decoded and charged: no unit is lost to a VIN that cost nothing,
// and none is spent twice.
func TestVINBatchRace(t *testing.T) {
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		const quota, batches = 4, 16
		h, token := offlineServerOn(t, st, "offline", quota, "1FT")
		ts := httptest.NewServer(h)
		defer ts.Close()
		var decoded, refused atomic.Int64
		var wg sync.WaitGroup
		for i := range batches {
			wg.Go(func() {
				q := url.Values{"vin": {"ZZZZZZZZZZZZZZZZZ", fmt.Sprintf("%s%06d", upstreamtest.KnownVIN[:11], i), "1FTMW1T88"}}
				resp, err := http.DefaultClient.Do(newRequest(t, http.MethodGet, ts.URL+"/v1/vins?"+q.Encode(), token, ""))
				if err != nil {
					t.Error(err)
					return
				}
				defer resp.Body.Close()
				var body struct {
					Code string
					Data []vinReport
				}
				if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
					t.Error(err)
					return
				}
				switch {
				case resp.StatusCode == http.StatusTooManyRequests && body.Code == "quota_exceeded":
					refused.Add(1)
				case resp.StatusCode != http.StatusOK || len(body.Data) != 3 || body.Data[0].Error == nil || body.Data[0].Error.Code != "vin_not_decodable":
					t.Errorf("batch %d: %d %+v", i, resp.StatusCode, body)
				case body.Data[1].Error == nil:
					decoded.Add(1)
				case body.Data[1].Error.Code == "quota_exceeded":
					refused.Add(1)
				default:
					t.Errorf("batch %d: %+v", i, body.Data[1])
				}
			})
		}
		wg.Wait()
		var me struct{}
		w := get(t, h, token, "/v1/me", &me)
		if decoded.Load() != quota || refused.Load() != batches-quota || w.Header().Get("X-Quota-Used") != strconv.Itoa(quota) {
			t.Fatalf("%d batches on a quota of %d: %d decoded, %d refused, X-Quota-Used %s", batches, quota, decoded.Load(), refused.Load(), w.Header().Get("X-Quota-Used"))
		}
	})
}
