package textfmt

import (
	"encoding/json"
	"math"
	"slices"
	"testing"
)

func TestThousands(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{
		0: "0", 999: "999", 1000: "1,000", 100000: "100,000", 1234567: "1,234,567",
		-1000: "-1,000", -999: "-999", math.MinInt64: "-9,223,372,036,854,775,808",
	} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"", "abc", 3}, {"make", "make", 0}, {"mkae", "make", 1},
		{"mak", "make", 1}, {"maker", "make", 1}, {"mote", "make", 2}, {"kitten", "sitting", 3},
	} {
		if got := EditDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	t.Parallel()
	names := []string{"make", "model", "year"}
	for s, want := range map[string]string{
		"MAKE": "make", "mdoel": "model", "yaer": "year", "modle": "model",
		"trim": "", "": "", "makemakemakemakemakemakemakemakem": "",
	} {
		if got := Closest(s, names); got != want {
			t.Errorf("Closest(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestClosestN(t *testing.T) {
	makes := []string{"Toyota", "Honda", "Tesla", "Ford", "Ferrari"}
	for _, tc := range []struct {
		s    string
		n    int
		want []string
	}{
		{"Toyta", 3, []string{"Toyota"}}, {"toyota", 3, []string{"Toyota"}},
		{"Frd", 3, []string{"Ford"}}, {"Fod", 3, []string{"Ford"}}, {"Tesl", 1, []string{"Tesla"}},
		{"Zzzzz", 3, nil}, {"Fxrd", 3, []string{"Ford"}},
	} {
		if got := ClosestN(tc.s, makes, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("ClosestN(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
	// Closest first, then catalog order.
	if got := ClosestN("Fords", []string{"Fordo", "Ford", "Forde"}, 2); !slices.Equal(got, []string{"Fordo", "Ford"}) {
		t.Errorf("ClosestN ranks %q", got)
	}
}

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"Toyota Camry":                     "Toyota Camry",
		"Citroën 2CV":                      "Citroën 2CV",
		"\x1b[2Jclear":                     `\x1b[2Jclear`,
		"\x1b]52;c;cHduZWQ=\x07title":      `\x1b]52;c;cHduZWQ=\x07title`,
		"a\x00b\x7fc":                      `a\x00b\x7fc`,
		"line\r\x1b[Kfake\nnext\ttab":      `line\r\x1b[Kfake\nnext\ttab`,
		"c1 \u009b31m csi":                 `c1 \u009b31m csi`,
		"bidi \u202egnp.exe \u2066x\u2069": `bidi \u202egnp.exe \u2066x\u2069`,
		"bad \xff\xfe utf-8":               `bad \xff\xfe utf-8`,
	} {
		if got := Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
		if got := Printable(Printable(in)); got != want {
			t.Errorf("Printable is not idempotent on %q: %q", in, got)
		}
	}
	if got := PrintableLines("a\tb\nc\x1b[0m\r"); got != "a\tb\nc\\x1b[0m\\r" {
		t.Errorf("PrintableLines = %q", got)
	}
	if n := testing.AllocsPerRun(100, func() { Printable("GET /v1/cars/{uuid}") }); n != 0 {
		t.Errorf("Printable of plain text allocates %v times", n)
	}
}

func TestJSON(t *testing.T) {
	in := []byte("{\"op\":\"a\\u001b\x7f\u009b\u202eb\xff ok é\"}")
	want := `{"op":"a\u001b\u007f\u009b\u202eb\ufffd ok é"}`
	if got := string(JSON(in)); got != want {
		t.Errorf("JSON = %s, want %s", got, want)
	}
	var a, b map[string]string
	if err := json.Unmarshal(in, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(JSON(in), &b); err != nil || a["op"] != b["op"] {
		t.Errorf("the escaped JSON reads %q (%v), want %q", b["op"], err, a["op"])
	}
	plain := []byte(`{"op":"GET /v1/me"}`)
	if got := JSON(plain); &got[0] != &plain[0] {
		t.Error("JSON copied text it had nothing to escape in")
	}
}
