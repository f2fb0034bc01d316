package catalog

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Plausible wheel figures (docs/data.md, Wheel specs): wide enough for any
// road vehicle, narrow enough to catch a unit mix-up.
const (
	minLugs, maxLugs         = 3, 10
	minPCDmm, maxPCDmm       = 90, 260
	minBoreMM, maxBoreMM     = 40, 200
	minOffsetMM, maxOffsetMM = -100, 120
	minRimWidth, maxRimWidth = 3, 16
	minTorqueNM, maxTorqueNM = 40, 700
	minThreadMM, maxThreadMM = 8, 24
	minPitchMM, maxPitchMM   = 1, 2.5
	rimWidthStep             = 0.5
)

const (
	boltPatternField = "bolt_pattern"
	lugField         = "lug_thread"
	wheelFormatHint  = "give lug count x pitch-circle diameter in mm, e.g. 5x114.3"
	threadFormatHint = "give a metric thread such as M12x1.5 or an inch one such as 1/2-20"
)

var (
	boltPatternRE = regexp.MustCompile(`^(\d{1,2})\s*[xX×]\s*(\d{2,3}(?:\.\d{1,2})?)$`)
	metricLugRE   = regexp.MustCompile(`^[mM](\d{1,2})\s*[xX×]\s*(\d(?:\.\d{1,2})?)$`)
	inchLugRE     = regexp.MustCompile(`^(1/2|7/16|9/16|5/8|3/4|7/8)\s*-\s*(\d{2})(?:\s*UNF)?$`)
)

// wheel checks the wheel specs and writes the texts in canonical form.
func (c *checker) wheel(w *WheelSpecs) {
	c.canon(&w.BoltPattern, c.boltPattern)
	c.canon(&w.LugThread, c.lugThread)
	if w.CenterBoreMM != nil {
		rangeCheck(c, "center_bore_mm", *w.CenterBoreMM, minBoreMM, maxBoreMM)
	}
	if w.LugTorqueNM != nil {
		rangeCheck(c, "lug_torque_nm", *w.LugTorqueNM, minTorqueNM, maxTorqueNM)
	}
	bounds(c, "offset_min_mm", "offset_max_mm", w.OffsetMinMM, w.OffsetMaxMM, minOffsetMM, maxOffsetMM)
	bounds(c, "rim_width_min_in", "rim_width_max_in", w.RimWidthMinIn, w.RimWidthMaxIn, minRimWidth, maxRimWidth)
	for _, f := range []struct {
		name string
		v    *float64
	}{{"rim_width_min_in", w.RimWidthMinIn}, {"rim_width_max_in", w.RimWidthMaxIn}} {
		if f.v != nil && *f.v/rimWidthStep != float64(int(*f.v/rimWidthStep)) {
			c.fail(f.name, "%v is not a rim width: rims come in half inches, e.g. 7.5", *f.v)
		}
	}
}

// bounds checks a range given as its two ends: both or neither, in lo..hi, in order.
func bounds[T int | float64](c *checker, minName, maxName string, lo, hi *T, min, max T) {
	switch {
	case lo == nil && hi == nil:
		return
	case lo == nil || hi == nil:
		c.fail(minName, "%s and %s go together: give both (the same value for one)", minName, maxName)
		return
	}
	rangeCheck(c, minName, *lo, min, max)
	rangeCheck(c, maxName, *hi, min, max)
	if *lo > *hi {
		c.fail(minName, "%v is above %s %v: swap them", *lo, maxName, *hi)
	}
}

// canon writes a text spec in the canonical form form gives, or nil when blank.
func (c *checker) canon(p **string, form func(string) (string, bool)) {
	if *p == nil {
		return
	}
	v := strings.TrimSpace(**p)
	if v == "" {
		*p = nil
		return
	}
	if s, ok := form(v); ok {
		*p = &s
	}
}

func (c *checker) boltPattern(v string) (string, bool) {
	m := boltPatternRE.FindStringSubmatch(v)
	if m == nil {
		c.fail(boltPatternField, "%q is not a bolt pattern: %s", v, wheelFormatHint)
		return "", false
	}
	lugs, _ := strconv.Atoi(m[1])
	pcd, _ := strconv.ParseFloat(m[2], 64)
	switch {
	case lugs < minLugs || lugs > maxLugs:
		c.fail(boltPatternField, "%q has %d lugs: give %d to %d", v, lugs, minLugs, maxLugs)
	case pcd < minPCDmm || pcd > maxPCDmm:
		c.fail(boltPatternField, "%q has a pitch circle of %v mm, outside %d..%d: %s (5x4.5 in is 5x114.3)", v, pcd, minPCDmm, maxPCDmm, wheelFormatHint)
	default:
		return fmt.Sprintf("%dx%s", lugs, strconv.FormatFloat(pcd, 'f', -1, 64)), true
	}
	return "", false
}

func (c *checker) lugThread(v string) (string, bool) {
	if m := inchLugRE.FindStringSubmatch(strings.ToUpper(v)); m != nil {
		return m[1] + "-" + m[2], true
	}
	m := metricLugRE.FindStringSubmatch(v)
	if m == nil {
		c.fail(lugField, "%q is not a lug thread: %s", v, threadFormatHint)
		return "", false
	}
	d, _ := strconv.Atoi(m[1])
	pitch, _ := strconv.ParseFloat(m[2], 64)
	if d < minThreadMM || d > maxThreadMM || pitch < minPitchMM || pitch > maxPitchMM {
		c.fail(lugField, "%q is outside M%d..M%d with a pitch of %v..%v mm: %s", v, minThreadMM, maxThreadMM, minPitchMM, maxPitchMM, threadFormatHint)
		return "", false
	}
	return fmt.Sprintf("M%dx%s", d, strconv.FormatFloat(pitch, 'f', -1, 64)), true
}
