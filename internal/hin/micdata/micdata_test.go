package micdata

import (
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
