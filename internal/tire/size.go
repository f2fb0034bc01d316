package tire

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Kind is the notation a size was written in: Metric (225/45R17) or Flotation (33x12.50R15).
type Kind string

const (
	Metric    Kind = "metric"
	Flotation Kind = "flotation"
)

// ErrSyntax is wrapped by every error Parse returns.
var ErrSyntax = errors.New("invalid tire size")

// Size is a parsed tire size; sizes from Parse are comparable with ==.
type Size struct {
	Kind Kind
	// Service is "", "P" or "LT" (a metric prefix, or the flotation LT suffix).
	Service string
	// WidthMM holds flotation widths converted too, so both kinds compare on one field.
	WidthMM float64
	// AspectRatio is 0 for flotation sizes.
	AspectRatio int
	// Construction is "R", "ZR", "D" (diagonal) or "B" (belted bias).
	Construction string
	RimIn        float64
	// DiameterIn is stated by flotation sizes only; metric diameters are derived.
	DiameterIn float64
	// LoadIndex and SpeedRating are both given or both zero.
	LoadIndex   int
	SpeedRating string
}

// Plausibility limits: wider than production tires, narrow enough to catch typos.
const (
	minWidthMM, maxWidthMM         = 105, 455
	minAspect, maxAspect           = 20, 95
	minRimIn, maxRimIn             = 10, 30
	minLoadIndex, maxLoadIndex     = 60, 150
	minFlotDiamIn, maxFlotDiamIn   = 20, 50
	minFlotWidthIn, maxFlotWidthIn = 6, 20
	// The sidewall a flotation size implies; 33x9.50R15 is 95%.
	minFlotAspect, maxFlotAspect = 20, 120
)

const speedRatings = "LMNPQRSTUHVWYZ"

const metricLTSuffix = `"LT" suffix is only valid on flotation sizes; metric sizes take an LT prefix`

// maxInputLen bounds the work done for hostile input; valid sizes are under 30 bytes.
const maxInputLen = 256

// maxQuotedLen bounds how much input an error message echoes.
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

// Parse parses a metric or flotation size such as "P225/45R17 94W",
// "275/55 R 20" or "35x12.50R17 LT"; errors wrap ErrSyntax and name the wrong part.
func Parse(s string) (Size, error) {
	p := parser{input: s}
	if len(s) > maxInputLen {
		return Size{}, p.errf("too long (%d bytes)", len(s))
	}
	fields := strings.Fields(asciiUpper(s))
	if len(fields) == 0 {
		return Size{}, p.errf("empty")
	}
	dims, rest := joinDimensions(fields)
	sz, err := p.size(dims)
	if err != nil {
		return Size{}, err
	}
	for _, f := range rest {
		if err := p.suffix(&sz, f); err != nil {
			return Size{}, err
		}
	}
	if err := p.plausible(sz); err != nil {
		return Size{}, err
	}
	return sz, nil
}

// joinDimensions glues the leading fields together up to the rim
// diameter, so "275/55 R 20" reads as "275/55R20".
func joinDimensions(fields []string) (string, []string) {
	dims := fields[0]
	i := 1
	for ; i < len(fields) && !hasRim(dims); i++ {
		dims += fields[i]
	}
	return dims, fields[i:]
}

// hasRim reports whether tok runs from the first number through a construction to a rim diameter.
func hasRim(tok string) bool {
	sc := scanner{s: tok}
	sc.letters()
	if sc.number() == "" || !sc.eat('/') && !sc.eat('X') {
		return false
	}
	sc.number()
	return sc.construction() != "" && sc.number() != ""
}

// size parses the dimensions token; the separator after the first number tells the notations apart.
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
		// Catalogues often write LT35x12.50R20, meaning the suffix form.
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
		// Size holds one load index; dropping the dual one would misreport the tire.
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

// plausible rejects flotation sizes whose stated diameter and rim imply no real sidewall.
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

// integer checks a decimal of minDigits..maxDigits digits in lo..hi, without leading zeros.
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

// halfInch checks a two-digit inch value, optionally ending in ".5".
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

// widthHundredths checks a width such as 12.50 by hand (ParseFloat takes "inf"
// and exponents) and returns hundredths, so mm conversion rounds once.
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

// Canonical returns the catalog form of the size in s alone.
func Canonical(s string) (string, error) {
	sz, err := Parse(s)
	if err != nil {
		return "", err
	}
	return sz.Canonical(), nil
}

// Canonical returns the size as the catalog stores it: no load index,
// speed rating or P prefix, LT and ZR kept, flotation without spaces
// (LT285/70R17, 245/35ZR19, 35x12.50R17LT).
func (s Size) Canonical() string {
	s.LoadIndex, s.SpeedRating = 0, ""
	if s.Service == "P" {
		s.Service = ""
	}
	return s.String()
}

// String returns the full form of s, which parses back to s
// ("P225/45R17 94W"); "" for a Size of no Kind.
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
			b.WriteString("LT")
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

// formatWidthIn writes flotation inches as sidewalls do (12.50, not 12.5).
func formatWidthIn(mm float64) string {
	h := int64(math.Round(mm * 1000 / 254))
	if h%100 == 0 {
		return strconv.FormatInt(h/100, 10)
	}
	return fmt.Sprintf("%d.%02d", h/100, h%100)
}

// asciiUpper leaves non-ASCII alone: strings.ToUpper would turn "ſ" into "S".
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

// scanner splits a size token into runs of letters and numbers, so errors name the part.
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

func (sc *scanner) number() string {
	return sc.run(func(c byte) bool { return c >= '0' && c <= '9' || c == '.' })
}

// construction takes all up to the rim, so a stray character is reported as the construction.
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

// ValidLoadIndex reports whether n is a load index a size may carry (60..150).
func ValidLoadIndex(n int) bool { return n >= minLoadIndex && n <= maxLoadIndex }

// ValidSpeedRating reports whether r is one upper-case speed rating letter (L..Z).
func ValidSpeedRating(r string) bool { return len(r) == 1 && strings.Contains(speedRatings, r) }
