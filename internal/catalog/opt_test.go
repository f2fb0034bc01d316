package catalog

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// A figure encodes exactly as encoding/json encodes the number itself, so
// the API's bytes do not depend on how records hold their figures.
func TestOptEncodesAsTheNumber(t *testing.T) {
	t.Parallel()
	for _, f := range []float64{0, math.Copysign(0, -1), 27, 27.5, -3.25, 0.1, 1e-6, 9.99e-7, 1.5e-9, 1e20, 1e21, 123456789.125, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		want, _ := json.Marshal(f)
		got, err := json.Marshal(Some(f))
		if err != nil || string(got) != string(want) {
			t.Errorf("Some(%g) = %s, %v; want %s", f, got, err, want)
		}
		if s := Some(f).String(); s != string(want) {
			t.Errorf("Some(%g).String() = %s; want %s", f, s, want)
		}
	}
	for _, n := range []int{0, -1, 42, math.MaxInt64, math.MinInt64} {
		want, _ := json.Marshal(n)
		if got, err := json.Marshal(Some(n)); err != nil || string(got) != string(want) {
			t.Errorf("Some(%d) = %s, %v; want %s", n, got, err, want)
		}
	}
	var car struct {
		A Opt[float64] `json:"a"`
		B Opt[int]     `json:"b"`
	}
	if got, _ := json.Marshal(car); string(got) != `{"a":null,"b":null}` {
		t.Errorf("unset figures = %s; want nulls", got)
	}
	if s := (Opt[int]{}).String(); s != "null" {
		t.Errorf("unset String() = %q", s)
	}
}

// NaN and ±Inf are refused with encoding/json's own error.
func TestOptRefusesNonFinite(t *testing.T) {
	t.Parallel()
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		_, err := Some(f).MarshalJSON()
		_, want := json.Marshal(f)
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Errorf("Some(%g): error %v; want %v", f, err, want)
		}
	}
}

func TestOptDecodes(t *testing.T) {
	t.Parallel()
	var v struct {
		A, Unset Opt[float64]
		B, Null  Opt[int]
	}
	v.Null = Some(7)
	if err := json.Unmarshal([]byte(`{"A":2.5,"B":4,"Null":null}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.A != Some(2.5) || v.B != Some(4) || v.Unset.Valid || v.Null.Valid {
		t.Errorf("decoded %+v", v)
	}
	for _, in := range []string{`{"B":"4"}`, `{"B":4.5}`, `{"A":true}`} {
		if err := json.Unmarshal([]byte(in), &v); err == nil || !strings.Contains(err.Error(), "cannot unmarshal") {
			t.Errorf("%s: error %v; want a type error", in, err)
		}
	}
}

func TestOptOf(t *testing.T) {
	t.Parallel()
	if OptOf[int](nil).Valid || OptOf(ptr(2.5)) != Some(2.5) {
		t.Errorf("OptOf(nil) = %v, OptOf(&2.5) = %v", OptOf[int](nil), OptOf(ptr(2.5)))
	}
}
