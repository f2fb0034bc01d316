package webhooks

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/vds-dev/vds/internal/textcheck"
)

// ErrPrivate refuses an address inside a private network.
var ErrPrivate = errors.New("the address is private, loopback, link-local or otherwise not public; vds calls only public addresses unless webhooks.allow_private is true")

// blocked are the ranges no webhook may reach besides those netip
// classifies as private, loopback, link-local, multicast or unspecified.
var blocked = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, broadcast
	netip.MustParsePrefix("64:ff9b::/96"),    // NAT64, which can reach any IPv4 address
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local NAT64
	netip.MustParsePrefix("2002::/16"),       // 6to4, likewise
	netip.MustParsePrefix("fec0::/10"),       // site-local
	netip.MustParsePrefix("100::/64"),        // discard
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
}

// Public reports whether a is an address on the public internet.
func Public(a netip.Addr) bool {
	a = a.Unmap()
	if !a.IsValid() || a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsLinkLocalMulticast() ||
		a.IsInterfaceLocalMulticast() || a.IsMulticast() || a.IsUnspecified() {
		return false
	}
	for _, p := range blocked {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// checkURL returns the URL an endpoint is created with: http(s), with a
// host and no credentials, and, unless private addresses are allowed, a
// host that resolves only to public addresses.
func (s *Service) checkURL(ctx context.Context, raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if err := textcheck.Line(raw); err != nil {
		return "", err
	}
	if len(raw) > MaxURL {
		return "", fmt.Errorf("longer than %d bytes", MaxURL)
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Opaque != "" || u.Host == "" || u.Hostname() == "":
		return "", errors.New("not an absolute URL such as https://example.com/hooks/vds")
	case u.Scheme != "http" && u.Scheme != "https":
		return "", errors.New("only http and https URLs are allowed")
	case u.User != nil:
		return "", errors.New("must not carry a user name or password")
	case u.Fragment != "":
		return "", errors.New("must not carry a #fragment")
	}
	if s.opts.AllowPrivate {
		return u.String(), nil
	}
	host := u.Hostname()
	if a, err := netip.ParseAddr(host); err == nil {
		if !Public(a) {
			return "", ErrPrivate
		}
		return u.String(), nil
	}
	if h := strings.ToLower(strings.TrimSuffix(host, ".")); h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return "", ErrPrivate
	}
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupNetIP(rctx, "ip", host)
	if err != nil {
		return "", fmt.Errorf("cannot resolve %s", host)
	}
	for _, a := range addrs {
		if !Public(a) {
			return "", fmt.Errorf("%s resolves to %s: %w", host, a, ErrPrivate)
		}
	}
	return u.String(), nil
}

// guardedTransport dials only public addresses unless allowPrivate: the
// check runs on the address actually dialled, after DNS, so a name that
// resolves differently at delivery (DNS rebinding) is refused too. It uses
// no proxy from the environment, which would dial for it.
func guardedTransport(allowPrivate bool, timeout time.Duration) *http.Transport {
	d := &net.Dialer{Timeout: timeout}
	if !allowPrivate {
		d.Control = func(_, address string, _ syscall.RawConn) error {
			ap, err := netip.ParseAddrPort(address)
			if err != nil || !Public(ap.Addr()) {
				return fmt.Errorf("dial %s: %w", address, ErrPrivate)
			}
			return nil
		}
	}
	return &http.Transport{
		DialContext:            d.DialContext,
		TLSHandshakeTimeout:    timeout,
		ResponseHeaderTimeout:  timeout,
		MaxIdleConnsPerHost:    2,
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: 16 << 10,
		ForceAttemptHTTP2:      true,
	}
}
