// Package upstream holds the clients for the public NHTSA services vds relies
// on: vPIC for VIN decoding, and api.nhtsa.gov for recalls and NCAP safety
// ratings.
//
// Every call goes through the same path: a look-up in a shared Cache (the
// store, so that replicas share what one of them fetched), then at most one
// in-flight fetch per cache key, with retries with jittered exponential
// backoff on network errors and 5xx answers, all within one deadline
// (Config.Timeout) that no caller waits beyond. Successful,
// normalised results are cached for Config.CacheTTL; failures never are. When
// the upstream fails and an expired entry exists, that entry is returned with
// Meta.Stale set so the HTTP layer can say so.
//
// Upstream bodies are decoded leniently (see lenient.go) because the NHTSA
// services have changed shape over the years and are inconsistent between
// endpoints: "Results" or "results", numbers sent as strings, empty strings
// for missing values, several date formats and even a misspelt field name.
//
// Errors are always *Error values; errors.Is(err, ErrUpstreamUnavailable) and
// errors.Is(err, ErrUpstreamBad) tell the HTTP layer whether to answer 503
// upstream_unavailable or 502 upstream_error.
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

// Default configuration values. The URLs are the real public services.
const (
	DefaultVPICURL   = "https://vpic.nhtsa.dot.gov/api"
	DefaultNHTSAURL  = "https://api.nhtsa.gov"
	DefaultTimeout   = 10 * time.Second
	DefaultCacheTTL  = 24 * time.Hour
	DefaultRetries   = 2
	DefaultRetryWait = 250 * time.Millisecond

	// MaxBodyBytes bounds how much of an upstream answer is read, so that a
	// broken or hostile upstream cannot exhaust memory. The largest real
	// answer we ask for (a DecodeVinValues row) is a few kilobytes.
	MaxBodyBytes = 8 << 20

	// UpstreamVPIC and UpstreamNHTSA name the services in *Error values and logs.
	UpstreamVPIC  = "vpic"
	UpstreamNHTSA = "nhtsa"
)

// Config configures a Client. The zero value of every field means "use the
// default"; see DefaultConfig.
type Config struct {
	// VPICURL is the vPIC API base, e.g. https://vpic.nhtsa.dot.gov/api.
	VPICURL string
	// NHTSAURL is the api.nhtsa.gov base used for recalls and safety ratings.
	NHTSAURL string
	// Timeout is the budget of one answer: every attempt (connecting,
	// headers and body), the backoff between them and, for safety ratings,
	// the whole walk. A retry is made only while the budget lasts, so an
	// attempt that hangs uses it up. A caller never waits longer, even
	// when it joined a fetch another caller started.
	Timeout time.Duration
	// CacheTTL is how long a successful answer is served from the cache
	// without asking the upstream again.
	CacheTTL time.Duration
	// Retries is the number of extra attempts after a network error or a 5xx
	// answer. Zero means DefaultRetries; a negative value disables retries
	// (zero cannot mean "none" because an unset config key must not turn
	// retries off).
	Retries int
	// RetryWait is the base of the exponential backoff between attempts
	// (jittered, capped at 8×RetryWait).
	RetryWait time.Duration
	// UserAgent is sent with every request; NHTSA asks API users to identify
	// themselves. Empty means "vds".
	UserAgent string
}

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

// withDefaults fills unset fields and normalises the base URLs.
func (c Config) withDefaults() Config {
	d := DefaultConfig()
	if strings.TrimSpace(c.VPICURL) == "" {
		c.VPICURL = d.VPICURL
	}
	if strings.TrimSpace(c.NHTSAURL) == "" {
		c.NHTSAURL = d.NHTSAURL
	}
	// Paths are appended with a leading slash, so a configured trailing
	// slash would otherwise produce "//" which some servers reject.
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
	return c
}

// Meta describes where an answer came from.
type Meta struct {
	// Stale is true when the upstream failed and an expired cache entry was
	// served instead; the HTTP layer adds "stale": true and a Warning header.
	Stale bool
	// FetchedAt is when the data was fetched from the upstream (for a cache
	// hit, when the entry was stored).
	FetchedAt time.Time
	// FromCache is true when the answer was read from the cache, fresh or stale.
	FromCache bool
}

// StaleWarning is the Warning header value (RFC 7234 §5.5, code 110
// "Response is Stale") for an answer served from an expired cache entry.
const StaleWarning = `110 vds "Response is Stale"`

// Warning returns the Warning header to send with the answer: StaleWarning
// when Stale, otherwise "" (send no header).
func (m Meta) Warning() string {
	if m.Stale {
		return StaleWarning
	}
	return ""
}

// Sentinel errors for errors.Is. Every error returned by a Client method is an
// *Error whose Kind is one of these, except for missing arguments (an empty
// VIN, make or model, a year below 1), which are caller bugs and rightly a 500.
var (
	// ErrUpstreamUnavailable: the upstream could not be reached, timed out,
	// throttled us or answered 5xx after all retries (HTTP 503
	// upstream_unavailable).
	ErrUpstreamUnavailable = errors.New("upstream unavailable")
	// ErrUpstreamBad: the upstream answered, but with something we cannot
	// use — malformed JSON, an unexpected shape, an oversized body or a 4xx
	// (HTTP 502 upstream_error).
	ErrUpstreamBad = errors.New("upstream returned an unusable answer")
)

// Error is the error type of this package.
type Error struct {
	// Kind is ErrUpstreamUnavailable or ErrUpstreamBad.
	Kind error
	// Upstream is UpstreamVPIC or UpstreamNHTSA.
	Upstream string
	// Status is the HTTP status of the last answer, 0 when there was none.
	Status int
	// Err is the underlying cause.
	Err error
}

// Error describes the failure for logs, e.g.
// "nhtsa: upstream unavailable (HTTP 503): answered Service Unavailable".
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

// Is reports whether target is the error's Kind, so that
// errors.Is(err, ErrUpstreamUnavailable) works through wrapping.
func (e *Error) Is(target error) bool { return target == e.Kind }

// Unwrap returns the cause, so errors.Is(err, context.DeadlineExceeded) works too.
func (e *Error) Unwrap() error { return e.Err }

func unavailable(upstream string, status int, err error) *Error {
	return &Error{Kind: ErrUpstreamUnavailable, Upstream: upstream, Status: status, Err: err}
}

func bad(upstream string, status int, err error) *Error {
	return &Error{Kind: ErrUpstreamBad, Upstream: upstream, Status: status, Err: err}
}

// Client fetches and caches NHTSA data. It is safe for concurrent use.
type Client struct {
	cfg   Config
	cache Cache // nil: no caching
	log   *slog.Logger
	http  *resty.Client
	group singleflight.Group
}

// New returns a Client. cache may be nil, in which case nothing is cached
// (concurrent identical calls are still collapsed into one fetch). log may be
// nil to discard logs.
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

// Config returns the effective configuration (defaults applied).
func (c *Client) Config() Config { return c.cfg }

// newHTTPTransport returns a transport of our own rather than
// http.DefaultTransport, so that tuning or closing idle connections here
// cannot affect other packages.
func newHTTPTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	// Bursts of cache misses go to one or two hosts; keep more than the
	// default two idle connections per host so they are reused.
	t.MaxIdleConnsPerHost = 16
	return t
}
