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

// Error codes are public API (docs/api.md), so they never change once shipped.
const (
	CodeInvalidParameter = "invalid_parameter"
	CodeUnknownParameter = "unknown_parameter"
	CodeMissingParameter = "missing_parameter"
	CodeQueryTooBroad    = "query_too_broad"
	CodeInvalidUUID      = "invalid_uuid"
	CodeNotFound         = "not_found"
)

// Error is every refusal of the service; Message tells the caller, human or
// model, what to change.
type Error struct {
	Code    string
	Param   string
	Message string
	// Accepted lists the parameter names, sorted, for unknown_parameter.
	Accepted []string
	// AcceptedValues and Suggestion answer a value outside a closed filter.
	AcceptedValues []string
	Suggestion     string
}

// Error returns the message: it already names the parameter and value.
func (e *Error) Error() string { return e.Message }

// Is matches any *Error with the same code, as errors.Is(err, ErrNotFound).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

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

// maxEcho bounds a caller's value in a message, so a hostile one cannot
// make the error document large.
const maxEcho = 40

// Echo quotes a caller's value for a message, cut at a rune boundary.
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

// Clip bounds a caller's parameter name for an error's param field, as
// valid UTF-8.
func Clip(name string) string {
	if len(name) > maxEcho {
		name = name[:maxEcho]
	}
	return strings.ToValidUTF8(name, "")
}

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

// synonyms steer the suggestion where spelling cannot ("petrol"); the value
// stays refused.
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

// nearest returns the candidate closest to s, ignoring case, comparing at
// most 64 bytes; ties go to catalog order.
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
