package lookup

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/google/uuid"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/vehicle"
)

// ComplaintIndex answers complaints offline, from imported NHTSA complaint files.
type ComplaintIndex interface {
	// Complaints lists the complaints of a make, model and year, newest
	// received first; none when the files name none.
	Complaints(ctx context.Context, vehicleMake, model string, year int) ([]upstream.Complaint, error)
	Source() string
	DataDate() string
	Since() time.Time
}

// SourceComplaintsAPI names NHTSA's live complaints API in answers.
const SourceComplaintsAPI = "NHTSA complaints API"

// SetComplaintIndex makes ix the offline complaint source.
func (s *Service) SetComplaintIndex(ix ComplaintIndex) { s.cmplIx.Store(&ix) }

// ComplaintPage asks for one page of a vehicle's complaints.
type ComplaintPage struct{ Page, PerPage int }

// ComponentCount is how many complaints name a component.
type ComponentCount struct {
	Component  string `json:"component" jsonschema:"A component, in NHTSA's words."`
	Complaints int    `json:"complaints" jsonschema:"Complaints naming it, of all the vehicle's complaints."`
}

// ComplaintTotals sum a vehicle's complaints, all pages.
type ComplaintTotals struct {
	Complaints int `json:"complaints" jsonschema:"Complaints about the make, model and year."`
	Crashes    int `json:"crashes" jsonschema:"Complaints reporting a crash."`
	Fires      int `json:"fires" jsonschema:"Complaints reporting a fire."`
	Injuries   int `json:"injuries" jsonschema:"Persons injured, summed over the complaints."`
	Deaths     int `json:"deaths" jsonschema:"Persons killed, summed over the complaints."`
}

// Complaints is the answer of /v1/cars/{uuid}/complaints and /v1/motorcycles/{uuid}/complaints.
type Complaints struct {
	Vehicle     MotorcycleRef        `json:"vehicle" jsonschema:"The record the complaints are for."`
	Coverage    string               `json:"coverage" jsonschema:"Where the data comes from and applies: US (NHTSA)."`
	Complaints  []upstream.Complaint `json:"complaints" jsonschema:"This page of owners' complaints to NHTSA about the make, model and year, newest received first; empty when there are none."`
	Meta        vehicle.Meta         `json:"meta" jsonschema:"Pagination of complaints."`
	Totals      ComplaintTotals      `json:"totals" jsonschema:"Counts over all the vehicle's complaints, not this page alone."`
	ByComponent []ComponentCount     `json:"by_component" jsonschema:"Complaints per component over all pages, most first; a complaint naming two components counts for both."`
	Source      string               `json:"source" jsonschema:"Where the complaints come from: NHTSA complaint files YYYY-MM-DD (imported, by their data date) or NHTSA complaints API."`
	DataDate    string               `json:"data_date" jsonschema:"The date of the complaint data, YYYY-MM-DD: the newest complaint of the imported files, or the day NHTSA's API was asked."`
	Stale       bool                 `json:"stale" jsonschema:"True when NHTSA failed and an expired cached answer is served (with a Warning header)."`
	FetchedAt   time.Time            `json:"fetched_at" jsonschema:"When the answer was fetched from NHTSA, or when the complaint files were imported (UTC)."`
}

// ComplaintSet is the complaints of one vehicle, with where they come from.
type ComplaintSet struct {
	Complaints []upstream.Complaint
	Source     string
	DataDate   string
	Meta       upstream.Meta
}

// VehicleComplaints lists a vehicle's complaints by recalls.source, as
// Recalls does: from the imported complaint files when it allows and they
// are loaded, else NHTSA. models are tried offline in turn.
func (s *Service) VehicleComplaints(ctx context.Context, vehicleMake string, year int, models ...string) (ComplaintSet, error) {
	var ix ComplaintIndex
	if p := s.cmplIx.Load(); p != nil {
		ix = *p
	}
	if s.recallMode == "offline" || (s.recallMode != "online" && ix != nil) {
		if ix == nil {
			return ComplaintSet{}, &vehicle.Error{Code: CodeUpstreamUnavailable,
				Message: "No NHTSA complaint file is imported on this server (recalls.source is offline); an operator runs vds ingest --source nhtsa-recalls FLAT_CMPL.zip."}
		}
		out := ComplaintSet{Complaints: []upstream.Complaint{}, Source: ix.Source(), DataDate: ix.DataDate(), Meta: upstream.Meta{FetchedAt: ix.Since()}}
		for _, m := range s.modelNames(models) {
			l, err := ix.Complaints(ctx, vehicleMake, m, year)
			if err != nil {
				return ComplaintSet{}, err
			}
			if len(l) > 0 {
				out.Complaints = l
				break
			}
		}
		return out, nil
	}
	l, meta, err := s.up.Complaints(ctx, vehicleMake, apiModel(models), year)
	if err != nil {
		return ComplaintSet{}, err
	}
	return ComplaintSet{Complaints: l, Source: SourceComplaintsAPI, DataDate: apiDataDate(meta), Meta: meta}, nil
}

// CarComplaints answers /v1/cars/{uuid}/complaints.
func (s *Service) CarComplaints(ctx context.Context, id uuid.UUID, pg ComplaintPage) (Complaints, upstream.Meta, error) {
	car, err := s.vehicles.Car(id)
	if err != nil {
		return Complaints{}, upstream.Meta{}, err
	}
	ref := MotorcycleRef{UUID: car.UUID, Make: car.Make, Model: car.Model, Year: car.Year}
	return s.complaints(ctx, ref, pg, car.Model, car.SourceModel)
}

// MotorcycleComplaints answers /v1/motorcycles/{uuid}/complaints.
func (s *Service) MotorcycleComplaints(ctx context.Context, id uuid.UUID, pg ComplaintPage) (Complaints, upstream.Meta, error) {
	m, err := s.vehicles.Motorcycle(id)
	if err != nil {
		return Complaints{}, upstream.Meta{}, err
	}
	return s.complaints(ctx, MotorcycleRef{UUID: m.UUID, Make: m.Make, Model: m.Model, Year: m.Year}, pg, m.Model)
}

// FileComplaints is CarComplaints or MotorcycleComplaints (by kind) from
// the imported complaint files only; ok is false when complaints come from
// NHTSA now, or the kind has none. The dashboard's free pages spend no NHTSA calls.
func (s *Service) FileComplaints(ctx context.Context, kind catalog.Kind, id uuid.UUID, pg ComplaintPage) (c Complaints, ok bool, err error) {
	if s.cmplIx.Load() == nil || s.recallMode == "online" {
		return Complaints{}, false, nil
	}
	switch kind {
	case catalog.KindCar:
		c, _, err = s.CarComplaints(ctx, id, pg)
	case catalog.KindMotorcycle:
		c, _, err = s.MotorcycleComplaints(ctx, id, pg)
	default:
		return Complaints{}, false, nil
	}
	return c, err == nil, err
}

func (s *Service) complaints(ctx context.Context, ref MotorcycleRef, pg ComplaintPage, models ...string) (Complaints, upstream.Meta, error) {
	if pg.Page < 1 || pg.Page > vehicle.MaxPage || pg.PerPage < 1 || pg.PerPage > vehicle.MaxPerPage {
		return Complaints{}, upstream.Meta{}, &vehicle.Error{Code: vehicle.CodeInvalidParameter,
			Message: "page must be 1..40 and per_page 1..10."}
	}
	set, err := s.VehicleComplaints(ctx, ref.Make, ref.Year, models...)
	if err != nil {
		if ve := (*vehicle.Error)(nil); errors.As(err, &ve) {
			return Complaints{}, upstream.Meta{}, ve
		}
		return Complaints{}, upstream.Meta{}, upstreamError("NHTSA", err)
	}
	out := Complaints{Vehicle: ref, Coverage: Coverage, Meta: vehicle.NewMeta(pg.Page, pg.PerPage, len(set.Complaints)),
		Source: set.Source, DataDate: set.DataDate, Stale: set.Meta.Stale, FetchedAt: set.Meta.FetchedAt}
	from := min((pg.Page-1)*pg.PerPage, len(set.Complaints))
	out.Complaints = set.Complaints[from:min(from+pg.PerPage, len(set.Complaints))]
	out.Totals, out.ByComponent = tally(set.Complaints)
	return out, set.Meta, nil
}

// tally sums complaints and counts them by component, most first, then by name.
func tally(l []upstream.Complaint) (ComplaintTotals, []ComponentCount) {
	t := ComplaintTotals{Complaints: len(l)}
	by := map[string]int{}
	for _, c := range l {
		t.Injuries += c.Injuries
		t.Deaths += c.Deaths
		if c.Crash {
			t.Crashes++
		}
		if c.Fire {
			t.Fires++
		}
		for _, comp := range c.Components {
			by[comp]++
		}
	}
	out := make([]ComponentCount, 0, len(by))
	for comp, n := range by {
		out = append(out, ComponentCount{comp, n})
	}
	slices.SortFunc(out, func(a, b ComponentCount) int {
		if a.Complaints != b.Complaints {
			return b.Complaints - a.Complaints
		}
		if a.Component < b.Component {
			return -1
		}
		return 1
	})
	return t, out
}
