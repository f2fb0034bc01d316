package hin

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// FuzzDecode holds Decode to its contract on any input: it never panics; a
// failure is an *Error whose position lies within the input; a success has
// 12 valid characters that decode again alike, a month 1-12 and a
// production year within five of the model year.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		"BWC12345J910", "us-bwc12345-j910", "FR-BEN12345A606", "BOA13579M84E", "ABC123450683", "",
		"BWC12O45J910", "BWC1234ÉJ910", "XXBWC12345J910", "BWC123451383", "\xff\xfe", strings.Repeat("Z", 14),
	} {
		f.Add(s)
	}
	d := newDecoder(testList, testMaxYear)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := d.Decode(s)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Rule == "" || e.Position < 0 || e.Position > len(Normalize(s)) || (e.Position > 0) == (e.Char == "") {
				t.Fatalf("Decode(%q) error %#v", s, err)
			}
			return
		}
		if len(got.HIN) != bodyLen || got.MIC+got.Serial != got.HIN[:8] || strings.ContainsAny(got.Serial, "IOQ") {
			t.Fatalf("Decode(%q) = %+v", s, got)
		}
		if got.ProductionMonth < 1 || got.ProductionMonth > 12 {
			t.Fatalf("Decode(%q): month %d", s, got.ProductionMonth)
		}
		if got.ModelYear != nil && (*got.ModelYear > testMaxYear || got.ProductionYear < *got.ModelYear-5 || got.ProductionYear > *got.ModelYear+4) {
			t.Fatalf("Decode(%q): production %d, model year %d", s, got.ProductionYear, *got.ModelYear)
		}
		prefix := ""
		if got.Country != nil {
			prefix = got.Country.Code
		}
		again, err := d.Decode(prefix + got.HIN)
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Fatalf("Decode(%q) does not round-trip: %+v, %v", prefix+got.HIN, again, err)
		}
	})
}
