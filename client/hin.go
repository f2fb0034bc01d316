package client

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ErrInvalidHIN refuses, without a request, a HIN with characters other
// than ASCII letters, digits, spaces and hyphens, so "../me" cannot address
// another endpoint.
var ErrInvalidHIN = errors.New("vds: a HIN is letters, digits, spaces and hyphens")

// HINCountry is the country code written before a HIN or CIN.
type HINCountry struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// HINManufacturer is the Coast Guard's entry of a manufacturer code.
type HINManufacturer struct {
	MIC     string `json:"mic"`
	Company string `json:"company"`
	Address string `json:"address"`
	City    string `json:"city"`
	State   string `json:"state"`
}

// HINWarning is a numbered doubt about a HIN that still decodes.
type HINWarning struct {
	Code int    `json:"code"`
	Text string `json:"text"`
}

// HINLinks are the catalog boats of the manufacturer's makes and model year.
type HINLinks struct {
	Makes []string `json:"makes"`
	Boats []string `json:"boats"`
}

// HINReport is the answer of GET /v1/hin/{hin}. Format is current,
// straight_year, model_year or eu_cin; ModelYear is nil for straight_year;
// Manufacturer is nil for a code the Coast Guard's list does not have.
type HINReport struct {
	HIN             string           `json:"hin"`
	Country         *HINCountry      `json:"country"`
	Format          string           `json:"format"`
	MIC             string           `json:"mic"`
	Manufacturer    *HINManufacturer `json:"manufacturer"`
	Issuer          string           `json:"issuer"`
	IssuingState    *string          `json:"issuing_state"`
	Serial          string           `json:"serial"`
	ProductionMonth int              `json:"production_month"`
	ProductionYear  int              `json:"production_year"`
	ModelYear       *int             `json:"model_year"`
	Warnings        []HINWarning     `json:"warnings"`
	Links           HINLinks         `json:"links"`
	Source          string           `json:"source"`
}

// HINEntryError says why a batch entry has no report; Position and Rule
// are set for invalid_hin.
type HINEntryError struct {
	Code     string `json:"code"`
	Detail   string `json:"detail"`
	Position int    `json:"position,omitempty"`
	Rule     string `json:"rule,omitempty"`
}

// HINEntry is one HIN of a batch decode: Report, or Error saying why not.
type HINEntry struct {
	HIN    string
	Report *HINReport
	Error  *HINEntryError
}

// UnmarshalJSON reads a report, or {"hin", "error"}.
func (e *HINEntry) UnmarshalJSON(b []byte) error {
	id, r, ee, err := readEntry[HINReport, HINEntryError](b, "hin", func(r *HINReport) string { return r.HIN })
	*e = HINEntry{HIN: id, Report: r, Error: ee}
	return err
}

// MarshalJSON writes the entry as the server sent it.
func (e HINEntry) MarshalJSON() ([]byte, error) { return writeEntry("hin", e.HIN, e.Report, e.Error) }

// DecodeHIN decodes a boat's hull identification number and links it to
// catalog boats (GET /v1/hin/{hin}).
func (c *Client) DecodeHIN(ctx context.Context, hin string, opts ...CallOption) (*HINReport, error) {
	hin = strings.TrimSpace(hin)
	if !hinPathSafe(hin) {
		return nil, fmt.Errorf("%w: %q", ErrInvalidHIN, hin)
	}
	return getPtr[HINReport](ctx, c, apiPrefix+"/hin/"+url.PathEscape(hin), nil, opts)
}

// DecodeHINs decodes up to MaxBatch HINs in one call (GET /v1/hins), one
// entry per HIN in order; only decoded HINs are charged.
func (c *Client) DecodeHINs(ctx context.Context, hins []string, opts ...CallOption) ([]HINEntry, error) {
	if len(hins) == 0 || len(hins) > MaxBatch {
		return nil, fmt.Errorf("vds: DecodeHINs takes 1 to %d HINs, not %d", MaxBatch, len(hins))
	}
	return getSlice[HINEntry](ctx, c, apiPrefix+"/hins", url.Values{"hin": hins}, opts)
}

func hinPathSafe(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '-' && !vinPathSafe(s[i:i+1]) {
			return false
		}
	}
	return true
}
