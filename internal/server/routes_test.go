package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// countingMux counts the requests that reach its ServeHTTP.
type countingMux struct {
	*http.ServeMux
	served int
}

func (m *countingMux) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.served++
	m.ServeMux.ServeHTTP(w, r)
}

// TestLiteralPathsAnswerAsTheMux: for every request, literal or not, the
// table in front of the mux gives the answer the mux alone gives (status,
// body, redirect, the pattern Observe reads and the path values), and it
// answers the GETs of literal paths without the mux.
func TestLiteralPathsAnswerAsTheMux(t *testing.T) {
	t.Parallel()
	newMux := func() *http.ServeMux {
		mux := http.NewServeMux()
		for _, p := range []string{"GET /v1/cars", "GET /v1/cars/makes", "GET /v1/cars/{uuid}", "POST /v1/vins",
			"GET /v1/lists/", "GET /{$}", "/mcp", "/v1/", "GET /v1/cars/{uuid}/recalls"} {
			mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprintf(w, "%s|%s|%s", p, r.Pattern, r.PathValue("uuid"))
			})
		}
		return mux
	}
	patterns := []string{"GET /v1/cars", "GET /v1/cars/makes", "GET /v1/cars/{uuid}", "POST /v1/vins", "GET /v1/lists/",
		"GET /v1/cars/{uuid}/recalls", "GET /v1/absent"}
	plain := newMux()
	counted := &countingMux{ServeMux: newMux()}
	fast := literalPaths(counted, patterns)
	observe := func(h http.Handler, method, target string) string {
		r := httptest.NewRequest(method, target, nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return fmt.Sprintf("%d %q location=%q pattern=%q", w.Code, w.Body.String(), w.Header().Get("Location"), r.Pattern)
	}
	cases := []struct {
		method, target string
		literal        bool // answered from the table
	}{
		{"GET", "/v1/cars", true},
		{"GET", "/v1/cars?make=Toyota", true},
		{"GET", "/v1/cars/makes", true},
		{"GET", "/v1/cars/abc", false},
		{"GET", "/v1/cars/abc/recalls", false},
		{"GET", "/v1/cars/", false},
		{"GET", "/v1//cars", false},
		{"GET", "/v1/./cars", false},
		{"GET", "/v1/car%73", false},
		{"GET", "/v1%2Fcars", false},
		{"HEAD", "/v1/cars", false},
		{"POST", "/v1/cars", false},
		{"GET", "/v1/vins", false},
		{"POST", "/v1/vins", false},
		{"GET", "/v1/lists", false},
		{"GET", "/v1/lists/", false},
		{"GET", "/v1/absent", false},
		{"GET", "/mcp", false},
		{"GET", "/", false},
	}
	for _, c := range cases {
		before := counted.served
		got, want := observe(fast, c.method, c.target), observe(plain, c.method, c.target)
		if got != want {
			t.Errorf("%s %s: %s through the table, %s through the mux", c.method, c.target, got, want)
		}
		if byMux := counted.served > before; byMux == c.literal {
			t.Errorf("%s %s: answered by the mux %v, want %v", c.method, c.target, byMux, !c.literal)
		}
		if c.literal && !strings.Contains(got, "200") {
			t.Errorf("%s %s: %s, want a 200 from its route", c.method, c.target, got)
		}
	}
}
