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
	scheme, host := OriginParts(r, publicURL)
	return scheme + host
}

// OriginParts is Origin in two parts to write one after the other, for a
// caller that builds a longer string and would only copy the joined one:
// "" and publicURL when it is set, else "http://" or "https://" and Host.
func OriginParts(r *http.Request, publicURL string) (scheme, host string) {
	if publicURL != "" {
		return "", strings.TrimRight(publicURL, "/")
	}
	if IsHTTPS(r) {
		return "https://", r.Host
	}
	return "http://", r.Host
}
