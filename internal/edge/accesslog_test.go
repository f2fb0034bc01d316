package edge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/vds-dev/vds/internal/edge"
)

// TestAccessLogLine checks a line's fields: the route, the problem code,
// the query with secrets redacted, and nothing of the Authorization header.
func TestAccessLogLine(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	al := edge.NewAccessLog(slog.NewJSONHandler(&logs, nil), nil)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/cars/{uuid}", func(w http.ResponseWriter, r *http.Request) {
		edge.WriteCode(w, r, edge.CodeUnauthorized, "", "no")
	})
	h := edge.Observe(edge.Observer{Access: al}, mux)
	req := httptest.NewRequest(http.MethodGet, "/v1/cars/abc?make=Ford&api_key=k1&Token=k2&q=vds_k3&password=k4&model=F%2D150&access%5Ftoken=k5&sig=k6&flag", nil)
	req.Header.Set("Authorization", "Bearer vds_k7")
	h.ServeHTTP(httptest.NewRecorder(), req)
	al.Close()
	var line map[string]any
	if err := json.Unmarshal(logs.Bytes(), &line); err != nil {
		t.Fatalf("%v: %s", err, logs.String())
	}
	want := map[string]any{"msg": "request", "method": "GET", "path": "/v1/cars/abc", "route": "GET /v1/cars/{uuid}", "status": 401.0,
		"code": "unauthorized", "account_id": "",
		"query": "make=Ford&api_key=REDACTED&Token=REDACTED&q=REDACTED&password=REDACTED&model=F%2D150&access%5Ftoken=REDACTED&sig=REDACTED&flag"}
	for k, v := range want {
		if line[k] != v {
			t.Errorf("%s = %v, want %v", k, line[k], v)
		}
	}
	if strings.Contains(logs.String(), "k7") || len(line["request_id"].(string)) != 24 || line["duration_ms"] == nil || line["bytes"] == nil {
		t.Errorf("line %s", logs.String())
	}
}

// blockingHandler holds the writer in its first line until released.
type blockingHandler struct {
	slog.Handler
	once    sync.Once
	entered chan struct{}
	release chan struct{}
}

func (b *blockingHandler) Handle(ctx context.Context, r slog.Record) error {
	b.once.Do(func() {
		close(b.entered)
		<-b.release
	})
	return b.Handler.Handle(ctx, r)
}

// TestAccessLogFull: requests never wait for a stuck writer; what the
// queue cannot hold is dropped and counted, the rest is written.
func TestAccessLogFull(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	bh := &blockingHandler{Handler: slog.NewJSONHandler(&logs, nil), entered: make(chan struct{}), release: make(chan struct{})}
	al := edge.NewAccessLog(bh, nil)
	h := edge.Observe(edge.Observer{Access: al}, http.NotFoundHandler())
	serve := func() { h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/x", nil)) }
	serve()
	<-bh.entered // the writer is stuck in the first line
	const more = edge.AccessLogQueue + 100
	for range more {
		serve()
	}
	if al.Dropped() < 100 {
		t.Errorf("dropped %d, want at least 100 of %d sent to a queue of %d", al.Dropped(), more, edge.AccessLogQueue)
	}
	close(bh.release)
	al.Close()
	if written := strings.Count(logs.String(), "\n"); uint64(written)+al.Dropped() != more+1 {
		t.Errorf("written %d + dropped %d, want %d", written, al.Dropped(), more+1)
	}
}

// TestBufferedAccessLog: lines reach the writer whole, by Close at the latest.
func TestBufferedAccessLog(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	al := edge.BufferedAccessLog(&out, edge.TextLines, slog.LevelInfo)
	h := edge.Observe(edge.Observer{Access: al}, http.NotFoundHandler())
	for range 3 {
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/y?b=2", nil))
	}
	al.Close()
	if n := strings.Count(out.String(), "method=GET path=/y query=\"b=2\" route=unmatched status=404"); n != 3 {
		t.Errorf("%d lines of 3:\n%s", n, out.String())
	}
}
