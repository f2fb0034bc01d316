package lookup

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/vds-dev/vds/internal/nhtsafile"
	"github.com/vds-dev/vds/internal/nhtsafile/nhtsafiletest"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/vehicle"
)

// recallFiles imports the captures as a flat file and indexes it.
func recallFiles(t testing.TB) *nhtsafile.Index {
	t.Helper()
	p := nhtsafiletest.File(t, t.TempDir())
	st := storetest.Empty(t, "sqlite")
	if _, err := nhtsafile.Import(t.Context(), st, []string{p}, nhtsafile.Options{}); err != nil {
		t.Fatal(err)
	}
	ix, err := nhtsafile.Load(t.Context(), st)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// recallsAPI replays the captures as recallsByVehicle, in today's envelope.
func recallsAPI(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var y int
		fmt.Sscan(r.URL.Query().Get("modelYear"), &y)
		if !slices.Contains(nhtsafiletest.Years, y) || !strings.EqualFold(r.URL.Query().Get("model"), "wrangler") {
			fmt.Fprint(w, `{"Count":0,"Message":"Results returned successfully","results":[]}`)
			return
		}
		rows := nhtsafiletest.Captured(t, y)
		_ = json.NewEncoder(w).Encode(map[string]any{"Count": len(rows), "Message": "Results returned successfully", "results": rows})
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func byCampaign(r []upstream.Recall) []upstream.Recall {
	slices.SortFunc(r, func(a, b upstream.Recall) int { return strings.Compare(a.CampaignNumber, b.CampaignNumber) })
	return r
}

// The files and the API give the same recall objects for the same vehicles.
func TestRecallsFilesMatchAPI(t *testing.T) {
	t.Parallel()
	ix := recallFiles(t)
	online := New(vehicle.NewService(nil), client(recallsAPI(t)), "", "online")
	offline := New(vehicle.NewService(nil), client(closedURL(t)), "", "auto")
	offline.SetRecallIndex(ix)
	for _, y := range nhtsafiletest.Years {
		api, err := online.Recalls(t.Context(), "Jeep", y, "Wrangler")
		if err != nil {
			t.Fatal(err)
		}
		files, err := offline.Recalls(t.Context(), "Jeep", y, "Wrangler 4WD", "Wrangler")
		if err != nil {
			t.Fatal(err)
		}
		if len(api.Recalls) != len(nhtsafiletest.Captured(t, y)) || api.Source != SourceRecallsAPI || files.Source != "NHTSA recall files "+ix.DataDate() {
			t.Fatalf("%d: %d API recalls from %q, files from %q", y, len(api.Recalls), api.Source, files.Source)
		}
		if got, want := byCampaign(files.Recalls), byCampaign(api.Recalls); !reflect.DeepEqual(got, want) {
			for i := range min(len(got), len(want)) {
				if !reflect.DeepEqual(got[i], want[i]) {
					t.Errorf("%d: first difference\n files %+v\n   api %+v", y, got[i], want[i])
					break
				}
			}
			t.Fatalf("%d: %d recalls from the files, %d from the API", y, len(got), len(want))
		}
	}
	flags := map[string]bool{}
	for _, r := range offline.mustRecalls(t, 2020) {
		flags[r.CampaignNumber+" ota"], flags[r.CampaignNumber+" outside"] = r.OTAUpdate, r.ParkOutside
	}
	if !flags["20V191000 ota"] || !flags["24V720000 outside"] {
		t.Errorf("2020 flags from the files: %v", flags)
	}
}

func (s *Service) mustRecalls(t *testing.T, year int) []upstream.Recall {
	set, err := s.Recalls(t.Context(), "JEEP", year, "WRANGLER")
	if err != nil {
		t.Fatal(err)
	}
	return set.Recalls
}

func TestRecallSourceModes(t *testing.T) {
	t.Parallel()
	ix := recallFiles(t)
	api, closed := recallsAPI(t), closedURL(t)
	for _, tc := range []struct {
		name, mode, upstream string
		files                bool
		source, code         string
	}{
		{"auto prefers the files", "auto", closed, true, "NHTSA recall files", ""},
		{"empty mode is auto", "", closed, true, "NHTSA recall files", ""},
		{"auto without files asks NHTSA", "auto", api, false, SourceRecallsAPI, ""},
		{"online ignores the files", "online", api, true, SourceRecallsAPI, ""},
		{"online with NHTSA down", "online", closed, true, "", CodeUpstreamUnavailable},
		{"offline without files", "offline", api, false, "", CodeUpstreamUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := New(vehicle.NewService(nil), client(tc.upstream), "", tc.mode)
			if tc.files {
				s.SetRecallIndex(ix)
			}
			set, err := s.Recalls(t.Context(), "Jeep", 2024, "Wrangler")
			if tc.code != "" {
				if err == nil || (vehicle.CodeOf(err) != tc.code && vehicle.CodeOf(upstreamError("NHTSA", err)) != tc.code) {
					t.Fatalf("err %v, want %s", err, tc.code)
				}
				return
			}
			if err != nil || !strings.HasPrefix(set.Source, tc.source) || len(set.Recalls) != 8 || set.DataDate == "" {
				t.Fatalf("%+v, %v: want 8 recalls from %s with a data date", set, err, tc.source)
			}
			if !strings.HasPrefix(s.RecallSource(), tc.source) {
				t.Errorf("RecallSource %q, want %s", s.RecallSource(), tc.source)
			}
		})
	}
	// A vehicle absent from the files has no campaigns: the files are NHTSA's whole database.
	s := New(vehicle.NewService(nil), client(closed), "", "offline")
	s.SetRecallIndex(ix)
	if got := s.mustRecalls(t, 1999); got == nil || len(got) != 0 {
		t.Errorf("absent vehicle: %#v, want an empty list", got)
	}
}

func TestNHTSAModels(t *testing.T) {
	t.Parallel()
	got := nhtsaModels([]string{"Wrangler Unlimited 4WD", "Wrangler Unlimited 4WD", "Prius Prime (PHEV)", ""})
	want := []string{"Wrangler Unlimited 4WD", "Prius Prime (PHEV)", "Wrangler Unlimited", "Prius Prime", "Wrangler", "Prius"}
	if !slices.Equal(got, want) {
		t.Errorf("nhtsaModels = %q, want %q", got, want)
	}
}

// BenchmarkRecallLookup sets the offline recall lookup of a vehicle (12
// campaigns) beside the catalog record lookup it starts from.
func BenchmarkRecallLookup(b *testing.B) {
	s := New(vehicle.NewService(nil), nil, "", "offline")
	s.SetRecallIndex(recallFiles(b))
	b.Run("recalls", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if set, err := s.Recalls(b.Context(), "Jeep", 2020, "Wrangler Unlimited 4WD", "Wrangler"); err != nil || len(set.Recalls) != 12 {
				b.Fatal(set, err)
			}
		}
	})
}

// The EPA catalog's Jeep Wranglers of the captured years find as many
// campaigns offline as through the API (docs/data.md, NHTSA recall files).
func TestRecallNamesOnEPACatalog(t *testing.T) {
	t.Parallel()
	cars := EPACars(t)
	offline := New(vehicle.NewService(nil), nil, "", "offline")
	offline.SetRecallIndex(recallFiles(t))
	online := New(vehicle.NewService(nil), client(recallsAPI(t)), "", "online")
	var wranglers, found, same int
	for _, c := range cars {
		if c.Make != "Jeep" || !strings.HasPrefix(c.SourceModel, "Wrangler") || !slices.Contains(nhtsafiletest.Years, c.Year) {
			continue
		}
		wranglers++
		off, err := offline.Recalls(t.Context(), c.Make, c.Year, c.Model, c.SourceModel)
		if err != nil {
			t.Fatal(err)
		}
		on, err := online.Recalls(t.Context(), c.Make, c.Year, c.Model, c.SourceModel)
		if err != nil {
			t.Fatal(err)
		}
		if len(off.Recalls) > 0 {
			found++
		}
		if len(off.Recalls) == len(on.Recalls) {
			same++
		}
	}
	if wranglers < 10 || found != wranglers || same != wranglers {
		t.Errorf("%d Wranglers: %d with campaigns offline, %d with as many as the API; want all", wranglers, found, same)
	}
}
