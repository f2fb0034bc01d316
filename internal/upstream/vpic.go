package upstream

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"unicode"
)

// VINResult is a normalised vPIC decode; unknown values are nil, never "".
type VINResult struct {
	Make         *string `json:"make"`
	Model        *string `json:"model"`
	ModelYear    *int    `json:"model_year"`
	Trim         *string `json:"trim"`
	Series       *string `json:"series"`
	BodyClass    *string `json:"body_class"`
	Doors        *int    `json:"doors"`
	VehicleType  *string `json:"vehicle_type"`
	Manufacturer *string `json:"manufacturer"`
	Engine       Engine  `json:"engine"`
	Plant        Plant   `json:"plant"`
	// ErrorCodes are vPIC's numeric codes ("0" clean, "1" check digit...); never nil.
	ErrorCodes []string `json:"error_codes"`
	ErrorText  *string  `json:"error_text"`
}

// Engine is the engine part of a VINResult.
type Engine struct {
	Cylinders     *int     `json:"cylinders" jsonschema:"Number of cylinders; null when unknown."`
	DisplacementL *float64 `json:"displacement_l" jsonschema:"Displacement in litres; null when unknown." unit:"L"`
	FuelType      *string  `json:"fuel_type" jsonschema:"vPIC's primary fuel type, e.g. Gasoline or Electric; null when unknown."`
	PowerHP       *float64 `json:"power_hp" jsonschema:"Engine power in horsepower; null when unknown." unit:"hp"`
}

// Plant is where the vehicle was assembled.
type Plant struct {
	City    *string `json:"city" jsonschema:"Plant city; null when unknown."`
	State   *string `json:"state" jsonschema:"Plant state or province; null when unknown."`
	Country *string `json:"country" jsonschema:"Plant country; null when unknown."`
}

// Identified reports whether vPIC knew the manufacturer; it answers 200 either way.
func (r VINResult) Identified() bool {
	return r.Make != nil || r.Manufacturer != nil
}

// DecodeVIN decodes a validated VIN with vPIC's DecodeVinValues.
func (c *Client) DecodeVIN(ctx context.Context, vin string) (VINResult, Meta, error) {
	vin = strings.ToUpper(strings.TrimSpace(vin))
	if vin == "" {
		return VINResult{}, Meta{}, errors.New("upstream: DecodeVIN needs a VIN")
	}
	return load(ctx, c, UpstreamVPIC, ServiceVPIC, "vpic:decode:"+vin, func(ctx context.Context) (VINResult, error) {
		u := c.cfg.VPICURL + "/vehicles/DecodeVinValues/" + url.PathEscape(vin)
		// vPIC answers XML by default.
		return fetch(ctx, c, UpstreamVPIC, u, url.Values{"format": {"json"}}, parseDecode)
	})
}

// parseDecode reads DecodeVinValues (one flat row) and folds the older
// DecodeVin shape (a {Variable, Value} row per field) into one.
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
		Series:       row.optStr("Series"),
		BodyClass:    row.optStr("BodyClass"),
		Doors:        row.optInt("Doors"),
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
	// Older answers put the message in ErrorCode ("5 - VIN has errors...").
	if res.ErrorText == nil && strings.IndexFunc(code, unicode.IsLetter) >= 0 {
		res.ErrorText = &code
	}
	return res, nil
}

// splitErrorCodes keeps the numeric codes of "1,4,14" or "11- Incorrect Model Year, ...".
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

var variableKeys = map[string]string{
	"manufacturer name":          "manufacturer",
	"engine number of cylinders": "enginecylinders",
	"displacement (l)":           "displacementl",
	"fuel type - primary":        "fueltypeprimary",
	"engine brake (hp)":          "enginehp",
	"engine brake (hp) from":     "enginehp",
}

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
