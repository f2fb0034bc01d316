// Package lookup decodes VINs (local checks, vPIC, links into the catalog)
// and finds recalls and crash ratings, for REST and MCP alike.
package lookup

import (
	"context"
	"errors"
	"strings"
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
	hins     atomic.Pointer[hinDecoder]
}

// Offline decodes VINs without NHTSA, from an imported vPIC snapshot.
type Offline interface {
	Decode(vin string) (upstream.VINResult, error)
	Source() string
	// Since is when the snapshot was imported: the answer's fetched_at.
	Since() time.Time
}

// New returns a Service decoding VINs by mode (the vin.decoder setting:
// "auto" or "", "offline", "online").
func New(vehicles *vehicle.Service, up *upstream.Client, mode string) *Service {
	return &Service{vehicles: vehicles, up: up, mode: mode}
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
	Car       vehicle.CarRef    `json:"car" jsonschema:"The car the recalls and ratings are for."`
	Coverage  string            `json:"coverage" jsonschema:"Where the data comes from and applies: US (NHTSA)."`
	Recalls   []upstream.Recall `json:"recalls" jsonschema:"NHTSA recall campaigns for the car's make, model and year; empty when there are none."`
	Ratings   []upstream.Rating `json:"ratings" jsonschema:"NCAP crash-test ratings of each variant NHTSA rated; empty when none was rated."`
	Stale     bool              `json:"stale" jsonschema:"True when NHTSA failed and an expired cached answer is served (with a Warning header)."`
	FetchedAt time.Time         `json:"fetched_at" jsonschema:"When the answer was fetched from NHTSA (UTC)."`
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
	Stale      bool              `json:"stale" jsonschema:"True when NHTSA failed and an expired cached answer is served (with a Warning header)."`
	FetchedAt  time.Time         `json:"fetched_at" jsonschema:"When the answer was fetched from NHTSA (UTC)."`
}

// MotorcycleNote qualifies an empty motorcycle recall list.
const MotorcycleNote = "Recalls are matched by make, model and year as NHTSA names them; an empty list means no match was found, not a guarantee that there are none."

// CarRecalls fetches a car's recall campaigns and NCAP ratings (in parallel).
func (s *Service) CarRecalls(ctx context.Context, id uuid.UUID) (CarRecalls, upstream.Meta, error) {
	car, err := s.vehicles.Car(id)
	if err != nil {
		return CarRecalls{}, upstream.Meta{}, err
	}
	out := CarRecalls{Car: vehicle.CarRef{UUID: car.UUID, Make: car.Make, Model: car.Model, Year: car.Year, Trim: car.Trim}, Coverage: Coverage}
	var recallsMeta, ratingsMeta upstream.Meta
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() (err error) {
		out.Recalls, recallsMeta, err = s.up.Recalls(gctx, car.Make, car.Model, car.Year)
		return err
	})
	g.Go(func() (err error) {
		out.Ratings, ratingsMeta, err = s.up.SafetyRatings(gctx, car.Make, car.Model, car.Year)
		return err
	})
	if err := g.Wait(); err != nil {
		return CarRecalls{}, upstream.Meta{}, upstreamError("NHTSA", err)
	}
	meta := upstream.Meta{Stale: recallsMeta.Stale || ratingsMeta.Stale, FetchedAt: oldest(recallsMeta.FetchedAt, ratingsMeta.FetchedAt)}
	out.Stale, out.FetchedAt = meta.Stale, meta.FetchedAt
	return out, meta, nil
}

// MotorcycleRecalls fetches a motorcycle's recall campaigns.
func (s *Service) MotorcycleRecalls(ctx context.Context, id uuid.UUID) (MotorcycleRecalls, upstream.Meta, error) {
	m, err := s.vehicles.Motorcycle(id)
	if err != nil {
		return MotorcycleRecalls{}, upstream.Meta{}, err
	}
	recalls, meta, err := s.up.Recalls(ctx, m.Make, m.Model, m.Year)
	if err != nil {
		return MotorcycleRecalls{}, meta, upstreamError("NHTSA", err)
	}
	return MotorcycleRecalls{
		Motorcycle: MotorcycleRef{UUID: m.UUID, Make: m.Make, Model: m.Model, Year: m.Year},
		Coverage:   Coverage, Note: MotorcycleNote, Recalls: recalls, Stale: meta.Stale, FetchedAt: meta.FetchedAt,
	}, meta, nil
}

func oldest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}
