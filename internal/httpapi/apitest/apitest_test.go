package apitest_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/httpapi"
	"github.com/vds-dev/vds/internal/httpapi/apitest"
)

// validator returns a validator of the real document.
func validator(t *testing.T) *apitest.Validator {
	t.Helper()
	doc, err := httpapi.BuildOpenAPI(httpapi.New(nil, nil, nil, nil, nil, nil, httpapi.Options{}).Routes())
	if err != nil {
		t.Fatal(err)
	}
	return apitest.NewValidator(t, doc)
}

var carID = uuid.MustParse("6f1c1d1e-52a3-5c55-9d7e-0b5a3f2c9e41")

// carJSON is a valid car record as a generic object, for cases to break.
func carJSON(t *testing.T) map[string]any {
	t.Helper()
	displ, cyl := 2.5, 4
	b, err := json.Marshal(catalog.Car{UUID: carID, Make: "Toyota", Model: "Camry", Year: 2022, Trim: "LE",
		Body: "Sedan", FuelType: catalog.FuelGasoline, DriveType: "FWD", Transmission: "Automatic",
		DisplacementL: catalog.Some(displ), Cylinders: catalog.Some(cyl), Engine: "2.5L 4-cyl"})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func okHeader() http.Header {
	return http.Header{
		"Content-Type":      {"application/json"},
		"X-Request-Id":      {"abc123"},
		"X-Ratelimit-Limit": {"300"},
		"X-Quota-Used":      {"7"},
		"Etag":              {`"v1-0123456789abcdef"`},
		"Cache-Control":     {"private, max-age=60"},
	}
}

func problemHeader() http.Header {
	return http.Header{"Content-Type": {"application/problem+json"}, "X-Request-Id": {"abc123"}}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func problem(status int, code string) map[string]any {
	return map[string]any{
		"type": "urn:vds:problem:" + code, "title": http.StatusText(status), "status": status,
		"detail": "something", "instance": "/v1/x", "code": code, "request_id": "abc123",
	}
}

func get(path string) *http.Request {
	return httptest.NewRequest(http.MethodGet, path, nil)
}

func TestValidate(t *testing.T) {
	v := validator(t)
	carPath := "/v1/cars/" + carID.String()
	with := func(m map[string]any, key string, val any) map[string]any {
		m[key] = val
		return m
	}
	header := func(h http.Header, key, val string) http.Header {
		if val == "" {
			h.Del(key)
		} else {
			h.Set(key, val)
		}
		return h
	}
	meta := map[string]any{"page": 1, "per_page": 10, "total": 1, "total_pages": 1, "max_page": 1, "truncated": false}
	cases := []struct {
		name   string
		req    *http.Request
		status int
		header http.Header
		body   any
		// wantErr is a fragment of the expected error; "" means valid.
		wantErr string
	}{
		{"valid car", get(carPath), 200, okHeader(), map[string]any{"data": carJSON(t)}, ""},
		{"valid car, absolute URL", get("http://127.0.0.1:8080/v1/cars/" + carID.String()), 200, okHeader(), map[string]any{"data": carJSON(t)}, ""},
		{"car missing uuid", get(carPath), 200, okHeader(), map[string]any{"data": without(carJSON(t), "uuid")}, "uuid"},
		{"car with an undocumented field", get(carPath), 200, okHeader(), map[string]any{"data": with(carJSON(t), "colour", "red")}, "colour"},
		{"car field of the wrong type", get(carPath), 200, okHeader(), map[string]any{"data": with(carJSON(t), "year", "2022")}, "year"},
		{"car uuid that is not a UUID", get(carPath), 200, okHeader(), map[string]any{"data": with(carJSON(t), "uuid", "car-1")}, "uuid"},
		{"null where a number may be null", get(carPath), 200, okHeader(), map[string]any{"data": with(carJSON(t), "mpg_city", nil)}, ""},
		{"null where null is not allowed", get(carPath), 200, okHeader(), map[string]any{"data": with(carJSON(t), "make", nil)}, "make"},
		{"single record with meta", get(carPath), 200, okHeader(), map[string]any{"data": carJSON(t), "meta": meta}, "meta"},
		{"valid page", get("/v1/cars?make=Toyota"), 200, okHeader(), map[string]any{"data": []any{carJSON(t)}, "meta": meta}, ""},
		{"page without meta", get("/v1/cars?make=Toyota"), 200, okHeader(), map[string]any{"data": []any{carJSON(t)}}, "meta"},
		{"page of the wrong record type", get("/v1/boats?make=Toyota"), 200, okHeader(), map[string]any{"data": []any{carJSON(t)}, "meta": meta}, "body"},
		{"missing X-Request-Id", get(carPath), 200, header(okHeader(), "X-Request-Id", ""), map[string]any{"data": carJSON(t)}, "X-Request-Id"},
		{"missing ETag", get(carPath), 200, header(okHeader(), "Etag", ""), map[string]any{"data": carJSON(t)}, "ETag"},
		{"malformed ETag", get(carPath), 200, header(okHeader(), "Etag", "v1-abc"), map[string]any{"data": carJSON(t)}, "ETag"},
		{"limit header not a number", get(carPath), 200, header(okHeader(), "X-Quota-Used", "many"), map[string]any{"data": carJSON(t)}, "X-Quota-Used"},
		{"undocumented status", get(carPath), http.StatusTeapot, problemHeader(), problem(418, "teapot"), "status is not supported"},
		{"404 where the operation has none", get("/v1/cars/makes"), 404, problemHeader(), problem(404, "not_found"), "status is not supported"},
		{"wrong content type", get(carPath), 200, header(okHeader(), "Content-Type", "text/plain"), map[string]any{"data": carJSON(t)}, "Content-Type"},
		{"valid 404", get(carPath), 404, problemHeader(), problem(404, "not_found"), ""},
		{"problem as application/json", get(carPath), 404, header(problemHeader(), "Content-Type", "application/json"), problem(404, "not_found"), "Content-Type"},
		{"problem code of another status", get(carPath), 400, problemHeader(), problem(400, "not_found"), "code"},
		{"problem code the operation does not give", get("/v1/cars/makes"), 400, problemHeader(), problem(400, "invalid_uuid"), "code"},
		{"problem status disagreeing with the response", get(carPath), 400, problemHeader(), problem(404, "invalid_uuid"), "status"},
		{"problem without request_id", get(carPath), 404, problemHeader(), without(problem(404, "not_found"), "request_id"), "request_id"},
		{"problem with an optional field", get("/v1/cars?x=1"), 400, problemHeader(),
			with(with(problem(400, "unknown_parameter"), "param", "x"), "accepted", []string{"make"}), ""},
		{"401 with WWW-Authenticate", get(carPath), 401, header(problemHeader(), "WWW-Authenticate", `Bearer realm="vds"`), problem(401, "unauthorized"), ""},
		{"401 without WWW-Authenticate", get(carPath), 401, problemHeader(), problem(401, "unauthorized"), "WWW-Authenticate"},
		{"429 without Retry-After", get(carPath), 429, problemHeader(), problem(429, "rate_limited"), "Retry-After"},
		{"429 with Retry-After", get(carPath), 429, header(problemHeader(), "Retry-After", "12"),
			with(with(with(problem(429, "rate_limited"), "limit", "rate_per_minute"), "reset", "2026-11-21T10:00:00Z"), "retry_after", 12), ""},
		{"unknown /v1 path, 404", get("/v1/trucks"), 404, problemHeader(), problem(404, "not_found"), ""},
		{"unknown /v1 path, 200", get("/v1/trucks"), 200, okHeader(), map[string]any{"data": []any{}}, "status is not supported"},
		{"unknown /v1 path, bad problem", get("/v1/trucks"), 404, problemHeader(), with(problem(404, "not_found"), "extra", 1), "extra"},
		{"405 with Allow", httptest.NewRequest(http.MethodPost, "/v1/cars", nil), 405, header(problemHeader(), "Allow", "GET, HEAD"), problem(405, "method_not_allowed"), ""},
		{"405 without Allow", httptest.NewRequest(http.MethodDelete, "/v1/me", nil), 405, problemHeader(), problem(405, "method_not_allowed"), "Allow"},
		{"HEAD checks headers", httptest.NewRequest(http.MethodHead, carPath, nil), 200, header(okHeader(), "X-Request-Id", ""), nil, "X-Request-Id"},
		{"HEAD has no body", httptest.NewRequest(http.MethodHead, carPath, nil), 200, okHeader(), nil, ""},
		{"outside the API", get("/healthz"), 200, http.Header{"Content-Type": {"application/json"}}, map[string]any{"status": "ok"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var body []byte
			if c.body != nil {
				body = mustJSON(t, c.body)
			}
			err := v.Validate(c.req, c.status, c.header, body)
			switch {
			case c.wantErr == "" && err != nil:
				t.Fatalf("valid response rejected: %v", err)
			case c.wantErr != "" && err == nil:
				t.Fatal("invalid response accepted")
			case c.wantErr != "" && !strings.Contains(err.Error(), c.wantErr):
				t.Fatalf("error does not mention %q: %v", c.wantErr, err)
			}
		})
	}
}

// recorder is a testing.TB that records reported errors instead of failing.
type recorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	panic("Fatalf")
}

func TestCheckReports(t *testing.T) {
	v := validator(t)
	rec := &recorder{TB: t}
	v.Check(rec, get("/v1/cars/"+carID.String()), 200, okHeader(), mustJSON(t, map[string]any{"data": carJSON(t)}))
	if len(rec.errs) != 0 {
		t.Fatalf("valid response reported: %v", rec.errs)
	}
	v.Check(rec, get("/v1/cars/"+carID.String()), 500, okHeader(), []byte(`{"data":{}}`))
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "GET /v1/cars/") {
		t.Fatalf("invalid response reported as %v", rec.errs)
	}
}

func TestNewValidatorRejectsBadDocuments(t *testing.T) {
	for name, doc := range map[string]string{
		"not JSON":         `{`,
		"invalid":          `{"openapi":"3.1.0","info":{"title":"x"},"paths":{}}`,
		"no shared errors": `{"openapi":"3.1.0","info":{"title":"x","version":"1"},"paths":{}}`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := apitest.New([]byte(doc)); err == nil {
				t.Fatal("accepted")
			}
		})
	}
}

// TestTransport: responses passing through the transport are checked, and
// the client still reads the whole body, gzip included.
func TestTransport(t *testing.T) {
	v := validator(t)
	good := mustJSON(t, map[string]any{"data": carJSON(t)})
	bad := mustJSON(t, map[string]any{"data": without(carJSON(t), "uuid")})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, vs := range okHeader() {
			w.Header()[k] = vs
		}
		body := good
		if r.URL.Query().Get("bad") != "" {
			body = bad
		}
		if r.Header.Get("Accept-Encoding") == "gzip" {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			_, _ = zw.Write(body)
			_ = zw.Close()
			body = buf.Bytes()
			w.Header().Set("Content-Encoding", "gzip")
		}
		// The route is /v1/cars/{uuid}; the query string is not part of it.
		_, _ = w.Write(body)
	}))
	defer srv.Close()

	for _, c := range []struct {
		name       string
		query      string
		gzip       bool
		wantErrors int
		want       []byte
	}{
		{"valid", "", false, 0, good},
		{"invalid", "?bad=1", false, 1, bad},
		{"valid gzip", "", true, 0, nil},
		{"invalid gzip", "?bad=1", true, 1, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := &recorder{TB: t}
			client := &http.Client{Transport: v.Transport(rec, nil)}
			req, _ := http.NewRequest(http.MethodGet, srv.URL+"/v1/cars/"+carID.String()+c.query, nil)
			if c.gzip {
				req.Header.Set("Accept-Encoding", "gzip")
			}
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if len(rec.errs) != c.wantErrors {
				t.Fatalf("%d errors reported, want %d: %v", len(rec.errs), c.wantErrors, rec.errs)
			}
			if c.want != nil && !bytes.Equal(got, c.want) {
				t.Fatalf("client read %q, want the body unchanged", got)
			}
			if c.gzip && resp.Header.Get("Content-Encoding") != "gzip" {
				t.Fatal("the transport changed the response's encoding")
			}
		})
	}
}

// without deletes key from m and returns m.
func without(m map[string]any, key string) map[string]any {
	delete(m, key)
	return m
}
