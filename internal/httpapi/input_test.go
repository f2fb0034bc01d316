package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
)

// problemBody is the part of a problem document these tests read.
type problemBody struct {
	Status         int      `json:"status"`
	Code           string   `json:"code"`
	Detail         string   `json:"detail"`
	Param          string   `json:"param"`
	RequestID      string   `json:"request_id"`
	AcceptedValues []string `json:"accepted_values"`
	Suggestion     string   `json:"suggestion"`
}

// getRaw sends path exactly as written (no client-side re-encoding) with
// dev's token and returns the response, its body left readable, and its
// decoded problem, if any.
func (f *fixture) getRaw(t *testing.T, path string) (*http.Response, problemBody) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, f.url+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	path, rawQuery, _ := strings.Cut(path, "?")
	req.URL.Opaque, req.URL.RawQuery = path, rawQuery
	req.Header.Set("Authorization", "Bearer "+f.tokens["dev"])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	var p problemBody
	if resp.StatusCode != http.StatusOK {
		if ct := resp.Header.Get("Content-Type"); ct != "application/problem+json" {
			t.Fatalf("GET %s: %d with Content-Type %q: %s", path, resp.StatusCode, ct, body)
		}
		if err := json.Unmarshal(body, &p); err != nil {
			t.Fatalf("GET %s: %v: %s", path, err, body)
		}
	}
	return resp, p
}

// quotaUsed is dev's X-Quota-Used, read from /v1/me (which is free).
func (f *fixture) quotaUsed(t *testing.T) string {
	t.Helper()
	resp, _ := f.getRaw(t, "/v1/me")
	if resp.Header.Get("X-Quota-Used") == "" {
		t.Fatal("/v1/me sent no X-Quota-Used")
	}
	return resp.Header.Get("X-Quota-Used")
}

// TestMalformedQueryPairsRefused: a pair Go cannot parse used to be dropped,
// so ?make=Toyota&model=Camry; answered every Toyota (charged, with a Link
// to the wider query). Every route refuses it, naming the pair, uncharged.
func TestMalformedQueryPairsRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	before := f.quotaUsed(t)
	for _, tc := range []struct{ path, pair string }{
		{"/v1/cars?make=Toyota&model=Camry;", `"model=Camry;"`},
		{"/v1/cars?make=Toyota&model=Cam%zzry", `"model=Cam%zzry"`},
		{"/v1/cars?make=Toyota&model=Cam%2", `"model=Cam%2"`},
		{"/v1/boats?ma%zke=Sea+Ray", `"ma%zke=Sea+Ray"`},
		{"/v1/cars/models?make=Toyota;x=1", `"make=Toyota;x=1"`},
		{"/v1/cars/makes?a;b", `"a;b"`},
		{"/v1/me?%", `"%"`},
	} {
		resp, p := f.getRaw(t, tc.path)
		if resp.StatusCode != http.StatusBadRequest || p.Code != "invalid_parameter" || !strings.Contains(p.Detail, tc.pair) {
			t.Errorf("GET %s: %d %s %q, want 400 invalid_parameter naming %s", tc.path, resp.StatusCode, p.Code, p.Detail, tc.pair)
		}
		if link := resp.Header.Get("Link"); link != "" {
			t.Errorf("GET %s: Link %q on an error", tc.path, link)
		}
	}
	if after := f.quotaUsed(t); after != before {
		t.Errorf("quota used went from %s to %s: malformed queries were charged", before, after)
	}
	// A pair that parses still answers, and the one that did not, when fixed, narrows.
	if resp, _ := f.getRaw(t, "/v1/cars?make=Toyota&model=Camry"); resp.StatusCode != http.StatusOK {
		t.Errorf("the well-formed query: %d", resp.StatusCode)
	}
}

// TestControlCharactersInQueryAndPath: NUL bytes, control characters and
// invalid UTF-8 in a query name or value, or in a path segment, are a 400
// naming the parameter; they never reach a store or an index.
func TestControlCharactersInQueryAndPath(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, tc := range []struct{ path, param, detail string }{
		{"/v1/cars?make=Toy%00ota", "make", "control character U+0000"},
		{"/v1/cars?make=Toyota&model=%1b%5b31m", "model", "control character U+001B"},
		{"/v1/cars?q=cam%0Ary", "q", "control character U+000A"},
		{"/v1/boats?make=%ff%fe", "make", "invalid UTF-8"},
		{"/v1/cars/models?make=%C3", "make", "invalid UTF-8"},
		{"/v1/cars?ma%00ke=Toyota", "ma\x00ke", "control character U+0000"},
		{"/v1/cars/%00abc", "path", "control character U+0000"},
		{"/v1/vin/%ff%ff", "path", "invalid UTF-8"},
	} {
		resp, p := f.getRaw(t, tc.path)
		if resp.StatusCode != http.StatusBadRequest || p.Code != "invalid_parameter" || p.Param != tc.param || !strings.Contains(p.Detail, tc.detail) {
			t.Errorf("GET %s: %d %s param %q %q, want 400 invalid_parameter param %q saying %q",
				tc.path, resp.StatusCode, p.Code, p.Param, p.Detail, tc.param, tc.detail)
		}
	}
}

// TestUnknownFilterValueProblem: a mistyped filter value is a 400 whose
// problem document carries the accepted values and the closest one, not an
// empty 200 list.
func TestUnknownFilterValueProblem(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	for _, tc := range []struct {
		path, param, suggestion string
		accepted                []string
	}{
		{"/v1/cars?body=Truck", "body", "", catalog.Bodies},
		{"/v1/cars?make=Toyota&drive_type=xyz", "drive_type", "", catalog.Drives},
		{"/v1/cars?fuel_type=petrol", "fuel_type", "", catalog.CarFuels},
		{"/v1/cars?fuel_type=dissel", "fuel_type", "DIESEL", catalog.CarFuels},
		{"/v1/motorcycles?motorcycle_type=scoter", "motorcycle_type", "Scooter", catalog.MotorcycleTypes},
		{"/v1/boats?hull_type=plastic", "hull_type", "", catalog.HullTypes},
		{"/v1/boats?model_type=pontoons", "model_type", "Pontoon", catalog.VesselCategories},
	} {
		resp, p := f.getRaw(t, tc.path)
		if resp.StatusCode != http.StatusBadRequest || p.Code != "invalid_parameter" || p.Param != tc.param ||
			!slices.Equal(p.AcceptedValues, tc.accepted) || p.Suggestion == "" ||
			(tc.suggestion != "" && p.Suggestion != tc.suggestion) || !strings.Contains(p.Detail, "did you mean "+p.Suggestion+"?") {
			t.Errorf("GET %s: %d %+v, want 400 invalid_parameter on %s with accepted values %q", tc.path, resp.StatusCode, p, tc.param, tc.accepted)
		}
	}
}

// TestUnknownNameSuggestions: make and model take any name, so a typo is
// an empty 200 page whose meta names the closest known names.
func TestUnknownNameSuggestions(t *testing.T) {
	f := newFixture(t)
	get := func(path string) (int, map[string]any) {
		t.Helper()
		resp, _ := f.getRaw(t, path)
		var body map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		return resp.StatusCode, body
	}
	for path, want := range map[string]string{
		"/v1/cars?make=Toyta":                        `[{"names":["Toyota"],"param":"make","value":"Toyta"}]`,
		"/v1/cars?make=toyota&model=Camri":           `[{"names":["Camry"],"param":"model","value":"Camri"}]`,
		"/v1/tire-sizes?make=%3Cb%3EToyta%3C%2Fb%3E": `[{"names":[],"param":"make","value":"\u003cb\u003eToyta\u003c/b\u003e"}]`,
	} {
		status, body := get(path)
		meta, _ := body["meta"].(map[string]any)
		got, _ := json.Marshal(meta["suggestions"])
		if status != http.StatusOK || len(body["data"].([]any)) != 0 || meta["total"] != 0.0 || string(got) != want {
			t.Errorf("GET %s: %d %v, want 200, no data and suggestions %s", path, status, body, want)
		}
	}
	if _, body := get("/v1/cars?make=Toyota"); strings.Contains(fmt.Sprint(body["meta"]), "suggestions") {
		t.Errorf("a page with matches has suggestions: %v", body["meta"])
	}
}
