package epa

import (
	"context"
	"encoding/csv"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/ingest"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/store/storetest"
)

// epaCut is the header and eight rows of EPA's vehicles.csv as published.
const epaCut = `barrels08,barrelsA08,charge120,charge240,city08,city08U,cityA08,cityA08U,cityCD,cityE,cityUF,co2,co2A,co2TailpipeAGpm,co2TailpipeGpm,comb08,comb08U,combA08,combA08U,combE,combinedCD,combinedUF,cylinders,displ,drive,engId,eng_dscr,feScore,fuelCost08,fuelCostA08,fuelType,fuelType1,ghgScore,ghgScoreA,highway08,highway08U,highwayA08,highwayA08U,highwayCD,highwayE,highwayUF,hlv,hpv,id,lv2,lv4,make,model,mpgData,phevBlended,pv2,pv4,range,rangeCity,rangeCityA,rangeHwy,rangeHwyA,trany,UCity,UCityA,UHighway,UHighwayA,VClass,year,youSaveSpend,baseModel,guzzler,trans_dscr,tCharger,sCharger,atvType,fuelType2,rangeA,evMotor,mfrCode,c240Dscr,charge240b,c240bDscr,createdOn,modifiedOn,startStop,phevCity,phevHwy,phevComb
15.65842105263158,0.0,0.0,0.0,16,16.464,0,0.0,0.0,0.0,0.0,472,-1,0.0,472.0,19,18.7253,0,0.0,0.0,0.0,0.0,6,3.8,All-Wheel Drive,71,,4,3150,0,Premium,Premium Gasoline,4,-1,23,22.5029,0,0.0,0.0,0.0,0.0,0,0,34644,9,0,Nissan,GT-R,N,false,79,0,0,0.0,0.0,0.0,0.0,Automatic (AM6),20.3104,0.0,30.1591,0.0,Subcompact Cars,2015,-7750,GT-R,,,T,,,,,,NSX,,0.0,,Mon Jan 06 00:00:00 EST 2014,Wed Apr 05 00:00:00 EDT 2017,N,0,0,0
12.935217391304349,0.0,0.0,0.0,20,20.2399,0,0.0,0.0,0.0,0.0,378,-1,0.0,378.0,23,23.1626,0,0.0,0.0,0.0,0.0,5,2.5,All-Wheel Drive,75,,5,1950,0,Regular,Regular Gasoline,5,-1,28,28.1266,0,0.0,0.0,0.0,0.0,0,0,34645,0,14,Volvo,S60 AWD,N,false,0,92,0,0.0,0.0,0.0,0.0,Automatic (S6),25.6,0.0,40.0,0.0,Compact Cars,2015,-1750,S60,,,T,,,,,,VVX,,0.0,,Mon Jan 06 00:00:00 EST 2014,Mon Sep 26 00:00:00 EDT 2016,N,0,0,0
9.917,0.0,0.0,0.0,26,25.9355,0,0.0,0.0,0.0,0.0,298,-1,0.0,298.0,30,29.8352,0,0.0,0.0,0.0,0.0,4,2.5,Front-Wheel Drive,2,SIDI,7,1500,0,Regular,Regular Gasoline,7,-1,37,36.5526,0,0.0,0.0,0.0,0.0,0,0,34646,0,15,Mazda,6,Y,false,0,100,0,0.0,0.0,0.0,0.0,Automatic (S6),33.6591,0.0,53.5651,0.0,Midsize Cars,2015,500,6,,,,,,,,,TKX,,0.0,,Mon Jan 06 00:00:00 EST 2014,Mon Sep 26 00:00:00 EDT 2016,N,0,0,0
9.2971875,0.0,0.0,0.0,28,27.7711,0,0.0,0.0,0.0,0.0,280,-1,0.0,280.0,32,31.7583,0,0.0,0.0,0.0,0.0,4,2.5,Front-Wheel Drive,3,SIDI; with i-ELOOP Technology Package,8,1400,0,Regular,Regular Gasoline,8,-1,39,38.5173,0,0.0,0.0,0.0,0.0,0,0,34647,0,15,Mazda,6,Y,false,0,100,0,0.0,0.0,0.0,0.0,Automatic (S6),36.3466,0.0,56.8478,0.0,Midsize Cars,2015,1000,6,,,,,,,,,TKX,,0.0,,Mon Jan 06 00:00:00 EST 2014,Mon Sep 26 00:00:00 EDT 2016,N,0,0,0
10.25896551724138,0.0,0.0,0.0,25,24.8308,0,0.0,0.0,0.0,0.0,308,-1,0.0,308.0,29,28.7072,0,0.0,0.0,0.0,0.0,4,2.5,Front-Wheel Drive,1,SIDI,7,1550,0,Regular,Regular Gasoline,7,-1,35,35.4761,0,0.0,0.0,0.0,0.0,0,0,34648,0,15,Mazda,6,Y,false,0,100,0,0.0,0.0,0.0,0.0,Manual 6-spd,32.0633,0.0,51.7862,0.0,Midsize Cars,2015,250,6,,,,,,,,,TKX,,0.0,,Mon Jan 06 00:00:00 EST 2014,Mon Sep 26 00:00:00 EDT 2016,N,0,0,0
14.167142857142858,0.0,0.0,0.0,18,17.7469,0,0.0,0.0,0.0,0.0,428,-1,0.0,428.0,21,20.7776,0,0.0,0.0,0.0,0.0,6,3.8,Rear-Wheel Drive,5,SIDI,5,2150,0,Regular,Regular Gasoline,5,-1,26,26.2583,0,0.0,0.0,0.0,0.0,0,0,34649,0,16,Kia,K900,N,false,0,110,0,0.0,0.0,0.0,0.0,Automatic 8-spd,22.2,0.0,37.1,0.0,Large Cars,2015,-2750,K900,,,,,,,,,KMX,,0.0,,Mon Jan 06 00:00:00 EST 2014,Mon Sep 26 00:00:00 EDT 2016,N,0,0,0
21.250714285714285,6.387,0.0,0.0,12,11.5886,8,8.3016,0.0,0.0,0.0,624,629,629.0,624.0,14,14.0,10,10.2809,0.0,0.0,0.0,12,6.0,All-Wheel Drive,44,FFV,2,4250,4250,Premium or E85,Premium Gasoline,2,2,20,19.7433,14,14.486,0.0,0.0,0.0,0,0,34927,13,0,Bentley,Flying Spur,N,false,102,0,0,0.0,0.0,0.0,0.0,Automatic (S8),14.4,10.5,26.7,20.5,Midsize Cars,2015,-13250,Flying Spur,G,,T,,FFV,E85,238,,VGA,,0.0,,Mon May 19 00:00:00 EDT 2014,Tue Sep 10 00:00:00 EDT 2019,N,0,0,0
14.167142857142858,0.0,0.0,0.0,18,17.7617,0,0.0,0.0,0.0,0.0,415,-1,0.0,415.0,21,21.0,0,0.0,0.0,0.0,0.0,8,4.0,All-Wheel Drive,10,SIDI,5,2850,0,Premium,Premium Gasoline,5,-1,29,28.5015,0,0.0,0.0,0.0,0.0,0,0,34928,0,15,Audi,A8 L,N,false,0,107,0,0.0,0.0,0.0,0.0,Automatic (S8),22.278,0.0,39.1,0.0,Large Cars,2015,-6250,A8,,,T,,,,,,VGA,,0.0,,Mon May 19 00:00:00 EDT 2014,Thu Sep 05 00:00:00 EDT 2019,Y,0,0,0
`

// withCell returns epaCut with the cell of column col on line changed to v.
func withCell(t testing.TB, line int, col, v string) string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(epaCut)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.Index(recs[0], col)
	if i < 0 {
		t.Fatalf("no column %s", col)
	}
	recs[line-1][i] = v
	var b strings.Builder
	w := csv.NewWriter(&b)
	if err := w.WriteAll(recs); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// epaCatalog is what vds ingest --source epa does before writing.
func epaCatalog(src string) (*catalog.Catalog, error) {
	tb, err := Load(context.Background(), src, nil, nil)
	if err != nil {
		return nil, err
	}
	cars, err := Cars(tb)
	if err != nil {
		return nil, err
	}
	return &catalog.Catalog{Cars: cars}, nil
}

// hostileCases are values the CSV path refuses, each put on line 4.
var hostileCases = []struct{ name, col, value, want string }{
	{"nul-make", "make", "Ma\x00zda", "field make: control character U+0000 at byte 2"},
	{"ctrl-make", "make", "Ma\x01zda", "field make: control character U+0001 at byte 2"},
	{"esc-trany", "trany", "Automatic\x1b[2J", "field trany: control character U+001B"},
	{"badutf8-model", "model", "Ma\xffzda 6", "field model: invalid UTF-8 at byte 2"},
	{"badutf8-basemodel", "baseModel", "6\xc0", "field baseModel: invalid UTF-8 at byte 1"},
	{"bidi-make", "make", "\u202eadzaM", "field make: bidi control character U+202E at byte 0"},
	{"neg-cyl", "cylinders", "-8", "field cylinders: \"-8\" is negative"},
	{"neg-displ", "displ", "-2.5", "field displ: \"-2.5\" is negative"},
	{"neg-mpg", "city08", "-26", "field city08: \"-26\" is negative"},
	{"cyl-range", "cylinders", "40", "field cylinders: 40 is outside 2..16"},
	{"long-basemodel", "baseModel", strings.Repeat("6", 81), "field baseModel: is longer than 80 characters"},
	{"year", "year", "99999", "field year: 99999 is outside"},
}

// The EPA path refuses what the CSV/JSON path refuses, naming file, line
// and column, zipped (file.zip!member:line) or plain.
func TestHostileEPAText(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range hostileCases {
		t.Run(tc.name, func(t *testing.T) {
			body := withCell(t, 4, tc.col, tc.value)
			plain := filepath.Join(dir, tc.name+".csv")
			writeFile(t, plain, body)
			zipped := filepath.Join(dir, tc.name+".zip")
			writeZip(t, zipped, map[string]string{"vehicles.csv": body})
			for _, want := range []struct{ src, at string }{{plain, plain + ":4: "}, {zipped, zipped + "!vehicles.csv:4: "}} {
				c, err := epaCatalog(want.src)
				if err == nil {
					t.Fatalf("%s: accepted, %d cars", want.src, len(c.Cars))
				}
				if !strings.Contains(err.Error(), want.at+tc.want) {
					t.Errorf("%s:\n got %v\nwant %q", want.src, err, want.at+tc.want)
				}
			}
		})
	}
	if _, err := epaCatalog(writeTemp(t, "clean.csv", epaCut)); err != nil {
		t.Fatalf("the untouched cut: %v", err)
	}
}

func writeTemp(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	writeFile(t, p, body)
	return p
}

// On both stores a hostile file publishes nothing (PostgreSQL refused NUL
// with a raw error naming no file), and the removal guard names the file.
func TestHostileEPANotPublished(t *testing.T) {
	storetest.Backends(t, func(t *testing.T, st store.Store) {
		ctx := context.Background()
		clean := writeTemp(t, "vehicles.csv", epaCut)
		c, err := epaCatalog(clean)
		if err != nil {
			t.Fatal(err)
		}
		kinds := []catalog.Kind{catalog.KindCar}
		first, err := ingest.Run(ctx, st, c, kinds, ingest.Options{Source: "epa:" + clean, Files: []string{clean}})
		if err != nil || !first.Published {
			t.Fatalf("clean cut: %+v, %v", first, err)
		}
		for _, tc := range hostileCases[:5] {
			bad := writeTemp(t, tc.name+".csv", withCell(t, 4, tc.col, tc.value))
			if c, err := epaCatalog(bad); err == nil {
				_, err = ingest.Run(ctx, st, c, kinds, ingest.Options{Source: "epa:" + bad, Files: []string{bad}, AllowRemovals: true})
				t.Errorf("%s: accepted (write: %v)", tc.name, err)
			}
		}
		got, v, err := st.LoadCatalog(ctx)
		if err != nil || v.Number != first.Version.Number || len(got.Cars) != len(c.Cars) {
			t.Fatalf("after the hostile files: version %d (want %d), %d cars (want %d), %v", v.Number, first.Version.Number, len(got.Cars), len(c.Cars), err)
		}

		lines := strings.SplitAfter(epaCut, "\n")
		short := writeTemp(t, "short.csv", lines[0]+lines[1])
		c, err = epaCatalog(short)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ingest.Run(ctx, st, c, kinds, ingest.Options{Source: "epa:" + short, Files: []string{short}})
		var re *ingest.RemovalError
		if !errors.As(err, &re) || !strings.HasPrefix(err.Error(), short+": would remove 7 of 8 cars") {
			t.Errorf("removal guard: %v, want it to name %s", err, short)
		}
	})
}
