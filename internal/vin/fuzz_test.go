package vin

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzDecode holds Decode to its contract on any input: it never panics;
// a failure is an *Error with a message; a success is a normalized VIN
// that decodes again to the same result, with a computable check digit
// and plausible model years.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		"1HGCM82633A004352", " 1hgcm82633a004352 ", "1M8GDM9AXKP042788",
		"WP0ZZZ99ZTS392124", "7SAYGDEE5PA012345", "0AAAAAAAAAAAAAAAA",
		"", "1HGCM826O3A004352", "1HGCM-2633A004352", "ſHGCM82633A004352",
		"1HGCMÉ2633A004352", "\xff\xfe", strings.Repeat("9", 17), strings.Repeat("Z", 18),
	} {
		f.Add(s)
	}
	const maxYear = 2027
	f.Fuzz(func(t *testing.T, s string) {
		d, err := decode(s, maxYear)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Error() == "" {
				t.Fatalf("Decode(%q) error %#v is not an *Error with a message", s, err)
			}
			if Validate(s) == nil {
				t.Fatalf("Decode(%q) failed but Validate passed", s)
			}
			return
		}
		if err := Validate(s); err != nil {
			t.Fatalf("Decode(%q) passed but Validate failed: %v", s, err)
		}
		if d.VIN != Normalize(s) || len(d.VIN) != Length || !utf8.ValidString(d.VIN) {
			t.Fatalf("Decode(%q).VIN = %q, want the normalized input of 17 characters", s, d.VIN)
		}
		if d.WMI+d.VDS+d.VIS != d.VIN || d.Plant+d.Serial != d.VIS[1:] {
			t.Fatalf("Decode(%q): sections %q %q %q %q %q do not make up the VIN", s, d.WMI, d.VDS, d.VIS, d.Plant, d.Serial)
		}
		again, err := decode(d.VIN, maxYear)
		if err != nil || !reflect.DeepEqual(again, d) {
			t.Fatalf("Decode(%q) does not round-trip: %+v, %v", d.VIN, again, err)
		}
		cd := d.CheckDigit
		if len(cd.Expected) != 1 || !strings.Contains("0123456789X", cd.Expected) {
			t.Fatalf("Decode(%q): expected check digit %q", s, cd.Expected)
		}
		if cd.Found != d.VIN[8:9] || cd.Valid != (cd.Expected == cd.Found) {
			t.Fatalf("Decode(%q): check digit %+v", s, cd)
		}
		// Putting the expected digit in place must make the VIN valid.
		fixed := d.VIN[:8] + cd.Expected + d.VIN[9:]
		if got := checkDigit(fixed); got != cd.Expected {
			t.Fatalf("check digit of %q = %q, want %q", fixed, got, cd.Expected)
		}
		if cd.Advisory != (d.Region != "North America") {
			t.Fatalf("Decode(%q): advisory %v in region %q", s, cd.Advisory, d.Region)
		}
		if len(d.ModelYears) > 2 {
			t.Fatalf("Decode(%q): %d model years", s, len(d.ModelYears))
		}
		for _, y := range d.ModelYears {
			if y < 1980 || y > maxYear || (y-1980)%30 != strings.IndexByte(yearCodes, d.VIN[9]) {
				t.Fatalf("Decode(%q): model year %d does not fit code %q", s, y, d.VIN[9])
			}
		}
	})
}
