package micdata

import (
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/hin"
)

func TestList(t *testing.T) {
	t.Parallel()
	list := List()
	if len(list) != 16216 {
		t.Fatalf("%d codes, want 16,216", len(list))
	}
	d := hin.NewDecoder(list)
	if m, ok := d.Lookup("BWC"); !ok || m.Company != "BOSTON WHALER INC" {
		t.Errorf("BWC = %+v, %v", m, ok)
	}
	for _, mic := range []string{"AKZ", "CFZ", "WSZ", "USZ", "ZZZ", "4WN", "gvz"} {
		if _, ok := d.Lookup(mic); !ok {
			t.Errorf("%s is not in the list", mic)
		}
	}
}

// TestDecoderKeepsEveryEntry: the packed decoder gives back each of the
// 16,216 entries field for field, by its MIC in either case.
func TestDecoderKeepsEveryEntry(t *testing.T) {
	t.Parallel()
	list, d := List(), Decoder()
	if d.Len() != len(list) || Embedded().Codes != len(list) {
		t.Fatalf("decoder holds %d codes, Embedded says %d; the list has %d", d.Len(), Embedded().Codes, len(list))
	}
	for _, m := range list {
		for _, mic := range []string{m.MIC, strings.ToLower(m.MIC)} {
			if got, ok := d.Lookup(mic); !ok || *got != m {
				t.Fatalf("Lookup(%q) = %+v, %v; want %+v", mic, got, ok, m)
			}
		}
	}
}

// BenchmarkDecode decodes HINs of real MICs in every format with the whole
// list, as a server does: at least 1,000,000 a second on one core.
func BenchmarkDecode(b *testing.B) {
	d := hin.NewDecoder(List())
	hins := []string{"BWC12345L718", "SER4A7B2A919", "BOA13579M84E", "ABC123450683", "FR-BEN12345A606",
		"us-4wn 12345 c5 85", "FLZ12345A818", "BL1X2345J910"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := d.Decode(hins[i%len(hins)]); err != nil {
			b.Fatal(err)
		}
	}
}
