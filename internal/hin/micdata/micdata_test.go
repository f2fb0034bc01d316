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
