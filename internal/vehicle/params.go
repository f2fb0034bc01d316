package vehicle

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/tire"
)

// Limits of list queries: 10 records a page, 40 pages, so at most 400
// records can be reached by paging; beyond that a query must be narrowed.
const (
	DefaultPerPage = 10
	MaxPerPage     = 10
	MaxPage        = 40
	// MaxReachable is the number of matches that paging can reach; Meta.Truncated
	// reports totals above it.
	MaxReachable = MaxPerPage * MaxPage
	// MaxYearWindow is the widest year_min..year_max window, in model years
	// inclusive, that narrows a query on its own.
	MaxYearWindow = 10
	// MinQueryYear and MaxQueryYear bound the years a query may name. They
	// are fixed rather than following the calendar so that a URL valid
	// today stays valid.
	MinQueryYear = catalog.MinCarYear
	MaxQueryYear = 2100
)

// commonParams are accepted by every list endpoint.
var commonParams = []string{"make", "model", "year", "year_min", "year_max", "q", "per_page", "page"}

// maxAttrs is the most string filters any kind has (cars and boats have three).
const maxAttrs = 3

// kindRules describes the list parameters of one kind.
type kindRules struct {
	kind catalog.Kind
	// attrs are the exact-match string filters, in index slot order.
	attrs []string
	// vocab holds, by slot, the values a closed filter takes, in the
	// catalog's spelling and order; nil for an open one (tire_size). A
	// snapshot adds any other value its records hold (see vocabulary).
	vocab [maxAttrs][]string
	// accepted is commonParams plus every type-specific parameter, sorted,
	// as the unknown_parameter error reports it.
	accepted []string
	// hint names the filters in too-broad messages.
	hint string
}

// filter is a string filter and, when it is closed, its vocabulary.
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

// rulesFor returns the rules of a kind, or an invalid_parameter error for a
// kind the catalog does not have.
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

// AcceptedParams returns the sorted list parameters of a kind, for
// documentation and tool schemas; nil for an unknown kind.
func AcceptedParams(kind catalog.Kind) []string {
	r, err := rulesFor(kind)
	if err != nil {
		return nil
	}
	return slices.Clone(r.accepted)
}

// noun names a kind's records in messages.
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

// query is a validated list request. String values are lowercased once
// here so the per-record checks are plain comparisons.
type query struct {
	make, model string
	// year, yearMin and yearMax are 0 when absent.
	year, yearMin, yearMax int
	// words are the lowercase words of q.
	words []string
	// attrs holds the wanted lowercase value per attribute slot; "" when absent.
	attrs [maxAttrs]string
	// sizeFull is the lowercase canonical tire size when the filter stated a
	// load index and speed rating, which must then match too.
	sizeFull string
	evOnly   bool

	hpMin, hpMax         int
	hasHPMin, hasHPMax   bool
	lenMin, lenMax       float64
	hasLenMin, hasLenMax bool
	page, perPage        int
}

// paramReader reads single, trimmed values; empty values count as absent.
type paramReader struct {
	params url.Values
}

func (p paramReader) get(name string) string {
	vs := p.params[name]
	if len(vs) == 0 {
		return ""
	}
	return strings.TrimSpace(vs[0])
}

// intParam parses an integer in lo..hi; def is returned when it is absent.
// hint ends both error messages with what a valid value looks like.
func (p paramReader) intParam(name string, lo, hi, def int, hint string) (int, bool, error) {
	v := p.get(name)
	if v == "" {
		return def, false, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, false, invalidf(name, "%s %s is not a whole number: %s", name, Echo(v), hint)
	}
	if n < lo || n > hi {
		return 0, false, invalidf(name, "%s=%d is outside %d..%d: %s", name, n, lo, hi, hint)
	}
	return n, true, nil
}

// floatParam parses a non-negative finite number; ParseFloat alone would
// also take "NaN" and "Inf".
func (p paramReader) floatParam(name string) (float64, bool, error) {
	v := p.get(name)
	if v == "" {
		return 0, false, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return 0, false, invalidf(name, "%s %s is not a length in feet: give a number of 0 or more such as %s=20.5", name, Echo(v), name)
	}
	return f, true, nil
}

// checkNames rejects unknown and repeated parameters before any value is
// read: a typo must never silently widen a query. Map order is random, so
// the alphabetically first offender is reported to keep errors stable.
func checkNames(kind catalog.Kind, accepted []string, params url.Values) error {
	var unknown, dup string
	for name, vals := range params {
		if !slices.Contains(accepted, name) {
			if unknown == "" || name < unknown {
				unknown = name
			}
			continue
		}
		if len(vals) > 1 && (dup == "" || name < dup) {
			dup = name
		}
	}
	if unknown != "" {
		return unknownParam(kind, unknown, slices.Clone(accepted))
	}
	if dup != "" {
		return invalidf(dup, "%s is given %d times: give each parameter at most once", dup, len(params[dup]))
	}
	return nil
}

// parseQuery validates list parameters against a kind's rules, including
// the narrowing rule, and returns the query to run. vocab holds the values
// each closed filter accepts in the snapshot the query will run on.
func parseQuery(r *kindRules, params url.Values, vocab *[maxAttrs][]string) (query, error) {
	var q query
	if err := checkNames(r.kind, r.accepted, params); err != nil {
		return q, err
	}
	p := paramReader{params}
	var err error
	if q.perPage, _, err = p.intParam("per_page", 1, MaxPerPage, DefaultPerPage,
		"ask for 1 to 10 records per page and page through the rest"); err != nil {
		return q, err
	}
	if q.page, _, err = p.intParam("page", 1, MaxPage, 1,
		"pages run from 1 to 40, so at most 400 records can be paged through; narrow the query to reach the rest"); err != nil {
		return q, err
	}
	const yearHint = "give a four-digit model year such as 2020"
	var hasMin, hasMax bool
	if q.year, _, err = p.intParam("year", MinQueryYear, MaxQueryYear, 0, yearHint); err != nil {
		return q, err
	}
	if q.yearMin, hasMin, err = p.intParam("year_min", MinQueryYear, MaxQueryYear, 0, yearHint); err != nil {
		return q, err
	}
	if q.yearMax, hasMax, err = p.intParam("year_max", MinQueryYear, MaxQueryYear, 0, yearHint); err != nil {
		return q, err
	}
	if hasMin && hasMax && q.yearMin > q.yearMax {
		return q, invalidf("year_min", "year_min=%d is greater than year_max=%d: swap the bounds", q.yearMin, q.yearMax)
	}
	q.make = strings.ToLower(p.get("make"))
	q.model = strings.ToLower(p.get("model"))
	if raw := p.get("q"); raw != "" {
		q.words = queryWords(raw)
		if len(q.words) == 0 {
			return q, invalidf("q", "q %s has no letters or digits to search for", Echo(raw))
		}
	}
	filtered := false
	for slot, name := range r.attrs {
		v := p.get(name)
		if v == "" {
			continue
		}
		if q.attrs[slot], err = attrValue(r.kind, name, v, vocab[slot], &q); err != nil {
			return q, err
		}
		filtered = true
	}
	if r.kind == catalog.KindCar {
		if q.evOnly, err = boolParam(p, "ev_only"); err != nil {
			return q, err
		}
		// ev_only=0 asks for nothing in particular, so it does not narrow.
		filtered = filtered || q.evOnly
	}
	if r.kind == catalog.KindBoat {
		if err := parseBoatBounds(p, &q); err != nil {
			return q, err
		}
		filtered = filtered || q.hasHPMin || q.hasHPMax || q.hasLenMin || q.hasLenMax
	}
	narrowed := filtered || q.make != "" || q.model != "" || len(q.words) > 0 || q.year != 0 ||
		(hasMin && hasMax && q.yearMax-q.yearMin <= MaxYearWindow-1)
	if !narrowed {
		return q, tooBroad(r, params, hasMin, hasMax, q.yearMin, q.yearMax)
	}
	return q, nil
}

// attrValue turns a string filter into the lowercase value its index
// holds. A closed filter (vocab not nil) takes only the values of its
// vocabulary, in any case, and for car fuel_type the codes of carFuelCodes:
// anything else would match nothing and read as "no such vehicles".
func attrValue(kind catalog.Kind, name, v string, vocab []string, q *query) (string, error) {
	if name == "tire_size" {
		sz, err := tire.Parse(v)
		if err != nil {
			return "", invalidf(name, "tire_size %s is not a tire size: use a size such as 225/45R17, LT265/70R17 or 33x12.50R15", Echo(v))
		}
		if sz.LoadIndex != 0 {
			q.sizeFull = strings.ToLower(sz.String())
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

// sizeKey is the index key of a tire size: its canonical form without load
// index and speed rating, so tire_size=235/55R19 finds a fitment listed as
// "235/55R19 101V" (the same tire dimensions).
func sizeKey(sz tire.Size) string {
	sz.LoadIndex, sz.SpeedRating = 0, ""
	return strings.ToLower(sz.String())
}

// carFuelCodes are the short fuel codes people type, accepted for car
// fuel_type besides the names; carFuelNames holds the name of each.
var (
	carFuelCodes = []string{"gas", "gasoline", "diesel", "ffv", "hev", "phev", "bev", "fcev"}
	carFuelNames = []string{catalog.FuelGasoline, catalog.FuelGasoline, catalog.FuelDiesel, catalog.FuelFlex,
		catalog.FuelHEV, catalog.FuelPHEV, catalog.FuelBEV, catalog.FuelFCEV}
)

func boolParam(p paramReader, name string) (bool, error) {
	switch v := p.get(name); strings.ToLower(v) {
	case "":
		return false, nil
	case "1", "true":
		return true, nil
	case "0", "false":
		return false, nil
	default:
		return false, invalidf(name, "%s %s is not a boolean: send %s=1 (or true) to keep only BEV, PHEV and HEV, or 0 (false) for all", name, Echo(v), name)
	}
}

func parseBoatBounds(p paramReader, q *query) error {
	const hpHint = "give horsepower as a whole number of 0 or more, such as 250"
	var err error
	if q.hpMin, q.hasHPMin, err = p.intParam("hp_min", 0, math.MaxInt32, 0, hpHint); err != nil {
		return err
	}
	if q.hpMax, q.hasHPMax, err = p.intParam("hp_max", 0, math.MaxInt32, 0, hpHint); err != nil {
		return err
	}
	if q.hasHPMin && q.hasHPMax && q.hpMin > q.hpMax {
		return invalidf("hp_min", "hp_min=%d is greater than hp_max=%d: swap the bounds", q.hpMin, q.hpMax)
	}
	if q.lenMin, q.hasLenMin, err = p.floatParam("length_min"); err != nil {
		return err
	}
	if q.lenMax, q.hasLenMax, err = p.floatParam("length_max"); err != nil {
		return err
	}
	if q.hasLenMin && q.hasLenMax && q.lenMin > q.lenMax {
		return invalidf("length_min", "length_min=%s is greater than length_max=%s: swap the bounds",
			strconv.FormatFloat(q.lenMin, 'f', -1, 64), strconv.FormatFloat(q.lenMax, 'f', -1, 64))
	}
	return nil
}

// tooBroad explains what the caller can add, naming the year bound that
// made the query look narrowed when there is one.
func tooBroad(r *kindRules, params url.Values, hasMin, hasMax bool, yearMin, yearMax int) *Error {
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
	if ev := (paramReader{params}).get("ev_only"); ev != "" {
		msg = "ev_only=" + ev + " keeps every car, so it does not narrow the query; " + msg
	}
	return paramError(CodeQueryTooBroad, "", "%s", msg)
}

// queryWords splits q into lowercase words on anything that is not a letter
// or digit, the same boundaries the record tokens use.
func queryWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}
