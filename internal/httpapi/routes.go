// Package httpapi is the REST API, version 1: routes, handlers, the error
// envelope and the middleware that authenticates, limits and logs requests.
// Handlers are thin: they parse the request, call the vehicle service (or
// the account services) and encode the result.
package httpapi

import (
	"log/slog"
	"net/http"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/vehicle"
)

// Handler serves /v1.
type Handler struct {
	svc     *vehicle.Service
	auth    *access.Authenticator
	limiter *limits.Limiter
	access  *access.Service
	lookup  *lookup.Service
	log     *slog.Logger
	openapi []byte
}

// New returns the API handler.
func New(svc *vehicle.Service, auth *access.Authenticator, limiter *limits.Limiter, acc *access.Service, lk *lookup.Service, log *slog.Logger) *Handler {
	h := &Handler{svc: svc, auth: auth, limiter: limiter, access: acc, lookup: lk, log: log}
	doc, err := BuildOpenAPI(h.Routes())
	if err != nil {
		// The route table and its descriptions are compiled in: a mismatch
		// is a programming error that every test run catches.
		panic("httpapi: " + err.Error())
	}
	h.openapi = doc
	return h
}

// OpenAPIDocument returns the OpenAPI document of this build, as served at
// /v1/openapi.json (for tests that validate responses against it).
func OpenAPIDocument() ([]byte, error) {
	return BuildOpenAPI((&Handler{}).Routes())
}

// Route is one endpoint of the API.
type Route struct {
	// Pattern is the http.ServeMux pattern, e.g. "GET /v1/cars/{uuid}".
	Pattern string
	// Charged calls count against the monthly quota; free ones do not.
	Charged bool
	handler http.HandlerFunc
}

const (
	charged = true
	free    = false
)

// Routes lists every endpoint; the OpenAPI document and the tests walk it.
func (h *Handler) Routes() []Route {
	return []Route{
		{"GET /v1/cars", charged, h.list(catalog.KindCar)},
		{"GET /v1/cars/makes", charged, h.makes(catalog.KindCar)},
		{"GET /v1/cars/models", charged, h.models(catalog.KindCar)},
		{"GET /v1/cars/body-types", charged, h.bodyTypes},
		{"GET /v1/cars/{uuid}", charged, h.get(catalog.KindCar)},
		{"GET /v1/cars/{uuid}/tire-sizes", charged, h.carTires},
		{"GET /v1/cars/{uuid}/recalls", charged, h.carRecalls},

		{"GET /v1/motorcycles", charged, h.list(catalog.KindMotorcycle)},
		{"GET /v1/motorcycles/makes", charged, h.makes(catalog.KindMotorcycle)},
		{"GET /v1/motorcycles/models", charged, h.models(catalog.KindMotorcycle)},
		{"GET /v1/motorcycles/types", charged, h.motorcycleTypes},
		{"GET /v1/motorcycles/{uuid}", charged, h.get(catalog.KindMotorcycle)},
		{"GET /v1/motorcycles/{uuid}/recalls", charged, h.motorcycleRecalls},

		{"GET /v1/boats", charged, h.list(catalog.KindBoat)},
		{"GET /v1/boats/makes", charged, h.makes(catalog.KindBoat)},
		{"GET /v1/boats/models", charged, h.models(catalog.KindBoat)},
		{"GET /v1/boats/hull-types", charged, h.hullTypes},
		{"GET /v1/boats/{uuid}", charged, h.get(catalog.KindBoat)},

		{"GET /v1/tire-sizes", charged, h.list(catalog.KindTireSize)},
		{"GET /v1/tire-sizes/makes", charged, h.makes(catalog.KindTireSize)},
		{"GET /v1/tire-sizes/models", charged, h.models(catalog.KindTireSize)},
		{"GET /v1/tire-sizes/{uuid}", charged, h.get(catalog.KindTireSize)},
		{"GET /v1/tire-sizes/{uuid}/geometry", charged, h.geometry},

		{"GET /v1/vin/{vin}", charged, h.decodeVIN},

		{"GET /v1/me", free, h.me},
		{"GET /v1/lists", charged, h.lists},
		{"GET /v1/changelog", free, h.changelog},
		{"GET /changelog", free, h.changelog},
		{"GET /v1/openapi.json", free, h.openAPI},
	}
}

// Mount registers every route on mux, plus the /v1 catch-all that answers
// unknown paths with 404 and other methods with 405, as problem documents.
func (h *Handler) Mount(mux *http.ServeMux) {
	for _, rt := range h.Routes() {
		mux.Handle(rt.Pattern, h.guard(rt.Charged, rt.handler))
	}
	mux.HandleFunc("/v1/", h.fallback)
	mux.HandleFunc("/changelog", h.fallback)
}

// fallback answers what no route matched. Authentication comes first so
// that the API's shape is not probed anonymously.
func (h *Handler) fallback(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeProblem(w, r, problem(r, "method_not_allowed", "The API is read-only: use GET."))
		return
	}
	h.guard(free, func(w http.ResponseWriter, r *http.Request) {
		writeProblem(w, r, problem(r, vehicle.CodeNotFound, "No such endpoint; see /v1/openapi.json for the list."))
	})(w, r)
}
