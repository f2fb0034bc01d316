package ingest

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/textcheck"
)

// RecordError locates one problem in an input file.
type RecordError struct {
	File   string
	Line   int
	Field  string
	Reason string
}

func (e RecordError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Reason)
	}
	return fmt.Sprintf("%s:%d: field %s: %s", e.File, e.Line, e.Field, e.Reason)
}

// maxReported keeps a systematic mistake from printing thousands of lines.
const maxReported = 20

// InvalidError lists the invalid input records; nothing is written.
type InvalidError struct {
	Problems []RecordError
}

func (e *InvalidError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d invalid record(s), nothing was ingested:", len(e.Problems))
	for i, p := range e.Problems {
		if i == maxReported {
			fmt.Fprintf(&b, "\n  ... and %d more", len(e.Problems)-maxReported)
			break
		}
		b.WriteString("\n  ")
		b.WriteString(p.Error())
	}
	return b.String()
}

// KindOfFile infers the kind from a name such as cars.csv or boats-2024.json.
func KindOfFile(name string) (catalog.Kind, string, error) {
	base := strings.ToLower(filepath.Base(name))
	ext := filepath.Ext(base)
	if ext != ".csv" && ext != ".json" {
		return "", "", fmt.Errorf("%s: unsupported file type %q: use .csv or .json", name, ext)
	}
	stem := strings.TrimSuffix(base, ext)
	for _, p := range []struct {
		prefix string
		kind   catalog.Kind
	}{
		{"cars", catalog.KindCar}, {"motorcycles", catalog.KindMotorcycle}, {"boats", catalog.KindBoat},
		{"tire_sizes", catalog.KindTireSize}, {"tire-sizes", catalog.KindTireSize},
	} {
		if strings.HasPrefix(stem, p.prefix) {
			return p.kind, ext, nil
		}
	}
	return "", "", fmt.Errorf("%s: cannot tell the record type: name the file cars, motorcycles, boats or tire_sizes (.csv or .json), e.g. cars-2024.csv", name)
}

type parsed[R any] struct {
	rec  R
	line int
}

// parseFile decodes the inputs and builds each record with build, which
// converts and normalizes it.
func parseFile[I any, R any](name, ext string, data []byte, build func(*I) (R, catalog.FieldErrors)) ([]parsed[R], []RecordError) {
	var (
		inputs []I
		lines  []int
		probs  []RecordError
	)
	if ext == ".csv" {
		inputs, lines, probs = decodeCSV[I](name, data)
	} else {
		inputs, lines, probs = decodeJSON[I](name, data)
	}
	if len(inputs) == 0 && len(probs) == 0 {
		// An empty file would remove every record of its type: never what it means.
		return nil, []RecordError{{File: name, Line: 1, Reason: "no records: an empty file would remove every record of its type and is always refused"}}
	}
	out := make([]parsed[R], 0, len(inputs))
	for i := range inputs {
		// Before normalizing, which folds tabs and line breaks into spaces.
		if fes := checkText(reflect.ValueOf(&inputs[i]).Elem()); len(fes) > 0 {
			for _, fe := range fes {
				probs = append(probs, RecordError{File: name, Line: lines[i], Field: fe.Field, Reason: fe.Reason})
			}
			continue
		}
		r, fes := build(&inputs[i])
		for _, fe := range fes {
			probs = append(probs, RecordError{File: name, Line: lines[i], Field: fe.Field, Reason: fe.Reason})
		}
		out = append(out, parsed[R]{rec: r, line: lines[i]})
	}
	return out, probs
}

func fieldName(f reflect.StructField) string {
	tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return tag
}

func columns(t reflect.Type) map[string]int {
	m := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		m[fieldName(t.Field(i))] = i
	}
	return m
}

func checkText(v reflect.Value) catalog.FieldErrors {
	var errs catalog.FieldErrors
	check := func(field, s string) {
		if err := textcheck.Line(s); err != nil {
			errs = append(errs, catalog.FieldError{Field: field, Reason: err.Error()})
		}
	}
	t := v.Type()
	for i := range t.NumField() {
		name, f := fieldName(t.Field(i)), v.Field(i)
		if f.Kind() == reflect.Pointer && !f.IsNil() {
			f = f.Elem()
		}
		switch {
		case f.Kind() == reflect.String:
			check(name, f.String())
		case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.String:
			for j := range f.Len() {
				check(fmt.Sprintf("%s[%d]", name, j), f.Index(j).String())
			}
		}
	}
	return errs
}

func decodeCSV[I any](name string, data []byte) ([]I, []int, []RecordError) {
	r := csv.NewReader(bytes.NewReader(data))
	r.ReuseRecord = false
	header, err := r.Read()
	if err == io.EOF {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, []RecordError{csvError(name, err)}
	}
	t := reflect.TypeFor[I]()
	cols := columns(t)
	index := make([]int, len(header))
	seen := map[string]bool{}
	var probs []RecordError
	for i, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		f, ok := cols[h]
		if !ok {
			probs = append(probs, RecordError{File: name, Line: 1, Field: h, Reason: "unknown column; accepted: " + strings.Join(sortedKeys(cols), ", ")})
			continue
		}
		index[i] = f
		seen[h] = true
	}
	for col, f := range cols {
		if !seen[col] && t.Field(f).Type.Kind() != reflect.Pointer {
			probs = append(probs, RecordError{File: name, Line: 1, Field: col, Reason: "required column is missing"})
		}
	}
	if len(probs) > 0 {
		return nil, nil, probs
	}
	var (
		out   []I
		lines []int
	)
	for {
		row, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			probs = append(probs, csvError(name, err))
			break
		}
		line, _ := r.FieldPos(0)
		var in I
		v := reflect.ValueOf(&in).Elem()
		for i, cell := range row {
			if err := setField(v.Field(index[i]), strings.TrimSpace(cell)); err != nil {
				probs = append(probs, RecordError{File: name, Line: line, Field: header[i], Reason: err.Error()})
			}
		}
		out = append(out, in)
		lines = append(lines, line)
	}
	return out, lines, probs
}

func csvError(name string, err error) RecordError {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return RecordError{File: name, Line: pe.Line, Reason: pe.Err.Error()}
	}
	return RecordError{File: name, Line: 1, Reason: err.Error()}
}

func setField(f reflect.Value, cell string) error {
	if f.Kind() == reflect.Pointer {
		if cell == "" {
			return nil
		}
		p := reflect.New(f.Type().Elem())
		if err := setField(p.Elem(), cell); err != nil {
			return err
		}
		f.Set(p)
		return nil
	}
	switch f.Kind() {
	case reflect.String:
		f.SetString(cell)
	case reflect.Int:
		if cell == "" {
			return errors.New("is required")
		}
		n, err := strconv.Atoi(cell)
		if err != nil {
			return fmt.Errorf("%q is not a whole number", cell)
		}
		f.SetInt(int64(n))
	case reflect.Float64:
		if cell == "" {
			return errors.New("is required")
		}
		x, err := strconv.ParseFloat(cell, 64)
		// NaN, Inf and overflows are no measurement, and JSON cannot carry them.
		if errors.Is(err, strconv.ErrRange) || (err == nil && (math.IsNaN(x) || math.IsInf(x, 0))) {
			return fmt.Errorf("%q is not a finite number", cell)
		}
		if err != nil {
			return fmt.Errorf("%q is not a number", cell)
		}
		f.SetFloat(x)
	case reflect.Bool:
		switch strings.ToLower(cell) {
		case "yes", "true", "1":
			f.SetBool(true)
		case "no", "false", "0":
			f.SetBool(false)
		default:
			return fmt.Errorf("%q is not yes or no", cell)
		}
	case reflect.Slice: // []string, separated by ';' in CSV
		var parts []string
		for p := range strings.SplitSeq(cell, ";") {
			if p = strings.TrimSpace(p); p != "" {
				parts = append(parts, p)
			}
		}
		f.Set(reflect.ValueOf(parts))
	default:
		return fmt.Errorf("unsupported field type %s", f.Type())
	}
	return nil
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	// Order by struct position, which is the documented column order.
	slices.SortFunc(keys, func(a, b string) int { return m[a] - m[b] })
	return keys
}

// decodeJSON records the line each object starts on, for errors.
func decodeJSON[I any](name string, data []byte) ([]I, []int, []RecordError) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	lineAt := func(off int64) int { return 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n")) }
	tok, err := dec.Token()
	if err == io.EOF {
		return nil, nil, nil
	}
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '[' {
		return nil, nil, []RecordError{{File: name, Line: lineAt(dec.InputOffset()), Reason: "expected a JSON array of records"}}
	}
	var (
		out   []I
		lines []int
		probs []RecordError
	)
	for dec.More() {
		start := int(dec.InputOffset())
		for start < len(data) && strings.ContainsRune(" \t\r\n,", rune(data[start])) {
			start++
		}
		line := lineAt(int64(start))
		// Raw first: the decoder would turn invalid UTF-8 into U+FFFD silently.
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			// After a syntax error the decoder cannot resume.
			return nil, nil, append(probs, jsonError(name, line, err))
		}
		if !utf8.Valid(raw) {
			probs = append(probs, RecordError{File: name, Line: line, Field: invalidUTF8Field(raw), Reason: "invalid UTF-8"})
			continue
		}
		rd := json.NewDecoder(bytes.NewReader(raw))
		rd.DisallowUnknownFields()
		var in I
		if err := rd.Decode(&in); err != nil {
			probs = append(probs, jsonError(name, line, err))
			continue
		}
		out = append(out, in)
		lines = append(lines, line)
	}
	if _, err := dec.Token(); err != nil {
		probs = append(probs, RecordError{File: name, Line: lineAt(dec.InputOffset()), Reason: "unterminated JSON array: " + err.Error()})
	}
	return out, lines, probs
}

// invalidUTF8Field names the first field (in name order) of a JSON object
// whose value is not valid UTF-8, or "" when it cannot tell.
func invalidUTF8Field(raw json.RawMessage) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		return ""
	}
	keys := slices.Sorted(maps.Keys(obj))
	for _, k := range keys {
		if !utf8.Valid(obj[k]) {
			return k
		}
	}
	return ""
}

func jsonError(name string, line int, err error) RecordError {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return RecordError{File: name, Line: line, Field: te.Field, Reason: fmt.Sprintf("expected %s, got JSON %s", te.Type, te.Value)}
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return RecordError{File: name, Line: line, Field: strings.Trim(f, `"`), Reason: "unknown field"}
	}
	return RecordError{File: name, Line: line, Reason: strings.TrimPrefix(msg, "json: ")}
}
