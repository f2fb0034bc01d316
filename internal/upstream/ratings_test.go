package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

// golf2019 is the published 2019 Volkswagen Golf answer quoted in SOURCES.md.
const golf2019 = `{"Count":1,"Message":"Results returned successfully","Results":[{
  "VehiclePicture":"https://static.nhtsa.gov/images/vehicles/13518_st0640_046.png",
  "OverallRating":"5","OverallFrontCrashRating":"4","FrontCrashDriversideRating":"5",
  "FrontCrashPassengersideRating":"4","OverallSideCrashRating":"5",
  "SideCrashDriversideRating":"5","SideCrashPassengersideRating":"5",
  "RolloverRating":"4","RolloverRating2":"Not Rated","RolloverPossibility":0.134,
  "RolloverPossibility2":0,"SidePoleCrashRating":"5",
  "NHTSAElectronicStabilityControl":"Standard","NHTSAForwardCollisionWarning":"Standard",
  "NHTSALaneDepartureWarning":"Optional","ComplaintsCount":52,"RecallsCount":3,
  "InvestigationCount":1,"ModelYear":2019,"Make":"VOLKSWAGEN","Model":"GOLF",
  "VehicleDescription":"2019 Volkswagen Golf 4 DR FWD","VehicleId":13679}]}`

// galantServer replays the 2015 ratings walk for the 1998 Mitsubishi Galant:
// three variants, the captured ratings for 3832 ("Not Rated" everywhere
// overall), an empty answer for 3834 and numeric stars for 3881.
func galantServer(t *testing.T) *fake { return newFake(t, galantMux(t)) }

func galantMux(t *testing.T) *http.ServeMux {
	trims := fixture(t, "nhtsa-webapi-2015-fixtures/safety_ratings__trims.json")
	ratings := fixture(t, "nhtsa-webapi-2015-fixtures/safety_ratings__ratings.json")
	mux := http.NewServeMux()
	mux.HandleFunc("GET /SafetyRatings/modelyear/1998/make/MITSUBISHI/model/GALANT", serveJSON(trims))
	mux.HandleFunc("GET /SafetyRatings/VehicleId/3832", serveJSON(ratings))
	mux.HandleFunc("GET /SafetyRatings/VehicleId/3834",
		serveJSON([]byte(`{"Count":0,"Message":"No results found for this request","Results":[]}`)))
	mux.HandleFunc("GET /SafetyRatings/VehicleId/3881", serveJSON([]byte(`{"Count":1,"Results":[{
		"OverallRating":4,"OverallFrontCrashRating":"5","OverallSideCrashRating":"",
		"RolloverRating":"7","VehicleDescription":"1998 Mitsubishi Galant 4-DR. VR-4","VehicleId":3881}]}`)))
	return mux
}

func TestSafetyRatingsWalk(t *testing.T) {
	t.Parallel()
	f := galantServer(t)
	c := newTestClient(t, testConfig(f.URL), NewMemCache())
	got, _, err := c.SafetyRatings(context.Background(), "MITSUBISHI", "GALANT", 1998)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	want := `[{"vehicle_id":3832,"description":"1998 Mitsubishi Galant 4-DR.","overall":null,"front":null,"side":null,"rollover":null},` +
		`{"vehicle_id":3834,"description":"1998 Mitsubishi Galant 4-DR. Station Wagon","overall":null,"front":null,"side":null,"rollover":null},` +
		`{"vehicle_id":3881,"description":"1998 Mitsubishi Galant 4-DR. VR-4","overall":4,"front":5,"side":null,"rollover":null}]`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	if n := f.hits.Load(); n != 4 {
		t.Errorf("%d upstream calls, want 1 + 3 variants", n)
	}
	// Cached as a whole: a second call is free.
	if _, meta, err := c.SafetyRatings(context.Background(), "mitsubishi", "galant", 1998); err != nil || !meta.FromCache {
		t.Errorf("second call: meta %+v, err %v", meta, err)
	}
	if n := f.hits.Load(); n != 4 {
		t.Errorf("%d upstream calls after a cached call, want 4", n)
	}
}

func TestSafetyRatingsDocumentedGolf(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /SafetyRatings/modelyear/2019/make/{make}/model/{model}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("make") != "Volkswagen" || r.PathValue("model") != "Golf GTI" {
			t.Errorf("path values %q %q", r.PathValue("make"), r.PathValue("model"))
		}
		serveJSON([]byte(`{"Count":2,"Results":[
			{"VehicleDescription":"2019 Volkswagen Golf 4 DR FWD","VehicleId":"13679"},
			{"VehicleDescription":"duplicate","VehicleId":13679},
			{"VehicleDescription":"menu entry","VehicleId":0}]}`))(w, r)
	})
	mux.HandleFunc("GET /SafetyRatings/VehicleId/13679", serveJSON([]byte(golf2019)))
	f := newFake(t, mux)
	c := newTestClient(t, testConfig(f.URL), nil)
	got, _, err := c.SafetyRatings(context.Background(), "Volkswagen", "Golf  GTI", 2019)
	if err != nil {
		t.Fatal(err)
	}
	want := []Rating{{VehicleID: 13679, Description: ptr("2019 Volkswagen Golf 4 DR FWD"),
		Overall: ptr(5), Front: ptr(4), Side: ptr(5), Rollover: ptr(4)}}
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(want)
	if string(gb) != string(wb) {
		t.Errorf("got  %s\nwant %s", gb, wb)
	}
	// The space in the model is escaped in the path, not sent raw.
	if reqs := f.requests(); !slices.Contains(reqs, "/SafetyRatings/modelyear/2019/make/Volkswagen/model/Golf%20GTI") {
		t.Errorf("requests %q", reqs)
	}
}

func TestSafetyRatingsUnknownVehicle(t *testing.T) {
	t.Parallel()
	f := newFake(t, serveJSON([]byte(`{"Count":0,"Message":"No results found for this request","Results":[]}`)))
	c := newTestClient(t, testConfig(f.URL), nil)
	got, _, err := c.SafetyRatings(context.Background(), "Nope", "Nada", 2020)
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || len(got) != 0 || f.hits.Load() != 1 {
		t.Errorf("got %v after %d calls", got, f.hits.Load())
	}
}

// One variant failing fails the walk, and nothing partial is cached.
func TestSafetyRatingsVariantFailure(t *testing.T) {
	t.Parallel()
	trims := fixture(t, "nhtsa-webapi-2015-fixtures/safety_ratings__trims.json")
	ratings := fixture(t, "nhtsa-webapi-2015-fixtures/safety_ratings__ratings.json")
	mux := http.NewServeMux()
	mux.HandleFunc("GET /SafetyRatings/modelyear/1998/make/MITSUBISHI/model/GALANT", serveJSON(trims))
	mux.HandleFunc("GET /SafetyRatings/VehicleId/{id}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("id") == "3834" {
			_, _ = w.Write([]byte(`{"Results":[{"OverallRating":`))
			return
		}
		serveJSON(ratings)(w, r)
	})
	f := newFake(t, mux)
	cache := NewMemCache()
	c := newTestClient(t, testConfig(f.URL), cache)
	_, _, err := c.SafetyRatings(context.Background(), "MITSUBISHI", "GALANT", 1998)
	if !errors.Is(err, ErrUpstreamBad) {
		t.Fatalf("err = %v, want ErrUpstreamBad", err)
	}
	if keys := cache.Keys(); len(keys) != 0 {
		t.Errorf("failure cached: %q", keys)
	}
}

// The walk of several requests shares one budget: steps that each fit the
// timeout do not add up beyond it.
func TestSafetyRatingsWalkFitsTimeout(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		f := newPipeFake(t, sleepy(300*time.Millisecond, galantMux(t)))
		cfg := testConfig(f.URL)
		cfg.Timeout = 500 * time.Millisecond
		cache := NewMemCache()
		c := f.client(t, cfg, cache)
		start := time.Now()
		_, _, err := c.SafetyRatings(context.Background(), "MITSUBISHI", "GALANT", 1998)
		elapsed := time.Since(start)
		if !errors.Is(err, ErrUpstreamUnavailable) {
			t.Fatalf("err = %v after %v, want ErrUpstreamUnavailable: two 300ms steps exceed 500ms", err, elapsed)
		}
		if elapsed != cfg.Timeout {
			t.Errorf("answered after %v, want the 500ms budget", elapsed)
		}
		if keys := cache.Keys(); len(keys) != 0 {
			t.Errorf("failure cached: %q", keys)
		}
	})
}
