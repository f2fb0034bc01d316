package vin

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"1hgcm82633a004352", "1HGCM82633A004352"},
		{"  1HGCM82633A004352\t\n", "1HGCM82633A004352"},
		{"wp0zzz99zts392124", "WP0ZZZ99ZTS392124"},
		// Only ASCII is upper-cased: the long s must not become an S.
		{"ſ", "ſ"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := Normalize(tt.in); got != tt.want {
			t.Errorf("Normalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in       string
		wantMsg  string // "" means valid
		position int
		char     string
		length   int
	}{
		{in: "1HGCM82633A004352"},
		{in: " 1hgcm82633a004352 "},
		{in: "WP0ZZZ99ZTS392124"}, // a wrong check digit is not a validation error
		{in: "", wantMsg: "the VIN has 0 characters, but a VIN has exactly 17", length: 0},
		{in: "1", wantMsg: "the VIN has 1 character, but a VIN has exactly 17", length: 1},
		{in: "1HGCM82633A00435", wantMsg: "the VIN has 16 characters, but a VIN has exactly 17", length: 16},
		{in: "1HGCM82633A0043522", wantMsg: "the VIN has 18 characters, but a VIN has exactly 17", length: 18},
		{
			in:      "1HGCM826O3A004352",
			wantMsg: `character 9 is "O": the letters I, O and Q never appear in a VIN`,
			length:  17, position: 9, char: "O",
		},
		{
			in:      "iHGCM82633A004352", // lower case i is still an I
			wantMsg: `character 1 is "I": the letters I, O and Q never appear in a VIN`,
			length:  17, position: 1, char: "I",
		},
		{
			in:      "1HGCM82633A00435Q",
			wantMsg: `character 17 is "Q": the letters I, O and Q never appear in a VIN`,
			length:  17, position: 17, char: "Q",
		},
		{
			in:      "1HGCM-2633A004352",
			wantMsg: `character 6 is "-": a VIN has only the letters A to Z (except I, O and Q) and the digits 0 to 9`,
			length:  17, position: 6, char: "-",
		},
		{
			in:      "1HGCM 2633A004352",
			wantMsg: `character 6 is " ": a VIN has only the letters A to Z (except I, O and Q) and the digits 0 to 9`,
			length:  17, position: 6, char: " ",
		},
		{
			// Positions and lengths count characters, not bytes.
			in:      "1HGCMÉ2633A004352",
			wantMsg: `character 6 is "É": a VIN has only the letters A to Z (except I, O and Q) and the digits 0 to 9`,
			length:  17, position: 6, char: "É",
		},
		{
			in:      "ſHGCM82633A004352",
			wantMsg: `character 1 is "ſ": a VIN has only the letters A to Z (except I, O and Q) and the digits 0 to 9`,
			length:  17, position: 1, char: "ſ",
		},
	}
	for _, tt := range tests {
		err := Validate(tt.in)
		if tt.wantMsg == "" {
			if err != nil {
				t.Errorf("Validate(%q) = %v, want nil", tt.in, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Validate(%q) = %#v, want an *Error", tt.in, err)
			continue
		}
		if e.Error() != tt.wantMsg {
			t.Errorf("Validate(%q) message\n got %s\nwant %s", tt.in, e.Error(), tt.wantMsg)
		}
		if e.Position != tt.position || e.Char != tt.char || e.Length != tt.length {
			t.Errorf("Validate(%q) = {Length %d, Position %d, Char %q}, want {%d, %d, %q}",
				tt.in, e.Length, e.Position, e.Char, tt.length, tt.position, tt.char)
		}
		// Messages are one sentence for an API user.
		if strings.Count(e.Error(), ". ") > 0 || strings.HasSuffix(e.Error(), ".") {
			t.Errorf("Validate(%q) message %q is not a single sentence without a full stop", tt.in, e.Error())
		}
		if _, derr := Decode(tt.in); derr == nil || derr.Error() != err.Error() {
			t.Errorf("Decode(%q) error = %v, want the error of Validate", tt.in, derr)
		}
	}
}

func TestCheckDigit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		vin, expected string
	}{
		{"11111111111111111", "1"},
		{"1M8GDM9AXKP042788", "X"}, // the worked example of the remainder 10
		{"1HGCM82633A004352", "3"},
		{"JH4DC4340RS003205", "0"},
		{"1HD1MAM20DB857910", "0"},
		{"WP0ZZZ99ZTS392124", "8"},
		{"SALGS2RE5KA123456", "8"},
		// Every letter, to pin the transliteration table.
		{"ABCDEFGHXJKLMNPRS", "5"},
		{"TUVWXYZ12X3456789", "8"},
	}
	for _, tt := range tests {
		if got := checkDigit(tt.vin); got != tt.expected {
			t.Errorf("checkDigit(%s) = %s, want %s", tt.vin, got, tt.expected)
		}
	}
}

func TestTransliterate(t *testing.T) {
	t.Parallel()
	// The published table, written out rather than computed, so that a
	// slip in the ranges of transliterate shows.
	want := map[byte]int{
		'A': 1, 'B': 2, 'C': 3, 'D': 4, 'E': 5, 'F': 6, 'G': 7, 'H': 8,
		'J': 1, 'K': 2, 'L': 3, 'M': 4, 'N': 5, 'P': 7, 'R': 9,
		'S': 2, 'T': 3, 'U': 4, 'V': 5, 'W': 6, 'X': 7, 'Y': 8, 'Z': 9,
		'0': 0, '1': 1, '2': 2, '3': 3, '4': 4, '5': 5, '6': 6, '7': 7, '8': 8, '9': 9,
	}
	for c, v := range want {
		if got := transliterate(c); got != v {
			t.Errorf("transliterate(%q) = %d, want %d", c, got, v)
		}
	}
	for _, c := range []byte("IOQ-a") {
		if got := transliterate(c); got != 0 {
			t.Errorf("transliterate(%q) = %d, want 0", c, got)
		}
	}
}

func TestModelYears(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		code, pos byte
		maxYear   int
		want      []int
	}{
		{"numeric position 7 prefers the first cycle", 'A', '3', 2040, []int{1980, 2010}},
		{"letter position 7 prefers the second cycle", 'A', 'C', 2040, []int{2010, 1980}},
		{"Y is the last letter", 'Y', '1', 2040, []int{2000, 2030}},
		{"1 follows Y", '1', 'A', 2040, []int{2031, 2001}},
		{"9 ends the cycle", '9', 'A', 2040, []int{2039, 2009}},
		{"R skips Q", 'R', 'A', 2040, []int{2024, 1994}},
		{"future years are dropped", 'Y', 'A', 2027, []int{2000}},
		{"next year is possible", 'V', 'A', 2027, []int{2027, 1997}},
		{"the year after next is not", 'W', 'A', 2027, []int{1998}},
		{"U is not a year code", 'U', 'A', 2040, []int{}},
		{"Z is not a year code", 'Z', '1', 2040, []int{}},
		{"0 is not a year code", '0', '1', 2040, []int{}},
		{"nothing before 1980", 'A', '1', 1979, []int{}},
	}
	for _, tt := range tests {
		got := modelYears(tt.code, tt.pos, tt.maxYear)
		if got == nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: modelYears(%q, %q, %d) = %#v, want %v", tt.name, tt.code, tt.pos, tt.maxYear, got, tt.want)
		}
	}
	// Each code of the cycle stands for its own year: no two codes share one.
	seen := map[int]byte{}
	for i := range len(yearCodes) {
		y := modelYears(yearCodes[i], '1', 2100)[0]
		if c := YearCode(y); c != yearCodes[i] || YearCode(y+30) != c {
			t.Errorf("YearCode(%d) = %q, YearCode(%d) = %q, want %q", y, c, y+30, YearCode(y+30), yearCodes[i])
		}
		if y != 1980+i {
			t.Errorf("code %q = %d, want %d", yearCodes[i], y, 1980+i)
		}
		if c, dup := seen[y]; dup {
			t.Errorf("codes %q and %q both give %d", c, yearCodes[i], y)
		}
		seen[y] = yearCodes[i]
	}
	if len(yearCodes) != 30 {
		t.Errorf("the cycle has %d codes, want 30", len(yearCodes))
	}
}

func TestLookupWMI(t *testing.T) {
	t.Parallel()
	tests := []struct {
		wmi, region, country string
	}{
		{"1FT", "North America", "United States"},
		{"4S4", "North America", "United States"},
		{"5YJ", "North America", "United States"},
		{"2HG", "North America", "Canada"},
		{"3VW", "North America", "Mexico"},
		{"3WK", "North America", "Mexico"},
		{"3X1", "North America", "Costa Rica"},
		{"371", "North America", "Costa Rica"},
		{"381", "North America", ""},
		{"JHM", "Asia", "Japan"},
		{"J0A", "Asia", "Japan"},
		{"KMH", "Asia", "South Korea"},
		{"KNA", "Asia", "South Korea"},
		{"KS1", "Asia", ""},
		{"LVS", "Asia", "China"},
		{"MA3", "Asia", "India"},
		{"NMT", "Asia", "Turkey"},
		{"SAJ", "Europe", "United Kingdom"},
		{"SMT", "Europe", "United Kingdom"},
		{"SNT", "Europe", "Germany"},
		{"SUU", "Europe", "Poland"},
		{"S1A", "Europe", "Latvia"},
		{"S5A", "Europe", ""},
		{"TMB", "Europe", "Czech Republic"},
		{"TRU", "Europe", "Hungary"},
		{"T1A", "Europe", "Portugal"},
		{"U5Y", "Europe", "Slovakia"},
		{"UU1", "Europe", "Romania"},
		{"VF1", "Europe", "France"},
		{"VR1", "Europe", "France"},
		{"VSS", "Europe", "Spain"},
		{"VXK", "Europe", ""},
		{"V0A", "Europe", "Estonia"},
		{"WBA", "Europe", "Germany"},
		{"W0L", "Europe", "Germany"},
		{"XTA", "Europe", "Russia"},
		{"X4X", "Europe", "Russia"},
		{"XX1", "Europe", "Luxembourg"},
		{"YV1", "Europe", "Sweden"},
		{"YS3", "Europe", "Sweden"},
		{"YK1", "Europe", "Finland"},
		{"ZFF", "Europe", "Italy"},
		{"ZS1", "Europe", ""},
		{"AAV", "Africa", "South Africa"},
		{"AJ1", "Africa", ""},
		{"GA1", "Africa", ""},
		{"6G1", "Oceania", "Australia"},
		{"7AT", "Oceania", "New Zealand"},
		{"7SA", "North America", "United States"},
		{"7FC", "North America", "United States"},
		{"8AP", "South America", "Argentina"},
		{"9BW", "South America", "Brazil"},
		{"93H", "South America", "Brazil"},
		{"92A", "South America", "Trinidad and Tobago"},
		{"90A", "South America", ""},
		{"0AB", "", ""},
	}
	for _, tt := range tests {
		region, country := lookupWMI(tt.wmi[0], tt.wmi[1])
		if region != tt.region || country != tt.country {
			t.Errorf("lookupWMI(%s) = %q, %q, want %q, %q", tt.wmi, region, country, tt.region, tt.country)
		}
	}
}

// TestCountryTable checks the table itself: every range lies within one
// first character, runs forward, uses only VIN characters, and overlaps
// no other range, so the order of the rows cannot change an answer.
func TestCountryTable(t *testing.T) {
	t.Parallel()
	owner := map[string]string{}
	for _, r := range countries {
		if len(r.from) != 2 || len(r.to) != 2 || r.from[0] != r.to[0] {
			t.Errorf("range %s-%s: want two characters with the same first", r.from, r.to)
			continue
		}
		if regionOf(r.from[0]) == "" {
			t.Errorf("range %s-%s: first character has no region", r.from, r.to)
		}
		lo, hi := strings.IndexByte(wmiOrder, r.from[1]), strings.IndexByte(wmiOrder, r.to[1])
		if lo < 0 || hi < 0 || lo > hi {
			t.Errorf("range %s-%s: not a forward range of VIN characters", r.from, r.to)
			continue
		}
		if r.country == "" {
			t.Errorf("range %s-%s: no country", r.from, r.to)
		}
		for i := lo; i <= hi; i++ {
			key := string([]byte{r.from[0], wmiOrder[i]})
			if prev, dup := owner[key]; dup {
				t.Errorf("%s is in both %s and %s", key, prev, r.country)
			}
			owner[key] = r.country
		}
	}
}

func TestDecode(t *testing.T) {
	t.Parallel()
	d, err := decode(" 1hgcm82633a004352 ", 2027)
	if err != nil {
		t.Fatal(err)
	}
	want := Decoded{
		VIN:        "1HGCM82633A004352",
		WMI:        "1HG",
		VDS:        "CM8263",
		VIS:        "3A004352",
		Region:     "North America",
		Country:    "United States",
		CheckDigit: CheckDigit{Expected: "3", Found: "3", Valid: true, Advisory: false},
		ModelYears: []int{2003},
		Plant:      "A",
		Serial:     "004352",
	}
	if !reflect.DeepEqual(d, want) {
		t.Errorf("decode:\n got %+v\nwant %+v", d, want)
	}

	// A European VIN whose position 9 is a filler: the mismatch is
	// reported, advisory, and not an error.
	d, err = decode("WP0ZZZ99ZTS392124", 2027)
	if err != nil {
		t.Fatal(err)
	}
	if got := (CheckDigit{Expected: "8", Found: "Z", Valid: false, Advisory: true}); d.CheckDigit != got {
		t.Errorf("check digit = %+v, want %+v", d.CheckDigit, got)
	}
	if d.Region != "Europe" || d.Country != "Germany" {
		t.Errorf("region, country = %q, %q", d.Region, d.Country)
	}
	// T is 1996 or 2026; the numeric position 7 puts 1996 first.
	if !reflect.DeepEqual(d.ModelYears, []int{1996, 2026}) {
		t.Errorf("model years = %v, want [1996 2026]", d.ModelYears)
	}

	// A North American VIN with a wrong check digit is reported invalid
	// and not advisory; Decode still succeeds, because rejecting it is the
	// caller's decision (NHTSA decodes such VINs with a warning).
	d, err = decode("1HGCM82643A004352", 2027)
	if err != nil {
		t.Fatal(err)
	}
	if got := (CheckDigit{Expected: "3", Found: "4", Valid: false, Advisory: false}); d.CheckDigit != got {
		t.Errorf("check digit = %+v, want %+v", d.CheckDigit, got)
	}

	// The public Decode uses the clock; position 7 is numeric, so 1994
	// comes before 2024 whatever the date.
	d, err = Decode("JH4DC4340RS003205")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.ModelYears) == 0 || d.ModelYears[0] != 1994 {
		t.Errorf("Decode(JH4DC4340RS003205) model years = %v, want 1994 first", d.ModelYears)
	}
}

func TestDecodeJSON(t *testing.T) {
	t.Parallel()
	d, err := decode("WVWZZZ1JZXW000001", 2027)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"vin":"WVWZZZ1JZXW000001","wmi":"WVW","vds":"ZZZ1JZ","vis":"XW000001",` +
		`"region":"Europe","country":"Germany",` +
		`"check_digit":{"expected":"0","found":"Z","valid":false,"advisory":true},` +
		`"model_year_candidates":[1999],"plant_code":"W","serial":"000001"}`
	if string(b) != want {
		t.Errorf("JSON\n got %s\nwant %s", b, want)
	}

	// No year code: an empty list, not null.
	d, err = decode("WVWZZZ1JZZW000001", 2027)
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(d.ModelYears)
	if string(b) != "[]" {
		t.Errorf("model_year_candidates = %s, want []", b)
	}
}
