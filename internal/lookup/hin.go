package lookup

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/vds-dev/vds/internal/hin"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/vehicle"
)

// CodeInvalidHIN is a string that is no HIN: a 400 that costs nothing.
const CodeInvalidHIN = "invalid_hin"

// hinDecoder is the decoder over the MIC list the server loaded, and the
// list's name for the answers' source.
type hinDecoder struct {
	dec    *hin.Decoder
	source string
}

// SetMICs makes dec, over the MIC list source names, the one HINs are
// decoded with.
func (s *Service) SetMICs(dec *hin.Decoder, source string) {
	s.hins.Store(&hinDecoder{dec: dec, source: source})
}

func (s *Service) hinDecoder() *hinDecoder {
	if d := s.hins.Load(); d != nil {
		return d
	}
	return &hinDecoder{dec: hin.NewDecoder(nil), source: "none"}
}

// HINLinks are the catalog boats a HIN points at.
type HINLinks struct {
	Makes []string    `json:"makes" jsonschema:"The catalog's boat makes the manufacturer code builds (docs/data.md, HIN links); empty when none is known."`
	Boats []uuid.UUID `json:"boats" jsonschema:"Uuids of the catalog's boats of those makes and the HIN's model year (GET /v1/boats/{uuid}); empty when none."`
}

// HINReport is the answer of a HIN decode.
type HINReport struct {
	hin.Decoded
	Links  HINLinks `json:"links" jsonschema:"Catalog boats of the manufacturer and model year."`
	Source string   `json:"source" jsonschema:"The MIC list the manufacturer was looked up in, as imported (vds hin import) or embedded."`
}

// HINError is a string that is no HIN: the problem, and where and why.
type HINError struct {
	Err      *vehicle.Error
	Position int
	Rule     string
}

func (e *HINError) Error() string { return e.Err.Error() }
func (e *HINError) Unwrap() error { return e.Err }

func invalidHIN(err error) *HINError {
	var he *hin.Error
	if !errors.As(err, &he) {
		return &HINError{Err: &vehicle.Error{Code: CodeInvalidHIN, Param: "hin", Message: err.Error()}}
	}
	msg := fmt.Sprintf("Not a HIN (error %d): %s.", he.Code, he.Rule)
	if he.Position > 0 {
		msg = fmt.Sprintf("Not a HIN (error %d): character %d is %q, but %s.", he.Code, he.Position, he.Char, he.Rule)
	}
	return &HINError{Err: &vehicle.Error{Code: CodeInvalidHIN, Param: "hin", Message: msg}, Position: he.Position, Rule: he.Rule}
}

// DecodeHIN decodes one HIN and links it to the catalog's boats.
func (s *Service) DecodeHIN(raw string) (HINReport, error) {
	d := s.hinDecoder()
	dec, err := d.dec.Decode(raw)
	if err != nil {
		return HINReport{}, invalidHIN(err)
	}
	return s.hinReport(dec, d.source), nil
}

func (s *Service) hinReport(dec hin.Decoded, source string) HINReport {
	r := HINReport{Decoded: dec, Source: source, Links: HINLinks{Makes: []string{}, Boats: []uuid.UUID{}}}
	if r.Warnings == nil {
		r.Warnings = []hin.Warning{}
	}
	for _, mk := range hinMakes[dec.MIC] {
		if name, ok := s.vehicles.BoatMake(mk); ok {
			r.Links.Makes = append(r.Links.Makes, name)
		}
	}
	if dec.ModelYear != nil && len(r.Links.Makes) > 0 {
		r.Links.Boats = s.vehicles.Boats(r.Links.Makes, *dec.ModelYear)
	}
	return r
}

// HINEntry is one HIN of a batch: its report, or why it has none.
type HINEntry struct {
	HIN    string
	Report *HINReport
	Err    *HINError
}

// HINFailure is the JSON of a batch entry without a report.
type HINFailure struct {
	HIN   string        `json:"hin" jsonschema:"The HIN as sent, trimmed and upper-cased."`
	Error HINEntryError `json:"error" jsonschema:"Why the HIN has no report."`
}

// SchemaDescription describes HINFailure in the API's schemas.
func (HINFailure) SchemaDescription() string {
	return "A HIN of a batch that was not decoded, and why: invalid_hin (not charged), or quota_exceeded / rate_limited " +
		"for the HINs past the point the quota ran out (not charged)."
}

// HINEntryError says why a batch entry has no report.
type HINEntryError struct {
	Code     string `json:"code" jsonschema:"The problem code the single-HIN endpoint would answer with."`
	Detail   string `json:"detail" jsonschema:"A human-readable explanation."`
	Position int    `json:"position,omitempty" jsonschema:"For invalid_hin: the 1-based position of the offending character, without spaces and hyphens; absent for a wrong length."`
	Rule     string `json:"rule,omitempty" jsonschema:"For invalid_hin: the rule the HIN breaks."`
}

func (HINEntryError) SchemaEnums() map[string][]string {
	return map[string][]string{"code": {CodeInvalidHIN, limits.CodeQuotaExceeded, limits.CodeRateLimited}}
}

// MarshalJSON writes the report, or the HINFailure.
func (e HINEntry) MarshalJSON() ([]byte, error) { return json.Marshal(e.Body()) }

// Body is what the entry's JSON is: its report, or its HINFailure. A
// stream encodes it directly, without MarshalJSON's second pass.
func (e HINEntry) Body() any {
	if e.Report != nil {
		return e.Report
	}
	return HINFailure{HIN: e.HIN, Error: HINEntryError{Code: e.Err.Err.Code, Detail: e.Err.Err.Message,
		Position: e.Err.Position, Rule: e.Err.Rule}}
}

// DecodeHINEntry decodes one HIN as a batch entry, for callers that stream many.
func (s *Service) DecodeHINEntry(raw string) HINEntry {
	r, err := s.DecodeHIN(raw)
	if err != nil {
		return HINEntry{HIN: hin.Normalize(raw), Err: err.(*HINError)}
	}
	return HINEntry{HIN: r.HIN, Report: &r}
}

// DecodeHINs decodes up to MaxBatch HINs, one entry per HIN in order; meter
// (nil: free) charges each distinct decoded HIN once, as DecodeVINs does.
func (s *Service) DecodeHINs(ctx context.Context, raws []string, meter *Meter) ([]HINEntry, error) {
	if len(raws) > MaxBatch {
		return nil, &vehicle.Error{Code: vehicle.CodeInvalidParameter, Param: "hin",
			Message: fmt.Sprintf("%d HINs given; a batch decodes at most %d, so split the list.", len(raws), MaxBatch)}
	}
	entries := make([]HINEntry, len(raws))
	first := map[string]int{} // a decoded HIN's distinct index, by HIN
	var distinct []string
	for i, raw := range raws {
		entries[i] = s.DecodeHINEntry(raw)
		if h := entries[i].HIN; entries[i].Report != nil {
			if _, ok := first[h]; !ok {
				first[h] = len(distinct)
				distinct = append(distinct, h)
			}
		}
	}
	if meter != nil && len(distinct) > 0 {
		if err := meter.Ready(ctx); err != nil {
			return nil, err
		}
	}
	charged, refused, err := chargeEach(ctx, meter, len(distinct))
	if err != nil {
		return nil, err
	}
	for i := range entries {
		if e := &entries[i]; e.Report != nil && first[e.HIN] >= charged {
			*e = HINEntry{HIN: e.HIN, Err: &HINError{Err: &vehicle.Error{Code: refused.Reason,
				Message: "Not decoded and not charged: the " + refused.Error() + "."}}}
		}
	}
	return entries, nil
}
