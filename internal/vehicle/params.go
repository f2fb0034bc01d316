package vehicle

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/tire"
)

// Limits of list queries (docs/api.md): beyond MaxReachable records a
// query must be narrowed.
const (
	DefaultPerPage = 10
	MaxPerPage     = 10
	MaxPage        = 40
	MaxReachable   = MaxPerPage * MaxPage
	// MaxYearWindow is the widest year window, inclusive, that narrows alone.
	MaxYearWindow = 10
	// The year bounds are fixed, not the calendar's, so a valid URL stays valid.
	MinQueryYear = catalog.MinCarYear
	MaxQueryYear = 2100
)

var commonParams = []string{"make", "model", "year", "year_min", "year_max", "q", "per_page", "page"}

// maxAttrs is the most string filters any kind has (cars and boats have three).
const maxAttrs = 3

type kindRules struct {
	kind catalog.Kind
	// attrs are the exact-match string filters, in index slot order.
	attrs []string
	// vocab holds, by slot, a closed filter's values in catalog order; nil
	// for tire_size. A snapshot adds the others its records hold.
	vocab [maxAttrs][]string
	// accepted is every parameter, sorted, as unknown_parameter lists them.
	accepted []string
	hint     string
}

type filter struct {
	name  string
	vocab []string
}

func newRules(kind catalog.Kind, filters []filter, extra []string, hint string) *kindRules {
	r := &kindRules{kind: kind, hint: hint}
	for slot, f := range filters {
		r.attrs = append(r.attrs, f.name)
		r.vocab[slot] = f.vocab
	}
	r.accepted = slices.Concat(commonParams, r.attrs, extra)
	slices.Sort(r.accepted)
	return r
}

var (
	carRules = newRules(catalog.KindCar,
		[]filter{{"body", catalog.Bodies}, {"fuel_type", catalog.CarFuels}, {"drive_type", catalog.Drives}},
		[]string{"ev_only"}, "body, fuel_type, drive_type or ev_only=1")
	motoRules = newRules(catalog.KindMotorcycle,
		[]filter{{"motorcycle_type", catalog.MotorcycleTypes}, {"vehicle_type", catalog.VehicleClasses}},
		nil, "motorcycle_type or vehicle_type")
	boatRules = newRules(catalog.KindBoat,
		[]filter{{"hull_type", catalog.HullTypes}, {"fuel_type", catalog.BoatFuels}, {"model_type", catalog.VesselCategories}},
		[]string{"hp_min", "hp_max", "length_min", "length_max"}, "hull_type, fuel_type, model_type, hp_min, hp_max, length_min or length_max")
	tireRules = newRules(catalog.KindTireSize, []filter{{name: "tire_size"}}, nil, "tire_size")
)

func rulesFor(kind catalog.Kind) (*kindRules, error) {
	switch kind {
	case catalog.KindCar:
		return carRules, nil
	case catalog.KindMotorcycle:
		return motoRules, nil
	case catalog.KindBoat:
		return boatRules, nil
	case catalog.KindTireSize:
		return tireRules, nil
	}
	return nil, badKind(kind)
}

func badKind(kind catalog.Kind) *Error {
	return invalidf("type", "type %s is not a record type: use car, motorcycle, boat or tire_size", Echo(string(kind)))
}

// AcceptedParams returns the sorted list parameters of a kind; nil for an unknown kind.
func AcceptedParams(kind catalog.Kind) []string {
	r, err := rulesFor(kind)
	if err != nil {
		return nil
	}
	return slices.Clone(r.accepted)
}

func noun(kind catalog.Kind) string {
	switch kind {
	case catalog.KindCar:
		return "cars"
	case catalog.KindMotorcycle:
		return "motorcycles"
	case catalog.KindBoat:
		return "boats"
	case catalog.KindTireSize:
		return "tire fitments"
	}
	return string(kind)
}

// Query is a list query as each edge builds it from its own input; nil and
// "" fields are absent, and Search validates it (parameters: docs/api.md).
type Query struct {
	Kind                   catalog.Kind
	Make, Model, Q         string
	Year, YearMin, YearMax *int
	Filters                Filters
	EVOnly                 *bool
	HPMin, HPMax           *int
	LengthMin, LengthMax   *float64
	Page, PerPage          *int

	// evText is ev_only as Set read it; the narrowing message repeats it.
	evText string
}

// Filters are the string filters; each kind takes some (AcceptedParams).
type Filters struct {
	Body, FuelType, DriveType   string
	MotorcycleType, VehicleType string
	HullType, ModelType         string
	TireSize                    string
}

var (
	filterNames = [...]string{"body", "fuel_type", "drive_type", "motorcycle_type", "vehicle_type", "hull_type", "model_type", "tire_size"}
	intNames    = [...]string{"year", "year_min", "year_max", "page", "per_page", "hp_min", "hp_max"}
)

func (f *Filters) fields() [len(filterNames)]*string {
	return [...]*string{&f.Body, &f.FuelType, &f.DriveType, &f.MotorcycleType, &f.VehicleType, &f.HullType, &f.ModelType, &f.TireSize}
}

func (q *Query) ints() [len(intNames)]**int {
	return [...]**int{&q.Year, &q.YearMin, &q.YearMax, &q.Page, &q.PerPage, &q.HPMin, &q.HPMax}
}

// Set reads one parameter from text, trimmed; a blank value stays absent.
// Text that is not of the parameter's type and unknown names are refused.
func (q *Query) Set(name, value string) error {
	v := strings.TrimSpace(value)
	if v == "" {
		return nil
	}
	var err error
	switch name {
	case "make":
		q.Make = v
	case "model":
		q.Model = v
	case "q":
		q.Q = v
	case "length_min":
		q.LengthMin, err = length(name, v)
	case "length_max":
		q.LengthMax, err = length(name, v)
	case "ev_only":
		var b bool
		switch strings.ToLower(v) {
		case "1", "true":
			b = true
		case "0", "false":
		default:
			return invalidf(name, "%s %s is not a boolean: send %s=1 (or true) to keep only BEV, PHEV, HEV and FCEV, or 0 (false) for all", name, Echo(v), name)
		}
		q.EVOnly, q.evText = &b, v
	default:
		if i := slices.Index(intNames[:], name); i >= 0 {
			*q.ints()[i], err = wholeNumber(name, v)
		} else if i := slices.Index(filterNames[:], name); i >= 0 {
			*q.Filters.fields()[i] = v
		} else {
			err = UnknownParam(q.Kind, name, AcceptedParams(q.Kind))
		}
	}
	return err
}

const (
	perPageHint = "ask for 1 to 10 records per page and page through the rest"
	pageHint    = "pages run from 1 to 40, so at most 400 records can be paged through; narrow the query to reach the rest"
	yearHint    = "give a four-digit model year such as 2020"
	hpHint      = "give horsepower as a whole number of 0 or more, such as 250"
)

func hintOf(name string) string {
	switch name {
	case "per_page":
		return perPageHint
	case "page":
		return pageHint
	case "hp_min", "hp_max":
		return hpHint
	}
	return yearHint
}

func wholeNumber(name, v string) (*int, error) {
	n, err := strconv.Atoi(v)
	if err != nil {
		return nil, invalidf(name, "%s %s is not a whole number: %s", name, Echo(v), hintOf(name))
	}
	return &n, nil
}

// length refuses "NaN" and "Inf", which ParseFloat alone would take.
func length(name, v string) (*float64, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || !lengthOK(f) {
		return nil, badLength(name, v)
	}
	return &f, nil
}

func lengthOK(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) && f >= 0 }

func lengthIn(name string, p *float64) (float64, bool, error) {
	if p == nil {
		return 0, false, nil
	}
	if !lengthOK(*p) {
		return 0, false, badLength(name, strconv.FormatFloat(*p, 'f', -1, 64))
	}
	return *p, true, nil
}

func badLength(name, v string) *Error {
	return invalidf(name, "%s %s is not a length in feet: give a number of 0 or more such as %s=20.5", name, Echo(v), name)
}

// query is a validated Query, lowercased once for plain comparisons.
type query struct {
	make, model            string
	year, yearMin, yearMax int
	words                  []string
	attrs                  [maxAttrs]string
	evOnly                 bool

	hpMin, hpMax         int
	hasHPMin, hasHPMax   bool
	lenMin, lenMax       float64
	hasLenMin, hasLenMax bool
	page, perPage        int
}

func intIn(name string, p *int, lo, hi, def int) (int, bool, error) {
	if p == nil {
		return def, false, nil
	}
	if n := *p; n < lo || n > hi {
		return 0, false, invalidf(name, "%s=%d is outside %d..%d: %s", name, n, lo, hi, hintOf(name))
	}
	return *p, true, nil
}

// unknownFilter reports the alphabetically first filter the kind lacks, so errors are stable.
func (r *kindRules) unknownFilter(in *Query) error {
	first := ""
	note := func(name string) {
		if first == "" || name < first {
			first = name
		}
	}
	for i, v := range in.Filters.fields() {
		if *v != "" && !slices.Contains(r.attrs, filterNames[i]) {
			note(filterNames[i])
		}
	}
	for _, f := range [...]struct {
		name string
		set  bool
	}{
		{"ev_only", in.EVOnly != nil}, {"hp_min", in.HPMin != nil}, {"hp_max", in.HPMax != nil},
		{"length_min", in.LengthMin != nil}, {"length_max", in.LengthMax != nil},
	} {
		if f.set && !slices.Contains(r.accepted, f.name) {
			note(f.name)
		}
	}
	if first == "" {
		return nil
	}
	return UnknownParam(r.kind, first, slices.Clone(r.accepted))
}

// validate is the one check of a list query, the narrowing rule last;
// vocab is what each closed filter accepts in the snapshot it will run on.
func (r *kindRules) validate(in *Query, vocab *[maxAttrs][]string) (query, error) {
	var q query
	if err := r.unknownFilter(in); err != nil {
		return q, err
	}
	var err error
	if q.perPage, _, err = intIn("per_page", in.PerPage, 1, MaxPerPage, DefaultPerPage); err != nil {
		return q, err
	}
	if q.page, _, err = intIn("page", in.Page, 1, MaxPage, 1); err != nil {
		return q, err
	}
	var hasMin, hasMax bool
	if q.year, _, err = intIn("year", in.Year, MinQueryYear, MaxQueryYear, 0); err != nil {
		return q, err
	}
	if q.yearMin, hasMin, err = intIn("year_min", in.YearMin, MinQueryYear, MaxQueryYear, 0); err != nil {
		return q, err
	}
	if q.yearMax, hasMax, err = intIn("year_max", in.YearMax, MinQueryYear, MaxQueryYear, 0); err != nil {
		return q, err
	}
	if hasMin && hasMax && q.yearMin > q.yearMax {
		return q, invalidf("year_min", "year_min=%d is greater than year_max=%d: swap the bounds", q.yearMin, q.yearMax)
	}
	q.make = strings.ToLower(strings.TrimSpace(in.Make))
	q.model = strings.ToLower(strings.TrimSpace(in.Model))
	if raw := strings.TrimSpace(in.Q); raw != "" {
		q.words = queryWords(raw)
		if len(q.words) == 0 {
			return q, invalidf("q", "q %s has no letters or digits to search for", Echo(raw))
		}
	}
	filtered := false
	filters := in.Filters.fields()
	for slot, name := range r.attrs {
		v := strings.TrimSpace(*filters[slices.Index(filterNames[:], name)])
		if v == "" {
			continue
		}
		if q.attrs[slot], err = attrValue(r.kind, name, v, vocab[slot], &q); err != nil {
			return q, err
		}
		filtered = true
	}
	if in.EVOnly != nil {
		// ev_only=0 asks for nothing in particular, so it does not narrow.
		q.evOnly = *in.EVOnly
		filtered = filtered || q.evOnly
	}
	if r.kind == catalog.KindBoat {
		if err := boatBounds(in, &q); err != nil {
			return q, err
		}
		filtered = filtered || q.hasHPMin || q.hasHPMax || q.hasLenMin || q.hasLenMax
	}
	narrowed := filtered || q.make != "" || q.model != "" || len(q.words) > 0 || q.year != 0 ||
		(hasMin && hasMax && q.yearMax-q.yearMin <= MaxYearWindow-1)
	if !narrowed {
		return q, tooBroad(r, in, hasMin, hasMax, q.yearMin, q.yearMax)
	}
	return q, nil
}

// attrValue returns a filter's index key. A closed filter refuses values
// outside its vocabulary, which would read as "no such vehicles".
func attrValue(kind catalog.Kind, name, v string, vocab []string, q *query) (string, error) {
	if name == "tire_size" {
		sz, err := tire.Parse(v)
		if err != nil {
			return "", invalidf(name, "tire_size %s is not a tire size: use a size such as 225/45R17, LT265/70R17 or 33x12.50R15", Echo(v))
		}
		return sizeKey(sz), nil
	}
	for _, a := range vocab {
		if strings.EqualFold(a, v) {
			return strings.ToLower(a), nil
		}
	}
	var codes []string
	if kind == catalog.KindCar && name == "fuel_type" {
		codes = carFuelCodes
		if i := slices.IndexFunc(codes, func(c string) bool { return strings.EqualFold(c, v) }); i >= 0 {
			return strings.ToLower(carFuelNames[i]), nil
		}
	}
	return "", unknownValue(kind, name, v, vocab, codes)
}

// sizeKey is the canonical size, lowercased: the filter matches the size
// whatever load index, speed rating, P prefix or spacing either side wrote.
func sizeKey(sz tire.Size) string {
	return strings.ToLower(sz.Canonical())
}

// CarFuelCodes returns the short codes car fuel_type also accepts.
func CarFuelCodes() []string { return slices.Clone(carFuelCodes) }

// carFuelCodes are also accepted for car fuel_type; carFuelNames maps them.
var (
	carFuelCodes = []string{"gas", "gasoline", "diesel", "ffv", "hev", "phev", "bev", "fcev", "cng", "lpg"}
	carFuelNames = []string{catalog.FuelGasoline, catalog.FuelGasoline, catalog.FuelDiesel, catalog.FuelFlex,
		catalog.FuelHEV, catalog.FuelPHEV, catalog.FuelBEV, catalog.FuelFCEV, catalog.FuelCNG, catalog.FuelLPG}
)

func boatBounds(in *Query, q *query) error {
	var err error
	if q.hpMin, q.hasHPMin, err = intIn("hp_min", in.HPMin, 0, math.MaxInt32, 0); err != nil {
		return err
	}
	if q.hpMax, q.hasHPMax, err = intIn("hp_max", in.HPMax, 0, math.MaxInt32, 0); err != nil {
		return err
	}
	if q.hasHPMin && q.hasHPMax && q.hpMin > q.hpMax {
		return invalidf("hp_min", "hp_min=%d is greater than hp_max=%d: swap the bounds", q.hpMin, q.hpMax)
	}
	if q.lenMin, q.hasLenMin, err = lengthIn("length_min", in.LengthMin); err != nil {
		return err
	}
	if q.lenMax, q.hasLenMax, err = lengthIn("length_max", in.LengthMax); err != nil {
		return err
	}
	if q.hasLenMin && q.hasLenMax && q.lenMin > q.lenMax {
		return invalidf("length_min", "length_min=%s is greater than length_max=%s: swap the bounds",
			strconv.FormatFloat(q.lenMin, 'f', -1, 64), strconv.FormatFloat(q.lenMax, 'f', -1, 64))
	}
	return nil
}

// tooBroad names the year bound that made the query look narrowed, if any.
func tooBroad(r *kindRules, in *Query, hasMin, hasMax bool, yearMin, yearMax int) *Error {
	narrow := fmt.Sprintf("narrow by make, model, q or a filter (%s)", r.hint)
	switch {
	case hasMin && hasMax:
		return paramError(CodeQueryTooBroad, "year_max",
			"year_min=%d..year_max=%d spans %d model years: give a window of at most %d years (year_max - year_min <= %d), or %s",
			yearMin, yearMax, yearMax-yearMin+1, MaxYearWindow, MaxYearWindow-1, narrow)
	case hasMin:
		return paramError(CodeQueryTooBroad, "year_min",
			"year_min=%d has no year_max: give both bounds of a window of at most %d years, or %s", yearMin, MaxYearWindow, narrow)
	case hasMax:
		return paramError(CodeQueryTooBroad, "year_max",
			"year_max=%d has no year_min: give both bounds of a window of at most %d years, or %s", yearMax, MaxYearWindow, narrow)
	}
	msg := fmt.Sprintf("this query would list every one of the %s: %s, or give year or a year_min..year_max window of at most %d years",
		noun(r.kind), narrow, MaxYearWindow)
	if in.EVOnly != nil {
		ev := in.evText
		if ev == "" {
			ev = strconv.FormatBool(*in.EVOnly)
		}
		msg = "ev_only=" + ev + " keeps every car, so it does not narrow the query; " + msg
	}
	return paramError(CodeQueryTooBroad, "", "%s", msg)
}

// queryWords splits q on the boundaries the record tokens use.
func queryWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}
