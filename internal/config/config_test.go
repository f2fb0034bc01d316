package config

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/viper"
)

// withDefaults returns a viper holding every default and a database URL.
func withDefaults() *viper.Viper {
	v := viper.New()
	SetDefaults(v)
	v.Set("database.url", "sqlite:/tmp/x.db")
	return v
}

func TestDashboardDefaults(t *testing.T) {
	t.Parallel()
	v := withDefaults()
	c, err := Load(v)
	if err != nil {
		t.Fatal(err)
	}
	d := c.Dashboard
	if !d.Signup || d.SessionTTL != 168*time.Hour || d.CookieMode() != SecureCookiesAuto || d.PublicURL != "" {
		t.Fatalf("dashboard defaults = %+v", d)
	}
}

func TestCookieMode(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"": "auto", "auto": "auto", "ALWAYS": "always", "true": "always", "1": "always",
		"never": "never", "false": "never", "0": "never", "sometimes": ""} {
		if got := (Dashboard{SecureCookies: in}).CookieMode(); got != want {
			t.Errorf("CookieMode(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValidateDashboard(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		d    Dashboard
		want string
	}{
		{"short ttl", Dashboard{SessionTTL: time.Second}, "dashboard.session_ttl"},
		{"bad cookie mode", Dashboard{SecureCookies: "sometimes"}, "dashboard.secure_cookies"},
		{"public url with a path", Dashboard{PublicURL: "https://vds.example.com/app"}, "dashboard.public_url"},
		{"public url without scheme", Dashboard{PublicURL: "vds.example.com"}, "dashboard.public_url"},
		{"fine", Dashboard{SessionTTL: time.Hour, PublicURL: "https://vds.example.com/"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := withDefaults()
			c, err := Load(v)
			if err != nil {
				t.Fatal(err)
			}
			c.Dashboard = tc.d
			err = c.Validate()
			if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("Validate = %v, want an error about %q", err, tc.want)
			}
		})
	}
}

// upstream.timeout is the whole budget of an NHTSA answer, so a hanging
// NHTSA gives a 503 only if that budget ends before the server stops
// writing the response.
func TestUpstreamTimeoutBelowWriteTimeout(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		upstream, write string
		want            string
	}{
		{"10s", "30s", ""},
		{"28s", "30s", ""},
		{"29s", "30s", "upstream.timeout: 29s leaves too little of server.write_timeout (30s)"},
		{"30s", "30s", "upstream.timeout: 30s leaves too little of server.write_timeout (30s)"},
		{"10s", "5s", "at least 2s shorter"},
	} {
		v := withDefaults()
		v.Set("upstream.timeout", tc.upstream)
		v.Set("server.write_timeout", tc.write)
		_, err := Load(v)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("upstream.timeout %s, server.write_timeout %s: Load = %v, want %q", tc.upstream, tc.write, err, tc.want)
		}
	}
	// The defaults answer a hanging NHTSA well within 15 seconds.
	v := withDefaults()
	c, err := Load(v)
	if err != nil || c.Upstream.Timeout+UpstreamMargin > 15*time.Second {
		t.Errorf("default upstream.timeout %v (+%v margin), err %v", c.Upstream.Timeout, UpstreamMargin, err)
	}
}

func TestCacheAndCORS(t *testing.T) {
	c, err := Load(withDefaults())
	if err != nil || c.Server.CacheMaxAge != time.Minute || len(c.Server.CORSOrigins) != 0 {
		t.Fatalf("defaults: cache_max_age %v, cors_origins %q, %v", c.Server.CacheMaxAge, c.Server.CORSOrigins, err)
	}
	t.Setenv("VDS_SERVER_CORS_ORIGINS", "https://app.example.com, http://localhost:3000")
	v := withDefaults()
	v.SetEnvPrefix("VDS")
	v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
	v.AutomaticEnv()
	c, err = Load(v)
	if err != nil || strings.Join(c.Server.CORSOrigins, " ") != "https://app.example.com http://localhost:3000" {
		t.Fatalf("from the environment: %q, %v", c.Server.CORSOrigins, err)
	}
	for _, tc := range []struct {
		origins []string
		maxAge  string
		want    string
	}{
		{[]string{"*"}, "0s", ""},
		{[]string{"https://app.example.com:8443", "http://127.0.0.1:3000"}, "24h", ""},
		{[]string{"https://app.example.com/"}, "60s", `server.cors_origins: "https://app.example.com/" is not an origin`},
		{[]string{"app.example.com"}, "60s", `"app.example.com" is not an origin`},
		{[]string{"ftp://app.example.com"}, "60s", `"ftp://app.example.com" is not an origin`},
		{[]string{"https://user@app.example.com"}, "60s", "is not an origin"},
		{[]string{"https://app.example.com?x"}, "60s", "is not an origin"},
		{[]string{"*", "https://app.example.com"}, "60s", "server.cors_origins: * allows every origin, so list it alone"},
		{[]string{"https://*.example.com"}, "60s", `server.cors_origins: "https://*.example.com": wildcards are not supported; list every origin`},
		{[]string{"https://app.*"}, "60s", "wildcards are not supported"},
		{[]string{"https://app_ex(ample).com"}, "60s", "is not an origin"},
		{nil, "-1s", "server.cache_max_age: must be between 0s and 24h0m0s"},
		{nil, "25h", "server.cache_max_age"},
	} {
		v := withDefaults()
		v.Set("server.cors_origins", tc.origins)
		v.Set("server.cache_max_age", tc.maxAge)
		_, err := Load(v)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("cors_origins %q, cache_max_age %s: Load = %v, want %q", tc.origins, tc.maxAge, err, tc.want)
		}
	}
}

// TestTrustedProxies: loopback by default; addresses and prefixes, or none.
func TestTrustedProxies(t *testing.T) {
	c, err := Load(withDefaults())
	if err != nil || strings.Join(c.Server.TrustedProxies, " ") != "127.0.0.0/8 ::1/128" {
		t.Fatalf("defaults: %q, %v", c.Server.TrustedProxies, err)
	}
	for _, tc := range []struct {
		env, want, err string
	}{
		{"10.0.0.0/8, 192.0.2.10 ,2001:db8::/32", "10.0.0.0/8 192.0.2.10 2001:db8::/32", ""},
		{"none", "", ""},
		{"10.0.0.0/33", "", `server.trusted_proxies: "10.0.0.0/33" is not an address or CIDR prefix`},
		{"proxy.internal", "", `"proxy.internal" is not an address`},
	} {
		t.Setenv("VDS_SERVER_TRUSTED_PROXIES", tc.env)
		v := withDefaults()
		v.SetEnvPrefix("VDS")
		v.SetEnvKeyReplacer(strings.NewReplacer(".", "_"))
		v.AutomaticEnv()
		c, err := Load(v)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: Load = %v, want %q", tc.env, err, tc.err)
			}
			continue
		}
		if err != nil || strings.Join(c.Server.TrustedProxies, " ") != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.env, c.Server.TrustedProxies, err, tc.want)
		}
		if p, err := ParseProxies(c.Server.TrustedProxies); err != nil || len(p) != len(c.Server.TrustedProxies) {
			t.Errorf("%q: ParseProxies = %v, %v", tc.env, p, err)
		}
	}
	v := withDefaults()
	v.Set("server.trusted_proxies", []string{})
	if c, err := Load(v); err != nil || len(c.Server.TrustedProxies) != 0 {
		t.Errorf("[] in the file: %q, %v; want none", c.Server.TrustedProxies, err)
	}
}

// The admin listener serves profiles: never on an address that serves the public.
func TestAdminAddr(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ admin, mcp, want string }{
		{"", "", ""},
		{"127.0.0.1:9090", "", ""},
		{"127.0.0.1:8080", "", "server.admin_addr: 127.0.0.1:8080 is a public address"},
		{"127.0.0.1:8081", "127.0.0.1:8081", "server.admin_addr: 127.0.0.1:8081 is a public address"},
	} {
		v := withDefaults()
		v.Set("server.admin_addr", tc.admin)
		v.Set("server.mcp_addr", tc.mcp)
		c, err := Load(v)
		if tc.want == "" && (err != nil || c.Server.AdminAddr != tc.admin) || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("admin %q, mcp %q: Load = %v, want %q", tc.admin, tc.mcp, err, tc.want)
		}
	}
}

// A certificate without its key, or a key alone, is refused at start-up.
func TestTLSFiles(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ cert, key, want string }{
		{"", "", ""},
		{"/etc/vds/cert.pem", "/etc/vds/key.pem", ""},
		{"/etc/vds/cert.pem", "", "give both"},
		{"", "/etc/vds/key.pem", "give both"},
	} {
		v := withDefaults()
		v.Set("server.tls_cert_file", tc.cert)
		v.Set("server.tls_key_file", tc.key)
		c, err := Load(v)
		if tc.want == "" && (err != nil || c.Server.TLSCertFile != tc.cert) || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("cert %q, key %q: Load = %v, want %q", tc.cert, tc.key, err, tc.want)
		}
	}
}

func TestMemoryLimitRatio(t *testing.T) {
	t.Parallel()
	for ratio, ok := range map[float64]bool{0: true, 0.9: true, 1: true, 0.05: false, 1.5: false, -1: false} {
		v := withDefaults()
		v.Set("server.memory_limit_ratio", ratio)
		c, err := Load(v)
		if ok && (err != nil || c.Server.MemoryLimitRatio != ratio) || !ok && (err == nil || !strings.Contains(err.Error(), "server.memory_limit_ratio")) {
			t.Errorf("ratio %g: Load = %v", ratio, err)
		}
	}
}
