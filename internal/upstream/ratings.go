package upstream

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"golang.org/x/sync/errgroup"
)

// maxVariants keeps one request from fanning out to hundreds of NHTSA calls.
const maxVariants = 32

// variantConcurrency is about as fast as one call, and polite to NHTSA.
const variantConcurrency = 4

// Rating is the NCAP rating of one variant NHTSA rated separately; stars 1-5, nil when not rated.
type Rating struct {
	VehicleID   int     `json:"vehicle_id" jsonschema:"NHTSA's id of the rated variant."`
	Description *string `json:"description" jsonschema:"NHTSA's name of the variant, e.g. 2021 Toyota Camry 4 DR FWD; null when none."`
	Overall     *int    `json:"overall" jsonschema:"Overall rating, 1 to 5 stars; null when not rated." unit:"stars"`
	Front       *int    `json:"front" jsonschema:"Frontal crash rating, 1 to 5 stars; null when not rated." unit:"stars"`
	Side        *int    `json:"side" jsonschema:"Side crash rating, 1 to 5 stars; null when not rated." unit:"stars"`
	Rollover    *int    `json:"rollover" jsonschema:"Rollover rating, 1 to 5 stars; null when not rated." unit:"stars"`
}

// SafetyRatings walks NHTSA's variants of a make, model and year, then each
// variant's ratings. Any failed step fails the call, so a partial list is never cached.
// The list is shared with other callers (see memo): do not modify it.
func (c *Client) SafetyRatings(ctx context.Context, vehicleMake, model string, year int) ([]Rating, Meta, error) {
	vehicleMake, model = clean(vehicleMake), clean(model)
	if vehicleMake == "" || model == "" || year <= 0 {
		return nil, Meta{}, errors.New("upstream: SafetyRatings needs make, model and year")
	}
	return loadMemo(ctx, c, UpstreamNHTSA, ServiceRatings, ratingsKey(vehicleMake, model, year), func(ctx context.Context) ([]Rating, error) {
		return c.fetchRatings(ctx, vehicleMake, model, year)
	})
}

func ratingsKey(vehicleMake, model string, year int) string {
	return normKey("nhtsa:ratings:", vehicleMake, model, strconv.Itoa(year))
}

// RatingsFetchedAt is when the ratings SafetyRatings would now answer from
// memory were fetched, asking nothing; false when it would not.
func (c *Client) RatingsFetchedAt(vehicleMake, model string, year int) (time.Time, bool) {
	e, ok := c.memo.get(ratingsKey(clean(vehicleMake), clean(model), year), time.Now())
	return e.fetchedAt, ok && c.fresh(e.fetchedAt)
}

func (c *Client) fetchRatings(ctx context.Context, vehicleMake, model string, year int) ([]Rating, error) {
	u := fmt.Sprintf("%s/SafetyRatings/modelyear/%d/make/%s/model/%s",
		c.cfg.NHTSAURL, year, url.PathEscape(vehicleMake), url.PathEscape(model))
	variants, err := fetch(ctx, c, UpstreamNHTSA, u, nil, parseVariants)
	if err != nil {
		return nil, err
	}
	if len(variants) > maxVariants {
		c.log.Warn("safety ratings: too many variants, keeping the first ones",
			"make", vehicleMake, "model", model, "year", year, "variants", len(variants), "kept", maxVariants)
		variants = variants[:maxVariants]
	}

	out := make([]Rating, len(variants))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(variantConcurrency)
	for i, v := range variants {
		g.Go(func() error {
			u := fmt.Sprintf("%s/SafetyRatings/VehicleId/%d", c.cfg.NHTSAURL, v.VehicleID)
			r, err := fetch(gctx, c, UpstreamNHTSA, u, nil, func(body []byte) (Rating, error) { return parseRating(body, v) })
			out[i] = r
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// parseVariants skips ids of 0 (NHTSA's "not a vehicle") and repeats.
func parseVariants(body []byte) ([]Rating, error) {
	env, err := decodeEnvelope(body)
	if err != nil {
		return nil, err
	}
	out := make([]Rating, 0, len(env.results))
	seen := map[int]bool{}
	for _, r := range env.results {
		id := r.optInt("VehicleId")
		if id == nil || *id <= 0 || seen[*id] {
			continue
		}
		seen[*id] = true
		out = append(out, Rating{VehicleID: *id, Description: r.optStr("VehicleDescription")})
	}
	return out, nil
}

// parseRating keeps a variant with an empty answer, unrated: NHTSA listed it.
func parseRating(body []byte, variant Rating) (Rating, error) {
	env, err := decodeEnvelope(body)
	if err != nil {
		return Rating{}, err
	}
	out := variant
	if len(env.results) == 0 {
		return out, nil
	}
	r := env.results[0]
	if d := r.optStr("VehicleDescription"); d != nil {
		out.Description = d
	}
	out.Overall = stars(r, "OverallRating")
	out.Front = stars(r, "OverallFrontCrashRating")
	out.Side = stars(r, "OverallSideCrashRating")
	out.Rollover = stars(r, "RolloverRating")
	return out, nil
}

func stars(r record, name string) *int {
	n := r.optInt(name)
	if n == nil || *n < 1 || *n > 5 {
		return nil
	}
	return n
}
