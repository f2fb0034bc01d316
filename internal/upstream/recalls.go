package upstream

import (
	"context"
	"errors"
	"net/url"
	"strconv"
)

// Recall is one NHTSA safety recall campaign affecting a vehicle.
type Recall struct {
	CampaignNumber string  `json:"campaign_number"`
	Manufacturer   *string `json:"manufacturer"`
	Component      *string `json:"component"`
	Summary        *string `json:"summary"`
	Consequence    *string `json:"consequence"`
	Remedy         *string `json:"remedy"`
	Notes          *string `json:"notes"`
	ReportDate     *string `json:"report_date"`
	ParkIt         bool    `json:"park_it"`
	ParkOutside    bool    `json:"park_outside"`
	OTAUpdate      bool    `json:"ota_update"`
}

// Recalls lists NHTSA's recalls of a make, model and year; never nil.
func (c *Client) Recalls(ctx context.Context, vehicleMake, model string, year int) ([]Recall, Meta, error) {
	vehicleMake, model = clean(vehicleMake), clean(model)
	if vehicleMake == "" || model == "" || year <= 0 {
		return nil, Meta{}, errors.New("upstream: Recalls needs make, model and year")
	}
	key := normKey("nhtsa:recalls:", vehicleMake, model, strconv.Itoa(year))
	return load(ctx, c, UpstreamNHTSA, ServiceRecalls, key, func(ctx context.Context) ([]Recall, error) {
		return fetch(ctx, c, UpstreamNHTSA, c.cfg.NHTSAURL+"/recalls/recallsByVehicle", url.Values{
			"make":      {vehicleMake},
			"model":     {model},
			"modelYear": {strconv.Itoa(year)},
		}, parseRecalls)
	})
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
