package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"
	"time"
)

// Recall is one NHTSA safety recall campaign affecting a vehicle.
type Recall struct {
	CampaignNumber string  `json:"campaign_number" jsonschema:"NHTSA's campaign number, e.g. 21V123000."`
	Manufacturer   *string `json:"manufacturer" jsonschema:"The manufacturer that filed the recall."`
	Component      *string `json:"component" jsonschema:"The affected component, in NHTSA's words."`
	Summary        *string `json:"summary" jsonschema:"What is wrong."`
	Consequence    *string `json:"consequence" jsonschema:"What can happen if it is not fixed."`
	Remedy         *string `json:"remedy" jsonschema:"What the manufacturer will do."`
	Notes          *string `json:"notes" jsonschema:"NHTSA's notes to owners."`
	ReportDate     *string `json:"report_date" jsonschema:"When NHTSA received the recall report, YYYY-MM-DD; null when unknown."`
	ParkIt         bool    `json:"park_it" jsonschema:"True when NHTSA advises not to drive the vehicle until repaired."`
	ParkOutside    bool    `json:"park_outside" jsonschema:"True when NHTSA advises parking outside, away from buildings, until repaired."`
	OTAUpdate      bool    `json:"ota_update" jsonschema:"True when the remedy is an over-the-air software update."`
}

// Recalls lists NHTSA's recalls of a make, model and year; never nil.
func (c *Client) Recalls(ctx context.Context, vehicleMake, model string, year int) ([]Recall, Meta, error) {
	vehicleMake, model = clean(vehicleMake), clean(model)
	if vehicleMake == "" || model == "" || year <= 0 {
		return nil, Meta{}, errors.New("upstream: Recalls needs make, model and year")
	}
	key, get := c.recallsOf(vehicleMake, model, year)
	return load(ctx, c, UpstreamNHTSA, ServiceRecalls, key, get)
}

// recallsOf is the cache key and the fetch of a vehicle's recalls.
func (c *Client) recallsOf(vehicleMake, model string, year int) (string, func(context.Context) ([]Recall, error)) {
	return normKey("nhtsa:recalls:", vehicleMake, model, strconv.Itoa(year)), func(ctx context.Context) ([]Recall, error) {
		return fetch(ctx, c, UpstreamNHTSA, c.cfg.NHTSAURL+"/recalls/recallsByVehicle", url.Values{
			"make":      {vehicleMake},
			"model":     {model},
			"modelYear": {strconv.Itoa(year)},
		}, parseRecalls)
	}
}

// parseRecalls reads today's recallsByVehicle shape and the retired webapi one.
func parseRecalls(body []byte) ([]Recall, error) {
	env, err := decodeEnvelope(body)
	if err != nil {
		return nil, err
	}
	out := make([]Recall, 0, len(env.results))
	for _, r := range env.results {
		campaign := r.str("NHTSACampaignNumber", "CampaignNumber")
		if campaign == "" {
			// A recall without a campaign number cannot be looked up; skip it.
			continue
		}
		out = append(out, Recall{
			CampaignNumber: campaign,
			Manufacturer:   r.optStr("Manufacturer"),
			Component:      r.optStr("Component"),
			Summary:        r.optStr("Summary"),
			Consequence:    r.optStr("Consequence", "Conequence"),
			Remedy:         r.optStr("Remedy"),
			Notes:          r.optStr("Notes"),
			ReportDate:     r.date("ReportReceivedDate"),
			ParkIt:         r.boolean("parkIt"),
			ParkOutside:    r.boolean("parkOutSide"),
			OTAUpdate:      r.boolean("overTheAirUpdate"),
		})
	}
	return out, nil
}

// RefreshRecalls asks NHTSA for a vehicle's recalls whatever the cache
// holds, and stores the answer there for Recalls to serve.
func (c *Client) RefreshRecalls(ctx context.Context, vehicleMake, model string, year int) ([]Recall, error) {
	vehicleMake, model = clean(vehicleMake), clean(model)
	if vehicleMake == "" || model == "" || year <= 0 {
		return nil, errors.New("upstream: RefreshRecalls needs make, model and year")
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	key, get := c.recallsOf(vehicleMake, model, year)
	out, err := get(ctx)
	c.cfg.Observer.UpstreamFetch(ServiceRecalls, fetchOutcome(err))
	if err != nil {
		return nil, err
	}
	if raw, err := json.Marshal(out); err == nil && c.cache != nil {
		if err := c.cache.PutCache(ctx, key, raw, time.Now().UTC().Truncate(time.Microsecond)); err != nil {
			c.log.Warn("cache write failed", "key", key, "err", err)
		}
	}
	return out, nil
}
