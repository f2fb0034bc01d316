package vehicle

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/textfmt"
)

// Error codes. They are part of the public API (the problem document's
// "code" extension and MCP error text), so they never change once shipped.
const (
	CodeInvalidParameter = "invalid_parameter"
	CodeUnknownParameter = "unknown_parameter"
	CodeMissingParameter = "missing_parameter"
	CodeQueryTooBroad    = "query_too_broad"
	CodeInvalidUUID      = "invalid_uuid"
	CodeNotFound         = "not_found"
)

// Error is every error the service returns for bad input or a missing
// record. The HTTP layer maps Code to a status (404 for not_found, 400 for
// the rest); Message is written for the caller, human or model, and says
// what to change.
type Error struct {
	// Code is one of the Code* constants.
	Code string
	// Param names the offending query parameter, when there is one.
	Param string
	// Message is one sentence the caller can act on.
	Message string
	// Accepted lists the accepted parameter names, sorted, for unknown_parameter.
	Accepted []string
	// AcceptedValues lists the values a closed filter accepts, for a value
	// outside them; Suggestion is the one closest to what was sent.
	AcceptedValues []string
	Suggestion     string
}

// Error returns the message: it already names the parameter and value.
func (e *Error) Error() string { return e.Message }

// Is matches any *Error with the same code, so callers can write
// errors.Is(err, vehicle.ErrNotFound) without caring which record was missing.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// ErrNotFound matches, through errors.Is, every not_found error of the service.
var ErrNotFound = &Error{Code: CodeNotFound, Message: "record not found"}

// CodeOf returns the code of the *Error in err's chain, or "" when there is none.
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func paramError(code, param, format string, args ...any) *Error {
	return &Error{Code: code, Param: param, Message: fmt.Sprintf(format, args...)}
}

func invalidf(param, format string, args ...any) *Error {
	return paramError(CodeInvalidParameter, param, format, args...)
}

func notFound(kind catalog.Kind, id uuid.UUID) *Error {
	return &Error{Code: CodeNotFound, Message: fmt.Sprintf("no %s with uuid %s in the catalog", noun(kind), id)}
}

// maxEcho bounds how much of a caller's value is repeated in a message, so
// a hostile query string cannot make the error document large.
const maxEcho = 40

// Echo quotes a caller-supplied value for a message, shortened at a rune
// boundary when it is long.
func Echo(s string) string {
	if len(s) > maxEcho {
		cut := maxEcho
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return fmt.Sprintf("%q", s)
}

// UnknownParam is the unknown_parameter error for name, suggesting the
// accepted name closest to it: a typo is by far the common cause.
func UnknownParam(kind catalog.Kind, name string, accepted []string) *Error {
	var b strings.Builder
	fmt.Fprintf(&b, "unknown parameter %s for %s", Echo(name), noun(kind))
	if s := textfmt.Closest(name, accepted); s != "" {
		fmt.Fprintf(&b, " (did you mean %s?)", s)
	}
	fmt.Fprintf(&b, ": accepted parameters are %s", strings.Join(accepted, ", "))
	return &Error{Code: CodeUnknownParameter, Param: Clip(name), Message: b.String(), Accepted: accepted}
}

// Clip bounds a caller-supplied parameter name for the param field of an
// error as Echo bounds it in messages: no accepted name is anywhere near
// that long, and the field must be valid UTF-8 to be encoded faithfully.
func Clip(name string) string {
	if len(name) > maxEcho {
		name = name[:maxEcho]
	}
	return strings.ToValidUTF8(name, "")
}

// unknownValue builds the error for a value outside a closed filter's
// vocabulary, naming the closest accepted value (or code) and listing all.
func unknownValue(kind catalog.Kind, name, v string, vocab, codes []string) *Error {
	candidates := slices.Concat(vocab, codes)
	guess := nearest(v, candidates)
	for _, g := range synonyms[strings.ToLower(strings.TrimSpace(v))] {
		if slices.Contains(candidates, g) {
			guess = g
			break
		}
	}
	msg := fmt.Sprintf("%s %s is not a value of %s for %s (did you mean %s?): accepted values are %s",
		name, Echo(v), name, noun(kind), guess, strings.Join(vocab, ", "))
	if len(codes) > 0 {
		msg += ", or the codes " + strings.Join(codes, ", ")
	}
	return &Error{Code: CodeInvalidParameter, Param: name, Message: msg + ", in any case",
		AcceptedValues: slices.Clone(vocab), Suggestion: guess}
}

// synonyms are words people use for a catalog value (the first one the
// filter accepts wins) that spelling alone cannot find ("petrol" is nearer DIESEL than GASOLINE). They only steer the
// suggestion: the value itself stays refused, so a query never widens or
// changes meaning behind the caller's back.
var synonyms = map[string][]string{
	"petrol":    {catalog.FuelGasoline, "Gas"},
	"gasolina":  {catalog.FuelGasoline, "Gas"},
	"electric":  {catalog.FuelBEV},
	"ev":        {catalog.FuelBEV, "Electric"},
	"hybrid":    {catalog.FuelHEV},
	"truck":     {"Pickup"},
	"pick-up":   {"Pickup"},
	"saloon":    {"Sedan"},
	"estate":    {"Wagon"},
	"cabriolet": {"Convertible"},
	"mpv":       {"Minivan"},
	"crossover": {"SUV"},
	"4x4":       {"4WD"},
}

// nearest returns the candidate closest to s, case-insensitively: one that
// contains s (three letters or more: "yacht" for Motor Yacht) counts as one
// edit away. Ties go to the earlier candidate, so the catalog's order
// decides. Only the first 64 bytes of s are compared, which bounds the work
// a hostile value can cause.
func nearest(s string, candidates []string) string {
	ls := strings.ToLower(s[:min(len(s), 64)])
	best, bestD := "", math.MaxInt
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := textfmt.EditDistance(ls, lc)
		if len(ls) >= 3 && strings.Contains(lc, ls) {
			d = min(d, 1)
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	return best
}
