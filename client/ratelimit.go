package client

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RateInfo is the X-RateLimit-* and X-Quota-* state of a response; HasRate
// and HasQuota say which were sent.
type RateInfo struct {
	Limit          int
	Remaining      int
	Reset          time.Time
	QuotaLimit     int
	QuotaUsed      int64
	QuotaRemaining int64
	QuotaReset     time.Time
	HasRate        bool
	HasQuota       bool
}

// ParseRateInfo reads the rate-limit and quota headers; a window is present
// when its limit parses.
func ParseRateInfo(h http.Header) RateInfo {
	var ri RateInfo
	if n, ok := headerInt(h, "X-RateLimit-Limit"); ok {
		ri.HasRate = true
		ri.Limit = int(n)
		if n, ok := headerInt(h, "X-RateLimit-Remaining"); ok {
			ri.Remaining = int(n)
		}
		ri.Reset = headerUnix(h, "X-RateLimit-Reset")
	}
	if n, ok := headerInt(h, "X-Quota-Limit"); ok {
		ri.HasQuota = true
		ri.QuotaLimit = int(n)
		ri.QuotaUsed, _ = headerInt(h, "X-Quota-Used")
		ri.QuotaRemaining, _ = headerInt(h, "X-Quota-Remaining")
		ri.QuotaReset = headerUnix(h, "X-Quota-Reset")
	}
	return ri
}

func headerInt(h http.Header, name string) (int64, bool) {
	v := strings.TrimSpace(h.Get(name))
	if v == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

func headerUnix(h http.Header, name string) time.Time {
	n, ok := headerInt(h, name)
	if !ok {
		return time.Time{}
	}
	return time.Unix(n, 0).UTC()
}

// parseRetryAfter reads delay-seconds or an HTTP-date (RFC 9110).
func parseRetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		// Clamp so a hostile header cannot overflow the Duration.
		const maxSecs = int64(math.MaxInt64 / time.Second)
		return time.Duration(min(secs, maxSecs)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, t.Sub(now)), true
	}
	return 0, false
}
