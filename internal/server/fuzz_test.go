package server_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
)

// fuzzRoutes are the routes that read the query string, and one that
// refuses any.
var fuzzRoutes = []string{"/v1/cars", "/v1/motorcycles", "/v1/boats", "/v1/tire-sizes", "/v1/cars/models", "/v1/me"}

// FuzzListQuery sends arbitrary raw query strings to the routes that read
// them, through the whole server with the demo catalog: the answer is
// never a 5xx, and is either a 200 JSON envelope or a problem document
// whose status and code agree.
func FuzzListQuery(f *testing.F) {
	h, token := newDemoServer(f)
	for _, seed := range []string{
		"make=Toyota", "make=Toyota&model=Camry;", "make=Toyota&model=Cam%zzry", "model=Cam%2", "%", "a;b",
		"make=Toy%00ota", "q=%ff%fe", "ma%01ke=x", "body=Truck", "body=suv&fuel_type=gas&drive_type=AWD",
		"fuel_type=petrol", "hull_type=alu&fuel_type=Gas", "motorcycle_type=utv+%2F+sxs", "tire_size=225/45R17",
		"make=Toyota&make=Honda", "make=Toyota&page=41", "year_min=2015&year_max=2024&per_page=5&page=2",
		"ev_only=maybe", "length_min=NaN", "hp_min=-1", "q=!!!", "=x&&&", "make=" + string(make([]byte, 300)),
	} {
		for i := range fuzzRoutes {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, route uint8, rawQuery string) {
		req := httptest.NewRequest(http.MethodGet, fuzzRoutes[int(route)%len(fuzzRoutes)], nil)
		req.URL.RawQuery = rawQuery
		req.Header.Set("Authorization", "Bearer "+token)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		ct := w.Header().Get("Content-Type")
		if w.Code >= 500 {
			t.Fatalf("%s?%q: %d %s", req.URL.Path, rawQuery, w.Code, w.Body)
		}
		if w.Code == http.StatusOK {
			var env struct {
				Data json.RawMessage `json:"data"`
			}
			if ct != "application/json" || json.Unmarshal(w.Body.Bytes(), &env) != nil || len(env.Data) == 0 {
				t.Fatalf("%s?%q: 200 %q without a JSON envelope: %s", req.URL.Path, rawQuery, ct, w.Body)
			}
			return
		}
		var p struct {
			Status int    `json:"status"`
			Code   string `json:"code"`
		}
		if ct != "application/problem+json" || json.Unmarshal(w.Body.Bytes(), &p) != nil || p.Status != w.Code || p.Code == "" {
			t.Fatalf("%s?%q: %d %q is not a problem document: %s", req.URL.Path, rawQuery, w.Code, ct, w.Body)
		}
	})
}
