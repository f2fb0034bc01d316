package vehicle

import (
	"encoding/json"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/textfmt"
)

// Service answers catalog queries. Each call loads the snapshot once, so it
// sees one catalog version even while Swap publishes the next.
type Service struct {
	cur atomic.Pointer[Snapshot]
}

// NewService answers from s; a nil s is an empty catalog, so a server can
// listen before the first load completes.
func NewService(s *Snapshot) *Service {
	if s == nil {
		s, _ = NewSnapshot(nil, catalog.Version{})
	}
	svc := &Service{}
	svc.cur.Store(s)
	return svc
}

// Swap publishes next; a nil next is ignored, so a failed reload never
// leaves the service empty.
func (s *Service) Swap(next *Snapshot) {
	if next != nil {
		s.cur.Store(next)
	}
}

// Snapshot returns the current snapshot.
func (s *Service) Snapshot() *Snapshot { return s.cur.Load() }

// Page is one page of a list query.
type Page struct {
	// Raw holds each record's JSON, encoded when the snapshot was built:
	// what the API sends, with no copy of the records.
	Raw  []json.RawMessage
	Meta Meta
	src  recordSource
	pos  []int32
}

// Records returns the page's catalog records, a never-nil slice of the
// kind's type ([]catalog.Car, ...).
func (p Page) Records() any {
	if p.src == nil {
		return []catalog.Car{}
	}
	return p.src.records(p.pos)
}

type recordSource interface{ records(pos []int32) any }

func (t *table[T]) records(pos []int32) any {
	out := make([]T, len(pos))
	for k, p := range pos {
		out[k] = t.rec(p)
	}
	return out
}

// Meta is the pagination metadata of a list response.
type Meta struct {
	Page    int `json:"page" jsonschema:"This page's number, from 1."`
	PerPage int `json:"per_page" jsonschema:"Records per page, as requested."`
	Total   int `json:"total" jsonschema:"All matches, including those paging cannot reach."`
	// TotalPages is ceil(Total/PerPage).
	TotalPages int  `json:"total_pages" jsonschema:"Pages the matches fill: ceil(total / per_page)."`
	MaxPage    int  `json:"max_page" jsonschema:"The last page that can be requested: min(total_pages, 40)."`
	Truncated  bool `json:"truncated" jsonschema:"True when more than 400 records match: narrow the query to see the rest."`
	// Suggestions is set only on an empty search whose make or model no
	// record has: those filters take any name, so a typo is not refused.
	Suggestions []Suggestion `json:"suggestions,omitempty" jsonschema:"Present only when nothing matched because no record has the make or model sent: the known names closest to it."`
}

// Suggestion answers a make or model that no record has.
type Suggestion struct {
	Param string   `json:"param" jsonschema:"The parameter: make or model."`
	Value string   `json:"value" jsonschema:"The value sent, cut to 40 bytes."`
	Names []string `json:"names" jsonschema:"Up to 3 known names within two edits of value, closest first; empty when none is that close."`
}

func (Suggestion) SchemaDescription() string {
	return "A make or model no record has, with the known names closest to it."
}

// maxSuggestions bounds Suggestion.Names.
const maxSuggestions = 3

func (Meta) SchemaDescription() string { return "Pagination metadata of a list response." }

// NewMeta is the metadata of page of total matches, perPage a page.
func NewMeta(page, perPage, total int) Meta {
	pages := (total + perPage - 1) / perPage
	return Meta{
		Page: page, PerPage: perPage, Total: total, TotalPages: pages,
		MaxPage: min(pages, MaxPage), Truncated: total > MaxReachable,
	}
}

// Search validates a list query and runs it; refusals are *Error values,
// and a page past the last match is empty.
func (s *Service) Search(in Query) (Page, error) {
	r, err := rulesFor(in.Kind)
	if err != nil {
		return Page{}, err
	}
	snap := s.Snapshot()
	q, err := r.validate(&in, snap.vocab(in.Kind))
	if err != nil {
		return Page{}, err
	}
	switch in.Kind {
	case catalog.KindCar:
		return searchTable(snap.cars, &q, &in), nil
	case catalog.KindMotorcycle:
		return searchTable(snap.motos, &q, &in), nil
	case catalog.KindBoat:
		return searchTable(snap.boats, &q, &in), nil
	default:
		return searchTable(snap.tires, &q, &in), nil
	}
}

func searchTable[T any](t *table[T], q *query, in *Query) Page {
	total, page := t.idx.match(q, (q.page-1)*q.perPage, q.perPage)
	pos := slices.Clone(page.positions())
	raw := make([]json.RawMessage, len(pos))
	for k, p := range pos {
		raw[k] = t.json(p)
	}
	meta := NewMeta(q.page, q.perPage, total)
	if total == 0 {
		meta.Suggestions = t.suggest(q, in)
	}
	return Page{Raw: raw, Meta: meta, src: t, pos: pos}
}

// suggest names the closest known makes for a make no record has, else the
// closest models (of the make, when one is given) for such a model.
func (t *table[T]) suggest(q *query, in *Query) []Suggestion {
	one := func(param, value string, known []string) []Suggestion {
		value = Clip(strings.TrimSpace(value))
		names := textfmt.ClosestN(value, known, maxSuggestions)
		return []Suggestion{{Param: param, Value: value, Names: append([]string{}, names...)}}
	}
	if q.make != "" {
		if t.idx.makes[q.make] == nil {
			known := make([]string, len(t.makes))
			for i, m := range t.makes {
				known[i] = m.Name
			}
			return one("make", in.Make, known)
		}
		if q.model != "" && !t.hasModel(q.make, q.model) {
			return one("model", in.Model, modelNames(t.models[q.make]))
		}
		return nil
	}
	if q.model == "" {
		return nil
	}
	var known []string
	seen := map[string]bool{}
	for _, m := range t.makes {
		lmake := strings.ToLower(m.Name)
		if t.hasModel(lmake, q.model) {
			return nil
		}
		for _, name := range modelNames(t.models[lmake]) {
			if !seen[name] {
				seen[name] = true
				known = append(known, name)
			}
		}
	}
	return one("model", in.Model, known)
}

func (t *table[T]) hasModel(lmake, lmodel string) bool {
	_, ok := t.idx.makes[lmake].models[lmodel]
	return ok
}

func modelNames(models []ModelRange) []string {
	out := make([]string, len(models))
	for i, m := range models {
		out[i] = m.Name
	}
	return out
}

// ParseUUID takes only the 36-character form, in either case, so that each
// record has one URL.
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
	return t.rec(p), nil
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
	return t.json(p), nil
}

// Get returns one record of any kind as its catalog type.
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

// taxonomy is a kind's makes and models; nil for an unknown kind.
func (s *Snapshot) taxonomy(kind catalog.Kind) *taxonomy {
	switch kind {
	case catalog.KindCar:
		return &s.cars.taxonomy
	case catalog.KindMotorcycle:
		return &s.motos.taxonomy
	case catalog.KindBoat:
		return &s.boats.taxonomy
	case catalog.KindTireSize:
		return &s.tires.taxonomy
	}
	return nil
}

// Makes returns a copy of a kind's makes (spellings that differ in case are
// one) with their record counts, sorted case-insensitively.
func (s *Service) Makes(kind catalog.Kind) []MakeCount {
	if t := s.Snapshot().taxonomy(kind); t != nil {
		return slices.Clone(t.makes)
	}
	return []MakeCount{}
}

// emptyBody is the answer of an empty list.
var emptyBody = Answer{Body: []byte(bodyPrefix + "[]" + bodySuffix)}

// MakesBody is Makes encoded as a whole answer.
func (s *Service) MakesBody(kind catalog.Kind) Answer {
	if t := s.Snapshot().taxonomy(kind); t != nil {
		return t.makesBody
	}
	return emptyBody
}

// Models returns a make's models with counts and year ranges, sorted by
// name; an unknown make gives an empty list, as a search would.
func (s *Service) Models(kind catalog.Kind, mk string) ([]ModelRange, error) {
	t, err := s.taxonomyOfMake(kind, mk)
	if err != nil {
		return nil, err
	}
	out := slices.Clone(t.models[strings.ToLower(strings.TrimSpace(mk))])
	if out == nil {
		out = []ModelRange{}
	}
	return out, nil
}

// ModelsBody is Models encoded as a whole answer, as MakesBody.
func (s *Service) ModelsBody(kind catalog.Kind, mk string) (Answer, error) {
	t, err := s.taxonomyOfMake(kind, mk)
	if err != nil {
		return Answer{}, err
	}
	if body, ok := t.modelsBody[strings.ToLower(strings.TrimSpace(mk))]; ok {
		return body, nil
	}
	return emptyBody, nil
}

// taxonomyOfMake checks a models call's kind and make.
func (s *Service) taxonomyOfMake(kind catalog.Kind, mk string) (*taxonomy, error) {
	if _, err := rulesFor(kind); err != nil {
		return nil, err
	}
	if strings.TrimSpace(mk) == "" {
		return nil, paramError(CodeMissingParameter, "make",
			"make is required: list the makes of %s first, then ask for the models of one, e.g. make=Toyota", noun(kind))
	}
	return s.Snapshot().taxonomy(kind), nil
}

// ModelYears returns a model's years with record counts, newest first,
// matching make and model as a search does.
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

// BodyTypes counts cars by body: catalog.Bodies in order (zeros included), then any other.
func (s *Service) BodyTypes() []NameCount { return slices.Clone(s.Snapshot().bodyTypes) }

// MotorcycleTypes counts motorcycles by riding type, with its vehicle class.
func (s *Service) MotorcycleTypes() []TypeCount { return slices.Clone(s.Snapshot().motoTypes) }

// HullTypes counts boats by hull, as BodyTypes counts cars.
func (s *Service) HullTypes() []NameCount { return slices.Clone(s.Snapshot().hullTypes) }

// TiresForCar returns the fitments of a car's make, model and powertrain
// with their geometry, from its year or the nearest; match "none" when
// there are none.
func (s *Service) TiresForCar(id uuid.UUID) (CarTires, error) {
	snap := s.Snapshot()
	c, err := get(snap.cars, catalog.KindCar, id)
	if err != nil {
		return CarTires{}, err
	}
	match, fits := snap.tiresFor(c.Make, c.Model, c.Year, powertrainOf(c.FuelType))
	return CarTires{
		Car:   CarRef{UUID: c.UUID, Make: c.Make, Model: c.Model, Year: c.Year, Trim: c.Trim},
		Match: match, Fitments: fits,
	}, nil
}

// TiresForVehicle is TiresForCar by make, model and year.
func (s *Service) TiresForVehicle(vehicleMake, model string, year int) (VehicleTires, error) {
	if err := checkVehicle(vehicleMake, model, year); err != nil {
		return VehicleTires{}, err
	}
	match, fits := s.Snapshot().tiresFor(vehicleMake, model, year, anyPowertrain)
	return VehicleTires{Match: match, Fitments: fits}, nil
}

// TiresFor returns the records TiresForVehicle matches, without geometry.
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
