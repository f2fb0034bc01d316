package httpapi

import (
	"fmt"
	"net/url"
	"slices"

	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/vehicle"
)

var listParams = func() map[catalog.Kind][]string {
	m := map[catalog.Kind][]string{}
	for _, k := range catalog.Kinds {
		m[k] = vehicle.AcceptedParams(k)
	}
	return m
}()

var modelsParams = []string{"make"}

// search runs a list route's query; modelsOf answers /{type}/models.
func (h *Handler) search(kind catalog.Kind, params url.Values) (vehicle.Page, error) {
	q, err := listQuery(kind, params)
	if err != nil {
		return vehicle.Page{}, err
	}
	return h.svc.Search(q)
}

func (h *Handler) modelsOf(kind catalog.Kind, params url.Values) (vehicle.Answer, error) {
	if err := checkNames(kind, modelsParams, params); err != nil {
		return vehicle.Answer{}, err
	}
	return h.svc.ModelsBody(kind, params.Get("make"))
}

// listQuery reads a list route's parameters into a vehicle.Query,
// reporting the alphabetically first bad value, whatever the map order.
func listQuery(kind catalog.Kind, params url.Values) (vehicle.Query, error) {
	q := vehicle.Query{Kind: kind}
	if err := checkNames(kind, listParams[kind], params); err != nil {
		return q, err
	}
	var bad error
	var badName string
	for name, vals := range params {
		if err := q.Set(name, vals[0]); err != nil && (bad == nil || name < badName) {
			bad, badName = err, name
		}
	}
	return q, bad
}

// checkNames refuses unknown and repeated names (the alphabetically first)
// before any value is read: a typo must never silently widen a query.
func checkNames(kind catalog.Kind, accepted []string, params url.Values) error {
	var unknown, dup string
	hasUnknown := false // the empty name can be unknown too
	for name, vals := range params {
		if !slices.Contains(accepted, name) {
			if !hasUnknown || name < unknown {
				unknown, hasUnknown = name, true
			}
			continue
		}
		if len(vals) > 1 && (dup == "" || name < dup) {
			dup = name
		}
	}
	if hasUnknown {
		return vehicle.UnknownParam(kind, unknown, slices.Clone(accepted))
	}
	if dup != "" {
		return &vehicle.Error{Code: vehicle.CodeInvalidParameter, Param: dup,
			Message: fmt.Sprintf("%s is given %d times: give each parameter at most once", dup, len(params[dup]))}
	}
	return nil
}
