package edge_test

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"

	"github.com/vds-dev/vds/internal/edge"
)

// through serves r behind Observe with the given trusted proxies and
// returns what the edge made of its client.
func through(t *testing.T, proxies []netip.Prefix, r *http.Request) (client netip.Addr, https bool, origin string) {
	t.Helper()
	h := edge.Observe(edge.Observer{TrustedProxies: proxies}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		client, https, origin = edge.ClientAddr(r), edge.IsHTTPS(r), edge.Origin(r, "")
	}))
	h.ServeHTTP(httptest.NewRecorder(), r)
	return client, https, origin
}

func TestClientAddr(t *testing.T) {
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}
	chain := append([]netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}, loopback...)
	for _, tc := range []struct {
		name    string
		proxies []netip.Prefix
		remote  string
		xff     []string
		want    string
	}{
		{"direct IPv4", loopback, "192.0.2.7:5000", nil, "192.0.2.7"},
		{"a direct client's header is ignored", loopback, "192.0.2.7:5000", []string{"198.51.100.1"}, "192.0.2.7"},
		{"no proxy trusted", nil, "127.0.0.1:5000", []string{"198.51.100.1"}, "127.0.0.1"},
		{"proxy on this host", loopback, "127.0.0.1:5000", []string{"198.51.100.1"}, "198.51.100.1"},
		{"the proxy's own entry is the last", loopback, "127.0.0.1:5000", []string{"203.0.113.9, 198.51.100.1"}, "198.51.100.1"},
		{"several header lines: the last one", loopback, "[::1]:5000", []string{"203.0.113.9", "198.51.100.2"}, "198.51.100.2"},
		{"a chain of trusted proxies is walked", chain, "127.0.0.1:5000", []string{"203.0.113.9, 198.51.100.3, 10.1.2.3"}, "198.51.100.3"},
		{"an entry with a port", loopback, "127.0.0.1:5000", []string{"198.51.100.4:4711"}, "198.51.100.4"},
		{"garbage from the proxy", loopback, "127.0.0.1:5000", []string{"unknown"}, "127.0.0.1"},
		{"IPv4-mapped IPv6", loopback, "[::ffff:192.0.2.7]:5000", nil, "192.0.2.7"},
		{"IPv6", loopback, "[2001:db8:1:2:3:4:5:6]:5000", nil, "2001:db8:1:2:3:4:5:6"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/dashboard/signup", nil)
			r.RemoteAddr = tc.remote
			for _, v := range tc.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got, _, _ := through(t, tc.proxies, r); got.String() != tc.want {
				t.Errorf("ClientAddr = %v, want %s", got, tc.want)
			}
		})
	}
}

// TestForwardedProto: only a trusted proxy's X-Forwarded-Proto counts, and
// only its last entry, the one that proxy set; a Host that is no host name
// gives relative URLs.
func TestForwardedProto(t *testing.T) {
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	for _, tc := range []struct {
		name    string
		proxies []netip.Prefix
		host    string
		xfp     []string
		https   bool
		origin  string
	}{
		{"plain", loopback, "vds.example.com", nil, false, "http://vds.example.com"},
		{"from a trusted proxy", loopback, "vds.example.com", []string{"https"}, true, "https://vds.example.com"},
		{"from an untrusted peer", nil, "vds.example.com", []string{"https"}, false, "http://vds.example.com"},
		{"the client's own entry before the proxy's", loopback, "vds.example.com:8443", []string{"https, http"}, false, "http://vds.example.com:8443"},
		{"the proxy's entry last", loopback, "vds.example.com", []string{"http", "HTTPS"}, true, "https://vds.example.com"},
		{"a Markdown link in Host", loopback, "x](javascript:alert(1))", nil, false, ""},
		{"IPv6 literal", loopback, "[::1]:8080", nil, false, "http://[::1]:8080"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/llms.txt", nil)
			r.RemoteAddr, r.Host = "127.0.0.1:5000", tc.host
			for _, v := range tc.xfp {
				r.Header.Add("X-Forwarded-Proto", v)
			}
			if _, https, origin := through(t, tc.proxies, r); https != tc.https || origin != tc.origin {
				t.Errorf("IsHTTPS, Origin = %v, %q; want %v, %q", https, origin, tc.https, tc.origin)
			}
		})
	}
}
