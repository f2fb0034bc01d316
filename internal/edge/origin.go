package edge

import (
	"net/http"
	"strings"
)

// IsHTTPS reports whether the client reached us over TLS, directly or
// through a proxy that says so. Trusting X-Forwarded-Proto is safe for what
// it decides (whether cookies are Secure, the scheme of URLs the server
// shows the client): a client that lies only hurts itself.
func IsHTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	proto, _, _ := strings.Cut(r.Header.Get("X-Forwarded-Proto"), ",")
	return strings.EqualFold(strings.TrimSpace(proto), "https")
}

// BaseURL is the instance's address as the client sees it: public (the
// configured dashboard.public_url, without a trailing slash) when set,
// else the request's scheme and Host.
func BaseURL(r *http.Request, public string) string {
	if public != "" {
		return public
	}
	if IsHTTPS(r) {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}
