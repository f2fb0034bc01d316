package tire_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/tire"
)

func TestParseValid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		in    string
		want  tire.Size
		canon string
	}{
		{
			name:  "euro metric",
			in:    "225/45R17",
			want:  tire.Size{Kind: tire.Metric, WidthMM: 225, AspectRatio: 45, Construction: "R", RimIn: 17},
			canon: "225/45R17",
		},
		{
			name:  "P-metric",
			in:    "P225/45R17",
			want:  tire.Size{Kind: tire.Metric, Service: "P", WidthMM: 225, AspectRatio: 45, Construction: "R", RimIn: 17},
			canon: "P225/45R17",
		},
		{
			name:  "LT-metric",
			in:    "LT265/70R17",
			want:  tire.Size{Kind: tire.Metric, Service: "LT", WidthMM: 265, AspectRatio: 70, Construction: "R", RimIn: 17},
			canon: "LT265/70R17",
		},
		{
			name:  "ZR construction",
			in:    "245/40ZR18",
			want:  tire.Size{Kind: tire.Metric, WidthMM: 245, AspectRatio: 40, Construction: "ZR", RimIn: 18},
			canon: "245/40ZR18",
		},
		{
			name:  "P-metric ZR with load and speed",
			in:    "P245/40ZR18 97Y",
			want:  tire.Size{Kind: tire.Metric, Service: "P", WidthMM: 245, AspectRatio: 40, Construction: "ZR", RimIn: 18, LoadIndex: 97, SpeedRating: "Y"},
			canon: "P245/40ZR18 97Y",
		},
		{
			name:  "diagonal construction",
			in:    "205/75D15",
			want:  tire.Size{Kind: tire.Metric, WidthMM: 205, AspectRatio: 75, Construction: "D", RimIn: 15},
			canon: "205/75D15",
		},
		{
			name:  "belted bias construction",
			in:    "205/75B15",
			want:  tire.Size{Kind: tire.Metric, WidthMM: 205, AspectRatio: 75, Construction: "B", RimIn: 15},
			canon: "205/75B15",
		},
		{
			name:  "load index and speed rating",
			in:    "225/45R17 94W",
			want:  tire.Size{Kind: tire.Metric, WidthMM: 225, AspectRatio: 45, Construction: "R", RimIn: 17, LoadIndex: 94, SpeedRating: "W"},
			canon: "225/45R17 94W",
		},
		{
			name:  "lower case with three digit load index",
			in:    "lt275/65r18 123s",
			want:  tire.Size{Kind: tire.Metric, Service: "LT", WidthMM: 275, AspectRatio: 65, Construction: "R", RimIn: 18, LoadIndex: 123, SpeedRating: "S"},
			canon: "LT275/65R18 123S",
		},
		{
			name:  "surrounding and duplicate whitespace",
			in:    "  \t225/45R17   94W \n",
			want:  tire.Size{Kind: tire.Metric, WidthMM: 225, AspectRatio: 45, Construction: "R", RimIn: 17, LoadIndex: 94, SpeedRating: "W"},
			canon: "225/45R17 94W",
		},
		{
			name:  "lower range bounds",
			in:    "105/20R10 60L",
			want:  tire.Size{Kind: tire.Metric, WidthMM: 105, AspectRatio: 20, Construction: "R", RimIn: 10, LoadIndex: 60, SpeedRating: "L"},
			canon: "105/20R10 60L",
		},
		{
			name:  "upper range bounds",
			in:    "455/95R30 150Z",
			want:  tire.Size{Kind: tire.Metric, WidthMM: 455, AspectRatio: 95, Construction: "R", RimIn: 30, LoadIndex: 150, SpeedRating: "Z"},
			canon: "455/95R30 150Z",
		},
		{
			name:  "flotation",
			in:    "33x12.50R15",
			want:  tire.Size{Kind: tire.Flotation, WidthMM: 12.5 * 25.4, Construction: "R", RimIn: 15, DiameterIn: 33},
			canon: "33x12.50R15",
		},
		{
			name:  "flotation upper case X with LT suffix",
			in:    "35X12.50R17 LT",
			want:  tire.Size{Kind: tire.Flotation, Service: "LT", WidthMM: 12.5 * 25.4, Construction: "R", RimIn: 17, DiameterIn: 35},
			canon: "35x12.50R17LT",
		},
		{
			name:  "flotation attached LT suffix",
			in:    "35x12.50r17lt",
			want:  tire.Size{Kind: tire.Flotation, Service: "LT", WidthMM: 12.5 * 25.4, Construction: "R", RimIn: 17, DiameterIn: 35},
			canon: "35x12.50R17LT",
		},
		{
			name:  "flotation LT prefix with load and speed",
			in:    "LT35x12.50R20 121Q",
			want:  tire.Size{Kind: tire.Flotation, Service: "LT", WidthMM: 12.5 * 25.4, Construction: "R", RimIn: 20, DiameterIn: 35, LoadIndex: 121, SpeedRating: "Q"},
			canon: "35x12.50R20LT 121Q",
		},
		{
			name:  "flotation LT after load and speed",
			in:    "35x12.50R20 121Q LT",
			want:  tire.Size{Kind: tire.Flotation, Service: "LT", WidthMM: 12.5 * 25.4, Construction: "R", RimIn: 20, DiameterIn: 35, LoadIndex: 121, SpeedRating: "Q"},
			canon: "35x12.50R20LT 121Q",
		},
		{
			name:  "flotation with load and speed",
			in:    "31x10.50R15 109S",
			want:  tire.Size{Kind: tire.Flotation, WidthMM: 10.5 * 25.4, Construction: "R", RimIn: 15, DiameterIn: 31, LoadIndex: 109, SpeedRating: "S"},
			canon: "31x10.50R15 109S",
		},
		{
			name:  "flotation one decimal width",
			in:    "31x10.5R15",
			want:  tire.Size{Kind: tire.Flotation, WidthMM: 10.5 * 25.4, Construction: "R", RimIn: 15, DiameterIn: 31},
			canon: "31x10.50R15",
		},
		{
			name:  "flotation whole inch width",
			in:    "33x12R15",
			want:  tire.Size{Kind: tire.Flotation, WidthMM: 12 * 25.4, Construction: "R", RimIn: 15, DiameterIn: 33},
			canon: "33x12R15",
		},
		{
			name:  "flotation half inch rim",
			in:    "37x12.50R16.5",
			want:  tire.Size{Kind: tire.Flotation, WidthMM: 12.5 * 25.4, Construction: "R", RimIn: 16.5, DiameterIn: 37},
			canon: "37x12.50R16.5",
		},
		{
			name:  "flotation half inch diameter",
			in:    "38.5x14.50R16.5",
			want:  tire.Size{Kind: tire.Flotation, WidthMM: 14.5 * 25.4, Construction: "R", RimIn: 16.5, DiameterIn: 38.5},
			canon: "38.5x14.50R16.5",
		},
		{
			name:  "flotation bias",
			in:    "33x12.50D15",
			want:  tire.Size{Kind: tire.Flotation, WidthMM: 12.5 * 25.4, Construction: "D", RimIn: 15, DiameterIn: 33},
			canon: "33x12.50D15",
		},
		{
			name:  "flotation tall and narrow",
			in:    "33x9.50R15",
			want:  tire.Size{Kind: tire.Flotation, WidthMM: 9.5 * 25.4, Construction: "R", RimIn: 15, DiameterIn: 33},
			canon: "33x9.50R15",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tire.Parse(tt.in)
			if err != nil {
				t.Fatalf("Parse(%q): %v", tt.in, err)
			}
			if got != tt.want {
				t.Fatalf("Parse(%q)\n got %#v\nwant %#v", tt.in, got, tt.want)
			}
			if s := got.String(); s != tt.canon {
				t.Errorf("String() = %q, want %q", s, tt.canon)
			}
			again, err := tire.Parse(got.String())
			if err != nil {
				t.Fatalf("Parse(String()) = %v", err)
			}
			if again != got {
				t.Errorf("Parse(String()) = %#v, want %#v", again, got)
			}
		})
	}
}

func TestParseInvalid(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want string // substring of the error naming the faulty part
	}{
		{"empty", "", "empty"},
		{"only whitespace", " \t ", "empty"},
		{"not a size", "hello", "not a metric (225/45R17) or flotation (33x12.50R15) size"},
		{"dash instead of slash", "225-45R17", "not a metric"},
		{"missing width", "/45R17", "not a metric"},
		{"full-width digits", "２２５/45R17", "not a metric"},
		{"unknown prefix", "ST225/75R15", `unknown service prefix "ST"`},
		{"width too short", "22/45R17", `section width "22" must be 3 digits`},
		{"width too long", "2250/45R17", `section width "2250" must be 3 digits`},
		{"width with decimal", "22.5/45R17", `section width "22.5" must be 3 digits`},
		{"width leading zero", "095/45R17", `section width "095" has a leading zero`},
		{"width below range", "100/45R17", "section width 100 out of range 105..455"},
		{"width above range", "460/45R17", "section width 460 out of range 105..455"},
		{"missing aspect", "225/R17", "missing aspect ratio"},
		{"aspect one digit", "225/4R17", `aspect ratio "4" must be 2 digits`},
		{"aspect with decimal", "225/45.5R17", `aspect ratio "45.5" must be 2 digits`},
		{"aspect below range", "225/15R17", "aspect ratio 15 out of range 20..95"},
		{"aspect above range", "225/99R17", "aspect ratio 99 out of range 20..95"},
		{"missing construction", "225/45", "missing construction"},
		{"unknown construction", "225/45X17", `unknown construction "X"`},
		{"doubled construction", "225/45ZZ17", `unknown construction "ZZ"`},
		{"dash before construction", "225/45-R17", `unknown construction "-R"`},
		{"missing rim", "225/45R", "missing rim diameter"},
		{"rim one digit", "225/45R7", `rim diameter "7" must be 2 digits`},
		{"metric half inch rim", "225/45R17.5", `rim diameter "17.5" must be 2 digits`},
		{"rim above range", "225/45R35", "rim diameter 35 out of range 10..30"},
		{"rim leading zero", "225/45R09", `rim diameter "09" has a leading zero`},
		{"extra load marker attached", "225/45R17XL", `unexpected "XL" after rim diameter`},
		{"extra load marker separate", "225/45R17 94W XL", `unexpected "XL"`},
		{"metric LT suffix attached", "225/75R16LT", `"LT" suffix is only valid on flotation sizes`},
		{"metric LT suffix separate", "225/75R16 LT", `"LT" suffix is only valid on flotation sizes`},
		{"control character", "225/45R17\x00", `unexpected "\x00" after rim diameter`},
		{"load without speed", "225/45R17 94", "missing speed rating after load index 94"},
		{"speed without load", "225/45R17 W", `unexpected "W"`},
		{"unknown speed rating", "225/45R17 94X", `unknown speed rating "X"`},
		{"parenthesised speed rating", "225/45R17 94(Y)", `unknown speed rating "(Y)"`},
		{"long s is not S", "225/45R17 94\u017f", "unknown speed rating \"\u017f\""},
		{"dotless i is not I", "225/45R17 94\u0131", "unknown speed rating \"\u0131\""},
		{"two speed ratings", "225/45R17 94WW", `unknown speed rating "WW"`},
		{"load index one digit", "225/45R17 9W", `load index "9" must be 2-3 digits`},
		{"load index four digits", "225/45R17 1000W", `load index "1000" must be 2-3 digits`},
		{"load index leading zero", "225/45R17 094W", `load index "094" has a leading zero`},
		{"load index below range", "225/45R17 55W", "load index 55 out of range 60..150"},
		{"load index above range", "225/45R17 151W", "load index 151 out of range 60..150"},
		{"duplicate load index", "225/45R17 94W 95W", `unexpected "95W": load index already given`},
		{"dual load index", "LT275/65R18 123/120S", `dual load index "123/120S" is not supported`},
		{"P prefix on flotation", "P33x12.50R15", `"P" prefix is not valid on flotation sizes`},
		{"unknown flotation prefix", "XX33x12.50R15", `unknown service prefix "XX"`},
		{"flotation diameter three digits", "333x12.50R15", `overall diameter "333" must be 2 digits, optionally followed by .5`},
		{"flotation diameter quarter inch", "33.25x12.50R15", `overall diameter "33.25" must be 2 digits`},
		{"flotation diameter below range", "19x8.50R10", "overall diameter 19 out of range 20..50"},
		{"flotation diameter above range", "51x12.50R15", "overall diameter 51 out of range 20..50"},
		{"flotation missing width", "33xR15", "missing section width"},
		{"flotation width two dots", "33x12..5R15", `section width "12..5" must be inches like 12.50`},
		{"flotation width three decimals", "33x12.505R15", `section width "12.505" must be inches like 12.50`},
		{"flotation width trailing dot", "33x12.R15", `section width "12." must be inches like 12.50`},
		{"flotation width leading zero", "33x09.50R15", `section width "09.50" has a leading zero`},
		{"flotation width below range", "33x5.50R15", "section width 5.50 in out of range 6..20"},
		{"flotation width above range", "45x21R15", "section width 21 in out of range 6..20"},
		{"flotation ZR", "33x12.50ZR15", `unknown construction "ZR" for flotation size`},
		{"flotation bias dash", "33x12.50-15", `unknown construction "-" for flotation size`},
		{"flotation missing construction", "33x12.50", "missing construction"},
		{"flotation missing rim", "33x12.50R", "missing rim diameter"},
		{"flotation quarter inch rim", "33x12.50R16.25", `rim diameter "16.25" must be 2 digits, optionally followed by .5`},
		{"flotation rim above range", "45x12.50R32", "rim diameter 32 out of range 10..30"},
		{"flotation trailing junk", "33x12.50R15XL", `unexpected "XL" after rim diameter`},
		{"flotation duplicate LT prefix and suffix", "LT33x12.50R15LT", `duplicate "LT"`},
		{"flotation duplicate LT prefix and token", "LT33x12.50R15 LT", `duplicate "LT"`},
		{"flotation duplicate LT tokens", "33x12.50R15 LT LT", `duplicate "LT"`},
		{"flotation diameter equals rim", "20x12.50R20", "overall diameter 20 in does not exceed rim diameter 20 in"},
		{"flotation diameter below rim", "20x12.50R22", "overall diameter 20 in does not exceed rim diameter 22 in"},
		{"flotation sidewall too short", "24x12.50R22", "sidewall 1 in on a 12.50 in width is implausible (implied aspect ratio 8, want 20..120)"},
		{"flotation sidewall too tall", "50x6R10", "sidewall 20 in on a 6 in width is implausible (implied aspect ratio 333, want 20..120)"},
		{"too long", strings.Repeat("9", 300), "too long (300 bytes)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tire.Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %#v, want error containing %q", tt.in, got, tt.want)
			}
			if !errors.Is(err, tire.ErrSyntax) {
				t.Errorf("errors.Is(%v, ErrSyntax) = false", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not contain %q", err, tt.want)
			}
			if got != (tire.Size{}) {
				t.Errorf("Parse returned %#v alongside an error, want zero Size", got)
			}
		})
	}
}

func TestParseErrorMessage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   string
		want string
	}{
		{
			name: "names input and part",
			in:   "225/45X17",
			want: `tire size "225/45X17": unknown construction "X"`,
		},
		{
			name: "quotes input as given",
			in:   " 225/45x17 ",
			want: `tire size " 225/45x17 ": unknown construction "X"`,
		},
		{
			name: "truncates long input",
			in:   strings.Repeat("a", 300),
			want: `tire size "` + strings.Repeat("a", 40) + `...": too long (300 bytes)`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tire.Parse(tt.in)
			if err == nil || err.Error() != tt.want {
				t.Errorf("Parse(%q) error = %v, want %s", tt.in, err, tt.want)
			}
		})
	}
}

func TestStringUnknownKind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		size tire.Size
	}{
		{"zero", tire.Size{}},
		{"unknown kind", tire.Size{Kind: "bias-ply", WidthMM: 225, RimIn: 17}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if s := tt.size.String(); s != "" {
				t.Errorf("String() = %q, want empty", s)
			}
		})
	}
}

func TestCanonical(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		err      string // substring of the error, when in is no tire size
	}{
		{in: "255/50R20", want: "255/50R20"},
		{in: "255/50R20 109V", want: "255/50R20"},
		{in: "P275/55R20", want: "275/55R20"},
		{in: "p275/55r20 113t", want: "275/55R20"},
		{in: "275/55 R 20", want: "275/55R20"},
		{in: "275 / 55 R20 113T", want: "275/55R20"},
		{in: "  275/55R 20\t", want: "275/55R20"},
		{in: "245/35ZR19", want: "245/35ZR19"},
		{in: "245/35zr19 92Y", want: "245/35ZR19"},
		{in: "245/35 ZR 19", want: "245/35ZR19"},
		{in: "LT285/70R17", want: "LT285/70R17"},
		{in: "lt285/70r17 121s", want: "LT285/70R17"},
		{in: "LT 285/70 R17", want: "LT285/70R17"},
		{in: "35x12.50R17LT", want: "35x12.50R17LT"},
		{in: "35X12.50R17 LT", want: "35x12.50R17LT"},
		{in: "LT35x12.50R17", want: "35x12.50R17LT"},
		{in: "35x12.5R17 LT 121Q", want: "35x12.50R17LT"},
		{in: "35 x 12.50 R17 LT", want: "35x12.50R17LT"},
		{in: "33x12.50R15", want: "33x12.50R15"},
		{in: "37x12.50R16.5", want: "37x12.50R16.5"},
		{in: "", err: "empty"},
		{in: "275/55", err: "missing construction"},
		{in: "275/55 R", err: "missing rim diameter"},
		{in: "not a tire", err: "not a metric (225/45R17) or flotation (33x12.50R15) size"},
		{in: "275/55R20 113", err: "missing speed rating after load index 113"},
		{in: "225/75R16 LT", err: `"LT" suffix is only valid on flotation sizes`},
	}
	for _, tt := range tests {
		got, err := tire.Canonical(tt.in)
		if tt.err != "" {
			if err == nil || !errors.Is(err, tire.ErrSyntax) || !strings.Contains(err.Error(), tt.err) || got != "" {
				t.Errorf("Canonical(%q) = %q, %v; want \"\" and an ErrSyntax containing %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Canonical(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			continue
		}
		if again, err := tire.Canonical(got); err != nil || again != got {
			t.Errorf("Canonical(%q) = %q, %v; want it unchanged", got, again, err)
		}
	}
}
