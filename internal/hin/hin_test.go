package hin

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"
)

const testMaxYear = 2027

var testList = []Manufacturer{
	{MIC: "BWC", Company: "BOSTON WHALER INC", City: "EDGEWATER", State: "FL"},
	{MIC: "gvz", Company: "LOWER CASE CO"},
}

// The examples of 33 CFR 181.25 and the Coast Guard's HIN guidance, and the
// decades the open-source decoders get wrong, decode as the text says.
func TestDecodeRegulationExamples(t *testing.T) {
	t.Parallel()
	d := newDecoder(nil, testMaxYear)
	for _, tc := range []struct {
		in          string
		format      Format
		month, year int
		modelYear   int // 0: none
		warnings    []int
	}{
		{"BWC12345J910", FormatCurrent, 10, 2009, 2010, nil},     // October 2009, model year 2010
		{"BOA13579B607", FormatCurrent, 2, 2006, 2007, []int{1}}, // guidance: February 2006, before model year 2007 opens
		{"JLD12345C585", FormatCurrent, 3, 1985, 1985, nil},      // March 1985, model year 1985
		{"JLD12345K485", FormatCurrent, 11, 1984, 1985, nil},     // November 1984, model year 1985
		{"ABC12345K899", FormatCurrent, 11, 1998, 1999, nil},     // the decade before the century
		{"ABC12345L900", FormatCurrent, 12, 1999, 2000, nil},     // across the century
		{"ABC12345F617", FormatCurrent, 6, 2016, 2017, nil},      // June opens model year 2017
		{"ABC12345F516", FormatCurrent, 6, 2015, 2016, []int{1}}, // but not model year 2016
		{"ABC12345G415", FormatCurrent, 7, 2014, 2015, []int{1}}, // July belongs to the model year before
		{"ABC12345A226", FormatCurrent, 1, 2022, 2026, []int{1}}, // years before the model year
		{"ABC12345C382", FormatCurrent, 3, 1983, 1982, []int{1, 3}},
		{"BOA13579M84E", FormatModelYear, 12, 1983, 1984, nil}, // guidance: model year 1984, December
		{"JLD12345M82H", FormatModelYear, 3, 1982, 1982, nil},  // M82H: March 1982
		{"JLD12345M73A", FormatModelYear, 8, 1972, 1973, []int{3}},
		{"ABC123450683", FormatStraightYear, 6, 1983, 0, nil}, // June 1983
		{"ABC123451172", FormatStraightYear, 11, 1972, 0, nil},
		{"ABC123450885", FormatStraightYear, 8, 1985, 0, []int{3}},
		{"us-bwc12345-j910", FormatCurrent, 10, 2009, 2010, nil},
		{"FR-BEN12345A606", FormatEUCIN, 1, 2006, 2006, nil},
		{"DEABC12345L324", FormatEUCIN, 12, 2023, 2024, nil},
	} {
		got, err := d.Decode(tc.in)
		if err != nil {
			t.Errorf("Decode(%q): %v", tc.in, err)
			continue
		}
		my := 0
		if got.ModelYear != nil {
			my = *got.ModelYear
		}
		var codes []int
		for _, w := range got.Warnings {
			codes = append(codes, w.Code)
		}
		if got.Format != tc.format || got.ProductionMonth != tc.month || got.ProductionYear != tc.year || my != tc.modelYear || !slices.Equal(codes, tc.warnings) {
			t.Errorf("Decode(%q) = %s %d/%d model year %d warnings %v, want %s %d/%d model year %d warnings %v",
				tc.in, got.Format, got.ProductionMonth, got.ProductionYear, my, got.Warnings, tc.format, tc.month, tc.year, tc.modelYear, tc.warnings)
		}
	}
}

func TestDecodeParts(t *testing.T) {
	t.Parallel()
	d := newDecoder(testList, testMaxYear)
	got, err := d.Decode(" us-BWC 12345 J9 10 ")
	if err != nil {
		t.Fatal(err)
	}
	if got.HIN != "BWC12345J910" || got.MIC != "BWC" || got.Serial != "12345" || got.Country == nil || got.Country.Code != "US" ||
		got.Manufacturer == nil || got.Manufacturer.Company != "BOSTON WHALER INC" || got.Issuer != IssuerManufacturer || got.IssuingState != nil {
		t.Errorf("Decode = %+v", got)
	}
	if got, _ := d.Decode("GVZ12345J910"); got.Manufacturer == nil || got.Manufacturer.Company != "LOWER CASE CO" {
		t.Errorf("a lower-case MIC of the list is not found: %+v", got)
	}
	got, _ = d.Decode("ZZY12345J910")
	if len(got.Warnings) != 1 || got.Warnings[0].Code != CodeUnknownMIC || got.Warnings[0].Text[:4] != "2 - " {
		t.Errorf("unknown MIC: warnings %v", got.Warnings)
	}
	fr, _ := d.Decode("FRBEN12345A606")
	if fr.Country == nil || fr.Country.Name != "France" || fr.HIN != "BEN12345A606" {
		t.Errorf("CIN country: %+v", fr.Country)
	}
}

func TestDecodeIssuers(t *testing.T) {
	t.Parallel()
	d := newDecoder(nil, testMaxYear)
	for in, want := range map[string][2]string{
		"FLZ12345A818": {"state", "FL"}, "CFZ12345A818": {"state", "CA"}, "WNZ12345A818": {"state", "WA"},
		"CMZ12345A818": {"state", "MP"}, "USZ12345A818": {"us_coast_guard", ""}, "ZZZ12345A818": {"canadian_coast_guard", ""},
		"AAZ12345A818": {"manufacturer", ""}, "QQQ12345A818": {"canadian_coast_guard", ""}, "HQZ12345A818": {"us_coast_guard", ""},
	} {
		got, err := d.Decode(in)
		st := ""
		if got.IssuingState != nil {
			st = *got.IssuingState
		}
		if err != nil || string(got.Issuer) != want[0] || st != want[1] {
			t.Errorf("Decode(%q) issuer %s %q, %v; want %v", in, got.Issuer, st, err, want)
		}
	}
	if len(stateMICs) != 56 {
		t.Errorf("%d State codes, want 56 (50 States, DC and 5 territories)", len(stateMICs))
	}
}

func TestDecodeErrors(t *testing.T) {
	t.Parallel()
	d := newDecoder(nil, testMaxYear)
	for _, tc := range []struct {
		in   string
		code int
		pos  int
		char string
	}{
		{"", CodeLength, 0, ""},
		{"BWC12345J91", CodeLength, 0, ""},
		{"BWC12345J9100", CodeLength, 0, ""},
		{"BWC12O45J910", CodeCharacter, 6, "O"},
		{"BWC1234QJ910", CodeCharacter, 8, "Q"},
		{"BWC1234ÉJ910", CodeCharacter, 8, "É"},
		{"BW#12345J910", CodeCharacter, 3, "#"},
		{"BWC12345Z910", CodeDate, 9, "Z"},
		{"BWC12345J9A0", CodeDate, 11, "A"},
		{"BWC123451383", CodeDate, 9, "13"},
		{"BWC123450083", CodeDate, 9, "00"},
		{"BWC12345M8X1", CodeDate, 11, "X"},
		{"BWC12345M84M", CodeDate, 12, "M"},
		{"XXBWC12345J910", CodeCountry, 1, "XX"},
		{"12BWC12345J910", CodeCharacter, 1, "1"},
		{"FRBEN12345M840", CodeDate, 11, "M"},
	} {
		_, err := d.Decode(tc.in)
		var e *Error
		if !errors.As(err, &e) || e.Code != tc.code || e.Position != tc.pos || e.Char != tc.char || e.Rule == "" {
			t.Errorf("Decode(%q) error %#v, want code %d at %d %q", tc.in, err, tc.code, tc.pos, tc.char)
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	d := newDecoder(testList, testMaxYear)
	hins := []string{"BWC12345J910", "BOA13579M84E", "ABC123450683", "FR-BEN12345A606", "bwc12345j910"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := d.Decode(hins[i%len(hins)]); err != nil {
			b.Fatal(err)
		}
	}
}

// TestNewDecoderYears: a two-digit model year up to next year is 20xx, a
// later one 19xx, as of the decode.
func TestNewDecoderYears(t *testing.T) {
	t.Parallel()
	d := NewDecoder(nil)
	next := time.Now().Year() + 1
	for yy, want := range map[int]int{next % 100: next, (next + 1) % 100: next + 1 - 100} {
		h := fmt.Sprintf("ABC12345A%d%02d", (want-1)%10, yy)
		got, err := d.Decode(h)
		if err != nil || got.ModelYear == nil || *got.ModelYear != want {
			t.Errorf("Decode(%q) model year %v, %v; want %d", h, got.ModelYear, err, want)
		}
	}
}

// TestLookupPacked: the packed list answers as a map of its entries would:
// either case, the last of a MIC given twice, nothing for an unknown MIC or
// one not 3 characters long, and an empty list is still a list.
func TestLookupPacked(t *testing.T) {
	t.Parallel()
	d := newDecoder([]Manufacturer{
		{MIC: "ZZZ", Company: "LAST IN ORDER"},
		{MIC: "abc", Company: "FIRST", Address: "1 A ST", City: "X", State: "FL"},
		{MIC: "ABC", Company: "SECOND", City: "Y"},
		{MIC: "AB", Company: "TOO SHORT"},
		{MIC: "BWC", Company: "BOSTON WHALER INC", City: "EDGEWATER", State: "FL"},
	}, testMaxYear)
	for _, tc := range []struct {
		mic  string
		want *Manufacturer
	}{
		{"abc", &Manufacturer{MIC: "ABC", Company: "SECOND", City: "Y"}},
		{"bwc", &Manufacturer{MIC: "BWC", Company: "BOSTON WHALER INC", City: "EDGEWATER", State: "FL"}},
		{"ZZZ", &Manufacturer{MIC: "ZZZ", Company: "LAST IN ORDER"}},
		{"AB", nil}, {"AAA", nil}, {"ZZZZ", nil}, {"", nil},
	} {
		got, ok := d.Lookup(tc.mic)
		if ok != (tc.want != nil) || (ok && *got != *tc.want) {
			t.Errorf("Lookup(%q) = %+v, %v; want %+v", tc.mic, got, ok, tc.want)
		}
	}
	if d.Len() != 3 {
		t.Errorf("Len = %d, want 3", d.Len())
	}
	empty := newDecoder([]Manufacturer{}, testMaxYear)
	r, err := empty.Decode("BWC12345L718")
	if err != nil || r.Manufacturer != nil || len(r.Warnings) != 1 || r.Warnings[0].Code != CodeUnknownMIC {
		t.Errorf("an empty list: %+v, %v; want warning %d", r, err, CodeUnknownMIC)
	}
	r, err = newDecoder(nil, testMaxYear).Decode("BWC12345L718")
	if err != nil || len(r.Warnings) != 0 {
		t.Errorf("no list: %+v, %v; want no warning", r, err)
	}
}
