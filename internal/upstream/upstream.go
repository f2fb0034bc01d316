// Package upstream holds the cached clients of NHTSA vPIC (VIN decoding) and
// api.nhtsa.gov (recalls, NCAP ratings); see docs/api.md, Upstream answers.
package upstream

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/go-resty/resty/v2"
	"golang.org/x/sync/singleflight"
)

// Defaults; the URLs are the real public services.
const (
	DefaultVPICURL   = "https://vpic.nhtsa.dot.gov/api"
	DefaultNHTSAURL  = "https://api.nhtsa.gov"
	DefaultTimeout   = 10 * time.Second
	DefaultCacheTTL  = 24 * time.Hour
	DefaultRetries   = 2
	DefaultRetryWait = 250 * time.Millisecond

	// MaxBodyBytes bounds an upstream answer read into memory (real ones are a few KB).
	MaxBodyBytes = 8 << 20

	// UpstreamVPIC and UpstreamNHTSA name the services in *Error values and logs.
	UpstreamVPIC  = "vpic"
	UpstreamNHTSA = "nhtsa"
)

// Config configures a Client; a zero field means its DefaultConfig value.
type Config struct {
	VPICURL  string
	NHTSAURL string
	// Timeout is the budget of one answer, attempts, backoff and ratings walk
	// included; no caller waits longer, even one that joined another's fetch.
	Timeout  time.Duration
	CacheTTL time.Duration
	// Retries: zero means DefaultRetries (an unset key must not disable them), negative none.
	Retries int
	// RetryWait is the base of the jittered backoff, capped at 8×RetryWait.
	RetryWait time.Duration
	// UserAgent identifies vds to NHTSA, as it asks; "" means "vds".
	UserAgent string
	// Observer counts fetches and cached answers; nil counts nothing.
	Observer Observer
}

// Observer counts upstream traffic by service (ServiceVPIC, ServiceRecalls,
// ServiceRatings); package metrics implements it.
type Observer interface {
	// UpstreamFetch counts one fetch, retries included: OutcomeOK, OutcomeError or OutcomeTimeout.
	UpstreamFetch(service, outcome string)
	// UpstreamCached counts an answer from the cache; stale: NHTSA failed and an expired entry was served.
	UpstreamCached(service string, stale bool)
}

// The services and fetch outcomes an Observer is told.
const (
	ServiceVPIC    = "vpic"
	ServiceRecalls = "recalls"
	ServiceRatings = "ratings"

	OutcomeOK      = "ok"
	OutcomeError   = "error"
	OutcomeTimeout = "timeout"
)

type noObserver struct{}

func (noObserver) UpstreamFetch(string, string) {}
func (noObserver) UpstreamCached(string, bool)  {}

// DefaultConfig returns the configuration used for unset fields.
func DefaultConfig() Config {
	return Config{
		VPICURL:   DefaultVPICURL,
		NHTSAURL:  DefaultNHTSAURL,
		Timeout:   DefaultTimeout,
		CacheTTL:  DefaultCacheTTL,
		Retries:   DefaultRetries,
		RetryWait: DefaultRetryWait,
		UserAgent: "vds",
	}
}

func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if strings.TrimSpace(c.VPICURL) == "" {
		c.VPICURL = d.VPICURL
	}
	if strings.TrimSpace(c.NHTSAURL) == "" {
		c.NHTSAURL = d.NHTSAURL
	}
	// A trailing slash would give "//", which some servers reject.
	c.VPICURL = strings.TrimRight(strings.TrimSpace(c.VPICURL), "/")
	c.NHTSAURL = strings.TrimRight(strings.TrimSpace(c.NHTSAURL), "/")
	if c.Timeout <= 0 {
		c.Timeout = d.Timeout
	}
	if c.CacheTTL <= 0 {
		c.CacheTTL = d.CacheTTL
	}
	switch {
	case c.Retries == 0:
		c.Retries = d.Retries
	case c.Retries < 0:
		c.Retries = 0
	}
	if c.RetryWait <= 0 {
		c.RetryWait = d.RetryWait
	}
	if c.UserAgent == "" {
		c.UserAgent = d.UserAgent
	}
	if c.Observer == nil {
		c.Observer = noObserver{}
	}
	return c
}

// Meta says where an answer came from; Stale: NHTSA failed and an expired entry was served.
type Meta struct {
	Stale bool
	// FetchedAt is when NHTSA answered (for a cache hit, when the entry was stored).
	FetchedAt time.Time
	FromCache bool
}

// StaleWarning is the Warning header (RFC 7234 §5.5) of an answer from an expired entry.
const StaleWarning = `110 vds "Response is Stale"`

// Warning returns StaleWarning when Stale, else "" (no header).
func (m Meta) Warning() string {
	if m.Stale {
		return StaleWarning
	}
	return ""
}

// Sentinel kinds of *Error. Missing arguments (empty VIN, make or model) are
// caller bugs and not *Error.
var (
	// ErrUpstreamUnavailable: unreachable, timed out, throttled or 5xx (503 upstream_unavailable).
	ErrUpstreamUnavailable = errors.New("upstream unavailable")
	// ErrUpstreamBad: an answer vds cannot use, or a 4xx (502 upstream_error).
	ErrUpstreamBad = errors.New("upstream returned an unusable answer")
)

// Error is the error type of this package.
type Error struct {
	// Kind is ErrUpstreamUnavailable or ErrUpstreamBad; Status is 0 without an answer.
	Kind     error
	Upstream string
	Status   int
	Err      error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Upstream)
	b.WriteString(": ")
	b.WriteString(e.Kind.Error())
	if e.Status != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	}
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Is matches the Kind, so errors.Is(err, ErrUpstreamUnavailable) works.
func (e *Error) Is(target error) bool { return target == e.Kind }

func (e *Error) Unwrap() error { return e.Err }

func unavailable(upstream string, status int, err error) *Error {
	return &Error{Kind: ErrUpstreamUnavailable, Upstream: upstream, Status: status, Err: err}
}

func bad(upstream string, status int, err error) *Error {
	return &Error{Kind: ErrUpstreamBad, Upstream: upstream, Status: status, Err: err}
}

// Client fetches and caches NHTSA data; safe for concurrent use.
type Client struct {
	cfg   Config
	cache Cache // nil: no caching
	log   *slog.Logger
	http  *resty.Client
	group singleflight.Group
	memo  memo // ratings, read on every car recall answer
}

// New returns a Client; a nil cache caches nothing (fetches are still shared), a nil log discards.
func New(cfg Config, cache Cache, log *slog.Logger) *Client {
	cfg = cfg.withDefaults()
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	log = log.With("component", "upstream")
	return &Client{
		cfg:   cfg,
		cache: cache,
		log:   log,
		http:  newRestyClient(cfg, log),
	}
}

// Config returns the effective configuration.
func (c *Client) Config() Config { return c.cfg }

// newHTTPTransport is our own, so tuning it cannot affect other packages.
func newHTTPTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 16
	return t
}
