package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
)

// TestDemoContract holds the demo to the interface specification's counts
// (562 cars, 341 motorcycles, 308 power boats, 584 tire fitments), read as a
// client reads them: ingested into a store, served, and counted through the
// API: each list's totals and every taxonomy and filter sum to them.
func TestDemoContract(t *testing.T) {
	h, token := newDemoServer(t)
	get := func(path string, v any) {
		t.Helper()
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, w.Code, w.Body)
		}
		if err := json.Unmarshal(w.Body.Bytes(), v); err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
	}
	total := func(base string, params ...string) int {
		t.Helper()
		q := url.Values{"per_page": {"1"}}
		for i := 0; i+1 < len(params); i += 2 {
			q.Set(params[i], params[i+1])
		}
		var page struct {
			Meta struct{ Total int } `json:"meta"`
		}
		get(base+"?"+q.Encode(), &page)
		return page.Meta.Total
	}
	type counted struct {
		Name        string `json:"name"`
		VehicleType string `json:"vehicle_type"`
		Count       int    `json:"count"`
	}
	counts := func(path string) []counted {
		t.Helper()
		var body struct{ Data []counted }
		get(path, &body)
		return body.Data
	}
	sum := func(cs []counted) (n int) {
		for _, c := range cs {
			n += c.Count
		}
		return n
	}
	// filterSum adds each value's filtered total.
	filterSum := func(base, param string, values []string) (n int) {
		for _, v := range values {
			n += total(base, param, v)
		}
		return n
	}
	// all adds the totals of ten-year windows: a list of every record is
	// refused as too broad.
	all := func(base string) (n int) {
		for y := 1980; y < 2040; y += 10 {
			n += total(base, "year_min", fmt.Sprint(y), "year_max", fmt.Sprint(y+9))
		}
		return n
	}
	check := func(what string, got, want int) {
		t.Helper()
		if got != want {
			t.Errorf("%s: %d, want %d", what, got, want)
		}
	}

	for _, tc := range []struct {
		base string
		want int
	}{{"/v1/cars", 562}, {"/v1/motorcycles", 341}, {"/v1/boats", 308}, {"/v1/tire-sizes", 584}} {
		check(tc.base+" by decade", all(tc.base), tc.want)
		makes := counts(tc.base + "/makes")
		check(tc.base+"/makes summed", sum(makes), tc.want)
		for _, mk := range makes {
			check(tc.base+"/models?make="+mk.Name+" summed", sum(counts(tc.base+"/models?make="+url.QueryEscape(mk.Name))), mk.Count)
			check(tc.base+"?make="+mk.Name, total(tc.base, "make", mk.Name), mk.Count)
		}
	}

	check("/v1/cars/body-types summed", sum(counts("/v1/cars/body-types")), 562)
	check("/v1/cars by fuel_type", filterSum("/v1/cars", "fuel_type", catalog.CarFuels), 562)
	check("/v1/cars by drive_type", filterSum("/v1/cars", "drive_type", catalog.Drives), 562)

	types := counts("/v1/motorcycles/types")
	check("/v1/motorcycles/types summed", sum(types), 341)
	byClass := map[string]int{}
	for _, ty := range types {
		check("/v1/motorcycles?motorcycle_type="+ty.Name, total("/v1/motorcycles", "motorcycle_type", ty.Name), ty.Count)
		byClass[ty.VehicleType] += ty.Count
	}
	for _, class := range catalog.VehicleClasses {
		check("/v1/motorcycles?vehicle_type="+class, total("/v1/motorcycles", "vehicle_type", class), byClass[class])
	}
	check("/v1/motorcycles by vehicle_type", filterSum("/v1/motorcycles", "vehicle_type", catalog.VehicleClasses), 341)

	hulls := counts("/v1/boats/hull-types")
	check("/v1/boats/hull-types summed", sum(hulls), 308)
	for _, h := range hulls {
		check("/v1/boats?hull_type="+h.Name, total("/v1/boats", "hull_type", h.Name), h.Count)
	}
	check("/v1/boats by fuel_type", filterSum("/v1/boats", "fuel_type", catalog.BoatFuels), 308)
}
