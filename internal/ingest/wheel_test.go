package ingest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vds-dev/vds/client"
	"github.com/vds-dev/vds/internal/catalog"
)

const wheelHeader = "make,model,year,trim,tire_size,alternate_sizes,bolt_pattern,center_bore_mm,offset_min_mm,offset_max_mm," +
	"rim_width_min_in,rim_width_max_in,lug_thread,lug_torque_nm,tpms\n"

// wheelsOf shows a fitment's specs as the CLI and TUI do.
func wheelsOf(f catalog.TireFitment) string {
	w := f.WheelSpecs
	return fmt.Sprint(client.WheelSpecs{BoltPattern: w.BoltPattern, CenterBoreMM: w.CenterBoreMM, OffsetMinMM: w.OffsetMinMM,
		OffsetMaxMM: w.OffsetMaxMM, RimWidthMinIn: w.RimWidthMinIn, RimWidthMaxIn: w.RimWidthMaxIn, LugThread: w.LugThread,
		LugTorqueNM: w.LugTorqueNM, TPMS: w.TPMS}.Known())
}

func TestParseWheelSpecs(t *testing.T) {
	t.Parallel()
	csv := wheelHeader +
		"Toyota,Camry,2022,LE,235/45R18,235/40R19,5 X 114.3,60.1,35,45,7.5,8.5,m12x1.5,103,yes\n" +
		"Ford,F-150,2021,XLT,275/65R18,275/60R20,6x135,87.1,44,44,7.5,7.5,M14x2,204,No\n" +
		"Jeep,Wrangler,2017,Rubicon,LT255/75R17,LT265/70R17,5x127,71.5,,,,,1/2-20 unf,,\n" +
		"Honda,Civic,2022,EX,215/55R16,205/55R16,,,,,,,,,\n"
	json := `[
 {"make":"Toyota","model":"Camry","year":2022,"trim":"LE","tire_size":"235/45R18","alternate_sizes":["235/40R19"],
  "bolt_pattern":"5x114.3","center_bore_mm":60.1,"offset_min_mm":35,"offset_max_mm":45,"rim_width_min_in":7.5,
  "rim_width_max_in":8.5,"lug_thread":"M12x1.5","lug_torque_nm":103,"tpms":true},
 {"make":"Ford","model":"F-150","year":2021,"trim":"XLT","tire_size":"275/65R18","alternate_sizes":["275/60R20"],
  "bolt_pattern":"6x135","center_bore_mm":87.1,"offset_min_mm":44,"offset_max_mm":44,"rim_width_min_in":7.5,
  "rim_width_max_in":7.5,"lug_thread":"M14x2","lug_torque_nm":204,"tpms":false},
 {"make":"Jeep","model":"Wrangler","year":2017,"trim":"Rubicon","tire_size":"LT255/75R17","alternate_sizes":["LT265/70R17"],
  "bolt_pattern":"5x127","center_bore_mm":71.5,"lug_thread":"1/2-20"},
 {"make":"Honda","model":"Civic","year":2022,"trim":"EX","tire_size":"215/55R16","alternate_sizes":["205/55R16"]}
]`
	a, _, err := Parse([]Source{{Name: "tire_sizes.csv", Data: []byte(csv)}})
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := Parse([]Source{{Name: "tire_sizes.json", Data: []byte(json)}})
	if err != nil {
		t.Fatal(err)
	}
	if ch := catalog.Diff(a, b, map[catalog.Kind]bool{catalog.KindTireSize: true}); !ch.Empty() || ch.TireSizes.Unchanged != 4 {
		t.Fatalf("CSV and JSON of the same specs differ: %+v", ch.Summaries())
	}
	want := map[string]string{
		"Camry":    "[[bolt_pattern 5x114.3] [center_bore_mm 60.1] [offset_min_mm 35] [offset_max_mm 45] [rim_width_min_in 7.5] [rim_width_max_in 8.5] [lug_thread M12x1.5] [lug_torque_nm 103] [tpms yes]]",
		"F-150":    "[[bolt_pattern 6x135] [center_bore_mm 87.1] [offset_min_mm 44] [offset_max_mm 44] [rim_width_min_in 7.5] [rim_width_max_in 7.5] [lug_thread M14x2] [lug_torque_nm 204] [tpms no]]",
		"Wrangler": "[[bolt_pattern 5x127] [center_bore_mm 71.5] [lug_thread 1/2-20]]",
		"Civic":    "[]",
	}
	for _, f := range a.TireSizes {
		if got := wheelsOf(f); got != want[f.Model] {
			t.Errorf("%s: %s\nwant %s", f.Model, got, want[f.Model])
		}
	}
}

func TestParseWheelSpecsRefused(t *testing.T) {
	t.Parallel()
	row := func(cells string) string {
		return wheelHeader + "Toyota,Camry,2022,LE,235/45R18,235/40R19," + cells + "\n"
	}
	for _, c := range []struct{ cells, want string }{
		{"5x4.5,,,,,,,,", `field bolt_pattern: "5x4.5" is not a bolt pattern`},
		{"5x45,,,,,,,,", "field bolt_pattern: \"5x45\" has a pitch circle of 45 mm, outside 90..260"},
		{"12x114.3,,,,,,,,", `field bolt_pattern: "12x114.3" has 12 lugs: give 3 to 10`},
		{"five,,,,,,,,", `"five" is not a bolt pattern: give lug count x pitch-circle diameter in mm, e.g. 5x114.3`},
		{",6.01,,,,,,,", "field center_bore_mm: 6.01 is outside 40..200"},
		{",,45,35,,,,,", "field offset_min_mm: 45 is above offset_max_mm 35: swap them"},
		{",,35,,,,,,", "field offset_min_mm: offset_min_mm and offset_max_mm go together"},
		{",,-150,0,,,,,", "field offset_min_mm: -150 is outside -100..120"},
		{",,,,7.3,8,,,", "field rim_width_min_in: 7.3 is not a rim width: rims come in half inches"},
		{",,,,9,8,,,", "field rim_width_min_in: 9 is above rim_width_max_in 8"},
		{",,,,,,M12,,", `field lug_thread: "M12" is not a lug thread: give a metric thread such as M12x1.5`},
		{",,,,,,M30x1.5,,", `field lug_thread: "M30x1.5" is outside M8..M24`},
		{",,,,,,,1000,", "field lug_torque_nm: 1000 is outside 40..700"},
		{",,,,,,,,maybe", `field tpms: "maybe" is not yes or no`},
		{",,,,,,,12.5,", `field lug_torque_nm: "12.5" is not a whole number`},
	} {
		_, _, err := Parse([]Source{{Name: "tire_sizes.csv", Data: []byte(row(c.cells))}})
		if err == nil || !strings.Contains(err.Error(), "tire_sizes.csv:2: "+c.want) && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.cells, err, c.want)
		}
	}
	js := `[{"make":"Toyota","model":"Camry","year":2022,"tire_size":"235/45R18","alternate_sizes":["235/40R19"],"tpms":"yes"}]`
	if _, _, err := Parse([]Source{{Name: "tire_sizes.json", Data: []byte(js)}}); err == nil || !strings.Contains(err.Error(), "tpms") {
		t.Errorf("JSON tpms \"yes\": %v", err)
	}
}
