package upstream

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
)

// modernRecalls is today's recallsByVehicle shape as SOURCES.md documents it
// (no capture exists): lower-case "results", DD/MM/YYYY dates, ModelYear as
// a string, Notes sometimes absent, unknown fields present.
const modernRecalls = `{"Count": 2, "Message": "Results returned successfully",
 "results": [{
   "Manufacturer": "Ford Motor Company", "NHTSACampaignNumber": "25V164000",
   "parkIt": false, "parkOutSide": true, "overTheAirUpdate": true,
   "NHTSAActionNumber": "EA15001", "ReportReceivedDate": "14/03/2025",
   "Component": "POWER TRAIN:AUTOMATIC TRANSMISSION:FLUID/LUBRICANT",
   "Summary": "Summary text. ", "Consequence": "Consequence text.", "Remedy": "Remedy text.",
   "Notes": "Notes text.", "ModelYear": "2025", "Make": "FORD", "Model": "MUSTANG",
   "SomethingNew": {"nested": [1, 2]}},
  {"Manufacturer": "Ford Motor Company", "NHTSACampaignNumber": "24V001000",
   "parkIt": true, "parkOutSide": false, "overTheAirUpdate": false,
   "ReportReceivedDate": "03/01/2024", "Component": "", "Summary": "S", "Consequence": "C",
   "Remedy": "R", "ModelYear": 2025, "Make": "FORD", "Model": "MUSTANG"}]}`

func recallServer(t *testing.T, body string) *fake {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /recalls/recallsByVehicle", serveJSON([]byte(body)))
	return newFake(t, mux)
}

func TestRecallsModernShape(t *testing.T) {
	t.Parallel()
	f := recallServer(t, modernRecalls)
	c := newTestClient(t, testConfig(f.URL), NewMemCache())
	got, _, err := c.Recalls(context.Background(), " Ford ", "Mustang", 2025)
	if err != nil {
		t.Fatal(err)
	}
	if reqs := f.requests(); len(reqs) != 1 || reqs[0] != "/recalls/recallsByVehicle?make=Ford&model=Mustang&modelYear=2025" {
		t.Errorf("requests %q", reqs)
	}
	b, _ := json.Marshal(got)
	want := `[{"campaign_number":"25V164000","manufacturer":"Ford Motor Company",` +
		`"component":"POWER TRAIN:AUTOMATIC TRANSMISSION:FLUID/LUBRICANT","summary":"Summary text.",` +
		`"consequence":"Consequence text.","remedy":"Remedy text.","notes":"Notes text.","report_date":"2025-03-14",` +
		`"park_it":false,"park_outside":true,"ota_update":true},` +
		`{"campaign_number":"24V001000","manufacturer":"Ford Motor Company","component":null,"summary":"S",` +
		`"consequence":"C","remedy":"R","notes":null,"report_date":"2024-01-03",` +
		`"park_it":true,"park_outside":false,"ota_update":false}]`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

// The retired 2015 webapi shape: "Results", the misspelt "Conequence" and
// WCF "/Date(ms-0500)/" dates.
func TestRecalls2015Fixture(t *testing.T) {
	t.Parallel()
	f := recallServer(t, string(fixture(t, "nhtsa-webapi-2015-fixtures/recalls__recalls.json")))
	c := newTestClient(t, testConfig(f.URL), NewMemCache())
	got, _, err := c.Recalls(context.Background(), "MITSUBISHI", "GALANT", 1998)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d recalls, want 2", len(got))
	}
	r := got[0]
	if r.CampaignNumber != "00V421001" || deref(r.Manufacturer) != "MITSUBISHI AMERICA" ||
		deref(r.Component) != "SUSPENSION:FRONT:CONTROL ARM:LOWER BALL JOINT" {
		t.Errorf("first recall %+v", r)
	}
	if c := deref(r.Consequence); c == nil || len(c.(string)) < 20 {
		t.Errorf("Conequence not read: %v", c)
	}
	// 977115600000 ms is 2000-12-18T05:00Z: midnight on the 18th at -0500.
	if deref(r.ReportDate) != "2000-12-18" {
		t.Errorf("report date %v", deref(r.ReportDate))
	}
	if deref(got[1].ReportDate) != "2007-07-26" || got[1].CampaignNumber != "07E055000" {
		t.Errorf("second recall %+v", got[1])
	}
	// "...SAFERCAR.GOV.\r\n" in the capture: trailing whitespace trimmed.
	if n := deref(got[1].Notes).(string); n[len(n)-1] != '.' {
		t.Errorf("notes not trimmed: %q", n[len(n)-10:])
	}
}

func TestRecallsCampaignFixture(t *testing.T) {
	t.Parallel()
	got, err := parseRecalls(fixture(t, "nhtsa-webapi-2015-fixtures/recalls__campaign_recalls.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].CampaignNumber != "12V176000" || deref(got[0].ReportDate) != "2012-04-20" {
		t.Errorf("got %+v", got)
	}
}

func TestRecallsEmpty(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		`{"Count":0,"Message":"No results found for this request","results":[]}`,
		`{"Count":0,"Message":"No results found for this request"}`,
		`{"Count":0,"Message":"x","Results":null}`,
	} {
		f := recallServer(t, body)
		c := newTestClient(t, testConfig(f.URL), NewMemCache())
		got, _, err := c.Recalls(context.Background(), "Nope", "Nada", 2020)
		if err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if b, _ := json.Marshal(got); string(b) != "[]" {
			t.Errorf("%s: got %s, want []", body, b)
		}
	}
}

func TestRecallsSkipsRowsWithoutCampaign(t *testing.T) {
	t.Parallel()
	got, err := parseRecalls([]byte(`{"results":[{"Summary":"orphan"},{"NHTSACampaignNumber":"20V001000"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].CampaignNumber != "20V001000" {
		t.Errorf("got %+v", got)
	}
}

func TestInvalidArguments(t *testing.T) {
	t.Parallel()
	c := New(Config{VPICURL: "http://127.0.0.1:1", NHTSAURL: "http://127.0.0.1:1"}, nil, nil)
	ctx := context.Background()
	if _, _, err := c.DecodeVIN(ctx, "  "); err == nil {
		t.Error("empty VIN accepted")
	}
	if _, _, err := c.Recalls(ctx, "", "x", 2020); err == nil {
		t.Error("empty make accepted")
	}
	if _, _, err := c.SafetyRatings(ctx, "x", "y", 0); err == nil {
		t.Error("year 0 accepted")
	}
}
