package edge_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/edge"
)

func TestObserve(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	al := edge.NewAccessLog(slog.NewJSONHandler(&logs, nil), nil)
	var seen string
	h := edge.Observe(edge.Observer{Log: slog.New(slog.DiscardHandler), Access: al}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = edge.RequestID(r.Context())
		r = r.WithContext(edge.WithPrincipal(r.Context(), &access.Principal{Account: account.Account{ID: "acc_7"}}))
		if r.URL.Path == "/panic" {
			panic("boom")
		}
		_, _ = io.WriteString(w, "hello")
	}))

	for id, kept := range map[string]bool{"req-1.a_B": true, "has space": false, strings.Repeat("a", 65): false, "": false} {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodGet, "/x", nil)
		r.Header.Set("X-Request-Id", id)
		h.ServeHTTP(w, r)
		got := w.Header().Get("X-Request-Id")
		if got != seen || (got == id) != kept || (!kept && len(got) != 24) {
			t.Errorf("X-Request-Id %q: answered %q, context %q", id, got, seen)
		}
	}
	al.Close()
	if !strings.Contains(logs.String(), `"account_id":"acc_7"`) || !strings.Contains(logs.String(), `"bytes":5`) {
		t.Errorf("access log lacks the account or size: %s", logs.String())
	}

	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/panic", nil))
	var p edge.Problem
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil || w.Code != 500 || p.Code != "internal_error" ||
		p.RequestID != w.Header().Get("X-Request-Id") || p.Instance != "/panic" {
		t.Errorf("panic: %d %s (%v)", w.Code, w.Body, err)
	}
}

func TestCompress(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("vds ", 100)
	h := edge.Compress(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "400")
		_, _ = io.WriteString(w, body)
	}))
	for accept, zipped := range map[string]bool{"gzip": true, "br, GZIP;q=0.5": true, "gzip;q=0": false, "": false, "identity": false, "zstd": false, "zstd, gzip": true} {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Accept-Encoding", accept)
		h.ServeHTTP(w, r)
		got := w.Body.String()
		if zipped {
			zr, err := gzip.NewReader(w.Body)
			if err != nil {
				t.Fatalf("%q: %v", accept, err)
			}
			b, _ := io.ReadAll(zr)
			got = string(b)
		}
		if got != body || (w.Header().Get("Content-Encoding") == "gzip") != zipped || w.Header().Get("Vary") != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: headers %v", accept, w.Header())
		}
	}
}

func TestBeforeStatus(t *testing.T) {
	t.Parallel()
	rec := httptest.NewRecorder()
	var calls []int
	w := edge.BeforeStatus(rec, func(status int) {
		calls = append(calls, status)
		rec.Header().Set("X-Hook", "ran")
	})
	_, _ = io.WriteString(w, "a")
	w.WriteHeader(http.StatusTeapot)
	if len(calls) != 1 || calls[0] != 200 || rec.Code != 200 || rec.Header().Get("X-Hook") != "ran" {
		t.Errorf("calls %v, status %d", calls, rec.Code)
	}
	if _, ok := w.(http.Flusher); ok {
		t.Error("BeforeStatus's writer is a Flusher: mcp-go would open event streams")
	}
}

// TestWriteCode: one encoding for every transport, HTML left unescaped,
// and server-side failures logged with the request id.
func TestWriteCode(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	h := edge.Observe(edge.Observer{Log: slog.New(slog.NewJSONHandler(&logs, nil))}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		code := r.URL.Query().Get("code")
		edge.WriteCode(w, r, code, "path", "Send <token> & retry.")
	}))
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodGet, "/v1/x?code=unauthorized", nil)
	r.Header.Set("X-Request-Id", "r1")
	h.ServeHTTP(w, r)
	want := `{"type":"urn:vds:problem:unauthorized","title":"Unauthorized","status":401,"detail":"Send <token> & retry.",` +
		`"instance":"/v1/x","code":"unauthorized","request_id":"r1","param":"path"}` + "\n"
	if w.Code != 401 || w.Body.String() != want || w.Header().Get("Content-Length") != strconv.Itoa(len(want)) {
		t.Errorf("got %d %q\nwant %q", w.Code, w.Body, want)
	}
	if strings.Contains(logs.String(), "request failed") {
		t.Errorf("a 401 was logged as a failure: %s", logs.String())
	}
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v1/x?code=upstream_unavailable", nil))
	if !strings.Contains(logs.String(), `"msg":"request failed","request_id":`) || !strings.Contains(logs.String(), `"code":"upstream_unavailable"`) {
		t.Errorf("a 503 was not logged: %s", logs.String())
	}
}

// unwrapping is a middleware's writer between Gzip and a handler.
type unwrapping struct{ http.ResponseWriter }

func (u unwrapping) Unwrap() http.ResponseWriter { return u.ResponseWriter }

// TestSendBody: behind Compress, a body compressed in advance goes out
// byte for byte with its length and coding, through writers that unwrap;
// Negotiated picks by q, zstd on a tie; a client that takes neither, or a
// HEAD, gets the plain body.
func TestSendBody(t *testing.T) {
	t.Parallel()
	body := []byte(strings.Repeat(`{"name":"Harley-Davidson","count":3}`, 50))
	pre := map[string][]byte{"": body, edge.CodingGzip: []byte("gzip bytes"), edge.CodingZstd: []byte("zstd bytes")}
	h := edge.Compress(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w = unwrapping{w}
		coding := edge.Negotiated(w)
		edge.SendBody(w, http.StatusOK, "application/json", edge.NewBody(pre[coding], coding))
	}))
	for _, c := range []struct {
		method, accept, coding string
	}{
		{"GET", "gzip", "gzip"}, {"GET", "identity", ""}, {"GET", "gzip, deflate, br, zstd", "zstd"},
		{"GET", "zstd;q=0.5, gzip", "gzip"}, {"GET", "zstd", "zstd"}, {"GET", "zstd;q=0, gzip;q=0", ""},
		{"HEAD", "zstd, gzip", ""},
	} {
		req := httptest.NewRequest(c.method, "/", nil)
		req.Header.Set("Accept-Encoding", c.accept)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		want := pre[c.coding]
		if c.method == "GET" && !bytes.Equal(w.Body.Bytes(), want) || w.Header().Get("Content-Encoding") != c.coding ||
			w.Header().Get("Content-Length") != strconv.Itoa(len(want)) {
			t.Errorf("%s Accept-Encoding %s: %d bytes (want %d), Content-Encoding %q (want %q), Content-Length %q",
				c.method, c.accept, w.Body.Len(), len(want), w.Header().Get("Content-Encoding"), c.coding, w.Header().Get("Content-Length"))
		}
	}
}
