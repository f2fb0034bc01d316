package upstream

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"
)

// VINResult is the normalised answer of a vPIC VIN decode. Values vPIC does
// not know are nil (JSON null), never empty strings.
type VINResult struct {
	Make         *string `json:"make"`
	Model        *string `json:"model"`
	ModelYear    *int    `json:"model_year"`
	Trim         *string `json:"trim"`
	BodyClass    *string `json:"body_class"`
	VehicleType  *string `json:"vehicle_type"`
	Manufacturer *string `json:"manufacturer"`
	Engine       Engine  `json:"engine"`
	Plant        Plant   `json:"plant"`
	// ErrorCodes are vPIC's numeric codes ("0" = decoded clean; "1" = check
	// digit wrong, "6" = incomplete VIN, ...). Never nil.
	ErrorCodes []string `json:"error_codes"`
	// ErrorText is vPIC's explanation of ErrorCodes.
	ErrorText *string `json:"error_text"`
}

// Engine is the engine part of a VINResult.
type Engine struct {
	Cylinders     *int     `json:"cylinders"`
	DisplacementL *float64 `json:"displacement_l"`
	FuelType      *string  `json:"fuel_type"`
	PowerHP       *float64 `json:"power_hp"`
}

// Plant is where the vehicle was assembled.
type Plant struct {
	City    *string `json:"city"`
	State   *string `json:"state"`
	Country *string `json:"country"`
}

// Identified reports whether vPIC recognised the manufacturer. A VIN whose
// make and manufacturer are both unknown is answered 422 vin_not_decodable:
// vPIC still answers 200 for it, with only error codes filled in.
func (r VINResult) Identified() bool {
	return r.Make != nil || r.Manufacturer != nil
}

// DecodeVIN decodes a VIN with vPIC's DecodeVinValues. The VIN should have
// been validated by the caller; it is upper-cased here so that the cache key
// does not depend on the letter case used by the client.
func (c *Client) DecodeVIN(ctx context.Context, vin string) (VINResult, Meta, error) {
	vin = strings.ToUpper(strings.TrimSpace(vin))
	if vin == "" {
		return VINResult{}, Meta{}, errors.New("upstream: DecodeVIN needs a VIN")
	}
	return load(ctx, c, UpstreamVPIC, "vpic:decode:"+vin, func(ctx context.Context) (VINResult, error) {
		u := c.cfg.VPICURL + "/vehicles/DecodeVinValues/" + url.PathEscape(vin)
		// format=json is required: vPIC answers XML by default.
		body, err := c.get(ctx, UpstreamVPIC, u, url.Values{"format": {"json"}})
		if err != nil {
			return VINResult{}, err
		}
		res, err := parseDecode(body)
		if err != nil {
			return VINResult{}, bad(UpstreamVPIC, 200, err)
		}
		return res, nil
	})
}

// parseDecode reads a DecodeVinValues answer (one flat row). It also accepts
// the DecodeVin shape (one {Variable, Value} row per field), which older
// captures and mirrors of vPIC serve, by folding it into a flat row first.
func parseDecode(body []byte) (VINResult, error) {
	env, err := decodeEnvelope(body)
	if err != nil {
		return VINResult{}, err
	}
	if len(env.results) == 0 {
		return VINResult{}, fmt.Errorf("%w: no decode row", errShape)
	}
	row := env.results[0]
	if _, ok := row["variable"]; ok {
		row = foldVariables(env.results)
	}

	res := VINResult{
		Make:         row.optStr("Make"),
		Model:        row.optStr("Model"),
		ModelYear:    row.optInt("ModelYear"),
		Trim:         row.optStr("Trim"),
		BodyClass:    row.optStr("BodyClass"),
		VehicleType:  row.optStr("VehicleType"),
		Manufacturer: row.optStr("Manufacturer", "ManufacturerName"),
		Engine: Engine{
			Cylinders:     row.optInt("EngineCylinders"),
			DisplacementL: row.optFloat("DisplacementL"),
			FuelType:      row.optStr("FuelTypePrimary"),
			PowerHP:       row.optFloat("EngineHP"),
		},
		Plant: Plant{
			City:    row.optStr("PlantCity"),
			State:   row.optStr("PlantState"),
			Country: row.optStr("PlantCountry"),
		},
		ErrorText: row.optStr("ErrorText"),
	}
	if res.ModelYear != nil && *res.ModelYear <= 0 {
		res.ModelYear = nil
	}
	code := row.str("ErrorCode")
	res.ErrorCodes = splitErrorCodes(code)
	// Older vPIC answers put the whole message in ErrorCode
	// ("5 - VIN has errors in few positions.") and leave ErrorText null.
	if res.ErrorText == nil && strings.IndexFunc(code, unicode.IsLetter) >= 0 {
		res.ErrorText = &code
	}
	return res, nil
}

// splitErrorCodes turns "1,4,14", "0" or "11- Incorrect Model Year, decoded
// data may not be accurate!" into the list of numeric codes. Pieces that do
// not start with a number are text that happened to contain a comma.
func splitErrorCodes(s string) []string {
	codes := []string{}
	for part := range strings.SplitSeq(s, ",") {
		part = strings.TrimSpace(part)
		end := strings.IndexFunc(part, func(r rune) bool { return r < '0' || r > '9' })
		if end < 0 {
			end = len(part)
		}
		if end > 0 {
			codes = append(codes, part[:end])
		}
	}
	return codes
}

// variableKeys maps DecodeVin variable names to DecodeVinValues keys where
// they differ by more than spaces.
var variableKeys = map[string]string{
	"manufacturer name":          "manufacturer",
	"engine number of cylinders": "enginecylinders",
	"displacement (l)":           "displacementl",
	"fuel type - primary":        "fueltypeprimary",
	"engine brake (hp)":          "enginehp",
	"engine brake (hp) from":     "enginehp",
}

// foldVariables turns DecodeVin rows ({"Variable":"Model Year","Value":"2021"})
// into one flat record ({"modelyear":"2021"}).
func foldVariables(rows []record) record {
	flat := record{}
	for _, r := range rows {
		name := strings.ToLower(r.str("Variable"))
		key, ok := variableKeys[name]
		if !ok {
			key = strings.Map(func(r rune) rune {
				if unicode.IsLetter(r) || unicode.IsDigit(r) {
					return r
				}
				return -1
			}, name)
		}
		if v, ok := r.get("Value"); ok && key != "" {
			if old, dup := flat[key]; !dup || rawText(old) == "" {
				flat[key] = v
			}
		}
	}
	return flat
}
