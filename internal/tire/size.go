package tire

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Kind identifies the notation a tire size was written in, which
// determines how its geometry is derived.
type Kind string

const (
	// Metric sizes state section width in millimetres and sidewall
	// height as a percentage of it, e.g. 225/45R17.
	Metric Kind = "metric"
	// Flotation sizes state overall diameter and section width in
	// inches, e.g. 33x12.50R15.
	Flotation Kind = "flotation"
)

// ErrSyntax is wrapped by every error Parse returns, so callers can
// tell a malformed size (a client error) from other failures with
// errors.Is.
var ErrSyntax = errors.New("invalid tire size")

// Size is a parsed tire size designation. Sizes returned by Parse are
// comparable with ==: equal sizes have equal canonical strings.
type Size struct {
	// Kind is the notation the size was written in.
	Kind Kind
	// Service is the service-type marker: "", "P" or "LT" for metric
	// sizes (a prefix), "" or "LT" for flotation sizes.
	Service string
	// WidthMM is the section width in millimetres. Flotation widths
	// are stored converted from inches so that both kinds can be
	// compared on one field.
	WidthMM float64
	// AspectRatio is the sidewall height as a percentage of the
	// section width for metric sizes; 0 for flotation sizes.
	AspectRatio int
	// Construction is "R" (radial), "ZR" (radial, high speed),
	// "D" (diagonal) or "B" (belted bias).
	Construction string
	// RimIn is the rim diameter in inches; half-inch rims such as
	// 16.5 occur on flotation sizes.
	RimIn float64
	// DiameterIn is the stated overall diameter in inches for
	// flotation sizes; 0 for metric sizes, whose diameter is derived.
	DiameterIn float64
	// LoadIndex is the load index, or 0 when the size did not state
	// one.
	LoadIndex int
	// SpeedRating is the speed rating letter, or "" when the size did
	// not state one. It is present exactly when LoadIndex is.
	SpeedRating string
}

// Plausibility limits. They are wider than the range of production
// passenger and light-truck tires so that unusual real sizes parse,
// yet narrow enough to catch transposed or mistyped digits.
const (
	minWidthMM, maxWidthMM         = 105, 455
	minAspect, maxAspect           = 20, 95
	minRimIn, maxRimIn             = 10, 30
	minLoadIndex, maxLoadIndex     = 60, 150
	minFlotDiamIn, maxFlotDiamIn   = 20, 50
	minFlotWidthIn, maxFlotWidthIn = 6, 20
	// Flotation sizes have no stated aspect ratio, so an implied one
	// (sidewall / width) guards against impossible combinations such
	// as 50x6R10. The upper bound exceeds the metric one because tall
	// narrow flotation sizes (e.g. 33x9.50R15, 95%) are real.
	minFlotAspect, maxFlotAspect = 20, 120
)

// speedRatings holds the single-letter speed symbols used on passenger
// and light-truck tires.
const speedRatings = "LMNPQRSTUHVWYZ"

// metricLTSuffix answers a common mix-up between the flotation suffix
// and the metric prefix, from both places it can be detected.
const metricLTSuffix = `"LT" suffix is only valid on flotation sizes; metric sizes take an LT prefix`

// maxInputLen bounds the work done for, and the size of errors echoing,
// hostile input. Valid sizes are under 30 bytes; the slack allows for
// padding whitespace.
const maxInputLen = 256

// maxQuotedLen bounds how much of the input is echoed in an error
// message so a long request body cannot produce a long error.
const maxQuotedLen = 40

type syntaxError struct {
	input string
	msg   string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("tire size %q: %s", e.input, e.msg)
}

func (e *syntaxError) Unwrap() error { return ErrSyntax }

type parser struct {
	input string
}

func (p *parser) errf(format string, args ...any) error {
	in := p.input
	if len(in) > maxQuotedLen {
		in = in[:maxQuotedLen] + "..."
	}
	return &syntaxError{input: in, msg: fmt.Sprintf(format, args...)}
}

// Parse parses a metric or flotation tire size, such as
// "P225/45R17 94W" or "35x12.50R17 LT". Letter case and whitespace
// between, before and after the parts are not significant; everything
// else is checked strictly. Errors wrap ErrSyntax and name the part of
// the size that is wrong.
func Parse(s string) (Size, error) {
	p := parser{input: s}
	if len(s) > maxInputLen {
		return Size{}, p.errf("too long (%d bytes)", len(s))
	}
	fields := strings.Fields(asciiUpper(s))
	if len(fields) == 0 {
		return Size{}, p.errf("empty")
	}
	sz, err := p.size(fields[0])
	if err != nil {
		return Size{}, err
	}
	for _, f := range fields[1:] {
		if err := p.suffix(&sz, f); err != nil {
			return Size{}, err
		}
	}
	if err := p.plausible(sz); err != nil {
		return Size{}, err
	}
	return sz, nil
}

// size parses the first whitespace-separated token, which carries the
// dimensions; the separator after the leading number tells the two
// notations apart.
func (p *parser) size(tok string) (Size, error) {
	sc := scanner{s: tok}
	prefix := sc.letters()
	lead := sc.number()
	switch {
	case lead != "" && sc.eat('/'):
		return p.metric(prefix, lead, &sc)
	case lead != "" && sc.eat('X'):
		return p.flotation(prefix, lead, &sc)
	default:
		return Size{}, p.errf("not a metric (225/45R17) or flotation (33x12.50R15) size")
	}
}

func (p *parser) metric(prefix, width string, sc *scanner) (Size, error) {
	sz := Size{Kind: Metric}
	switch prefix {
	case "", "P", "LT":
		sz.Service = prefix
	default:
		return Size{}, p.errf("unknown service prefix %q", prefix)
	}
	w, err := p.integer("section width", width, 3, 3, minWidthMM, maxWidthMM)
	if err != nil {
		return Size{}, err
	}
	sz.WidthMM = float64(w)
	if sz.AspectRatio, err = p.integer("aspect ratio", sc.number(), 2, 2, minAspect, maxAspect); err != nil {
		return Size{}, err
	}
	switch c := sc.construction(); c {
	case "R", "ZR", "D", "B":
		sz.Construction = c
	case "":
		return Size{}, p.errf("missing construction (R, ZR, D or B)")
	default:
		return Size{}, p.errf("unknown construction %q", c)
	}
	rim, err := p.integer("rim diameter", sc.number(), 2, 2, minRimIn, maxRimIn)
	if err != nil {
		return Size{}, err
	}
	sz.RimIn = float64(rim)
	switch rest := sc.rest(); rest {
	case "":
	case "LT":
		return Size{}, p.errf(metricLTSuffix)
	default:
		return Size{}, p.errf("unexpected %q after rim diameter", rest)
	}
	return sz, nil
}

func (p *parser) flotation(prefix, diameter string, sc *scanner) (Size, error) {
	sz := Size{Kind: Flotation}
	switch prefix {
	case "":
	case "LT":
		// Catalogues often write LT35x12.50R20; it means the same
		// as the suffix form, so accept it rather than reject data.
		sz.Service = "LT"
	case "P":
		return Size{}, p.errf(`"P" prefix is not valid on flotation sizes`)
	default:
		return Size{}, p.errf("unknown service prefix %q", prefix)
	}
	var err error
	if sz.DiameterIn, err = p.halfInch("overall diameter", diameter, minFlotDiamIn, maxFlotDiamIn); err != nil {
		return Size{}, err
	}
	hundredths, err := p.widthHundredths(sc.number())
	if err != nil {
		return Size{}, err
	}
	sz.WidthMM = float64(hundredths*254) / 1000
	switch c := sc.construction(); c {
	case "R", "D", "B":
		sz.Construction = c
	case "":
		return Size{}, p.errf("missing construction (R, D or B)")
	default:
		return Size{}, p.errf("unknown construction %q for flotation size", c)
	}
	if sz.RimIn, err = p.halfInch("rim diameter", sc.number(), minRimIn, maxRimIn); err != nil {
		return Size{}, err
	}
	switch rest := sc.rest(); rest {
	case "":
	case "LT":
		if sz.Service == "LT" {
			return Size{}, p.errf(`duplicate "LT"`)
		}
		sz.Service = "LT"
	default:
		return Size{}, p.errf("unexpected %q after rim diameter", rest)
	}
	return sz, nil
}

// suffix parses one token after the dimensions: a flotation LT marker
// or a load index with speed rating.
func (p *parser) suffix(sz *Size, tok string) error {
	if tok == "LT" {
		switch {
		case sz.Kind != Flotation:
			return p.errf(metricLTSuffix)
		case sz.Service == "LT":
			return p.errf(`duplicate "LT"`)
		}
		sz.Service = "LT"
		return nil
	}
	if tok[0] < '0' || tok[0] > '9' {
		return p.errf("unexpected %q", tok)
	}
	if sz.LoadIndex != 0 {
		return p.errf("unexpected %q: load index already given", tok)
	}
	sc := scanner{s: tok}
	li, err := p.integer("load index", sc.digits(), 2, 3, minLoadIndex, maxLoadIndex)
	if err != nil {
		return err
	}
	switch sr := sc.rest(); {
	case strings.HasPrefix(sr, "/"):
		// LT tires often carry single/dual indexes (123/120S); Size
		// has room for one, and silently dropping the other would
		// misreport the tire.
		return p.errf("dual load index %q is not supported; give the single-tire index", tok)
	case sr == "":
		return p.errf("missing speed rating after load index %d", li)
	case len(sr) != 1 || !strings.Contains(speedRatings, sr):
		return p.errf("unknown speed rating %q", sr)
	default:
		sz.LoadIndex, sz.SpeedRating = li, sr
	}
	return nil
}

// plausible rejects sizes whose parts are each in range but do not
// describe a tire that can exist, which only flotation sizes can do
// since their diameter and rim are stated independently.
func (p *parser) plausible(sz Size) error {
	g := sz.Geometry()
	if !(g.DiameterIn > sz.RimIn) {
		return p.errf("overall diameter %s in does not exceed rim diameter %s in",
			formatNumber(g.DiameterIn), formatNumber(sz.RimIn))
	}
	if sz.Kind == Flotation {
		aspect := g.SidewallMM / g.WidthMM * 100
		if aspect < minFlotAspect || aspect > maxFlotAspect {
			return p.errf("sidewall %s in on a %s in width is implausible (implied aspect ratio %.0f, want %d..%d)",
				formatNumber(g.SidewallIn), formatWidthIn(g.WidthMM), aspect, minFlotAspect, maxFlotAspect)
		}
	}
	return nil
}

// integer validates an unsigned decimal of minDigits..maxDigits digits
// in lo..hi. Leading zeros are rejected so that each value has exactly
// one spelling.
func (p *parser) integer(name, lit string, minDigits, maxDigits, lo, hi int) (int, error) {
	if lit == "" {
		return 0, p.errf("missing %s", name)
	}
	if len(lit) < minDigits || len(lit) > maxDigits || !allDigits(lit) {
		if minDigits == maxDigits {
			return 0, p.errf("%s %q must be %d digits", name, lit, minDigits)
		}
		return 0, p.errf("%s %q must be %d-%d digits", name, lit, minDigits, maxDigits)
	}
	if lit[0] == '0' {
		return 0, p.errf("%s %q has a leading zero", name, lit)
	}
	n, _ := strconv.Atoi(lit) // cannot fail: at most 3 digits, all checked
	if n < lo || n > hi {
		return 0, p.errf("%s %d out of range %d..%d", name, n, lo, hi)
	}
	return n, nil
}

// halfInch validates a two-digit inch value optionally ending in ".5",
// the only fraction used for flotation diameters and rims (16.5, 17.5).
func (p *parser) halfInch(name, lit string, lo, hi int) (float64, error) {
	if lit == "" {
		return 0, p.errf("missing %s", name)
	}
	whole, frac, hasFrac := strings.Cut(lit, ".")
	if len(whole) != 2 || !allDigits(whole) || (hasFrac && frac != "5") {
		return 0, p.errf("%s %q must be 2 digits, optionally followed by .5", name, lit)
	}
	v, _ := strconv.ParseFloat(lit, 64) // cannot fail: format checked above
	if v < float64(lo) || v > float64(hi) {
		return 0, p.errf("%s %s out of range %d..%d", name, lit, lo, hi)
	}
	return v, nil
}

// widthHundredths validates a flotation section width such as 12.50 or
// 10.5 and returns it in hundredths of an inch. The format is checked by
// hand because strconv.ParseFloat also accepts exponents, hex, "inf"
// and "nan"; returning an integer lets the caller convert to millimetres
// with a single rounding, so that 12.50 in becomes exactly the float64
// nearest 317.5 mm regardless of how the width was spelled.
func (p *parser) widthHundredths(lit string) (int, error) {
	const name = "section width"
	if lit == "" {
		return 0, p.errf("missing %s", name)
	}
	whole, frac, hasFrac := strings.Cut(lit, ".")
	if len(whole) < 1 || len(whole) > 2 || !allDigits(whole) ||
		(hasFrac && (len(frac) < 1 || len(frac) > 2 || !allDigits(frac))) {
		return 0, p.errf("%s %q must be inches like 12.50", name, lit)
	}
	if whole[0] == '0' {
		return 0, p.errf("%s %q has a leading zero", name, lit)
	}
	w, _ := strconv.Atoi(whole) // cannot fail: at most 2 digits, all checked
	f, _ := strconv.Atoi((frac + "00")[:2])
	h := w*100 + f
	if h < minFlotWidthIn*100 || h > maxFlotWidthIn*100 {
		return 0, p.errf("%s %s in out of range %d..%d", name, lit, minFlotWidthIn, maxFlotWidthIn)
	}
	return h, nil
}

// String returns the canonical form of s, e.g. "P225/45R17 94W",
// "245/40ZR18" or "35x12.50R17 LT". Parsing the result yields s again.
// It returns "" for a Size whose Kind is neither Metric nor Flotation.
func (s Size) String() string {
	var b strings.Builder
	switch s.Kind {
	case Metric:
		b.WriteString(s.Service)
		b.WriteString(formatNumber(s.WidthMM))
		b.WriteByte('/')
		b.WriteString(strconv.Itoa(s.AspectRatio))
		b.WriteString(s.Construction)
		b.WriteString(formatNumber(s.RimIn))
	case Flotation:
		b.WriteString(formatNumber(s.DiameterIn))
		b.WriteByte('x')
		b.WriteString(formatWidthIn(s.WidthMM))
		b.WriteString(s.Construction)
		b.WriteString(formatNumber(s.RimIn))
		if s.Service == "LT" {
			b.WriteString(" LT")
		}
	default:
		return ""
	}
	if s.LoadIndex != 0 || s.SpeedRating != "" {
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(s.LoadIndex))
		b.WriteString(s.SpeedRating)
	}
	return b.String()
}

func formatNumber(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// formatWidthIn writes a width in millimetres as flotation inches the
// way sidewalls do (12.50, not 12.5). Flotation widths are whole
// hundredths of an inch, so rounding to hundredths only removes the
// error of the round trip through millimetres.
func formatWidthIn(mm float64) string {
	h := int64(math.Round(mm * 1000 / 254))
	if h%100 == 0 {
		return strconv.FormatInt(h/100, 10)
	}
	return fmt.Sprintf("%d.%02d", h/100, h%100)
}

// asciiUpper upper-cases ASCII letters only: strings.ToUpper would turn
// look-alikes such as U+017F (long s) into ASCII letters and so accept
// sizes that were never written in the notation.
func asciiUpper(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' {
			return r - 'a' + 'A'
		}
		return r
	}, s)
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// scanner splits a size token into runs of letters and numbers; the
// parser then validates each run, which lets errors name the part.
type scanner struct {
	s string
	i int
}

func (sc *scanner) run(ok func(byte) bool) string {
	start := sc.i
	for sc.i < len(sc.s) && ok(sc.s[sc.i]) {
		sc.i++
	}
	return sc.s[start:sc.i]
}

func (sc *scanner) letters() string {
	return sc.run(func(c byte) bool { return c >= 'A' && c <= 'Z' })
}

func (sc *scanner) digits() string {
	return sc.run(func(c byte) bool { return c >= '0' && c <= '9' })
}

// number takes digits and dots together so that a malformed value such
// as "12..5" is reported whole by the field validator.
func (sc *scanner) number() string {
	return sc.run(func(c byte) bool { return c >= '0' && c <= '9' || c == '.' })
}

// construction takes everything up to the rim diameter, so a bias
// dash or a stray character is reported as the construction it
// replaced rather than as a missing one.
func (sc *scanner) construction() string {
	return sc.run(func(c byte) bool { return (c < '0' || c > '9') && c != '.' })
}

func (sc *scanner) eat(c byte) bool {
	if sc.i < len(sc.s) && sc.s[sc.i] == c {
		sc.i++
		return true
	}
	return false
}

func (sc *scanner) rest() string {
	r := sc.s[sc.i:]
	sc.i = len(sc.s)
	return r
}
