package httpapi_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/httpapi"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
)

var update = flag.Bool("update", false, "rewrite static/samples.json from the demo catalog")

const samplesFile = "static/samples.json"

// sampleItems is how many items of a complete list a sample keeps.
const sampleItems = 3

// TestSamples: static/samples.json, the sample responses /docs shows, is
// what the real server answers from the demo catalog, one request per
// operation (and one problem). Times and per-run ids are fixed, since they
// differ on every run.
func TestSamples(t *testing.T) {
	f := newFixture(t)
	v := sharedValidator(t)
	client := &http.Client{Transport: v.Transport(t, nil)}
	camry := func(c catalog.Car) bool { return c.Make == "Toyota" && c.Model == "Camry" }
	i := slices.IndexFunc(f.cat.Cars, camry)
	if i < 0 {
		t.Fatal("the demo catalog has no Toyota Camry, which the samples and the reference's examples use")
	}
	car, moto, boat := f.cat.Cars[i], f.cat.Motorcycles[0], f.cat.Boats[0]
	tire := f.cat.TireSizes[slices.IndexFunc(f.cat.TireSizes, func(ts catalog.TireFitment) bool { return ts.Make == car.Make && ts.Model == car.Model })]
	q := url.QueryEscape
	requests := map[string]string{
		"listCars": "/v1/cars?make=Toyota&model=Camry&per_page=2", "listCarMakes": "/v1/cars/makes",
		"listCarModels": "/v1/cars/models?make=Toyota", "listCarBodyTypes": "/v1/cars/body-types",
		"getCar": "/v1/cars/" + car.UUID.String(), "getCarTireSizes": "/v1/cars/" + car.UUID.String() + "/tire-sizes",
		"getCarRecalls":       "/v1/cars/" + car.UUID.String() + "/recalls",
		"listMotorcycles":     "/v1/motorcycles?make=" + q(moto.Make) + "&per_page=2",
		"listMotorcycleMakes": "/v1/motorcycles/makes", "listMotorcycleModels": "/v1/motorcycles/models?make=" + q(moto.Make),
		"listMotorcycleTypes": "/v1/motorcycles/types", "getMotorcycle": "/v1/motorcycles/" + moto.UUID.String(),
		"getMotorcycleRecalls":    "/v1/motorcycles/" + moto.UUID.String() + "/recalls",
		"getCarComplaints":        "/v1/cars/" + car.UUID.String() + "/complaints?per_page=2",
		"getMotorcycleComplaints": "/v1/motorcycles/" + moto.UUID.String() + "/complaints",
		"listBoats":               "/v1/boats?make=" + q(boat.Make) + "&per_page=2", "listBoatMakes": "/v1/boats/makes",
		"listBoatModels": "/v1/boats/models?make=" + q(boat.Make), "listBoatHullTypes": "/v1/boats/hull-types",
		"getBoat":          "/v1/boats/" + boat.UUID.String(),
		"listTireFitments": "/v1/tire-sizes?make=Toyota&model=Camry&per_page=2", "listTireFitmentMakes": "/v1/tire-sizes/makes",
		"listTireFitmentModels": "/v1/tire-sizes/models?make=Toyota", "getTireFitment": "/v1/tire-sizes/" + tire.UUID.String(),
		"getTireFitmentGeometry":  "/v1/tire-sizes/" + tire.UUID.String() + "/geometry",
		"getTireFitmentPlusSizes": "/v1/tire-sizes/" + tire.UUID.String() + "/plus-sizes?window=1",
		"lookupTireSize":          "/v1/tire-sizes/lookup?size=" + q(tire.TireSize) + "&window=1&per_page=2",
		"decodeVIN":               "/v1/vin/" + upstreamtest.KnownVIN,
		"decodeVINs":              "/v1/vins?vin=" + upstreamtest.KnownVIN + "&vin=1FTMW1T88MFA0000X",
		"getLists":                "/v1/lists", "getListsRecalls": "/v1/lists/recalls", "getChangelog": "/v1/changelog", "getChangelogRoot": "/changelog",
		"decodeHIN":      "/v1/hin/BWC12345L718",
		"decodeHINs":     "/v1/hins?hin=US-BWC12345L718&hin=BWC12O45L718",
		"listMyRequests": "/v1/me/requests?per_page=2", "getMe": "/v1/me",
	}
	doc := rawDoc(t)
	var samples []httpapi.Sample
	for _, path := range slices.Sorted(mapKeys(at(t, doc, "paths").(map[string]any))) {
		op := at(t, doc, "paths", path, "get").(map[string]any)
		id := op["operationId"].(string)
		if id == "getOpenAPI" {
			continue // the document itself, rendered whole already
		}
		req, ok := requests[id]
		if !ok {
			t.Errorf("operation %s has no sample request in this test", id)
			continue
		}
		samples = append(samples, sample(t, client, f, id, req, http.StatusOK))
	}
	// One problem, so the reference shows an error's fields too.
	samples = append(samples, sample(t, client, f, "listCars", "/v1/cars?body=Sedn", http.StatusBadRequest))
	got, err := json.MarshalIndent(samples, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		if err := os.WriteFile(samplesFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want, _ := os.ReadFile(samplesFile); !bytes.Equal(got, want) || !bytes.Equal(want, httpapi.Samples()) {
		t.Fatalf("%s is out of date with what the server answers; if the change is intended, run "+
			"go test ./internal/httpapi -run TestSamples -update and commit it", samplesFile)
	}
}

func mapKeys(m map[string]any) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

var (
	sampleTime = regexp.MustCompile(`"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)"`)
	// sampleIDs are the values that differ on every run: random ids and timings.
	sampleIDs = regexp.MustCompile(`"(id|list_id|request_id|token_prefix|email)": "[^"]*"`)
	// sampleFixed are run-dependent values with one stand-in each.
	sampleFixed = map[*regexp.Regexp]string{
		regexp.MustCompile(`"duration_ms": [0-9.]+`):         `"duration_ms": 1.25`,
		regexp.MustCompile(`"period": "\d{4}-\d\d"`):         `"period": "2026-03"`,
		regexp.MustCompile(`"data_date": "\d{4}-\d\d-\d\d"`): `"data_date": "2026-03-02"`,
	}
)

func sample(t *testing.T, client *http.Client, f *fixture, op, path string, status int) httpapi.Sample {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, f.url+path, nil)
	req.Header.Set("Authorization", "Bearer "+f.tokens["dev"])
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != status {
		t.Fatalf("GET %s: status %d, want %d (%v)\n%s", path, resp.StatusCode, status, err, body)
	}
	s := httpapi.Sample{Operation: op, Status: status, Request: "GET " + path}
	var list struct {
		Data []json.RawMessage `json:"data"`
	}
	// A complete list keeps its first items; a page is short already.
	if json.Unmarshal(body, &list) == nil && !bytes.Contains(body, []byte(`"meta":`)) && len(list.Data) > sampleItems {
		s.Items = len(list.Data)
		body, _ = json.Marshal(struct {
			Data []json.RawMessage `json:"data"`
		}{list.Data[:sampleItems]})
	}
	var out bytes.Buffer
	if err := json.Indent(&out, body, "", "  "); err != nil {
		t.Fatal(err)
	}
	fixed := sampleTime.ReplaceAll(out.Bytes(), []byte(`"2026-03-02T09:30:00Z"`))
	for re, v := range sampleFixed {
		fixed = re.ReplaceAll(fixed, []byte(v))
	}
	seen := map[string]string{}
	fixed = sampleIDs.ReplaceAllFunc(fixed, func(m []byte) []byte {
		k, v, _ := strings.Cut(string(m), ": ")
		if seen[v] == "" {
			seen[v] = lookalike(v, len(seen))
		}
		return []byte(k + ": " + seen[v])
	})
	s.Body = json.RawMessage(fixed)
	return s
}

// lookalike is a fixed stand-in for v of the same length and alphabet
// (hex or base32), drawn from n; a prefix up to "_" (vds_) and a domain stay.
func lookalike(v string, n int) string {
	sum := sha256.Sum256([]byte(strconv.Itoa(n)))
	from, to := strings.Index(v, "_")+1, len(v)-1
	if at := strings.Index(v, "@"); at >= 0 {
		to = at
	}
	alphabet := "abcdefghijklmnopqrstuvwxyz234567"
	if strings.Trim(v[from:to], `"0123456789abcdef`) == "" {
		alphabet = "0123456789abcdef"
	}
	out := []byte(v)
	for i := max(from, 1); i < to; i++ {
		out[i] = alphabet[int(sum[i%len(sum)])%len(alphabet)]
	}
	return string(out)
}
