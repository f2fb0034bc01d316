package vehicle

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
)

// Service answers catalog queries from the current snapshot. It is safe for
// concurrent use: every call loads the snapshot once, so it sees a single
// catalog version even while Swap publishes the next.
type Service struct {
	cur atomic.Pointer[Snapshot]
}

// NewService returns a service answering from s; a nil s starts it with an
// empty catalog, so a server can listen before the first load completes.
func NewService(s *Snapshot) *Service {
	if s == nil {
		// An empty catalog has no record that could fail to encode.
		s, _ = NewSnapshot(nil, catalog.Version{})
	}
	svc := &Service{}
	svc.cur.Store(s)
	return svc
}

// Swap makes next the snapshot that later calls answer from; calls already
// running finish on the one they loaded. A nil next is ignored, so a failed
// reload can never leave the service empty.
func (s *Service) Swap(next *Snapshot) {
	if next != nil {
		s.cur.Store(next)
	}
}

// Snapshot returns the current snapshot.
func (s *Service) Snapshot() *Snapshot { return s.cur.Load() }

// Page is one page of a list query.
type Page struct {
	// Data is a []catalog.Car, []catalog.Motorcycle, []catalog.Boat or
	// []catalog.TireFitment; never nil, so it encodes as [] when empty.
	Data any
	// Raw holds the JSON of each record of Data, in order, encoded when the
	// snapshot was built, for callers that write JSON on the hot path.
	Raw  []json.RawMessage
	Meta Meta
}

// Meta is the pagination metadata of a list response.
type Meta struct {
	Page    int `json:"page"`
	PerPage int `json:"per_page"`
	Total   int `json:"total" jsonschema:"All matches, including those paging cannot reach."`
	// TotalPages is ceil(Total/PerPage).
	TotalPages int  `json:"total_pages"`
	MaxPage    int  `json:"max_page" jsonschema:"The last page that can be requested: min(total_pages, 40)."`
	Truncated  bool `json:"truncated" jsonschema:"True when more than 400 records match: narrow the query to see the rest."`
}

func (Meta) SchemaDescription() string { return "Pagination metadata of a list response." }

func newMeta(page, perPage, total int) Meta {
	pages := (total + perPage - 1) / perPage
	return Meta{
		Page: page, PerPage: perPage, Total: total, TotalPages: pages,
		MaxPage: min(pages, MaxPage), Truncated: total > MaxReachable,
	}
}

// Search runs a list query for a kind. params are raw query parameters
// (REST passes r.URL.Query(); MCP tools convert their typed arguments to the
// same strings), so both apply exactly one set of rules: unknown and
// repeated parameters, bad values, out-of-range paging and queries that
// fail the narrowing rule are *Error values. A page past the last match
// (but within 1..40) is an empty page, not an error.
func (s *Service) Search(kind catalog.Kind, params url.Values) (Page, error) {
	r, err := rulesFor(kind)
	if err != nil {
		return Page{}, err
	}
	snap := s.Snapshot()
	q, err := parseQuery(r, params, snap.vocab(kind))
	if err != nil {
		return Page{}, err
	}
	switch kind {
	case catalog.KindCar:
		return searchTable(snap.cars, &q), nil
	case catalog.KindMotorcycle:
		return searchTable(snap.motos, &q), nil
	case catalog.KindBoat:
		return searchTable(snap.boats, &q), nil
	default:
		return searchTable(snap.tires, &q), nil
	}
}

func searchTable[T any](t *table[T], q *query) Page {
	total, page := t.idx.match(q, (q.page-1)*q.perPage, q.perPage)
	pos := page.positions()
	data := make([]T, len(pos))
	raw := make([]json.RawMessage, len(pos))
	for k, p := range pos {
		data[k] = t.recs[p]
		raw[k] = t.raw[p]
	}
	return Page{Data: data, Raw: raw, Meta: newMeta(q.page, q.perPage, total)}
}

// ParseUUID parses a record uuid in its canonical 36-character form, in
// either case. The other spellings uuid.Parse accepts (braces, urn:uuid:,
// 32 bare hex digits) are refused so that each record has one URL.
func ParseUUID(s string) (uuid.UUID, error) {
	id, err := uuid.Parse(s)
	if err != nil || len(s) != 36 {
		return uuid.Nil, &Error{Code: CodeInvalidUUID, Param: "uuid",
			Message: "uuid " + Echo(s) + " is not a UUID: give the 36-character form, e.g. 6f1c1d1e-52a3-4c55-9d7e-0b5a3f2c9e41"}
	}
	return id, nil
}

func get[T any](t *table[T], kind catalog.Kind, id uuid.UUID) (T, error) {
	p, ok := t.byID[id]
	if !ok {
		var zero T
		return zero, notFound(kind, id)
	}
	return t.recs[p], nil
}

// Car returns one car, or a not_found error.
func (s *Service) Car(id uuid.UUID) (catalog.Car, error) {
	return get(s.Snapshot().cars, catalog.KindCar, id)
}

// Motorcycle returns one motorcycle-dataset record, or a not_found error.
func (s *Service) Motorcycle(id uuid.UUID) (catalog.Motorcycle, error) {
	return get(s.Snapshot().motos, catalog.KindMotorcycle, id)
}

// Boat returns one boat, or a not_found error.
func (s *Service) Boat(id uuid.UUID) (catalog.Boat, error) {
	return get(s.Snapshot().boats, catalog.KindBoat, id)
}

// TireFitment returns one tire fitment, or a not_found error.
func (s *Service) TireFitment(id uuid.UUID) (catalog.TireFitment, error) {
	return get(s.Snapshot().tires, catalog.KindTireSize, id)
}

// GetJSON returns one record's JSON, encoded when the snapshot was built.
func (s *Service) GetJSON(kind catalog.Kind, id uuid.UUID) (json.RawMessage, error) {
	snap := s.Snapshot()
	switch kind {
	case catalog.KindCar:
		return getRaw(snap.cars, kind, id)
	case catalog.KindMotorcycle:
		return getRaw(snap.motos, kind, id)
	case catalog.KindBoat:
		return getRaw(snap.boats, kind, id)
	case catalog.KindTireSize:
		return getRaw(snap.tires, kind, id)
	}
	return nil, badKind(kind)
}

func getRaw[T any](t *table[T], kind catalog.Kind, id uuid.UUID) (json.RawMessage, error) {
	p, ok := t.byID[id]
	if !ok {
		return nil, notFound(kind, id)
	}
	return t.raw[p], nil
}

// Get returns one record of any kind as a catalog.Car, catalog.Motorcycle,
// catalog.Boat or catalog.TireFitment, for callers that take the kind as data.
func (s *Service) Get(kind catalog.Kind, id uuid.UUID) (any, error) {
	switch kind {
	case catalog.KindCar:
		return s.Car(id)
	case catalog.KindMotorcycle:
		return s.Motorcycle(id)
	case catalog.KindBoat:
		return s.Boat(id)
	case catalog.KindTireSize:
		return s.TireFitment(id)
	}
	return nil, badKind(kind)
}

// Makes returns every make of a kind with its record count, sorted by name
// case-insensitively; empty for an unknown kind. Spellings that differ only
// in case are one make. The slice is a copy the caller may keep.
func (s *Service) Makes(kind catalog.Kind) []MakeCount {
	snap := s.Snapshot()
	switch kind {
	case catalog.KindCar:
		return slices.Clone(snap.cars.makes)
	case catalog.KindMotorcycle:
		return slices.Clone(snap.motos.makes)
	case catalog.KindBoat:
		return slices.Clone(snap.boats.makes)
	case catalog.KindTireSize:
		return slices.Clone(snap.tires.makes)
	}
	return []MakeCount{}
}

// modelsParams is what /{type}/models accepts.
var modelsParams = []string{"make"}

// Models returns the models of one make with their counts and year ranges,
// sorted by name case-insensitively. params must hold make and nothing else
// (missing_parameter, unknown_parameter otherwise); a make the catalog does
// not have gives an empty list, the same answer a search for it would give.
func (s *Service) Models(kind catalog.Kind, params url.Values) ([]ModelRange, error) {
	if _, err := rulesFor(kind); err != nil {
		return nil, err
	}
	if err := checkNames(kind, modelsParams, params); err != nil {
		return nil, err
	}
	mk := paramReader{params}.get("make")
	if mk == "" {
		return nil, paramError(CodeMissingParameter, "make",
			"make is required: list the makes of %s first, then ask for the models of one, e.g. make=Toyota", noun(kind))
	}
	snap := s.Snapshot()
	var models map[string][]ModelRange
	switch kind {
	case catalog.KindCar:
		models = snap.cars.models
	case catalog.KindMotorcycle:
		models = snap.motos.models
	case catalog.KindBoat:
		models = snap.boats.models
	default:
		models = snap.tires.models
	}
	out := slices.Clone(models[strings.ToLower(mk)])
	if out == nil {
		out = []ModelRange{}
	}
	return out, nil
}

// ModelYears returns the model years of a make and model with their record
// counts, newest first, matching make and model as a search does (trimmed,
// ignoring case). It is empty when the catalog has no such model or kind.
func (s *Service) ModelYears(kind catalog.Kind, mk, model string) []YearCount {
	snap := s.Snapshot()
	lmake, lmodel := strings.ToLower(strings.TrimSpace(mk)), strings.ToLower(strings.TrimSpace(model))
	switch kind {
	case catalog.KindCar:
		return snap.cars.idx.modelYears(lmake, lmodel)
	case catalog.KindMotorcycle:
		return snap.motos.idx.modelYears(lmake, lmodel)
	case catalog.KindBoat:
		return snap.boats.idx.modelYears(lmake, lmodel)
	case catalog.KindTireSize:
		return snap.tires.idx.modelYears(lmake, lmodel)
	}
	return []YearCount{}
}

// BodyTypes returns every car body type with its record count: the known
// types in catalog.Bodies order (zero counts included), then any other.
func (s *Service) BodyTypes() []NameCount { return slices.Clone(s.Snapshot().bodyTypes) }

// MotorcycleTypes returns all nine riding types in catalog.MotorcycleTypes
// order with their vehicle class and record count, which may be 0.
func (s *Service) MotorcycleTypes() []TypeCount { return slices.Clone(s.Snapshot().motoTypes) }

// HullTypes returns every boat hull type with its record count: the known
// types in catalog.HullTypes order (zero counts included), then any other.
func (s *Service) HullTypes() []NameCount { return slices.Clone(s.Snapshot().hullTypes) }

// TiresForCar returns the tire fitments of a car's make and model with
// their geometry, preferring the car's model year and falling back to the
// nearest year(s). A car without fitments gets match "none" and an empty
// list, not an error; an unknown car is not_found.
func (s *Service) TiresForCar(id uuid.UUID) (CarTires, error) {
	snap := s.Snapshot()
	c, err := get(snap.cars, catalog.KindCar, id)
	if err != nil {
		return CarTires{}, err
	}
	match, fits := snap.tiresFor(c.Make, c.Model, c.Year)
	return CarTires{
		Car:   CarRef{UUID: c.UUID, Make: c.Make, Model: c.Model, Year: c.Year, Trim: c.Trim},
		Match: match, Fitments: fits,
	}, nil
}

// TiresForVehicle is TiresForCar by make, model and year, for callers that
// know the vehicle but not a catalog uuid (the tire_sizes_for_vehicle tool,
// VIN decodes).
func (s *Service) TiresForVehicle(vehicleMake, model string, year int) (VehicleTires, error) {
	if err := checkVehicle(vehicleMake, model, year); err != nil {
		return VehicleTires{}, err
	}
	match, fits := s.Snapshot().tiresFor(vehicleMake, model, year)
	return VehicleTires{Match: match, Fitments: fits}, nil
}

// TiresFor returns the fitment records TiresForVehicle matches, without
// geometry; the list is empty (not an error) when nothing matches.
func (s *Service) TiresFor(vehicleMake, model string, year int) ([]catalog.TireFitment, error) {
	vt, err := s.TiresForVehicle(vehicleMake, model, year)
	if err != nil {
		return nil, err
	}
	out := make([]catalog.TireFitment, len(vt.Fitments))
	for i := range vt.Fitments {
		out[i] = vt.Fitments[i].Fitment
	}
	return out, nil
}

// Geometry returns the precomputed geometry of one fitment, or not_found.
func (s *Service) Geometry(id uuid.UUID) (FitmentGeometry, error) {
	snap := s.Snapshot()
	p, ok := snap.tires.byID[id]
	if !ok {
		return FitmentGeometry{}, notFound(catalog.KindTireSize, id)
	}
	return snap.geometry[p], nil
}
