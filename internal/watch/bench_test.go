package watch_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/watch"
)

// BenchmarkPassLoopback is one pass over VDS_WATCH_BENCH_VEHICLES (1,000
// by default) vehicles against a fake NHTSA on loopback answering in 50 ms,
// through the real client, in wall time, store included; it reports the
// most requests the fake saw at once. go test -bench PassLoopback -benchtime 1x
func BenchmarkPassLoopback(b *testing.B) {
	n := 1_000
	if v := os.Getenv("VDS_WATCH_BENCH_VEHICLES"); v != "" {
		fmt.Sscan(v, &n)
	}
	for _, backend := range []string{"sqlite", "postgres"} {
		b.Run(backend, func(b *testing.B) {
			var in, most atomic.Int64
			fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				now := in.Add(1)
				defer in.Add(-1)
				for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
				}
				time.Sleep(50 * time.Millisecond)
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, `{"Count":1,"Message":"Results returned successfully","results":[{"NHTSACampaignNumber":"20V001000","Component":"AIR BAGS","parkIt":false}]}`)
			}))
			defer fake.Close()
			for b.Loop() {
				b.StopTimer()
				st := storetest.Empty(b, backend)
				garage(b, st, n, 1)
				up := upstream.New(upstream.Config{NHTSAURL: fake.URL, Timeout: 10 * time.Second, CacheTTL: time.Hour}, st, nil)
				w := watch.New(st, nil, up, nil, nil, watch.Config{}, slog.New(slog.DiscardHandler))
				b.StartTimer()
				res, err := w.Pass(context.Background(), watch.PassOptions{})
				if err != nil || res.Checked != n {
					b.Fatalf("pass = %v, %v", res, err)
				}
			}
			b.ReportMetric(float64(most.Load()), "max-in-flight")
		})
	}
}
