package httpapi

import (
	"net/http"
	"strings"
)

// corsPolicy lets browser pages of other origins call the API
// (server.cors_origins). Bearer tokens, never cookies, so "*" is safe.
type corsPolicy struct {
	any     bool
	origins []string
}

// The fixed parts of the CORS answers.
const (
	corsMethods = "GET, HEAD, OPTIONS"
	corsHeaders = "Authorization, If-None-Match, X-Request-Id, Content-Type"
	// corsMaxAge (seconds) is how long a browser may reuse a preflight.
	corsMaxAge = "600"
)

// corsExposed are the response headers a page may read beyond the
// CORS-safelisted ones (Cache-Control, Content-Type, ...).
var corsExposed = strings.Join(append([]string{"ETag", "Link", "X-Request-Id", "Retry-After", "WWW-Authenticate", "Warning"},
	limitHeaders...), ", ")

// newCORS returns the policy of origins (validated by package config); nil
// when there are none: CORS off.
func newCORS(origins []string) *corsPolicy {
	if len(origins) == 0 {
		return nil
	}
	return &corsPolicy{any: len(origins) == 1 && origins[0] == "*", origins: origins}
}

// allow returns the Access-Control-Allow-Origin value for a request's
// Origin, or "" when that origin is not allowed.
func (c *corsPolicy) allow(origin string) string {
	switch {
	case origin == "":
		return ""
	case c.any:
		return "*"
	}
	for _, o := range c.origins {
		if strings.EqualFold(o, origin) {
			return origin
		}
	}
	return ""
}

// vary marks an answer that depends on the Origin; with "*" none does.
func (c *corsPolicy) vary(hd http.Header) {
	if !c.any {
		hd.Add("Vary", "Origin")
	}
}

// wrap adds the CORS headers of an allowed origin to next's answers, errors
// included, so a page can read a 401 or a 429. Without a policy it is next.
func (c *corsPolicy) wrap(next http.HandlerFunc) http.HandlerFunc {
	if c == nil {
		return next
	}
	return func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		c.vary(hd)
		if o := c.allow(r.Header.Get("Origin")); o != "" {
			hd.Set("Access-Control-Allow-Origin", o)
			hd.Set("Access-Control-Expose-Headers", corsExposed)
		}
		next(w, r)
	}
}

// preflight answers OPTIONS on any API path without a token: 204, with the
// allow headers only for an allowed origin.
func (c *corsPolicy) preflight(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	c.vary(hd)
	hd.Set("Allow", corsMethods)
	if o := c.allow(r.Header.Get("Origin")); o != "" && r.Header.Get("Access-Control-Request-Method") != "" {
		hd.Set("Access-Control-Allow-Origin", o)
		hd.Set("Access-Control-Allow-Methods", corsMethods)
		hd.Set("Access-Control-Allow-Headers", corsHeaders)
		hd.Set("Access-Control-Max-Age", corsMaxAge)
	}
	w.WriteHeader(http.StatusNoContent)
}
