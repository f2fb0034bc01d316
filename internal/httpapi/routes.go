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
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/lists"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/vehicle"
)

// Handler serves /v1.
type Handler struct {
	svc     *vehicle.Service
	door    edge.Door
	limiter *limits.Limiter
	saved   *lists.Service
	lookup  *lookup.Service
	log     *slog.Logger
	openapi []byte
}

// New returns the API handler.
func New(svc *vehicle.Service, auth *access.Authenticator, limiter *limits.Limiter, saved *lists.Service, lk *lookup.Service, log *slog.Logger) *Handler {
	h := &Handler{svc: svc, limiter: limiter, saved: saved, lookup: lk, log: log,
		door: edge.Door{Auth: auth, Limiter: limiter, NoToken: "Send the header Authorization: Bearer <token> with a vds_ token."}}
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
	// PerItem routes are charged once per item they answer (a VIN of a
	// batch), by the handler; the door only counts the request's rate.
	PerItem bool
	// Query is true for handlers that read the query string themselves
	// (and refuse what they do not know); every other route answers any
	// query parameter with unknown_parameter, so a typo is never ignored.
	Query   bool
	handler http.HandlerFunc
}

const (
	charged = true
	free    = false
)

// Routes lists every endpoint; the OpenAPI document and the tests walk it.
func (h *Handler) Routes() []Route {
	return []Route{
		{Pattern: "GET /v1/cars", Charged: charged, Query: true, handler: h.list(catalog.KindCar)},
		{Pattern: "GET /v1/cars/makes", Charged: charged, handler: h.makes(catalog.KindCar)},
		{Pattern: "GET /v1/cars/models", Charged: charged, Query: true, handler: h.models(catalog.KindCar)},
		{Pattern: "GET /v1/cars/body-types", Charged: charged, handler: h.bodyTypes},
		{Pattern: "GET /v1/cars/{uuid}", Charged: charged, handler: h.get(catalog.KindCar)},
		{Pattern: "GET /v1/cars/{uuid}/tire-sizes", Charged: charged, handler: h.carTires},
		{Pattern: "GET /v1/cars/{uuid}/recalls", Charged: charged, handler: h.carRecalls},

		{Pattern: "GET /v1/motorcycles", Charged: charged, Query: true, handler: h.list(catalog.KindMotorcycle)},
		{Pattern: "GET /v1/motorcycles/makes", Charged: charged, handler: h.makes(catalog.KindMotorcycle)},
		{Pattern: "GET /v1/motorcycles/models", Charged: charged, Query: true, handler: h.models(catalog.KindMotorcycle)},
		{Pattern: "GET /v1/motorcycles/types", Charged: charged, handler: h.motorcycleTypes},
		{Pattern: "GET /v1/motorcycles/{uuid}", Charged: charged, handler: h.get(catalog.KindMotorcycle)},
		{Pattern: "GET /v1/motorcycles/{uuid}/recalls", Charged: charged, handler: h.motorcycleRecalls},

		{Pattern: "GET /v1/boats", Charged: charged, Query: true, handler: h.list(catalog.KindBoat)},
		{Pattern: "GET /v1/boats/makes", Charged: charged, handler: h.makes(catalog.KindBoat)},
		{Pattern: "GET /v1/boats/models", Charged: charged, Query: true, handler: h.models(catalog.KindBoat)},
		{Pattern: "GET /v1/boats/hull-types", Charged: charged, handler: h.hullTypes},
		{Pattern: "GET /v1/boats/{uuid}", Charged: charged, handler: h.get(catalog.KindBoat)},

		{Pattern: "GET /v1/tire-sizes", Charged: charged, Query: true, handler: h.list(catalog.KindTireSize)},
		{Pattern: "GET /v1/tire-sizes/makes", Charged: charged, handler: h.makes(catalog.KindTireSize)},
		{Pattern: "GET /v1/tire-sizes/models", Charged: charged, Query: true, handler: h.models(catalog.KindTireSize)},
		{Pattern: "GET /v1/tire-sizes/{uuid}", Charged: charged, handler: h.get(catalog.KindTireSize)},
		{Pattern: "GET /v1/tire-sizes/{uuid}/geometry", Charged: charged, handler: h.geometry},

		{Pattern: "GET /v1/vin/{vin}", Charged: charged, handler: h.decodeVIN},
		{Pattern: "GET /v1/vins", Charged: charged, PerItem: true, Query: true, handler: h.decodeVINs},

		{Pattern: "GET /v1/me", Charged: free, handler: h.me},
		{Pattern: "GET /v1/lists", Charged: charged, handler: h.lists},
		{Pattern: "GET /v1/changelog", Charged: free, handler: h.changelog},
		{Pattern: "GET /changelog", Charged: free, handler: h.changelog},
		{Pattern: "GET /v1/openapi.json", Charged: free, handler: h.openAPI},
	}
}

// Mount registers every route on mux, plus the /v1 catch-all that answers
// unknown paths with 404 and other methods with 405, as problem documents.
func (h *Handler) Mount(mux *http.ServeMux) {
	for _, rt := range h.Routes() {
		handler := rt.handler
		if !rt.Query {
			handler = noParams(handler)
		}
		mux.Handle(rt.Pattern, h.guard(rt, checkInput(handler)))
	}
	mux.HandleFunc("/v1/", h.fallback)
	mux.HandleFunc("/changelog", h.fallback)
}

// fallback answers what no route matched. Authentication comes first so
// that the API's shape is not probed anonymously.
func (h *Handler) fallback(w http.ResponseWriter, r *http.Request) {
	edge.MarkUnmatched(r)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		edge.WriteCode(w, r, edge.CodeMethodNotAllowed, "", "The API is read-only: use GET.")
		return
	}
	h.guard(Route{Charged: free}, func(w http.ResponseWriter, r *http.Request) {
		edge.WriteCode(w, r, vehicle.CodeNotFound, "", "No such endpoint; see /v1/openapi.json for the list.")
	})(w, r)
}
