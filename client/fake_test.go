package client

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/memnet"
)

// This file holds the fake server the tests point the Client at, and
// response bodies shaped exactly like the server's (copied from the
// encodings of internal/catalog, internal/vehicle and internal/httpapi).

const testToken = "vds_testtoken123"

// seenRequest is what the fake server received.
type seenRequest struct {
	Method   string
	Path     string
	RawQuery string
	Query    url.Values
	Header   http.Header
}

// fake is an httptest.Server that records requests and answers with a
// handler chosen per test.
type fake struct {
	srv     *httptest.Server
	hc      *http.Client // nil: the Client's own, to a loopback server
	mu      sync.Mutex
	reqs    []seenRequest
	handler http.HandlerFunc
}

// newFake serves h on loopback.
func newFake(t *testing.T, h http.HandlerFunc) *fake {
	t.Helper()
	f := &fake{handler: h}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// newPipeFake serves h in memory, for tests in a synctest bubble, whose
// clock a loopback socket would stop.
func newPipeFake(t *testing.T, h http.HandlerFunc) *fake {
	t.Helper()
	f := &fake{handler: h}
	s := memnet.NewServer(t, http.HandlerFunc(f.serve))
	f.srv = s.Server
	f.hc = &http.Client{Transport: s.Client().Transport, Timeout: DefaultTimeout}
	return f
}

func (f *fake) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.reqs = append(f.reqs, seenRequest{
		Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery,
		Query: r.URL.Query(), Header: r.Header.Clone(),
	})
	f.mu.Unlock()
	f.handler(w, r)
}

// client returns a Client for the fake with fast retries, so retry tests
// take milliseconds unless they test Retry-After itself.
func (f *fake) client(opts ...Option) *Client {
	base := []Option{WithRetryWait(time.Millisecond, 5*time.Millisecond)}
	if f.hc != nil {
		base = append(base, WithHTTPClient(f.hc))
	}
	return New(f.srv.URL, testToken, append(base, opts...)...)
}

func (f *fake) requests() []seenRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seenRequest(nil), f.reqs...)
}

func (f *fake) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

// writeBody writes a 200 JSON body with the headers every authenticated
// server response carries.
func writeBody(w http.ResponseWriter, body string) {
	setStdHeaders(w.Header())
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte(body))
}

// Fixed header values of setStdHeaders, asserted by the tests.
const (
	testRequestID  = "3f9a1c2b7d4e5f60718293a4"
	testRateReset  = 1795000000
	testQuotaReset = 1796083200
)

func setStdHeaders(h http.Header) {
	h.Set("X-Request-Id", testRequestID)
	h.Set("X-RateLimit-Limit", "60")
	h.Set("X-RateLimit-Remaining", "59")
	h.Set("X-RateLimit-Reset", strconv.Itoa(testRateReset))
	h.Set("X-Quota-Limit", "1000")
	h.Set("X-Quota-Used", "17")
	h.Set("X-Quota-Remaining", "983")
	h.Set("X-Quota-Reset", strconv.Itoa(testQuotaReset))
	h.Set("RateLimit-Policy", `"minute";q=60;w=60, "month";q=1000;w=2592000`)
	h.Set("RateLimit", `"minute";r=59;t=42, "month";r=983;t=1083200`)
}

// writeProblem writes a problem document as the server's writeProblem does.
func writeProblem(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("X-Request-Id", testRequestID)
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

const (
	carUUID  = "0b7f3c2e-8d1a-5e4b-9c6f-1a2b3c4d5e6f"
	car2UUID = "7a1d2c3b-4e5f-5a6b-8c7d-9e0f1a2b3c4d"
	motoUUID = "5c6d7e8f-9a0b-5c1d-8e2f-3a4b5c6d7e8f"
	boatUUID = "1e2d3c4b-5a69-5788-9a0b-c1d2e3f4a5b6"
	tireUUID = "9f8e7d6c-5b4a-5392-8170-6f5e4d3c2b1a"
)

// carEnriched is a car with EPA data; carBare one without (all EPA fields,
// displacement and cylinders null), as a BEV before enrichment.
const (
	carEnriched = `{"uuid":"` + carUUID + `","make":"Toyota","model":"Camry","year":2022,"trim":"LE Hybrid","body":"Sedan","fuel_type":"HYBRID ELECTRIC VEHICLE (HEV)","drive_type":"FWD","transmission":"CVT","displacement_l":2.5,"cylinders":4,"engine":"2.5L 4-cyl hybrid","mpg_city":51,"mpg_highway":53,"mpg_combined":52,"epa_range_miles":null,"annual_fuel_cost":1000,"co2_gpm":170.5,"electrified":true}`
	carBare     = `{"uuid":"` + car2UUID + `","make":"Tesla","model":"Model 3","year":2023,"trim":"Long Range","body":"Sedan","fuel_type":"BATTERY ELECTRIC VEHICLE (BEV)","drive_type":"AWD","transmission":"1-speed automatic","displacement_l":null,"cylinders":null,"engine":"Electric","mpg_city":null,"mpg_highway":null,"mpg_combined":null,"epa_range_miles":null,"annual_fuel_cost":null,"co2_gpm":null,"electrified":true}`

	carListBody = `{"data":[` + carEnriched + `,` + carBare + `],"meta":{"page":2,"per_page":2,"total":9,"total_pages":5,"max_page":5,"truncated":false}}` + "\n"

	motoJSON        = `{"uuid":"` + motoUUID + `","make":"Honda","model":"Talon 1000X","year":2021,"motorcycle_type":"UTV / SXS","vehicle_type":"ATV/UTV","displacement_cc":999,"engine_type":"Parallel twin","power_hp":null}`
	boatJSON        = `{"uuid":"` + boatUUID + `","make":"Boston Whaler","model":"210 Montauk","year":2022,"model_type":"Center Console","length_ft":21.5,"beam_ft":8.5,"dry_weight_lbs":3100,"engine_count":1,"hp":200,"hull_type":"Fiberglass","fuel_type":"Gas"}`
	tireJSON        = `{"uuid":"` + tireUUID + `","make":"Toyota","model":"Camry","year":2022,"trim":"LE","tire_size":"215/55R17","rear_tire_size":null,"alternate_sizes":["225/50R17","205/60R16"]}`
	tireStaggered   = `{"uuid":"` + tireUUID + `","make":"BMW","model":"M4","year":2022,"trim":"Competition","tire_size":"275/35R19","rear_tire_size":"285/30R20","alternate_sizes":[]}`
	sizeGeom215     = `{"size":"215/55R17","width_mm":215,"width_in":8.46,"sidewall_mm":118.3,"sidewall_in":4.66,"diameter_in":26.31,"diameter_mm":668.3,"circumference_in":82.67,"circumference_mm":2099.6,"revs_per_mile":766.4}`
	plusSizesJSON   = `{"fitment":` + tireJSON + `,"window_pct":1,"front":{"oem":` + sizeGeom215 + `,"load_index":94,"load_kg":670,"speed_rating":"V","speed_kmh":240,"speed_mph":149,"rims":[{"rim_offset":1,"rim_in":18,"sizes":[{"size":"225/45R18","width_mm":225,"width_in":8.86,"sidewall_mm":101.3,"sidewall_in":3.99,"diameter_in":25.97,"diameter_mm":659.7,"circumference_in":81.59,"circumference_mm":2072.5,"revs_per_mile":776.6,"oem":false,"diameter_diff_in":-0.34,"diameter_diff_pct":-1.3,"sidewall_diff_mm":-16.9,"sidewall_diff_in":-0.66,"speedometer_at_60_mph":60.8,"speedometer_at_100_kmh":101.3,"min_load_index":94,"reinforced_needed":true,"min_speed_rating":"V"}]}]},"rear":null}`
	sizeLookupJSON  = `{"size":` + sizeGeom215 + `,"window_pct":3,"plus_sizes":{"oem":` + sizeGeom215 + `,"load_index":null,"load_kg":null,"speed_rating":null,"speed_kmh":null,"speed_mph":null,"rims":[]},"fitments":[{"roles":["oem"],"fitment":` + tireJSON + `}],"meta":{"page":1,"per_page":10,"total":1,"total_pages":1,"max_page":1,"truncated":false},"facets":{"makes":[{"name":"Toyota","count":1}],"years":[{"year":2022,"count":1}]}}`
	geometryJSON    = `{"fitment":` + tireJSON + `,"oem":` + sizeGeom215 + `,"rear":null,"alternates":[{"size":"225/50R17","width_mm":225,"width_in":8.86,"sidewall_mm":112.5,"sidewall_in":4.43,"diameter_in":25.86,"diameter_mm":656.8,"circumference_in":81.24,"circumference_mm":2063.5,"revs_per_mile":779.9,"diameter_diff_in":-0.45,"diameter_diff_pct":-1.72,"within_window":true},{"size":"205/60R16","width_mm":205,"width_in":8.07,"sidewall_mm":123,"sidewall_in":4.84,"diameter_in":25.69,"diameter_mm":652.6,"circumference_in":80.71,"circumference_mm":2050.2,"revs_per_mile":785,"diameter_diff_in":-0.62,"diameter_diff_pct":-2.36,"within_window":true}],"window_pct":3}`
	carTiresJSON    = `{"car":{"uuid":"` + carUUID + `","make":"Toyota","model":"Camry","year":2022,"trim":"LE Hybrid"},"match":"exact_year","fitments":[` + geometryJSON + `]}`
	makesJSON       = `[{"name":"Honda","count":41},{"name":"Toyota","count":57}]`
	modelsJSON      = `[{"name":"Camry","count":12,"year_min":2015,"year_max":2024},{"name":"RAV4","count":9,"year_min":2016,"year_max":2024}]`
	bodyTypesJSON   = `[{"name":"Sedan","count":120},{"name":"Van","count":0}]`
	motoTypesJSON   = `[{"name":"Street Motorcycle","vehicle_type":"Motorcycle","count":150},{"name":"Golf Cart","vehicle_type":"ATV/UTV","count":0}]`
	hullTypesJSON   = `[{"name":"Fiberglass","count":250},{"name":"Aluminum","count":58}]`
	meJSON          = `{"account":{"id":"acc_4kq2","email":"demo@example.com","created_at":"2026-11-01T09:30:00Z"},"plan":{"name":"developer","rate_per_minute":300,"monthly_quota":100000,"api_access":true},"rate_limit":{"limit":300,"remaining":299,"reset":"2026-11-21T10:01:00Z"},"quota":{"period":"2026-11","limit":100000,"used":42,"remaining":99958,"reset":"2026-12-01T00:00:00Z"},"token":{"id":"tok_9x","scopes":["api:read"]}}`
	meUnlimitedJSON = `{"account":{"id":"acc_int","email":"ops@example.com","created_at":"2026-11-01T09:30:00Z"},"plan":{"name":"internal","rate_per_minute":0,"monthly_quota":0,"api_access":true},"rate_limit":{"limit":null,"remaining":null,"reset":"2026-11-21T10:01:00Z"},"quota":{"period":"2026-11","limit":null,"used":7,"remaining":null,"reset":"2026-12-01T00:00:00Z"},"token":{"id":"tok_1","scopes":["api:read"]}}`
	listsJSON       = `[{"id":"lst_a1","name":"My garage","is_default":true,"created_at":"2026-11-01T09:30:00Z","items":[{"type":"car","uuid":"` + carUUID + `","note":"daily driver","added_at":"2026-11-02T08:00:00Z","missing":false,"record":{"make":"Toyota","model":"Camry","year":2022}},{"type":"boat","uuid":"` + boatUUID + `","note":"","added_at":"2026-11-03T08:00:00Z","missing":true,"record":null}]}]`
	changelogJSON   = `[{"version":"1.0.0","date":"2026-11-21","changes":["First release of the vds API v1."]}]`
	openAPIDoc      = `{"openapi":"3.1.0","info":{"title":"vds","version":"1.0.0"},"paths":{}}`
)

// envelope wraps a data value as the server's ok() does.
func env(data string) string { return `{"data":` + data + "}\n" }

func bodyOf(s string) io.ReadCloser { return io.NopCloser(strings.NewReader(s)) }
