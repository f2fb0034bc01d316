package edge

import (
	"net/http"
	"strings"
)

// IsHTTPS reports whether the client reached us over TLS, directly or
// through a proxy that says so in X-Forwarded-Proto. Trusting the header
// is safe for what it decides: whether our own cookies are marked Secure
// and which origin the pages and the OpenAPI document show the client
// that asked, so a client that lies only hurts itself. Operators who put a
// shared cache in front set dashboard.public_url, which Origin prefers.
func IsHTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	return strings.EqualFold(strings.TrimSpace(proto), "https")
}

// Origin is the instance's address as the client sees it, without a
// trailing slash: publicURL (dashboard.public_url) when set, else the
// request's scheme and Host.
func Origin(r *http.Request, publicURL string) string {
	if publicURL != "" {
		return strings.TrimRight(publicURL, "/")
	}
	scheme := "http"
	if IsHTTPS(r) {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
