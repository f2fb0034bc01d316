package edge

import (
	"net/http"
	"net/netip"
	"strings"

	"github.com/vds-dev/vds/internal/textcheck"
)

func trusted(proxies []netip.Prefix, a netip.Addr) bool {
	for _, p := range proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// peer is the connection's address, or the zero Addr when it has none.
func peer(r *http.Request) netip.Addr {
	if ap, err := netip.ParseAddrPort(r.RemoteAddr); err == nil {
		return ap.Addr().Unmap()
	}
	a, _ := netip.ParseAddr(r.RemoteAddr)
	return a.Unmap()
}

func proxiesOf(r *http.Request) []netip.Prefix {
	if st := requestFrom(r.Context()); st != nil {
		return st.proxies
	}
	return nil
}

// ClientAddr is the client's address: the peer or, when the peer is a
// trusted proxy (Observer.TrustedProxies), the right-most X-Forwarded-For
// entry that is not one; the zero Addr when the peer has none.
func ClientAddr(r *http.Request) netip.Addr {
	proxies := proxiesOf(r)
	client := peer(r)
	if !trusted(proxies, client) {
		return client
	}
	fwd := r.Header.Values("X-Forwarded-For")
	for i := len(fwd) - 1; i >= 0; i-- {
		rest := fwd[i]
		for rest != "" {
			var entry string
			if j := strings.LastIndexByte(rest, ','); j >= 0 {
				rest, entry = rest[:j], rest[j+1:]
			} else {
				rest, entry = "", rest
			}
			a, ok := forwardedAddr(strings.TrimSpace(entry))
			if !ok {
				return client // a proxy wrote what it should not: trust no further
			}
			if client = a.Unmap(); !trusted(proxies, client) {
				return client
			}
		}
	}
	return client
}

// forwardedAddr reads an X-Forwarded-For entry: an address, with a port or not.
func forwardedAddr(s string) (netip.Addr, bool) {
	if a, err := netip.ParseAddr(s); err == nil {
		return a, true
	}
	ap, err := netip.ParseAddrPort(s)
	return ap.Addr(), err == nil
}

// IsHTTPS reports whether the client reached us over TLS, directly or per
// the last X-Forwarded-Proto entry, the one a trusted proxy next to us set.
func IsHTTPS(r *http.Request) bool {
	if r.TLS != nil {
		return true
	}
	fwd := r.Header["X-Forwarded-Proto"] // canonical, as headerValue's
	if len(fwd) == 0 || !trusted(proxiesOf(r), peer(r)) {
		return false
	}
	last := fwd[len(fwd)-1]
	return strings.EqualFold(strings.TrimSpace(last[strings.LastIndexByte(last, ',')+1:]), "https")
}

// Origin is the instance's address as the client sees it (publicURL if set).
func Origin(r *http.Request, publicURL string) string {
	scheme, host := OriginParts(r, publicURL)
	return scheme + host
}

// OriginParts is Origin in two parts, for a caller that would only copy the
// joined string: "" and publicURL when set, else the scheme and Host; both
// "" (relative URLs) when Host is not host[:port].
func OriginParts(r *http.Request, publicURL string) (scheme, host string) {
	if publicURL != "" {
		return "", strings.TrimRight(publicURL, "/")
	}
	if !textcheck.HostPort(r.Host) {
		return "", ""
	}
	if IsHTTPS(r) {
		return "https://", r.Host
	}
	return "http://", r.Host
}

// DocumentOrigin is Origin for a public document; when the origin comes
// from the request it keeps shared caches from storing the answer.
func DocumentOrigin(w http.ResponseWriter, r *http.Request, publicURL string) string {
	if publicURL == "" {
		hd := w.Header()
		hd.Set("Cache-Control", "private, no-cache")
		AddVary(hd, "Host")
		AddVary(hd, "X-Forwarded-Proto")
	}
	return Origin(r, publicURL)
}
