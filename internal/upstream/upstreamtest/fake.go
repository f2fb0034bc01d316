// Package upstreamtest is a fake NHTSA for tests: it replays the captures in
// testdata/ and can be told to fail, stall or answer garbage.
package upstreamtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/fixture"
)

// KnownVIN is the VIN of the captured vPIC decode (a 2021 Ford F-150).
const KnownVIN = "1FTMW1T88MFA00001"

// Mode is how the fake answers.
type Mode int32

const (
	Normal    Mode = iota
	Fail           // 500 Internal Server Error
	Malformed      // 200 with a body that is not JSON
	Stall          // no answer for Delay
)

// Fake is a running fake NHTSA.
type Fake struct {
	// URL serves both roles: use it as upstream.vpic_url and upstream.nhtsa_url.
	URL   string
	mode  atomic.Int32
	delay atomic.Int64
	hits  sync.Map // path prefix → *atomic.Int64

	mu            sync.Mutex
	recallQueries []url.Values
	// added are campaigns filed since the capture, by vehicle (Key).
	added map[string][]json.RawMessage

	decode  map[string]json.RawMessage
	recalls json.RawMessage
	trims   json.RawMessage
	ratings json.RawMessage
	// complaints are the captured Jeep Wrangler answers by model year.
	complaints map[string][]byte
}

// New starts a fake replaying the captures in testdata/.
func New(t testing.TB) *Fake {
	t.Helper()
	f := &Fake{decode: map[string]json.RawMessage{}}
	var vpic struct {
		Content json.RawMessage `json:"content"`
	}
	read := func(elem ...string) []byte {
		b, err := os.ReadFile(fixture.Path(t, elem...))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if err := json.Unmarshal(read("vpic-api-fixtures", "test_decode__decode-vin.json"), &vpic); err != nil {
		t.Fatal(err)
	}
	f.decode[KnownVIN] = vpic.Content
	f.recalls = read("nhtsa-webapi-2015-fixtures", "recalls__recalls.json")
	f.trims = read("nhtsa-webapi-2015-fixtures", "safety_ratings__trims.json")
	f.ratings = read("nhtsa-webapi-2015-fixtures", "safety_ratings__ratings.json")
	f.complaints = map[string][]byte{}
	for _, y := range ComplaintYears {
		f.complaints[strconv.Itoa(y)] = read("nhtsa-recalls", fmt.Sprintf("complaints_jeep_wrangler_%d.json", y))
	}
	ts := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(ts.Close)
	f.URL = ts.URL
	return f
}

// ComplaintYears are the model years of the captured Jeep Wrangler
// complaints: 2020 has 387, 2024 none.
var ComplaintYears = []int{2020, 2024}

// RecallQueries are the queries of the recallsByVehicle requests so far.
func (f *Fake) RecallQueries() []url.Values {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.recallQueries)
}

// AddRecall files a new campaign for a make, model and year: from now on
// its recallsByVehicle answers carry, after the captured ones, a copy of
// the first captured result under that campaign number.
func (f *Fake) AddRecall(t testing.TB, vehicleMake, model string, year int, campaign string) {
	t.Helper()
	var env struct{ Results []map[string]any }
	if err := json.Unmarshal(f.recalls, &env); err != nil || len(env.Results) == 0 {
		t.Fatalf("captured recalls: %v", err)
	}
	r := env.Results[0]
	r["NHTSACampaignNumber"] = campaign
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.added == nil {
		f.added = map[string][]json.RawMessage{}
	}
	k := recallKey(vehicleMake, model, strconv.Itoa(year))
	f.added[k] = append(f.added[k], raw)
}

func recallKey(vehicleMake, model, year string) string {
	return strings.ToLower(vehicleMake + "|" + model + "|" + year)
}

// recallsFor is the captured answer with the campaigns added for q's vehicle.
func (f *Fake) recallsFor(q url.Values) []byte {
	f.mu.Lock()
	added := f.added[recallKey(q.Get("make"), q.Get("model"), q.Get("modelYear"))]
	f.mu.Unlock()
	if len(added) == 0 {
		return f.recalls
	}
	var env struct {
		Count   int
		Message string
		Results []json.RawMessage
	}
	if err := json.Unmarshal(f.recalls, &env); err != nil {
		return f.recalls
	}
	env.Results = append(env.Results, added...)
	env.Count = len(env.Results)
	b, err := json.Marshal(env)
	if err != nil {
		return f.recalls
	}
	return b
}

// SetMode changes how the fake answers from now on; delay applies to Stall.
func (f *Fake) SetMode(m Mode, delay time.Duration) {
	f.mode.Store(int32(m))
	f.delay.Store(int64(delay))
}

// Hits counts the requests to paths starting with prefix, e.g. "/recalls/".
func (f *Fake) Hits(prefix string) int64 {
	v, ok := f.hits.Load(prefix)
	if !ok {
		return 0
	}
	return v.(*atomic.Int64).Load()
}

func (f *Fake) count(prefix string) {
	v, _ := f.hits.LoadOrStore(prefix, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
}

func (f *Fake) serve(w http.ResponseWriter, r *http.Request) {
	for _, p := range []string{"/vehicles/DecodeVinValues/", "/recalls/", "/complaints/", "/SafetyRatings/"} {
		if strings.HasPrefix(r.URL.Path, p) {
			f.count(p)
		}
	}
	switch Mode(f.mode.Load()) {
	case Fail:
		http.Error(w, "upstream exploded", http.StatusInternalServerError)
		return
	case Malformed:
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"Results": [ this is not json`)
		return
	case Stall:
		select {
		case <-time.After(time.Duration(f.delay.Load())):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	switch p := r.URL.Path; {
	case strings.HasPrefix(p, "/vehicles/DecodeVinValues/"):
		vin := strings.ToUpper(strings.TrimPrefix(p, "/vehicles/DecodeVinValues/"))
		if body, ok := f.decode[vin]; ok {
			_, _ = w.Write(body)
			return
		}
		// vPIC answers 200 for a VIN it cannot place, with empty fields
		// and error codes: the captured "tacos" answer's shape.
		fmt.Fprintf(w, `{"Count":1,"Message":"Results returned successfully","SearchCriteria":"VIN:%s","Results":[{"Make":"","Manufacturer":"","Model":"","ModelYear":"","ErrorCode":"7","ErrorText":"7 - Manufacturer is not registered with NHTSA for sale or importation in the U.S. for use on U.S roads; Please contact the manufacturer directly for more information."}]}`, vin)
	case strings.HasPrefix(p, "/recalls/recallsByVehicle"):
		f.mu.Lock()
		f.recallQueries = append(f.recallQueries, r.URL.Query())
		f.mu.Unlock()
		_, _ = w.Write(f.recallsFor(r.URL.Query()))
	case strings.HasPrefix(p, "/complaints/complaintsByVehicle"):
		q := r.URL.Query()
		results := []byte("[]")
		if strings.EqualFold(q.Get("make"), "jeep") && strings.EqualFold(q.Get("model"), "wrangler") && f.complaints[q.Get("modelYear")] != nil {
			results = f.complaints[q.Get("modelYear")]
		}
		// The captures are the results alone: NHTSA's envelope goes around them.
		fmt.Fprintf(w, `{"count":%d,"message":"Results returned successfully","results":%s}`, countJSON(results), results)
	case strings.HasPrefix(p, "/SafetyRatings/VehicleId/3832"):
		_, _ = w.Write(f.ratings)
	case strings.HasPrefix(p, "/SafetyRatings/VehicleId/"):
		fmt.Fprint(w, `{"Count":0,"Message":"No results found for this request","Results":[]}`)
	case strings.HasPrefix(p, "/SafetyRatings/modelyear/"):
		_, _ = w.Write(f.trims)
	default:
		http.NotFound(w, r)
	}
}

func countJSON(list []byte) int {
	var l []json.RawMessage
	_ = json.Unmarshal(list, &l)
	return len(l)
}
