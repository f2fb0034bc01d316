package upstream

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strconv"

	"golang.org/x/sync/errgroup"
)

// maxVariants bounds the second step of the ratings walk. A model year
// rarely has more than a dozen rated variants; the bound keeps one request
// from turning into hundreds of upstream calls if NHTSA ever answers with a
// much longer list.
const maxVariants = 32

// variantConcurrency is how many variant look-ups run at once: enough to keep
// the walk about as fast as one call, few enough to be polite to NHTSA.
const variantConcurrency = 4

// Rating is the NCAP star rating of one variant of a vehicle (a body style,
// drive or trim that NHTSA rated separately). Stars are 1–5, nil when NHTSA
// says "Not Rated" or gives nothing.
type Rating struct {
	VehicleID   int     `json:"vehicle_id"`
	Description *string `json:"description"`
	Overall     *int    `json:"overall"`
	Front       *int    `json:"front"`
	Side        *int    `json:"side"`
	Rollover    *int    `json:"rollover"`
}

// SafetyRatings returns the NCAP ratings of every variant NHTSA lists for a
// make, model and model year. It walks NHTSA's two steps: the variants
// (SafetyRatings/modelyear/{y}/make/{make}/model/{model}) and then each
// variant's ratings (SafetyRatings/VehicleId/{id}). An unknown vehicle gives
// an empty, non-nil list. If any step fails the whole call fails (and nothing
// is cached), so a partial list is never stored as if it were complete.
func (c *Client) SafetyRatings(ctx context.Context, vehicleMake, model string, year int) ([]Rating, Meta, error) {
	vehicleMake, model = clean(vehicleMake), clean(model)
	if vehicleMake == "" || model == "" || year <= 0 {
		return nil, Meta{}, errors.New("upstream: SafetyRatings needs make, model and year")
	}
	key := normKey("nhtsa:ratings:", vehicleMake, model, strconv.Itoa(year))
	return load(ctx, c, UpstreamNHTSA, key, func(ctx context.Context) ([]Rating, error) {
		return c.fetchRatings(ctx, vehicleMake, model, year)
	})
}

func (c *Client) fetchRatings(ctx context.Context, vehicleMake, model string, year int) ([]Rating, error) {
	u := fmt.Sprintf("%s/SafetyRatings/modelyear/%d/make/%s/model/%s",
		c.cfg.NHTSAURL, year, url.PathEscape(vehicleMake), url.PathEscape(model))
	body, err := c.get(ctx, UpstreamNHTSA, u, nil)
	if err != nil {
		return nil, err
	}
	variants, err := parseVariants(body)
	if err != nil {
		return nil, bad(UpstreamNHTSA, 200, err)
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
			body, err := c.get(gctx, UpstreamNHTSA, u, nil)
			if err != nil {
				return err
			}
			r, err := parseRating(body, v)
			if err != nil {
				return bad(UpstreamNHTSA, 200, err)
			}
			out[i] = r
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, nil
}

// parseVariants reads the first step: [{VehicleDescription, VehicleId}].
// Entries without a usable VehicleId are skipped (NHTSA's menus use 0 for
// "not a vehicle"), and repeated ids are listed once.
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

// parseRating reads the second step for one variant. An empty answer keeps
// the variant with no stars rather than dropping it: NHTSA listed it, so
// users should see that it exists but has no ratings.
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

// stars reads a star rating: "1".."5" (or a number); "Not Rated", "" and
// anything outside 1–5 are nil.
func stars(r record, name string) *int {
	n := r.optInt(name)
	if n == nil || *n < 1 || *n > 5 {
		return nil
	}
	return n
}
