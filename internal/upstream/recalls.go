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
	// ReportDate is when NHTSA received the manufacturer's report, as
	// "YYYY-MM-DD"; nil when NHTSA gives none or an unreadable one.
	ReportDate *string `json:"report_date"`
	// ParkIt: NHTSA advises not to drive the vehicle until repaired.
	ParkIt bool `json:"park_it"`
	// ParkOutside: NHTSA advises parking outside, away from structures (fire risk).
	ParkOutside bool `json:"park_outside"`
	// OTAUpdate: the remedy is an over-the-air software update.
	OTAUpdate bool `json:"ota_update"`
}

// Recalls lists the recalls NHTSA has for a make, model and model year
// (recallsByVehicle). An unknown vehicle gives an empty, non-nil list.
func (c *Client) Recalls(ctx context.Context, vehicleMake, model string, year int) ([]Recall, Meta, error) {
	vehicleMake, model = clean(vehicleMake), clean(model)
	if vehicleMake == "" || model == "" || year <= 0 {
		return nil, Meta{}, errors.New("upstream: Recalls needs make, model and year")
	}
	key := normKey("nhtsa:recalls:", vehicleMake, model, strconv.Itoa(year))
	return load(ctx, c, UpstreamNHTSA, key, func(ctx context.Context) ([]Recall, error) {
		body, err := c.get(ctx, UpstreamNHTSA, c.cfg.NHTSAURL+"/recalls/recallsByVehicle", url.Values{
			"make":      {vehicleMake},
			"model":     {model},
			"modelYear": {strconv.Itoa(year)},
		})
		if err != nil {
			return nil, err
		}
		recalls, err := parseRecalls(body)
		if err != nil {
			return nil, bad(UpstreamNHTSA, 200, err)
		}
		return recalls, nil
	})
}

// parseRecalls reads a recallsByVehicle answer: today's shape ("results",
// DD/MM/YYYY dates) as well as the retired webapi.nhtsa.gov one ("Results",
// "Conequence", "/Date(ms-0500)/" dates).
func parseRecalls(body []byte) ([]Recall, error) {
	env, err := decodeEnvelope(body)
	if err != nil {
		return nil, err
	}
	out := make([]Recall, 0, len(env.results))
	for _, r := range env.results {
		campaign := r.str("NHTSACampaignNumber", "CampaignNumber")
		if campaign == "" {
			// A recall nobody can look up is not worth showing; it has never
			// been seen, so skipping beats failing the whole answer.
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
