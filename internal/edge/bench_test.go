package edge_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/metrics"
)

// BenchmarkObserve is the cost Observe adds to a request (request id,
// context, access log line, metrics) with the access log on /dev/null, a
// real file, as vds serve writes it.
func BenchmarkObserve(b *testing.B) {
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer devNull.Close()
	for _, withMetrics := range []bool{false, true} {
		name := "log"
		if withMetrics {
			name = "log+metrics"
		}
		b.Run(name, func(b *testing.B) {
			al := edge.BufferedAccessLog(devNull, edge.JSONLines, slog.LevelInfo)
			defer al.Close()
			o := edge.Observer{Log: slog.New(slog.NewJSONHandler(devNull, nil)), Access: al}
			if withMetrics {
				o.Metrics = metrics.New()
			}
			mux := http.NewServeMux()
			mux.HandleFunc("GET /v1/cars", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "ok") })
			h := edge.Observe(o, mux)
			req := httptest.NewRequest(http.MethodGet, "/v1/cars?make=Toyota&api_key=secret", nil)
			b.ReportAllocs()
			for b.Loop() {
				h.ServeHTTP(httptest.NewRecorder(), req)
			}
		})
	}
}
