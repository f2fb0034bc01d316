package upstream

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
)

// The complaints API's shape as captured: MM/DD/YYYY dates, components
// joined by a bare comma (a name may hold ", "), the 1901 placeholder.
const capturedComplaints = `{"count": 2, "message": "Results returned successfully", "results": [
 {"odiNumber": 11628199, "crash": true, "fire": false, "numberOfInjuries": 1, "numberOfDeaths": 0,
  "dateOfIncident": "01/01/1901", "dateComplaintFiled": "12/02/2024", "vin": "1C4HJXDNXLW",
  "components": "STEERING,SERVICE BRAKES, HYDRAULIC", "summary": "Two  spaces\nand a line."},
 {"odiNumber": 11628932, "crash": false, "fire": true, "numberOfInjuries": 0, "numberOfDeaths": 2,
  "dateOfIncident": "12/29/2022", "dateComplaintFiled": "12/04/2024", "components": "ELECTRICAL SYSTEM", "summary": null}]}`

func TestComplaints(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /complaints/complaintsByVehicle", serveJSON([]byte(capturedComplaints)))
	f := newFake(t, mux)
	c := newTestClient(t, testConfig(f.URL), NewMemCache())
	for range 2 {
		got, _, err := c.Complaints(context.Background(), "Jeep", " Wrangler ", 2020)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(got)
		want := `[{"odi_number":11628932,"components":["ELECTRICAL SYSTEM"],"crash":false,"fire":true,"injuries":0,"deaths":2,` +
			`"incident_date":"2022-12-29","received_date":"2024-12-04","summary":null},` +
			`{"odi_number":11628199,"components":["SERVICE BRAKES, HYDRAULIC","STEERING"],"crash":true,"fire":false,"injuries":1,"deaths":0,` +
			`"incident_date":null,"received_date":"2024-12-02","summary":"Two spaces and a line."}]`
		if string(b) != want {
			t.Errorf("got  %s\nwant %s", b, want)
		}
	}
	if reqs := f.requests(); len(reqs) != 1 || reqs[0] != "/complaints/complaintsByVehicle?make=Jeep&model=Wrangler&modelYear=2020" {
		t.Errorf("requests %q, want one: the second answer is cached", reqs)
	}
}
