// Package dashboard is the web dashboard of vds under /dashboard/:
// sign-up and sign-in, plan, quota and calls per day, API tokens, the
// account, the garage, webhook endpoints and how to connect. Pages are rendered on the server
// and work without JavaScript; like REST handlers and MCP tools they call
// the services, so all three show the same data.
//
// Sessions live in the database (only the SHA-256 of the cookie's id);
// cookies are HttpOnly, SameSite=Lax and, over HTTPS, __Host- and Secure.
// Every POST passes http.CrossOriginProtection and carries a synchronizer
// token; pages send a strict Content-Security-Policy.
package dashboard

import (
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/vds-dev/vds/internal/access"
	"github.com/vds-dev/vds/internal/config"
	"github.com/vds-dev/vds/internal/limits"
	"github.com/vds-dev/vds/internal/lists"
	"github.com/vds-dev/vds/internal/lookup"
	"github.com/vds-dev/vds/internal/requestlog"
	"github.com/vds-dev/vds/internal/signin"
	"github.com/vds-dev/vds/internal/vehicle"
	"github.com/vds-dev/vds/internal/webhooks"
)

// Prefix is where the dashboard is mounted.
const Prefix = "/dashboard/"

// Deps are the services the dashboard calls.
type Deps struct {
	Access   *access.Service
	Lists    *lists.Service
	SignIn   *signin.Service
	Vehicles *vehicle.Service
	// Lookup answers the complaints a vehicle's page shows.
	Lookup *lookup.Service
	// Limiter supplies the limits, the quota and the calls per day.
	Limiter    *limits.Limiter
	Config     *config.Config
	Log        *slog.Logger
	RequestLog *requestlog.Log
	Webhooks   *webhooks.Service
}

// Handler serves the dashboard.
type Handler struct {
	acc        *access.Service
	lists      *lists.Service
	signin     *signin.Service
	vehicles   *vehicle.Service
	lookup     *lookup.Service
	limiter    *limits.Limiter
	cfg        *config.Config
	log        *slog.Logger
	requestLog *requestlog.Log
	hooks      *webhooks.Service

	signup     bool
	sessionTTL time.Duration
	cookieMode string
	publicURL  string

	mux *http.ServeMux
	cop *http.CrossOriginProtection
	// pages parses the templates on the dashboard's first request: held,
	// they are 6,000 objects every garbage collection walks, for nothing
	// on a server whose dashboard nobody opens.
	pages func() *pageSet
	now   func() time.Time
}

// New returns the dashboard handler. Its first request panics if the
// embedded templates do not parse, which every test run would catch.
func New(d Deps) *Handler {
	h := &Handler{
		acc: d.Access, lists: d.Lists, signin: d.SignIn, vehicles: d.Vehicles, lookup: d.Lookup, limiter: d.Limiter, cfg: d.Config, log: d.Log, requestLog: d.RequestLog,
		hooks:  d.Webhooks,
		signup: d.Config.Dashboard.Signup, sessionTTL: d.Config.Dashboard.SessionTTL,
		cookieMode: d.Config.Dashboard.CookieMode(), publicURL: strings.TrimRight(d.Config.Dashboard.PublicURL, "/"),
		cop: http.NewCrossOriginProtection(), pages: sync.OnceValue(mustParsePages), now: time.Now,
	}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	if h.sessionTTL <= 0 {
		h.sessionTTL = config.DefaultSessionTTL
	}
	if h.cookieMode == "" {
		h.cookieMode = config.SecureCookiesAuto
	}
	if h.publicURL != "" {
		// Behind a proxy that rewrites Host, trust the public Origin for forms.
		if err := h.cop.AddTrustedOrigin(h.publicURL); err != nil {
			h.log.Warn("dashboard.public_url is not a valid origin; ignored for form checks", "err", err)
		}
	}
	h.cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.forbidden(w, r)
	}))
	h.routes()
	go signin.PrepareSignIn()
	return h
}

func (h *Handler) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /dashboard/{$}", h.authed(h.overview))
	m.HandleFunc("GET /dashboard/signin", h.signInPage)
	m.HandleFunc("POST /dashboard/signin", h.anonPost(h.signIn))
	m.HandleFunc("GET /dashboard/signup", h.signUpPage)
	m.HandleFunc("POST /dashboard/signup", h.anonPost(h.signUp))
	m.HandleFunc("POST /dashboard/signout", h.authed(h.signOut))

	m.HandleFunc("GET /dashboard/tokens", h.authed(h.tokens))
	m.HandleFunc("GET /dashboard/requests", h.authed(h.requests))
	m.HandleFunc("POST /dashboard/tokens", h.authed(h.createToken))
	m.HandleFunc("GET /dashboard/tokens/{id}/rotate", h.authed(h.confirmRotate))
	m.HandleFunc("POST /dashboard/tokens/{id}/rotate", h.authed(h.rotateToken))
	m.HandleFunc("GET /dashboard/tokens/{id}/revoke", h.authed(h.confirmRevoke))
	m.HandleFunc("POST /dashboard/tokens/{id}/revoke", h.authed(h.revokeToken))

	m.HandleFunc("GET /dashboard/garage", h.authed(h.garage))
	m.HandleFunc("POST /dashboard/garage/lists", h.authed(h.createList))
	m.HandleFunc("GET /dashboard/garage/lists/{id}/delete", h.authed(h.confirmDeleteList))
	m.HandleFunc("POST /dashboard/garage/lists/{id}/delete", h.authed(h.deleteList))
	m.HandleFunc("GET /dashboard/garage/add", h.authed(h.addVehicle))
	m.HandleFunc("POST /dashboard/garage/items", h.authed(h.addItem))
	m.HandleFunc("POST /dashboard/garage/items/remove", h.authed(h.removeItem))
	m.HandleFunc("POST /dashboard/garage/vins", h.authed(h.addVIN))
	m.HandleFunc("POST /dashboard/garage/recalls", h.authed(h.setRecallStatus))
	m.HandleFunc("GET /dashboard/records/{type}/{uuid}", h.authed(h.record))

	if h.hooks != nil {
		h.routeWebhooks(m)
	}
	m.HandleFunc("GET /dashboard/account", h.authed(h.accountPage))
	m.HandleFunc("POST /dashboard/account/password", h.authed(h.changePassword))
	m.HandleFunc("GET /dashboard/account/delete", h.authed(h.confirmDeleteAccount))
	m.HandleFunc("POST /dashboard/account/delete", h.authed(h.deleteAccount))

	m.HandleFunc("GET /dashboard/connect", h.authed(h.connect))
	m.HandleFunc("GET /dashboard/static/{file}", h.static)
	m.HandleFunc("/dashboard/", h.notFound)
	h.mux = m
}

// ServeHTTP sets the security headers of every dashboard response.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "+
		"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Referrer-Policy", "no-referrer")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Cross-Origin-Opener-Policy", "same-origin")
	h.mux.ServeHTTP(w, r)
}

// RedirectRoot sends / to the dashboard.
func RedirectRoot(w http.ResponseWriter, r *http.Request) {
	http.Redirect(w, r, Prefix, http.StatusFound)
}
