package catalog

import (
	"encoding/json"
	"math"
	"reflect"
	"strconv"
)

// Opt is an optional figure of a record: JSON null when not Valid. Its
// fields are those of sql.Null, so one converts to the other.
//
// Cars hold their figures by value, not by pointer: the cars are most of
// a server's heap, and every pointer in them is one the collector traces
// on each cycle, at a cost the open-loop tail shows (docs/architecture.md).
type Opt[T int | float64] struct {
	V     T
	Valid bool
}

// Some returns the figure v.
func Some[T int | float64](v T) Opt[T] { return Opt[T]{V: v, Valid: true} }

// OptOf returns the figure p points to, unset when p is nil.
func OptOf[T int | float64](p *T) Opt[T] {
	if p == nil {
		return Opt[T]{}
	}
	return Some(*p)
}

// MarshalJSON writes the figure as encoding/json writes an int or float64,
// and refuses NaN and ±Inf as it does.
func (o Opt[T]) MarshalJSON() ([]byte, error) {
	if !o.Valid {
		return []byte("null"), nil
	}
	if v, ok := any(o.V).(int); ok {
		return strconv.AppendInt(nil, int64(v), 10), nil
	}
	return appendFloat(float64(o.V))
}

// String returns the figure as JSON writes it, "null" when unset.
func (o Opt[T]) String() string {
	b, err := o.MarshalJSON()
	if err != nil {
		return strconv.FormatFloat(float64(o.V), 'g', -1, 64)
	}
	return string(b)
}

// appendFloat formats f like encoding/json: the shortest decimal, in
// exponent form only below 1e-6 and from 1e21.
func appendFloat(f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, &json.UnsupportedValueError{Value: reflect.ValueOf(f), Str: strconv.FormatFloat(f, 'g', -1, 64)}
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(nil, f, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		// e-09 becomes e-9, as in encoding/json.
		b[n-2] = b[n-1]
		b = b[:n-1]
	}
	return b, nil
}

// UnmarshalJSON reads null as unset and a number as the figure.
func (o *Opt[T]) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*o = Opt[T]{}
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*o = Some(v)
	return nil
}
