// Package httpapi is the REST API, version 1: routes, thin handlers over
// the services, and the OpenAPI document.
package httpapi

import (
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/catalog"
	"github.com/vds-dev/vds/internal/edge"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/lists"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/requestlog"
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
	// openapi is the served document cut where each request's origin goes.
	openapi [2][]byte
	// publicURL is dashboard.public_url; empty: the request's origin.
	publicURL string
	// maxAge is the Cache-Control value of catalog answers.
	maxAge []string
	cors   *corsPolicy
	// paths lists the paths under each collection, for 404 details.
	paths      map[string][]string
	requestLog *requestlog.Log
	bodies     *bodyCache
}

// Options are the HTTP settings of the API (docs/operations.md).
type Options struct {
	// PublicURL is dashboard.public_url; empty takes the request's origin.
	PublicURL string
	// CacheMaxAge is server.cache_max_age.
	CacheMaxAge time.Duration
	// CORSOrigins is server.cors_origins; empty turns CORS off.
	CORSOrigins []string
	// RequestLog is the request log /v1/me/requests reads.
	RequestLog *requestlog.Log
	// BodyCacheBytes bounds the kept catalog answers (server.body_cache_mb).
	BodyCacheBytes int64
}

// New returns the API handler.
func New(svc *vehicle.Service, auth *access.Authenticator, limiter *limits.Limiter, saved *lists.Service, lk *lookup.Service, log *slog.Logger, opts Options) *Handler {
	h := &Handler{svc: svc, limiter: limiter, saved: saved, lookup: lk, log: log,
		door:      edge.Door{Auth: auth, Limiter: limiter, NoToken: "Send the header Authorization: Bearer <token> with a vds_ token."},
		publicURL: strings.TrimRight(opts.PublicURL, "/"), maxAge: maxAgeValue(opts.CacheMaxAge), cors: newCORS(opts.CORSOrigins),
		requestLog: opts.RequestLog, bodies: newBodyCache(opts.BodyCacheBytes)}
	h.paths = subPaths(h.Routes())
	doc, err := servedDocument()
	if err != nil {
		panic("httpapi: " + err.Error())
	}
	h.openapi = doc
	return h
}

// servedDocument is the document split around its server, built once per
// process: it derives from the route table and types alone.
var servedDocument = sync.OnceValues(func() ([2][]byte, error) {
	doc, err := OpenAPIDocument()
	if err != nil {
		return [2][]byte{}, err
	}
	return splitServers(doc)
})

// OpenAPI returns the document as BuildOpenAPI made it, its server "/".
func (h *Handler) OpenAPI() []byte {
	return slices.Concat(h.openapi[0], []byte(`"/"`), h.openapi[1])
}

// OpenAPIDocument returns the document served at /v1/openapi.json.
func OpenAPIDocument() ([]byte, error) {
	return BuildOpenAPI((&Handler{}).Routes())
}

// Route is one endpoint of the API.
type Route struct {
	// Pattern is the http.ServeMux pattern, e.g. "GET /v1/cars/{uuid}".
	Pattern string
	// Charged calls count against the monthly quota; free ones do not.
	Charged bool
	// PerItem routes are charged per item by the handler (a VIN of a batch).
	PerItem bool
	// Query is true for handlers that read the query string themselves;
	// every other route refuses any parameter, so a typo is never ignored.
	Query bool
	// Cache says what clients may keep of the answers.
	Cache cacheRule
	// Public routes need no token and are neither limited nor charged.
	Public  bool
	handler http.HandlerFunc
}

const (
	charged = true
	free    = false
)

// Routes lists every endpoint; the OpenAPI document and the tests walk it.
func (h *Handler) Routes() []Route {
	return []Route{
		{Pattern: "GET /v1/cars", Charged: charged, Query: true, Cache: cacheCatalog, handler: h.list(catalog.KindCar)},
		{Pattern: "GET /v1/cars/makes", Charged: charged, Cache: cacheCatalog, handler: h.makes(catalog.KindCar)},
		{Pattern: "GET /v1/cars/models", Charged: charged, Query: true, Cache: cacheCatalog, handler: h.models(catalog.KindCar)},
		{Pattern: "GET /v1/cars/body-types", Charged: charged, Cache: cacheCatalog, handler: h.bodyTypes},
		{Pattern: "GET /v1/cars/{uuid}", Charged: charged, Cache: cacheCatalog, handler: h.get(catalog.KindCar)},
		{Pattern: "GET /v1/cars/{uuid}/tire-sizes", Charged: charged, Cache: cacheCatalog, handler: h.byRecord(h.carTires)},
		{Pattern: "GET /v1/cars/{uuid}/recalls", Charged: charged, handler: h.byRecord(h.carRecalls)},
		{Pattern: "GET /v1/cars/{uuid}/complaints", Charged: charged, Query: true, handler: h.byRecord(h.complaints(h.lookup.CarComplaints))},

		{Pattern: "GET /v1/motorcycles", Charged: charged, Query: true, Cache: cacheCatalog, handler: h.list(catalog.KindMotorcycle)},
		{Pattern: "GET /v1/motorcycles/makes", Charged: charged, Cache: cacheCatalog, handler: h.makes(catalog.KindMotorcycle)},
		{Pattern: "GET /v1/motorcycles/models", Charged: charged, Query: true, Cache: cacheCatalog, handler: h.models(catalog.KindMotorcycle)},
		{Pattern: "GET /v1/motorcycles/types", Charged: charged, Cache: cacheCatalog, handler: h.motorcycleTypes},
		{Pattern: "GET /v1/motorcycles/{uuid}", Charged: charged, Cache: cacheCatalog, handler: h.get(catalog.KindMotorcycle)},
		{Pattern: "GET /v1/motorcycles/{uuid}/recalls", Charged: charged, handler: h.byRecord(h.motorcycleRecalls)},
		{Pattern: "GET /v1/motorcycles/{uuid}/complaints", Charged: charged, Query: true, handler: h.byRecord(h.complaints(h.lookup.MotorcycleComplaints))},

		{Pattern: "GET /v1/boats", Charged: charged, Query: true, Cache: cacheCatalog, handler: h.list(catalog.KindBoat)},
		{Pattern: "GET /v1/boats/makes", Charged: charged, Cache: cacheCatalog, handler: h.makes(catalog.KindBoat)},
		{Pattern: "GET /v1/boats/models", Charged: charged, Query: true, Cache: cacheCatalog, handler: h.models(catalog.KindBoat)},
		{Pattern: "GET /v1/boats/hull-types", Charged: charged, Cache: cacheCatalog, handler: h.hullTypes},
		{Pattern: "GET /v1/boats/{uuid}", Charged: charged, Cache: cacheCatalog, handler: h.get(catalog.KindBoat)},

		{Pattern: "GET /v1/tire-sizes", Charged: charged, Query: true, Cache: cacheCatalog, handler: h.list(catalog.KindTireSize)},
		{Pattern: "GET /v1/tire-sizes/makes", Charged: charged, Cache: cacheCatalog, handler: h.makes(catalog.KindTireSize)},
		{Pattern: "GET /v1/tire-sizes/models", Charged: charged, Query: true, Cache: cacheCatalog, handler: h.models(catalog.KindTireSize)},
		{Pattern: "GET /v1/tire-sizes/lookup", Charged: charged, Query: true, Cache: cacheCatalog, handler: h.sizeLookup},
		{Pattern: "GET /v1/tire-sizes/{uuid}", Charged: charged, Cache: cacheCatalog, handler: h.get(catalog.KindTireSize)},
		{Pattern: "GET /v1/tire-sizes/{uuid}/geometry", Charged: charged, Cache: cacheCatalog, handler: h.byRecord(h.geometry)},
		{Pattern: "GET /v1/tire-sizes/{uuid}/plus-sizes", Charged: charged, Query: true, Cache: cacheCatalog, handler: h.byRecord(h.plusSizes)},

		{Pattern: "GET /v1/vin/{vin}", Charged: charged, handler: h.decodeVIN},
		{Pattern: "GET /v1/vins", Charged: charged, PerItem: true, Query: true, handler: h.decodeVINs},
		{Pattern: "GET /v1/hin/{hin}", Charged: charged, handler: h.decodeHIN},
		{Pattern: "GET /v1/hins", Charged: charged, PerItem: true, Query: true, handler: h.decodeHINs},

		{Pattern: "GET /v1/me", Charged: free, Cache: cacheNever, handler: h.me},
		{Pattern: "GET /v1/me/requests", Charged: free, Query: true, Cache: cacheNever, handler: h.requests},
		{Pattern: "GET /v1/lists", Charged: charged, Cache: cacheNever, handler: h.lists},
		{Pattern: "GET /v1/lists/recalls", Charged: charged, Cache: cacheNever, handler: h.listsRecalls},
		{Pattern: "GET /v1/changelog", Charged: free, handler: h.changelog},
		{Pattern: "GET /changelog", Charged: free, handler: h.changelog},
		{Pattern: "GET /v1/openapi.json", Charged: free, Public: true, handler: h.openAPI},
	}
}

// Mount registers every route and the /v1 catch-all on mux.
func (h *Handler) Mount(mux *http.ServeMux) {
	for _, rt := range h.Routes() {
		handler := checked(rt, rt.handler)
		if !rt.Public {
			handler = h.guard(rt, handler)
		}
		mux.Handle(rt.Pattern, h.cors.wrap(handler))
	}
	mux.Handle("/v1/", h.cors.wrap(h.fallback))
	mux.Handle("/changelog", h.cors.wrap(h.fallback))
	if h.cors != nil {
		mux.HandleFunc("OPTIONS /v1/", h.cors.preflight)
		mux.HandleFunc("OPTIONS /changelog", h.cors.preflight)
	}
}

func checked(rt Route, next http.HandlerFunc) http.HandlerFunc {
	if !rt.Query {
		next = noParams(next)
	}
	return checkInput(next)
}

// fallback answers what no route matched, after authentication, so the
// API's shape is not probed anonymously.
func (h *Handler) fallback(w http.ResponseWriter, r *http.Request) {
	edge.MarkUnmatched(r)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		edge.WriteCode(w, r, edge.CodeMethodNotAllowed, "", "The API is read-only: use GET.")
		return
	}
	h.guard(Route{Charged: free}, func(w http.ResponseWriter, r *http.Request) {
		edge.WriteCode(w, r, vehicle.CodeNotFound, "", h.noSuchPath(r.URL.Path))
	})(w, r)
}
