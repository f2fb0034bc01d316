package server_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/nhtsafile"
	"github.com/vds-dev/vds/internal/nhtsafile/nhtsafiletest"
	"github.com/vds-dev/vds/internal/server"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
)

// bodyCacheHits reads vds_body_cache_hits_total from the server's /metrics.
func bodyCacheHits(t *testing.T, srv *server.Server) int {
	t.Helper()
	w := httptest.NewRecorder()
	server.Metrics(srv).ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	for line := range strings.Lines(w.Body.String()) {
		if v, ok := strings.CutPrefix(line, "vds_body_cache_hits_total "); ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no vds_body_cache_hits_total in %s", w.Body)
	return 0
}

// sendCoded asks path in coding ("" for none) and returns the answer and
// its body decoded.
func sendCoded(t *testing.T, h http.Handler, token, path, coding string) (*httptest.ResponseRecorder, []byte) {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	if coding != "" {
		req.Header.Set("Accept-Encoding", coding)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	if w.Code != http.StatusOK || w.Header().Get("Content-Encoding") != coding {
		t.Fatalf("%s in %q: %d, coding %q: %.300s", path, coding, w.Code, w.Header().Get("Content-Encoding"), w.Body)
	}
	var plain []byte
	var err error
	switch coding {
	case "gzip":
		var zr *gzip.Reader
		if zr, err = gzip.NewReader(bytes.NewReader(w.Body.Bytes())); err == nil {
			plain, err = io.ReadAll(zr)
		}
	case "zstd":
		var zr *zstd.Decoder
		if zr, err = zstd.NewReader(nil); err == nil {
			plain, err = zr.DecodeAll(w.Body.Bytes(), nil)
			zr.Close()
		}
	default:
		plain = w.Body.Bytes()
	}
	if err != nil {
		t.Fatalf("%s in %s: %v", path, coding, err)
	}
	return w, plain
}

func wrangler(c *catalog.Catalog, year int) string {
	for _, car := range c.Cars {
		if car.Make == "Jeep" && car.Model == "Wrangler" && car.Year == year {
			return car.UUID.String()
		}
	}
	return ""
}

// A repeated offline recall answer, car or motorcycle, comes from the
// answer cache: in every coding the same bytes as the first answer, which
// was rendered, and charged each time. Newly imported files change it at once.
func TestOfflineRecallAnswersKept(t *testing.T) {
	t.Parallel()
	r := newRecallRig(t, upstreamtest.New(t).URL, func(cfg *config.Config) {
		cfg.Plans["small"] = config.PlanLimits{APIAccess: true, MonthlyQuota: 1000}
	})
	h := r.srv.Handler()
	car := "/v1/cars/" + wrangler(r.c, 2020) + "/recalls"
	used := -1
	charged := func(w *httptest.ResponseRecorder) {
		t.Helper()
		n, err := strconv.Atoi(w.Header().Get("X-Quota-Used"))
		if err != nil || (used >= 0 && n != used+1) {
			t.Errorf("X-Quota-Used %q after %d: each answer is charged", w.Header().Get("X-Quota-Used"), used)
		}
		used = n
	}
	for _, path := range []string{car, "/v1/motorcycles/" + r.c.Motorcycles[0].UUID.String() + "/recalls"} {
		hits := bodyCacheHits(t, r.srv)
		w, rendered := sendCoded(t, h, r.token, path, "")
		charged(w)
		if n := bodyCacheHits(t, r.srv); n != hits || !bytes.Contains(rendered, []byte(`"recalls":[`)) {
			t.Fatalf("%s: the first answer was a cache hit (%d, %d), or %.200s", path, hits, n, rendered)
		}
		for _, coding := range []string{"", "gzip", "zstd"} {
			first, plain := sendCoded(t, h, r.token, path, coding)
			charged(first)
			hits = bodyCacheHits(t, r.srv)
			again, _ := sendCoded(t, h, r.token, path, coding)
			charged(again)
			if n := bodyCacheHits(t, r.srv); n != hits+1 {
				t.Errorf("%s in %q: a second identical request made %d cache hits, want 1", path, coding, n-hits)
			}
			if !bytes.Equal(plain, rendered) || !bytes.Equal(first.Body.Bytes(), again.Body.Bytes()) {
				t.Errorf("%s in %q: the kept answer differs from the rendered one:\n%.300s\n%.300s", path, coding, plain, rendered)
			}
		}
	}

	// A newer file revises a campaign's summary.
	_, before := sendCoded(t, h, r.token, car, "gzip")
	rows := nhtsafiletest.Captured(t, 2020)
	rows[0]["Summary"] = "Revised: " + rows[0]["Summary"].(string)
	var lines []string
	for i, row := range rows {
		lines = append(lines, nhtsafiletest.Line(i+1, row))
	}
	file := filepath.Join(t.TempDir(), "FLAT_RCL_POST_2010.txt")
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\r\n")+"\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := nhtsafile.Import(t.Context(), r.st, []string{file}, nhtsafile.Options{Now: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := server.ReloadRecalls(t.Context(), r.srv); err != nil {
		t.Fatal(err)
	}
	hits := bodyCacheHits(t, r.srv)
	_, after := sendCoded(t, h, r.token, car, "gzip")
	if bytes.Equal(after, before) || !bytes.Contains(after, []byte(`"summary":"Revised: `)) || bodyCacheHits(t, r.srv) != hits {
		t.Errorf("after a new import the answer was served from the cache: %.400s", after)
	}
}

// A car's recall answer is kept only with its ratings: fetched again, they
// make another key; stale, the answer (with its Warning) is not kept.
func TestOfflineRecallAnswerFollowsRatings(t *testing.T) {
	t.Parallel()
	fake := upstreamtest.New(t)
	r := newRecallRig(t, fake.URL, func(cfg *config.Config) { cfg.Upstream.CacheTTL = time.Nanosecond })
	h := r.srv.Handler()
	car := "/v1/cars/" + wrangler(r.c, 2020) + "/recalls"
	_, first := sendCoded(t, h, r.token, car, "")
	fetched := fake.Hits("/SafetyRatings/")
	_, second := sendCoded(t, h, r.token, car, "")
	if fake.Hits("/SafetyRatings/") == fetched || bodyCacheHits(t, r.srv) != 0 || !bytes.Equal(first, second) {
		t.Errorf("ratings fetched again (%d → %d NHTSA calls) kept the answer (%d cache hits)", fetched, fake.Hits("/SafetyRatings/"), bodyCacheHits(t, r.srv))
	}
	fake.SetMode(upstreamtest.Fail, 0)
	for range 2 {
		w, stale := sendCoded(t, h, r.token, car, "")
		if w.Header().Get("Warning") == "" || !bytes.Contains(stale, []byte(`"stale":true`)) || bodyCacheHits(t, r.srv) != 0 {
			t.Errorf("stale ratings: Warning %q, %d cache hits: %.300s", w.Header().Get("Warning"), bodyCacheHits(t, r.srv), stale)
		}
	}
}
