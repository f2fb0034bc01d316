// Package lookup decodes VINs (local checks, vPIC, links into the catalog)
// and finds recalls and crash ratings, for REST and MCP alike.
package lookup

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/vehicle"
	"golang.org/x/sync/errgroup"
)

// Problem codes beyond the vehicle service's.
const (
	CodeInvalidVIN          = "invalid_vin"
	CodeVINNotDecodable     = "vin_not_decodable"
	CodeUpstreamError       = "upstream_error"
	CodeUpstreamUnavailable = "upstream_unavailable"
)

// Coverage says where the safety data comes from.
const Coverage = "US (NHTSA)"

// Service composes the local VIN checks, the NHTSA clients and the catalog.
type Service struct {
	vehicles *vehicle.Service
	up       *upstream.Client
	mode     string
	offline  atomic.Pointer[Offline]
	// recallMode is the recalls.source setting: "auto" or "", "offline", "online".
	recallMode string
	recallIx   atomic.Pointer[loadedRecalls]
	recallGen  atomic.Uint64
	cmplIx     atomic.Pointer[ComplaintIndex]
	hins       atomic.Pointer[hinDecoder]
	// names holds nhtsaModels' answers by their models (see modelNames).
	names  sync.Map
	nNames atomic.Int64
}

// Offline decodes VINs without NHTSA, from an imported vPIC snapshot.
type Offline interface {
	Decode(vin string) (upstream.VINResult, error)
	Source() string
	// Since is when the snapshot was imported: the answer's fetched_at.
	Since() time.Time
}

// New returns a Service decoding VINs by mode (the vin.decoder setting:
// "auto" or "", "offline", "online") and finding recalls by recallMode
// (recalls.source, the same values).
func New(vehicles *vehicle.Service, up *upstream.Client, mode, recallMode string) *Service {
	return &Service{vehicles: vehicles, up: up, mode: mode, recallMode: recallMode}
}

// SetOffline makes o the offline decoder; replicas swap in a newer snapshot.
func (s *Service) SetOffline(o Offline) { s.offline.Store(&o) }

// Decoder names what decodes VINs now: the snapshot, "NHTSA vPIC" or "none".
func (s *Service) Decoder() string {
	if p := s.offline.Load(); p != nil && s.mode != "online" {
		return (*p).Source()
	}
	if s.mode == "offline" {
		return "none"
	}
	return "NHTSA vPIC"
}

// decode asks the snapshot when one is loaded (unless the mode is online),
// else NHTSA vPIC; offline never asks NHTSA.
func (s *Service) decode(ctx context.Context, v string) (upstream.VINResult, upstream.Meta, string, error) {
	var off Offline
	if p := s.offline.Load(); p != nil {
		off = *p
	}
	if s.mode == "offline" || (s.mode != "online" && off != nil) {
		if off == nil {
			return upstream.VINResult{}, upstream.Meta{}, "", &vehicle.Error{Code: CodeUpstreamUnavailable,
				Message: "No vPIC snapshot is imported on this server (vin.decoder is offline); an operator runs vds vpic import."}
		}
		res, err := off.Decode(v)
		return res, upstream.Meta{FetchedAt: off.Since()}, off.Source(), err
	}
	res, meta, err := s.up.DecodeVIN(ctx, v)
	return res, meta, "NHTSA vPIC", err
}

// titleCase turns vPIC's upper-case makes into names ("MERCEDES-BENZ" →
// "Mercedes-Benz") for makes the catalog does not know.
func titleCase(s string) string {
	b := []byte(strings.ToLower(s))
	up := true
	for i, c := range b {
		if up && c >= 'a' && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
		up = c == ' ' || c == '-' || c == '/'
	}
	return string(b)
}

func upstreamError(name string, err error) *vehicle.Error {
	if errors.Is(err, upstream.ErrUpstreamBad) {
		return &vehicle.Error{Code: CodeUpstreamError, Message: name + " gave an answer vds could not read; retry later."}
	}
	return &vehicle.Error{Code: CodeUpstreamUnavailable, Message: name + " is unavailable and nothing usable is cached; retry later."}
}

// CarRecalls is the answer of /v1/cars/{uuid}/recalls.
type CarRecalls struct {
	Car      vehicle.CarRef    `json:"car" jsonschema:"The car the recalls and ratings are for."`
	Coverage string            `json:"coverage" jsonschema:"Where the data comes from and applies: US (NHTSA)."`
	Recalls  []upstream.Recall `json:"recalls" jsonschema:"NHTSA recall campaigns for the car's make, model and year; empty when there are none."`
	// RecallsJSON is Recalls encoded, from the files (see RecallSet.JSON).
	RecallsJSON []byte            `json:"-"`
	Source      string            `json:"source" jsonschema:"Where the recalls come from: NHTSA recall files YYYY-MM-DD (imported, by their data date) or NHTSA recalls API."`
	DataDate    string            `json:"data_date" jsonschema:"The date of the recall data, YYYY-MM-DD: the newest record of the imported files, or the day NHTSA's API was asked."`
	Ratings     []upstream.Rating `json:"ratings" jsonschema:"NCAP crash-test ratings of each variant NHTSA rated; empty when none was rated."`
	// RatingsUnavailable: recalls came from the files and NHTSA's ratings failed.
	RatingsUnavailable bool      `json:"ratings_unavailable" jsonschema:"True when the recalls come from the imported files and NHTSA failed to give ratings: ratings is then empty, not a statement that none exist."`
	Stale              bool      `json:"stale" jsonschema:"True when NHTSA failed and an expired cached answer is served (with a Warning header)."`
	FetchedAt          time.Time `json:"fetched_at" jsonschema:"When the answer was fetched from NHTSA, or when the recall files were imported (UTC)."`
	// Version is the answer's data version (see RecallSet.Version) and its
	// ratings' fetch time; 0 when the answer may change without it.
	Version uint64 `json:"-"`
}

// MotorcycleRef identifies a motorcycle-dataset record.
type MotorcycleRef struct {
	UUID  uuid.UUID `json:"uuid" jsonschema:"The record's uuid."`
	Make  string    `json:"make" jsonschema:"Its make."`
	Model string    `json:"model" jsonschema:"Its model."`
	Year  int       `json:"year" jsonschema:"Its model year."`
}

// MotorcycleRecalls is the answer of /v1/motorcycles/{uuid}/recalls.
type MotorcycleRecalls struct {
	Motorcycle MotorcycleRef     `json:"motorcycle" jsonschema:"The record the recalls are for."`
	Coverage   string            `json:"coverage" jsonschema:"Where the data comes from and applies: US (NHTSA)."`
	Note       string            `json:"note" jsonschema:"How to read an empty list: matched by NHTSA's naming, not a guarantee."`
	Recalls    []upstream.Recall `json:"recalls" jsonschema:"NHTSA recall campaigns for the make, model and year; empty when none was found."`
	// RecallsJSON is Recalls encoded, from the files (see RecallSet.JSON).
	RecallsJSON []byte    `json:"-"`
	Source      string    `json:"source" jsonschema:"Where the recalls come from: NHTSA recall files YYYY-MM-DD (imported, by their data date) or NHTSA recalls API."`
	DataDate    string    `json:"data_date" jsonschema:"The date of the recall data, YYYY-MM-DD: the newest record of the imported files, or the day NHTSA's API was asked."`
	Stale       bool      `json:"stale" jsonschema:"True when NHTSA failed and an expired cached answer is served (with a Warning header)."`
	FetchedAt   time.Time `json:"fetched_at" jsonschema:"When the answer was fetched from NHTSA, or when the recall files were imported (UTC)."`
	// Version is RecallSet.Version.
	Version uint64 `json:"-"`
}

// MotorcycleNote qualifies an empty motorcycle recall list.
const MotorcycleNote = "Recalls are matched by make, model and year as NHTSA names them; an empty list means no match was found, not a guarantee that there are none."

// CarRecalls finds a car's recall campaigns (see Recalls) and fetches its
// NCAP ratings, in parallel. With recalls from the files, a ratings failure
// leaves ratings empty and says so rather than failing the answer.
func (s *Service) CarRecalls(ctx context.Context, id uuid.UUID) (CarRecalls, upstream.Meta, error) {
	car, err := s.vehicles.Car(id)
	if err != nil {
		return CarRecalls{}, upstream.Meta{}, err
	}
	out := CarRecalls{Car: vehicle.CarRef{UUID: car.UUID, Make: car.Make, Model: car.Model, Year: car.Year, Trim: car.Trim}, Coverage: Coverage}
	var (
		set         RecallSet
		ratingsMeta upstream.Meta
		ratingsErr  error
	)
	recalls := func() (err error) {
		set, err = s.Recalls(ctx, car.Make, car.Year, car.Model, car.SourceModel)
		return err
	}
	ratings := func() error {
		out.Ratings, ratingsMeta, ratingsErr = s.up.SafetyRatings(ctx, car.Make, car.Model, car.Year)
		return nil
	}
	if _, offline := s.offlineRecalls(); offline {
		// The files answer at once: no need for goroutines.
		if err = recalls(); err == nil {
			err = ratings()
		}
	} else {
		var g errgroup.Group
		g.Go(recalls)
		g.Go(ratings)
		err = g.Wait()
	}
	if err == nil && ratingsErr != nil && !set.Offline {
		err = ratingsErr
	}
	if err != nil {
		if ve := (*vehicle.Error)(nil); errors.As(err, &ve) {
			return CarRecalls{}, upstream.Meta{}, ve
		}
		return CarRecalls{}, upstream.Meta{}, upstreamError("NHTSA", err)
	}
	out.Recalls, out.RecallsJSON, out.Source, out.DataDate = set.Recalls, set.JSON, set.Source, set.DataDate
	meta := set.Meta
	if ratingsErr != nil {
		out.Ratings, out.RatingsUnavailable = []upstream.Rating{}, true
	} else {
		meta = upstream.Meta{Stale: meta.Stale || ratingsMeta.Stale, FetchedAt: oldest(meta.FetchedAt, ratingsMeta.FetchedAt)}
	}
	out.Stale, out.FetchedAt = meta.Stale, meta.FetchedAt
	if set.Version != 0 && ratingsErr == nil && !meta.Stale {
		out.Version = carVersion(set.Version, ratingsMeta.FetchedAt)
	}
	return out, meta, nil
}

// carVersion is a car answer's Version: two fetches of the same ratings
// differ in their time.
func carVersion(files uint64, ratingsAt time.Time) uint64 {
	return files ^ uint64(ratingsAt.UnixNano())*0x9e3779b97f4a7c15
}

// CarRecallsVersion is the Version CarRecalls would give now, or 0, found
// without finding the answer: from the files' generation and the ratings
// in memory.
func (s *Service) CarRecallsVersion(id uuid.UUID) uint64 {
	files, offline := s.offlineRecalls()
	if files == nil || !offline {
		return 0
	}
	car, err := s.vehicles.Car(id)
	if err != nil {
		return 0
	}
	at, ok := s.up.RatingsFetchedAt(car.Make, car.Model, car.Year)
	if !ok {
		return 0
	}
	return carVersion(files.gen, at)
}

// MotorcycleRecallsVersion is CarRecallsVersion for MotorcycleRecalls.
func (s *Service) MotorcycleRecallsVersion() uint64 {
	if files, offline := s.offlineRecalls(); files != nil && offline {
		return files.gen
	}
	return 0
}

// MotorcycleRecalls finds a motorcycle's recall campaigns (see Recalls).
func (s *Service) MotorcycleRecalls(ctx context.Context, id uuid.UUID) (MotorcycleRecalls, upstream.Meta, error) {
	m, err := s.vehicles.Motorcycle(id)
	if err != nil {
		return MotorcycleRecalls{}, upstream.Meta{}, err
	}
	set, err := s.Recalls(ctx, m.Make, m.Year, m.Model)
	if err != nil {
		if ve := (*vehicle.Error)(nil); errors.As(err, &ve) {
			return MotorcycleRecalls{}, upstream.Meta{}, ve
		}
		return MotorcycleRecalls{}, set.Meta, upstreamError("NHTSA", err)
	}
	return MotorcycleRecalls{
		Motorcycle: MotorcycleRef{UUID: m.UUID, Make: m.Make, Model: m.Model, Year: m.Year},
		Coverage:   Coverage, Note: MotorcycleNote, Recalls: set.Recalls, RecallsJSON: set.JSON, Source: set.Source, DataDate: set.DataDate,
		Stale: set.Meta.Stale, FetchedAt: set.Meta.FetchedAt, Version: set.Version,
	}, set.Meta, nil
}

func oldest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}
