// Package config holds the typed configuration of vds and loads it from viper
// (flags > VDS_* > file > defaults); keys are in docs/operations.md.
package config

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/spf13/viper"
	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/store"
	"github.com/vds-dev/vds/internal/textcheck"
)

// Config is the whole configuration, loaded once per command.
type Config struct {
	Server    Server                `mapstructure:"server"`
	Upstream  Upstream              `mapstructure:"upstream"`
	Database  Database              `mapstructure:"database"`
	Log       Log                   `mapstructure:"log"`
	Dashboard Dashboard             `mapstructure:"dashboard"`
	VIN       VIN                   `mapstructure:"vin"`
	Webhooks  Webhooks              `mapstructure:"webhooks"`
	Recalls   Recalls               `mapstructure:"recalls"`
	Plans     map[string]PlanLimits `mapstructure:"plans"`
}

// Server configures `vds serve`.
type Server struct {
	Addr    string `mapstructure:"addr"`
	MCPAddr string `mapstructure:"mcp_addr"`
	// AdminAddr serves /metrics and /debug/pprof/; empty for none.
	AdminAddr   string        `mapstructure:"admin_addr"`
	CatalogPoll time.Duration `mapstructure:"catalog_poll"`
	// UsageFlush bounds the quota overshoot across replicas.
	UsageFlush time.Duration `mapstructure:"usage_flush"`
	// AuthCacheTTL bounds how long a revoked token keeps working on a replica.
	AuthCacheTTL      time.Duration `mapstructure:"auth_cache_ttl"`
	ShutdownTimeout   time.Duration `mapstructure:"shutdown_timeout"`
	ReadHeaderTimeout time.Duration `mapstructure:"read_header_timeout"`
	ReadTimeout       time.Duration `mapstructure:"read_timeout"`
	WriteTimeout      time.Duration `mapstructure:"write_timeout"`
	IdleTimeout       time.Duration `mapstructure:"idle_timeout"`
	// CacheMaxAge is the Cache-Control max-age of catalog answers.
	CacheMaxAge time.Duration `mapstructure:"cache_max_age"`
	// CORSOrigins are the browser origins allowed to call /v1; "*" is any.
	CORSOrigins []string `mapstructure:"cors_origins"`
	// TrustedProxies are the peers (CIDR or address) whose X-Forwarded-For
	// and X-Forwarded-Proto are believed; empty believes none.
	TrustedProxies []string `mapstructure:"trusted_proxies"`
	// GCHeadroomMB is how large (MiB) the heap may grow between
	// collections, live heap included; 0 or GOGC set leaves Go's default.
	GCHeadroomMB int `mapstructure:"gc_headroom_mb"`
	// BodyCacheMB bounds the catalog answers kept rendered and compressed.
	BodyCacheMB int `mapstructure:"body_cache_mb"`
}

// Upstream locates the outside data sources; tests point them at fakes.
type Upstream struct {
	VPICURL  string        `mapstructure:"vpic_url"`
	NHTSAURL string        `mapstructure:"nhtsa_url"`
	EPAURL   string        `mapstructure:"epa_url"`
	Timeout  time.Duration `mapstructure:"timeout"`
	CacheTTL time.Duration `mapstructure:"cache_ttl"`
}

// VIN chooses how VINs are decoded: "auto", "offline" (the imported vPIC
// snapshot) or "online" (NHTSA vPIC).
type VIN struct {
	Decoder string `mapstructure:"decoder"`
}

// Webhooks configures the delivery of signed webhooks.
type Webhooks struct {
	RetryInitial time.Duration `mapstructure:"retry_initial"`
	Timeout      time.Duration `mapstructure:"timeout"`
	AllowPrivate bool          `mapstructure:"allow_private"`
}

// Recalls configures where recalls come from and the recall watch of `vds serve`.
type Recalls struct {
	// Source is "auto", "offline" (the imported NHTSA recall files) or "online" (NHTSA's recalls API).
	Source string `mapstructure:"source"`
	// RefreshInterval is how often each watched vehicle's recalls are refreshed at most; 0 turns the watch off.
	RefreshInterval time.Duration `mapstructure:"refresh_interval"`
}

// UpstreamMargin is how much shorter than server.write_timeout
// upstream.timeout must be, to write the answer when NHTSA hangs.
const UpstreamMargin = 2 * time.Second

// Database selects the store.
type Database struct {
	URL string `mapstructure:"url"`
}

// Dashboard configures the web dashboard served at /dashboard/.
type Dashboard struct {
	Signup        bool          `mapstructure:"signup"`
	SessionTTL    time.Duration `mapstructure:"session_ttl"`
	SecureCookies string        `mapstructure:"secure_cookies"`
	PublicURL     string        `mapstructure:"public_url"`
}

// Secure-cookie modes of dashboard.secure_cookies.
const (
	SecureCookiesAuto   = "auto"
	SecureCookiesAlways = "always"
	SecureCookiesNever  = "never"
)

// DefaultSessionTTL is the sign-in lifetime when none is configured.
const DefaultSessionTTL = 168 * time.Hour

// CookieMode normalises secure_cookies; YAML true and false reach viper as strings.
func (d Dashboard) CookieMode() string {
	switch strings.ToLower(strings.TrimSpace(d.SecureCookies)) {
	case "", SecureCookiesAuto:
		return SecureCookiesAuto
	case SecureCookiesAlways, "true", "1":
		return SecureCookiesAlways
	case SecureCookiesNever, "false", "0":
		return SecureCookiesNever
	}
	return ""
}

// Log configures logging.
type Log struct {
	Level string `mapstructure:"level"`
	// Format is text, json, or auto: text on a terminal, else json.
	Format string `mapstructure:"format"`
}

// PlanLimits are the limits of one plan; 0 means unlimited.
type PlanLimits struct {
	RatePerMinute int  `mapstructure:"rate_per_minute"`
	MonthlyQuota  int  `mapstructure:"monthly_quota"`
	APIAccess     bool `mapstructure:"api_access"`
}

// DefaultPlans are the plans of docs/api.md#limits-and-quotas; config may change and add.
var DefaultPlans = map[string]PlanLimits{
	"free":       {RatePerMinute: 10, MonthlyQuota: 100, APIAccess: true},
	"pro":        {RatePerMinute: 60, MonthlyQuota: 1000, APIAccess: true},
	"developer":  {RatePerMinute: 300, MonthlyQuota: 100000, APIAccess: true},
	"enterprise": {RatePerMinute: 600, MonthlyQuota: 250000, APIAccess: true},
}

// SetDefaults registers every key's default, so AutomaticEnv finds its VDS_* variable.
func SetDefaults(v *viper.Viper) {
	v.SetDefault("server.addr", "127.0.0.1:8080")
	v.SetDefault("server.mcp_addr", "")
	v.SetDefault("server.admin_addr", "")
	v.SetDefault("server.catalog_poll", "1s")
	v.SetDefault("server.usage_flush", "1s")
	v.SetDefault("server.auth_cache_ttl", "2s")
	v.SetDefault("server.shutdown_timeout", "10s")
	v.SetDefault("server.read_header_timeout", "5s")
	v.SetDefault("server.read_timeout", "15s")
	v.SetDefault("server.write_timeout", "30s")
	v.SetDefault("server.idle_timeout", "120s")
	v.SetDefault("server.cache_max_age", "60s")
	v.SetDefault("server.cors_origins", []string{})
	v.SetDefault("server.trusted_proxies", DefaultTrustedProxies)
	v.SetDefault("server.gc_headroom_mb", 256)
	v.SetDefault("server.body_cache_mb", 64)
	v.SetDefault("upstream.vpic_url", "https://vpic.nhtsa.dot.gov/api")
	v.SetDefault("upstream.nhtsa_url", "https://api.nhtsa.gov")
	v.SetDefault("upstream.epa_url", "https://www.fueleconomy.gov/feg/epadata/vehicles.csv.zip")
	v.SetDefault("upstream.timeout", "10s")
	v.SetDefault("upstream.cache_ttl", "24h")
	v.SetDefault("vin.decoder", "auto")
	v.SetDefault("recalls.source", "auto")
	v.SetDefault("webhooks.retry_initial", "1m")
	v.SetDefault("webhooks.timeout", "10s")
	v.SetDefault("webhooks.allow_private", false)
	v.SetDefault("recalls.refresh_interval", "24h")
	v.SetDefault("database.url", "")
	v.SetDefault("dashboard.signup", true)
	v.SetDefault("dashboard.session_ttl", "168h")
	v.SetDefault("dashboard.secure_cookies", SecureCookiesAuto)
	v.SetDefault("dashboard.public_url", "")
	v.SetDefault("log.level", "info")
	v.SetDefault("log.format", "auto")
	for name, p := range DefaultPlans {
		v.SetDefault("plans."+name+".rate_per_minute", p.RatePerMinute)
		v.SetDefault("plans."+name+".monthly_quota", p.MonthlyQuota)
		v.SetDefault("plans."+name+".api_access", p.APIAccess)
	}
}

// DefaultTrustedProxies is loopback: a reverse proxy on the same host.
var DefaultTrustedProxies = []string{"127.0.0.0/8", "::1/128"}

// ParseProxies reads server.trusted_proxies: CIDR prefixes or single addresses.
func ParseProxies(list []string) ([]netip.Prefix, error) {
	out := make([]netip.Prefix, 0, len(list))
	for _, s := range list {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil || a.Zone() != "" {
				return nil, err
			}
			p = netip.PrefixFrom(a, a.BitLen())
		}
		out = append(out, p.Masked())
	}
	return out, nil
}

// DefaultDatabaseURL is an SQLite file in the data directory.
func DefaultDatabaseURL() string { return "sqlite:" + filepath.Join(DataDir(), "vds.db") }

// Load reads and validates the configuration; VDS_DATABASE_URL_FILE
// supplies the database URL unless --database or VDS_DATABASE_URL does.
func Load(v *viper.Viper) (Config, error) {
	var c Config
	if err := v.Unmarshal(&c); err != nil {
		return c, fmt.Errorf("read configuration: %w", err)
	}
	if c.Database.URL == "" {
		if f := os.Getenv("VDS_DATABASE_URL_FILE"); f != "" {
			b, err := os.ReadFile(f)
			if err != nil {
				return c, fmt.Errorf("VDS_DATABASE_URL_FILE: %w", err)
			}
			c.Database.URL = strings.TrimSpace(string(b))
		}
	}
	if c.Database.URL == "" {
		c.Database.URL = DefaultDatabaseURL()
	}
	c.Server.CORSOrigins = trimList(c.Server.CORSOrigins)
	c.Server.TrustedProxies = trimList(c.Server.TrustedProxies)
	if len(c.Server.TrustedProxies) == 1 && c.Server.TrustedProxies[0] == "none" {
		c.Server.TrustedProxies = nil
	}
	return c, c.Validate()
}

// trimList drops the spaces and empty entries a comma-separated VDS_*
// variable leaves.
func trimList(list []string) []string {
	out := list[:0:0]
	for _, s := range list {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

var planName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// Validate checks every value.
func (c *Config) Validate() error {
	var errs []error
	if _, err := store.ParseURL(c.Database.URL); err != nil {
		errs = append(errs, fmt.Errorf("database.url: %w", err))
	}
	for name, d := range map[string]time.Duration{
		"server.catalog_poll": c.Server.CatalogPoll, "server.usage_flush": c.Server.UsageFlush,
		"server.shutdown_timeout": c.Server.ShutdownTimeout, "server.read_header_timeout": c.Server.ReadHeaderTimeout,
		"server.read_timeout": c.Server.ReadTimeout, "server.write_timeout": c.Server.WriteTimeout, "server.idle_timeout": c.Server.IdleTimeout,
	} {
		if d <= 0 {
			errs = append(errs, fmt.Errorf("%s: must be a positive duration such as 1s", name))
		}
	}
	for name, u := range map[string]string{"upstream.vpic_url": c.Upstream.VPICURL, "upstream.nhtsa_url": c.Upstream.NHTSAURL, "upstream.epa_url": c.Upstream.EPAURL} {
		if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			errs = append(errs, fmt.Errorf("%s: %q is not an http(s) URL", name, u))
		}
	}
	if c.Upstream.Timeout <= 0 || c.Upstream.CacheTTL <= 0 {
		errs = append(errs, errors.New("upstream.timeout and upstream.cache_ttl: must be positive durations such as 10s and 24h"))
	}
	if c.Upstream.Timeout > 0 && c.Server.WriteTimeout > 0 && c.Upstream.Timeout > c.Server.WriteTimeout-UpstreamMargin {
		errs = append(errs, fmt.Errorf("upstream.timeout: %s leaves too little of server.write_timeout (%s) to answer a hanging NHTSA with a 503 rather than a dropped connection; it must be at least %s shorter",
			c.Upstream.Timeout, c.Server.WriteTimeout, UpstreamMargin))
	}
	if c.Server.AuthCacheTTL < 0 || c.Server.AuthCacheTTL > 5*time.Second {
		errs = append(errs, errors.New("server.auth_cache_ttl: must be between 0s and 5s: revoked tokens must stop working within 5 seconds"))
	}
	if c.Server.CacheMaxAge < 0 || c.Server.CacheMaxAge > MaxCacheMaxAge {
		errs = append(errs, fmt.Errorf("server.cache_max_age: must be between 0s and %s, such as 60s: clients see a new catalog version only after it", MaxCacheMaxAge))
	}
	errs = append(errs, checkOrigins(c.Server.CORSOrigins)...)
	for _, p := range c.Server.TrustedProxies {
		if _, err := ParseProxies([]string{p}); err != nil {
			errs = append(errs, fmt.Errorf("server.trusted_proxies: %q is not an address or CIDR prefix such as 10.0.0.0/8 or 192.0.2.10 (or none alone)", p))
		}
	}
	if c.Recalls.RefreshInterval < 0 || c.Recalls.RefreshInterval > 0 && c.Recalls.RefreshInterval < time.Hour {
		errs = append(errs, errors.New("recalls.refresh_interval: must be 0 (no watch) or at least 1h, so NHTSA is not asked too often"))
	}
	if d := c.VIN.Decoder; d != "" && d != "auto" && d != "offline" && d != "online" {
		errs = append(errs, fmt.Errorf("vin.decoder: %q is not auto, offline or online", d))
	}
	if d := c.Recalls.Source; d != "" && d != "auto" && d != "offline" && d != "online" {
		errs = append(errs, fmt.Errorf("recalls.source: %q is not auto, offline or online", d))
	}
	// 0 leaves each its default.
	if d := c.Webhooks.RetryInitial; d < 0 || d > time.Hour {
		errs = append(errs, fmt.Errorf("webhooks.retry_initial: %s is not between 1ms and 1h, such as 1m", d))
	}
	if d := c.Webhooks.Timeout; d != 0 && (d < time.Second || d > time.Minute) {
		errs = append(errs, fmt.Errorf("webhooks.timeout: %s is not between 1s and 60s, such as 10s", d))
	}
	if c.Server.Addr == "" {
		errs = append(errs, errors.New("server.addr: must not be empty"))
	}
	if c.Server.MCPAddr != "" && c.Server.MCPAddr == c.Server.Addr {
		errs = append(errs, errors.New("server.mcp_addr: must differ from server.addr, which serves MCP already; leave it empty for one listener"))
	}
	if a := c.Server.AdminAddr; a != "" && (a == c.Server.Addr || a == c.Server.MCPAddr) {
		errs = append(errs, fmt.Errorf("server.admin_addr: %s is a public address (server.addr or server.mcp_addr); metrics and profiles must be served apart, on an address such as 127.0.0.1:9090", a))
	}
	if c.Dashboard.SessionTTL < 0 || c.Dashboard.SessionTTL > 0 && c.Dashboard.SessionTTL < time.Minute {
		errs = append(errs, errors.New("dashboard.session_ttl: must be at least 1m, such as 168h"))
	}
	if c.Dashboard.CookieMode() == "" {
		errs = append(errs, fmt.Errorf("dashboard.secure_cookies: %q is not auto, always or never", c.Dashboard.SecureCookies))
	}
	if u := c.Dashboard.PublicURL; u != "" {
		if pu, err := url.Parse(u); err != nil || (pu.Scheme != "http" && pu.Scheme != "https") || !textcheck.HostPort(pu.Host) || pu.RawQuery != "" || pu.Fragment != "" || strings.Trim(pu.Path, "/") != "" {
			errs = append(errs, fmt.Errorf("dashboard.public_url: %q is not an http(s) origin such as https://vds.example.com", u))
		}
	}
	if !slices.Contains([]string{"debug", "info", "warn", "error"}, c.Log.Level) {
		errs = append(errs, fmt.Errorf("log.level: %q is not one of debug, info, warn, error", c.Log.Level))
	}
	if !slices.Contains([]string{"auto", "text", "json"}, c.Log.Format) {
		errs = append(errs, fmt.Errorf("log.format: %q is not text, json or auto", c.Log.Format))
	}
	for name, p := range c.Plans {
		if !planName.MatchString(name) {
			errs = append(errs, fmt.Errorf("plans.%s: plan names are lowercase letters, digits, - and _", name))
		}
		if p.RatePerMinute < 0 || p.MonthlyQuota < 0 {
			errs = append(errs, fmt.Errorf("plans.%s: limits must be 0 (unlimited) or positive", name))
		}
	}
	if c.Server.GCHeadroomMB < 0 || c.Server.GCHeadroomMB > maxGCHeadroomMB {
		errs = append(errs, fmt.Errorf("server.gc_headroom_mb: %d is not between 0 (Go's default) and %d MiB", c.Server.GCHeadroomMB, maxGCHeadroomMB))
	}
	if c.Server.BodyCacheMB < 0 || c.Server.BodyCacheMB > maxBodyCacheMB {
		errs = append(errs, fmt.Errorf("server.body_cache_mb: %d is not between 0 (no cache) and %d MiB", c.Server.BodyCacheMB, maxBodyCacheMB))
	}
	if _, ok := c.Plans["free"]; !ok {
		errs = append(errs, errors.New("plans.free: the free plan must exist: new accounts start on it"))
	}
	return errors.Join(errs...)
}

// maxGCHeadroomMB bounds server.gc_headroom_mb (64 GiB), and
// maxBodyCacheMB server.body_cache_mb (16 GiB).
const (
	maxGCHeadroomMB = 64 << 10
	maxBodyCacheMB  = 16 << 10
)

// MaxCacheMaxAge bounds server.cache_max_age.
const MaxCacheMaxAge = 24 * time.Hour

// checkOrigins accepts "*" alone, or http(s)://host[:port] origins.
func checkOrigins(origins []string) []error {
	var errs []error
	for _, o := range origins {
		if o == "*" {
			if len(origins) > 1 {
				errs = append(errs, errors.New("server.cors_origins: * allows every origin, so list it alone"))
			}
			continue
		}
		u, err := url.Parse(o)
		switch {
		case err == nil && strings.Contains(u.Host, "*"):
			errs = append(errs, fmt.Errorf("server.cors_origins: %q: wildcards are not supported; list every origin (https://app.example.com, https://admin.example.com), or * alone for any", o))
		case err != nil || (u.Scheme != "http" && u.Scheme != "https") || !textcheck.HostPort(u.Host) || u.User != nil ||
			u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" || strings.HasSuffix(o, "?") || strings.HasSuffix(o, "#"):
			errs = append(errs, fmt.Errorf("server.cors_origins: %q is not an origin such as https://app.example.com or http://localhost:3000 (scheme://host[:port], no path), or *", o))
		}
	}
	return errs
}

// Plan returns the named plan's limits.
func (c *Config) Plan(name string) (account.Plan, bool) {
	p, ok := c.Plans[name]
	if !ok {
		return account.Plan{}, false
	}
	return account.Plan{Name: name, RatePerMinute: p.RatePerMinute, MonthlyQuota: p.MonthlyQuota, APIAccess: p.APIAccess}, true
}

// PlanNames returns the configured plan names, sorted.
func (c *Config) PlanNames() []string {
	names := make([]string, 0, len(c.Plans))
	for n := range c.Plans {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// DataDir holds the default SQLite file: $XDG_DATA_HOME/vds, else ~/.local/share/vds.
func DataDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "vds")
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local", "share", "vds")
	}
	return "vds-data"
}

// ConfigDir holds config.yaml: $XDG_CONFIG_HOME/vds, else the platform's config directory.
func ConfigDir() string {
	if d, err := os.UserConfigDir(); err == nil {
		return filepath.Join(d, "vds")
	}
	return "."
}
