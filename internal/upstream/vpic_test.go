package upstream

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"testing"
)

// vinServer serves one captured DecodeVinValues body for one VIN and checks
// that the request is the one vPIC expects.
func vinServer(t *testing.T, vin string, body []byte) *fake {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/vehicles/DecodeVinValues/{vin}", func(w http.ResponseWriter, r *http.Request) {
		if got := r.PathValue("vin"); got != vin {
			t.Errorf("upstream asked for VIN %q, want %q", got, vin)
			http.NotFound(w, r)
			return
		}
		if r.URL.Query().Get("format") != "json" {
			t.Errorf("format=json missing: %s", r.URL.RawQuery)
		}
		serveJSON(body)(w, r)
	})
	return newFake(t, mux)
}

func TestDecodeVINCapturedAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file       string
		vin        string
		make       string
		model      any // string or nil
		year       int
		errorCodes []string
	}{
		{"vpic-api-fixtures/test_decode__decode-vin.json", "1FTMW1T88MFA00001", "FORD", "F-150", 2021, []string{"0"}},
		{"vpic-api-fixtures/test_decode__decode-vin-with-modelyear.json", "1FTMW1T88MFA00001", "FORD", "F-150", 2021, []string{"0"}},
		{"vpic-api-fixtures/test_decode__decode-vin-extended.json", "1FTMW1T88MFA00001", "FORD", "F-150", 2021, []string{"0"}},
		{"vpic-api-fixtures/test_decode__decode-vin-unflattened.json", "1FTMW1T88MFA00001", "FORD", "F-150", 2021, []string{"0"}},
		{"vpic-api-fixtures/test_decode__decode-partial-vin.json", "5UXWX7C5*BA", "BMW", "X3", 2011, []string{"6"}},
		{"vpic-api-fixtures/test_decode__decode-partial-vin-unflattened.json", "1FA6P8C0!M!100001", "FORD", "Mustang", 2021, []string{"1", "4", "14", "400"}},
		// Older (≈2018) vPIC: the message sits in ErrorCode, ErrorText is null.
		{"npm-nhtsa-mocks/decode-vin-flat-format__success.json", "WUAAU34248N006164", "AUDI", nil, 2011, []string{"5"}},
		{"npm-nhtsa-mocks/decode-vin-extended-flat-format__success.json", "WUAAU34248N006164", "AUDI", nil, 2011, []string{"5"}},
		{"npm-nhtsa-mocks/decode-vin__success.json", "WUAAU34248N006164", "AUDI", "R8", 2008, []string{"0"}},
		{"npm-nhtsa-mocks/decode-vin-extended__success.json", "5UXWX7C5*BA", "BMW", "X3", 2011, []string{"6"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f := vinServer(t, tt.vin, fixture(t, tt.file))
			c := newTestClient(t, testConfig(f.URL), NewMemCache())
			got, meta, err := c.DecodeVIN(context.Background(), tt.vin)
			if err != nil {
				t.Fatalf("DecodeVIN: %v", err)
			}
			if deref(got.Make) != tt.make || deref(got.Model) != tt.model || deref(got.ModelYear) != tt.year {
				t.Errorf("got %v / %v / %v, want %v / %v / %v",
					deref(got.Make), deref(got.Model), deref(got.ModelYear), tt.make, tt.model, tt.year)
			}
			if !slices.Equal(got.ErrorCodes, tt.errorCodes) {
				t.Errorf("error codes %q, want %q", got.ErrorCodes, tt.errorCodes)
			}
			if got.ErrorText == nil {
				t.Error("error text missing")
			}
			if !got.Identified() {
				t.Error("Identified() = false for a decoded make")
			}
			if meta.FromCache || meta.Stale || meta.FetchedAt.IsZero() {
				t.Errorf("meta = %+v, want a fresh fetch", meta)
			}
		})
	}
}

// The Ford capture in full: every field the HTTP layer exposes.
func TestDecodeVINAllFields(t *testing.T) {
	t.Parallel()
	f := vinServer(t, "1FTMW1T88MFA00001", fixture(t, "vpic-api-fixtures/test_decode__decode-vin.json"))
	c := newTestClient(t, testConfig(f.URL), nil)
	got, _, err := c.DecodeVIN(context.Background(), " 1ftmw1t88mfa00001 ")
	if err != nil {
		t.Fatal(err)
	}
	want := VINResult{
		Make: ptr("FORD"), Model: ptr("F-150"), ModelYear: ptr(2021), Trim: ptr("SuperCrew-SSV"),
		Series: ptr("F-Series"), BodyClass: ptr("Pickup"), VehicleType: ptr("TRUCK"), // vPIC sends "TRUCK " with a trailing space
		Manufacturer: ptr("FORD MOTOR COMPANY, USA"),
		Engine:       Engine{Cylinders: ptr(6), DisplacementL: ptr(3.5), FuelType: ptr("Gasoline"), PowerHP: ptr(375.0)},
		Plant:        Plant{City: ptr("DEARBORN"), State: ptr("MICHIGAN"), Country: ptr("UNITED STATES (USA)")},
		ErrorCodes:   []string{"0"},
		ErrorText:    ptr("0 - VIN decoded clean. Check Digit (9th position) is correct"),
	}
	gotJSON, _ := json.Marshal(got)
	wantJSON, _ := json.Marshal(want)
	if string(gotJSON) != string(wantJSON) {
		t.Errorf("got  %s\nwant %s", gotJSON, wantJSON)
	}
}

// The npm "failure" capture: a string that is no VIN. vPIC answers 200 with
// only an error code; the result must say "not identified" (→ 422).
func TestDecodeVINNotIdentified(t *testing.T) {
	t.Parallel()
	f := vinServer(t, "TACOS", fixture(t, "npm-nhtsa-mocks/decode-vin__failure.json"))
	c := newTestClient(t, testConfig(f.URL), NewMemCache())
	got, _, err := c.DecodeVIN(context.Background(), "tacos")
	if err != nil {
		t.Fatal(err)
	}
	if got.Identified() {
		t.Errorf("Identified() = true for %+v", got)
	}
	if !slices.Equal(got.ErrorCodes, []string{"11"}) {
		t.Errorf("error codes %q", got.ErrorCodes)
	}
	if deref(got.ErrorText) != "11- Incorrect Model Year, decoded data may not be accurate!" {
		t.Errorf("error text %v", deref(got.ErrorText))
	}
}

// Unknown values are JSON null, never "" or omitted, and error_codes is a list.
func TestVINResultJSONNulls(t *testing.T) {
	t.Parallel()
	res, err := parseDecode([]byte(`{"Count":3,"Results":[{"Make":"","Model":null,"ModelYear":"","ErrorCode":"7","ErrorText":"7 - Manufacturer is not registered"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(res)
	want := `{"make":null,"model":null,"model_year":null,"trim":null,"series":null,"body_class":null,"doors":null,"vehicle_type":null,` +
		`"manufacturer":null,"engine":{"cylinders":null,"displacement_l":null,"fuel_type":null,"power_hp":null},` +
		`"plant":{"city":null,"state":null,"country":null},"error_codes":["7"],"error_text":"7 - Manufacturer is not registered"}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	if res.Identified() {
		t.Error("Identified() = true")
	}
	res, err = parseDecode([]byte(`{"Results":[{"Make":"ACME","ModelYear":2020}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(res.ErrorCodes); string(b) != "[]" {
		t.Errorf("error_codes = %s, want []", b)
	}
	if deref(res.ModelYear) != 2020 {
		t.Errorf("numeric ModelYear: %v", deref(res.ModelYear))
	}
}

func TestParseDecodeShapes(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"empty results": `{"Count":0,"Message":"x","Results":[]}`,
		"no results":    `{"Count":1,"Message":"x"}`,
		"not a list":    `{"Results":{"Make":"FORD"}}`,
		"row not obj":   `{"Results":["FORD"]}`,
		"html":          `<html>Service Unavailable</html>`,
		"truncated":     `{"Results":[{"Make":"FO`,
		"array":         `[{"Make":"FORD"}]`,
	} {
		if _, err := parseDecode([]byte(body)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestSplitErrorCodes(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][]string{
		"":                                      {},
		"0":                                     {"0"},
		"1,4,14,400":                            {"1", "4", "14", "400"},
		" 5 , 6 ":                               {"5", "6"},
		"5 - VIN has errors in few positions.":  {"5"},
		"11- Incorrect Model Year, decoded ...": {"11"},
		"Error":                                 {},
	} {
		if got := splitErrorCodes(in); !slices.Equal(got, want) || got == nil {
			t.Errorf("splitErrorCodes(%q) = %q, want %q", in, got, want)
		}
	}
}
