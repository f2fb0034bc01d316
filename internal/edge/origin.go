package edge

import (
	"net/http"
	"strings"
)

// IsHTTPS reports whether the client reached us over TLS, directly or per
// X-Forwarded-Proto. Trusting the header is safe: it only decides Secure
// cookies and the origin shown to the client that asked.
func IsHTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	return strings.EqualFold(strings.TrimSpace(proto), "https")
}

// Origin is the instance's address as the client sees it (publicURL if set).
func Origin(r *http.Request, publicURL string) string {
	scheme, host := OriginParts(r, publicURL)
	return scheme + host
}

// OriginParts is Origin in two parts, for a caller that would only copy the
// joined string: "" and publicURL when set, else the scheme and Host.
func OriginParts(r *http.Request, publicURL string) (scheme, host string) {
	if publicURL != "" {
		return "", strings.TrimRight(publicURL, "/")
	}
	if IsHTTPS(r) {
		return "https://", r.Host
	}
	return "http://", r.Host
}
