package upstream

// A forgiving decoding layer for NHTSA answers, which disagree with
// themselves: case-insensitive look-ups, and anything unusable is absent.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

type record map[string]json.RawMessage

// errShape is wrapped into ErrUpstreamBad for valid JSON of the wrong structure.
var errShape = errors.New("unexpected answer shape")

func decodeRecord(raw json.RawMessage) (record, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	if m == nil { // the literal null
		return nil, fmt.Errorf("%w: null where an object was expected", errShape)
	}
	r := make(record, len(m))
	for k, v := range m {
		lk := strings.ToLower(k)
		// Of two keys differing only in case, keep the one with a value.
		old, dup := r[lk]
		if !dup || isNull(old) {
			r[lk] = v
		}
	}
	return r, nil
}

// envelope is the common NHTSA answer {"Count", "Message", "Results"}.
type envelope struct {
	count   *int
	message string
	results []record
}

// decodeEnvelope accepts "Results" in any case and a null list; a missing one
// only when Count says there is nothing.
func decodeEnvelope(body []byte) (envelope, error) {
	var env envelope
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return env, fmt.Errorf("%w: empty body", errShape)
	}
	if body[0] != '{' {
		return env, fmt.Errorf("%w: body is not a JSON object", errShape)
	}
	top, err := decodeRecord(body)
	if err != nil {
		return env, fmt.Errorf("malformed JSON: %w", err)
	}
	env.count = top.optInt("count")
	env.message = top.str("message")
	raw, ok := top["results"]
	if !ok {
		if env.count != nil && *env.count == 0 {
			return env, nil
		}
		return env, fmt.Errorf("%w: no Results list", errShape)
	}
	if isNull(raw) {
		return env, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return env, fmt.Errorf("%w: Results is not a list", errShape)
	}
	env.results = make([]record, 0, len(items))
	for i, it := range items {
		rec, err := decodeRecord(it)
		if err != nil {
			return env, fmt.Errorf("%w: Results[%d] is not an object", errShape, i)
		}
		env.results = append(env.results, rec)
	}
	return env, nil
}

func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(bytes.TrimSpace(raw)) == "null"
}

func (r record) get(names ...string) (json.RawMessage, bool) {
	for _, n := range names {
		if v, ok := r[strings.ToLower(n)]; ok && !isNull(v) {
			return v, true
		}
	}
	return nil, false
}

// str gives strings trimmed, numbers and booleans as literals, anything else "".
func (r record) str(names ...string) string {
	raw, ok := r.get(names...)
	if !ok {
		return ""
	}
	return rawText(raw)
}

func rawText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return ""
		}
		return strings.TrimSpace(s)
	case '{', '[', 'n':
		return ""
	default: // number, true, false
		return string(raw)
	}
}

// optStr is str with "" as nil: vds answers null for absent values.
func (r record) optStr(names ...string) *string {
	s := r.str(names...)
	if s == "" {
		return nil
	}
	return &s
}

// optInt reads 2021, "2021" or "2021.0"; "", "Not Rated" or 3.5 give nil.
func (r record) optInt(names ...string) *int {
	return parseInt(r.str(names...))
}

func parseInt(s string) *int {
	if s == "" {
		return nil
	}
	if n, err := strconv.Atoi(s); err == nil {
		return &n
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return nil
	}
	n := int(f)
	return &n
}

func (r record) optFloat(names ...string) *float64 {
	s := r.str(names...)
	if s == "" {
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return nil
	}
	return &f
}

// boolean reads true, 1, "Yes", "Y"...; absent is false, which is what NHTSA
// means by leaving a recall flag out.
func (r record) boolean(names ...string) bool {
	switch strings.ToLower(r.str(names...)) {
	case "true", "yes", "y", "1":
		return true
	}
	return false
}

func (r record) date(names ...string) *string {
	d, ok := ISODate(r.str(names...))
	if !ok {
		return nil
	}
	return &d
}

var (
	// "/Date(977115600000-0500)/": epoch milliseconds plus the recorded zone (WCF).
	msDateRE  = regexp.MustCompile(`^/?Date\((-?\d+)([+-]\d{4})?\)/?$`)
	slashRE   = regexp.MustCompile(`^(\d{1,2})/(\d{1,2})/(\d{4})$`)
	isoRE     = regexp.MustCompile(`^(\d{4})-(\d{2})-(\d{2})`)
	compactRE = regexp.MustCompile(`^(\d{4})(\d{2})(\d{2})$`)
)

// ISODate normalises NHTSA's dates to YYYY-MM-DD: YYYYMMDD (the flat files),
// ISO, WCF /Date(ms)/, and slash dates as DD/MM/YYYY (today's NHTSA), falling back to
// MM/DD/YYYY when only that is valid.
func ISODate(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", false
	}
	if m := msDateRE.FindStringSubmatch(s); m != nil {
		ms, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			return "", false
		}
		t := time.UnixMilli(ms).UTC()
		if m[2] != "" {
			// The date in the recorded zone: 977115600000 is midnight on the 18th at -0500.
			h, _ := strconv.Atoi(m[2][1:3])
			mi, _ := strconv.Atoi(m[2][3:5])
			off := h*3600 + mi*60
			if m[2][0] == '-' {
				off = -off
			}
			t = t.In(time.FixedZone("", off))
		}
		return t.Format(time.DateOnly), true
	}
	if m := slashRE.FindStringSubmatch(s); m != nil {
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		y, _ := strconv.Atoi(m[3])
		if d, ok := validDate(y, b, a); ok {
			return d, true
		}
		return validDate(y, a, b)
	}
	if m := isoRE.FindStringSubmatch(s); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		return validDate(y, mo, d)
	}
	if m := compactRE.FindStringSubmatch(s); m != nil {
		y, _ := strconv.Atoi(m[1])
		mo, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[3])
		return validDate(y, mo, d)
	}
	return "", false
}

// validDate refuses dates time.Date would normalise (31/02): misreadings.
func validDate(y, m, d int) (string, bool) {
	if y < 1900 || y > 2200 || m < 1 || m > 12 || d < 1 || d > 31 {
		return "", false
	}
	t := time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC)
	if t.Day() != d || int(t.Month()) != m {
		return "", false
	}
	return t.Format(time.DateOnly), true
}
