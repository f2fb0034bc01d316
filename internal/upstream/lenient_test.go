package upstream

import (
	"errors"
	"testing"
)

func TestParseDate(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"14/03/2025":                   "2025-03-14", // DD/MM/YYYY, today's recalls API
		"26/01/2012":                   "2012-01-26",
		"03/01/2024":                   "2024-01-03", // ambiguous: DD/MM wins
		"01/31/2024":                   "2024-01-31", // impossible as DD/MM, valid as MM/DD
		"1/2/2020":                     "2020-02-01",
		"/Date(977115600000-0500)/":    "2000-12-18",
		"/Date(1185422400000-0400)/":   "2007-07-26",
		"/Date(1334894400000)/":        "2012-04-20",
		"/Date(1334894400000+0200)/":   "2012-04-20",
		"2025-03-14":                   "2025-03-14",
		"2025-03-14T00:00:00-05:00":    "2025-03-14",
		"20250314":                     "2025-03-14",
		"":                             "",
		"soon":                         "",
		"31/02/2020":                   "",
		"13/13/2020":                   "",
		"2025-02-30":                   "",
		"00/00/0000":                   "",
		"/Date(99999999999999999999)/": "",
	} {
		got, ok := ISODate(in)
		if got != want || ok != (want != "") {
			t.Errorf("ISODate(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

func TestRecordAccessors(t *testing.T) {
	t.Parallel()
	r, err := decodeRecord([]byte(`{"ModelYear":"2021","Year":2019,"F":"2021.0","Half":3.5,"Empty":"",
		"Text":"Not Rated","Null":null,"Obj":{"a":1},"Arr":[1],"Pad":"  TRUCK ","True":true,"Yes":"Yes",
		"One":1,"Zero":0,"No":"no","Disp":"4.163000","Neg":"-1"}`))
	if err != nil {
		t.Fatal(err)
	}
	ints := map[string]any{"modelyear": 2021, "YEAR": 2019, "F": 2021, "Half": nil, "Empty": nil,
		"Text": nil, "Null": nil, "Obj": nil, "Arr": nil, "Missing": nil, "Neg": -1}
	for k, want := range ints {
		if got := deref(r.optInt(k)); got != want {
			t.Errorf("optInt(%s) = %v, want %v", k, got, want)
		}
	}
	strs := map[string]any{"Pad": "TRUCK", "Empty": nil, "Null": nil, "Obj": nil, "Year": "2019", "True": "true"}
	for k, want := range strs {
		if got := deref(r.optStr(k)); got != want {
			t.Errorf("optStr(%s) = %v, want %v", k, got, want)
		}
	}
	if got := deref(r.optFloat("Disp")); got != 4.163 {
		t.Errorf("optFloat = %v", got)
	}
	if r.optFloat("Text") != nil || r.optFloat("Empty") != nil {
		t.Error("optFloat of text")
	}
	for k, want := range map[string]bool{"True": true, "Yes": true, "One": true, "Zero": false, "No": false, "Missing": false, "Text": false} {
		if got := r.boolean(k); got != want {
			t.Errorf("boolean(%s) = %v", k, got)
		}
	}
	// First present name wins; null counts as absent.
	if got := r.str("Null", "Missing", "Pad"); got != "TRUCK" {
		t.Errorf("fallback names: %q", got)
	}
}

func TestDecodeEnvelope(t *testing.T) {
	t.Parallel()
	ok := map[string]int{
		`{"Count":1,"Results":[{"a":1}]}`:           1,
		`{"Count":1,"results":[{"a":1}]}`:           1,
		`{"RESULTS":[{"a":1},{"b":2}]}`:             2,
		`{"Count":0,"Message":"none"}`:              0,
		`{"Count":"0"}`:                             0,
		`{"Results":null}`:                          0,
		`{"Results":null,"results":[{"a":1}]}`:      1,
		` {"Results":[], "Extra":{"x":[1,2,3]}} `:   0,
		"\n{\"Count\":1,\"Results\":[{\"a\":1}]}\n": 1,
	}
	for body, n := range ok {
		env, err := decodeEnvelope([]byte(body))
		if err != nil || len(env.results) != n {
			t.Errorf("%s: %d results, err %v; want %d", body, len(env.results), err, n)
		}
	}
	for _, body := range []string{``, `null`, `[]`, `"x"`, `{"Count":2}`, `{}`, `{"Results":[1]}`,
		`{"Results":[null]}`, `{"Results":"x"}`, `{"Results":[{"a":1}]`, `<html>`} {
		if _, err := decodeEnvelope([]byte(body)); err == nil {
			t.Errorf("%q: no error", body)
		}
	}
	_, err := decodeEnvelope([]byte(`{"Results":{}}`))
	if !errors.Is(err, errShape) {
		t.Errorf("shape error not marked: %v", err)
	}
}
