package client

import (
	"context"
	"net/url"
)

// PlusSize is one size of the plus-size grid within the window; see
// GET /v1/tire-sizes/{uuid}/plus-sizes for the fields.
type PlusSize struct {
	SizeGeometry
	OEM             bool    `json:"oem"`
	DiameterDiffIn  float64 `json:"diameter_diff_in"`
	DiameterDiffPct float64 `json:"diameter_diff_pct"`
	SidewallDiffMM  float64 `json:"sidewall_diff_mm"`
	SidewallDiffIn  float64 `json:"sidewall_diff_in"`
	Speedometer60   float64 `json:"speedometer_at_60_mph"`
	Speedometer100  float64 `json:"speedometer_at_100_kmh"`
	// MinLoadIndex and MinSpeedRating are nil when the OEM tire's are unknown.
	MinLoadIndex   *int    `json:"min_load_index"`
	Reinforced     bool    `json:"reinforced_needed"`
	MinSpeedRating *string `json:"min_speed_rating"`
}

// RimGroup holds the plus sizes on one rim, RimOffset inches from the OEM's.
type RimGroup struct {
	RimOffset int        `json:"rim_offset"`
	RimIn     float64    `json:"rim_in"`
	Sizes     []PlusSize `json:"sizes"`
}

// PlusSizeSet is the plus sizes of one OEM size, by rim from -2 to +3.
type PlusSizeSet struct {
	OEM         SizeGeometry `json:"oem"`
	LoadIndex   *int         `json:"load_index"`
	LoadKg      *int         `json:"load_kg"`
	SpeedRating *string      `json:"speed_rating"`
	SpeedKmh    *int         `json:"speed_kmh"`
	SpeedMph    *int         `json:"speed_mph"`
	Rims        []RimGroup   `json:"rims"`
}

// FitmentPlusSizes is a fitment's plus sizes; Rear only when staggered.
type FitmentPlusSizes struct {
	Fitment   TireFitment  `json:"fitment"`
	WindowPct int          `json:"window_pct"`
	Front     PlusSizeSet  `json:"front"`
	Rear      *PlusSizeSet `json:"rear"`
}

// SizeMatch is a fitment carrying a looked-up size, with where it does
// (oem, rear_oem, alternate, rear_alternate).
type SizeMatch struct {
	Roles   []string    `json:"roles"`
	Fitment TireFitment `json:"fitment"`
}

// YearFacet counts a size's fitments of one model year.
type YearFacet struct {
	Year  int `json:"year"`
	Count int `json:"count"`
}

// SizeFacets count all of a size's fitments by make and by year.
type SizeFacets struct {
	Makes []MakeCount `json:"makes"`
	Years []YearFacet `json:"years"`
}

// SizeLookup is the answer of GET /v1/tire-sizes/lookup.
type SizeLookup struct {
	Size      SizeGeometry `json:"size"`
	WindowPct int          `json:"window_pct"`
	PlusSizes PlusSizeSet  `json:"plus_sizes"`
	Fitments  []SizeMatch  `json:"fitments"`
	Meta      Meta         `json:"meta"`
	Facets    SizeFacets   `json:"facets"`
}

// SizeLookupQuery is a lookup by size; zero fields are left out.
type SizeLookupQuery struct {
	// Size in any spelling: 225/45R17, LT285/70R17 121S, 35x12.50R17LT.
	Size string
	// Window is the plus-size window in percent, 1..5 (server default 3).
	Window int
	// Make and Year narrow the fitments, not the facets.
	Make          string
	Year          int
	Page, PerPage int
}

func (q SizeLookupQuery) values() url.Values {
	v := url.Values{}
	setString(v, "size", q.Size)
	setInt(v, "window", q.Window)
	setString(v, "make", q.Make)
	setInt(v, "year", q.Year)
	setInt(v, "page", q.Page)
	setInt(v, "per_page", q.PerPage)
	return v
}

// TirePlusSizes returns a fitment's plus sizes within window percent, 1..5;
// 0 takes the server's default, 3 (GET /v1/tire-sizes/{uuid}/plus-sizes).
func (c *Client) TirePlusSizes(ctx context.Context, uuid string, window int, opts ...CallOption) (*FitmentPlusSizes, error) {
	path, err := recordPath(tireSizesPath, uuid, "/plus-sizes")
	if err != nil {
		return nil, err
	}
	v := url.Values{}
	setInt(v, "window", window)
	return getPtr[FitmentPlusSizes](ctx, c, path, v, opts)
}

// LookupTireSize answers a tire size: its geometry, plus sizes and a page
// of the fitments carrying it (GET /v1/tire-sizes/lookup).
func (c *Client) LookupTireSize(ctx context.Context, q SizeLookupQuery, opts ...CallOption) (*SizeLookup, error) {
	return getPtr[SizeLookup](ctx, c, tireSizesPath+"/lookup", q.values(), opts)
}
