package lookup

import (
	"log/slog"
	"reflect"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/nhtsafile"
	"github.com/vds-dev/vds/internal/nhtsafile/nhtsafiletest"
	"github.com/vds-dev/vds/internal/store/storetest"
	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
	"github.com/vds-dev/vds/internal/vehicle"
)

// complaintFiles imports the complaint captures as a FLAT_CMPL file and indexes it.
func complaintFiles(t *testing.T) *nhtsafile.ComplaintIndex {
	t.Helper()
	p := nhtsafiletest.ComplaintsFile(t, t.TempDir(), upstreamtest.ComplaintYears)
	st := storetest.Empty(t, "sqlite")
	if _, err := nhtsafile.Import(t.Context(), st, []string{p}, nhtsafile.Options{}); err != nil {
		t.Fatal(err)
	}
	ix, err := nhtsafile.LoadComplaints(t.Context(), st)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// The files and the API give the same complaint objects; with NHTSA on a
// closed port the files answer alone.
func TestComplaintsFilesMatchAPI(t *testing.T) {
	t.Parallel()
	ix := complaintFiles(t)
	// 387 complaints (464 KB) to decode: more than client's second under -race on a loaded machine.
	api := upstreamtest.New(t).URL
	online := New(vehicle.NewService(nil), upstream.New(upstream.Config{NHTSAURL: api, Timeout: 10 * time.Second}, nil, slog.New(slog.DiscardHandler)), "", "online")
	offline := New(vehicle.NewService(nil), client(closedURL(t)), "", "auto")
	offline.SetComplaintIndex(ix)
	for _, y := range upstreamtest.ComplaintYears {
		api, err := online.VehicleComplaints(t.Context(), "Jeep", y, "Wrangler")
		if err != nil {
			t.Fatal(err)
		}
		files, err := offline.VehicleComplaints(t.Context(), "Jeep", y, "Wrangler 4WD", "Wrangler")
		if err != nil {
			t.Fatal(err)
		}
		if len(api.Complaints) != len(nhtsafiletest.CapturedComplaints(t, y)) || api.Source != SourceComplaintsAPI || files.Source != "NHTSA complaint files "+ix.DataDate() {
			t.Fatalf("%d: %d API complaints from %q, files from %q", y, len(api.Complaints), api.Source, files.Source)
		}
		if !reflect.DeepEqual(files.Complaints, api.Complaints) {
			for i := range min(len(files.Complaints), len(api.Complaints)) {
				if !reflect.DeepEqual(files.Complaints[i], api.Complaints[i]) {
					t.Fatalf("%d: first difference at %d\n files %+v\n   api %+v", y, i, files.Complaints[i], api.Complaints[i])
				}
			}
			t.Fatalf("%d: %d from the files, %d from the API", y, len(files.Complaints), len(api.Complaints))
		}
	}
	// recalls.source offline with no complaint file is a clear 503, not a fetch.
	if _, err := New(vehicle.NewService(nil), nil, "", "offline").VehicleComplaints(t.Context(), "Jeep", 2020, "Wrangler"); vehicle.CodeOf(err) != CodeUpstreamUnavailable {
		t.Errorf("offline without files: %v", err)
	}
}

func TestComplaintsPagingAndCounts(t *testing.T) {
	t.Parallel()
	s := New(vehicle.NewService(nil), client(closedURL(t)), "", "offline")
	s.SetComplaintIndex(complaintFiles(t))
	set, err := s.VehicleComplaints(t.Context(), "JEEP", 2020, "Wrangler")
	if err != nil || len(set.Complaints) < 100 {
		t.Fatalf("%d complaints, %v", len(set.Complaints), err)
	}
	all := set.Complaints
	ref := MotorcycleRef{Make: "JEEP", Model: "Wrangler", Year: 2020}
	var crashes, fires, injuries, steering int
	for _, c := range all {
		injuries += c.Injuries
		if c.Crash {
			crashes++
		}
		if c.Fire {
			fires++
		}
		for _, comp := range c.Components {
			if comp == "STEERING" {
				steering++
			}
		}
	}
	last := (len(all) + 9) / 10
	for _, page := range []int{1, last, last + 1} {
		got, _, err := s.complaints(t.Context(), ref, ComplaintPage{Page: page, PerPage: 10}, "Wrangler")
		if err != nil {
			t.Fatal(err)
		}
		from := min((page-1)*10, len(all))
		if want := all[from:min(from+10, len(all))]; !reflect.DeepEqual(got.Complaints, want) {
			t.Errorf("page %d: %d complaints, want %d", page, len(got.Complaints), len(want))
		}
		if got.Meta.Total != len(all) || got.Meta.TotalPages != last || got.Totals.Complaints != len(all) ||
			got.Totals.Crashes != crashes || got.Totals.Fires != fires || got.Totals.Injuries != injuries {
			t.Errorf("page %d: meta %+v totals %+v; want %d complaints, %d crashes, %d fires, %d injured", page, got.Meta, got.Totals, len(all), crashes, fires, injuries)
		}
		if len(got.ByComponent) == 0 || got.ByComponent[0].Complaints < got.ByComponent[len(got.ByComponent)-1].Complaints {
			t.Errorf("by component not most first: %+v", got.ByComponent)
		}
		for _, bc := range got.ByComponent {
			if bc.Component == "STEERING" && bc.Complaints != steering {
				t.Errorf("STEERING %d, want %d", bc.Complaints, steering)
			}
		}
	}
	for _, pg := range []ComplaintPage{{0, 10}, {41, 10}, {1, 11}} {
		if _, _, err := s.complaints(t.Context(), ref, pg, "Wrangler"); vehicle.CodeOf(err) != vehicle.CodeInvalidParameter {
			t.Errorf("%+v: %v, want invalid_parameter", pg, err)
		}
	}
}
