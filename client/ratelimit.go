package client

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RateInfo is the rate-limit and quota state the server reported with a
// response, read from the X-RateLimit-* and X-Quota-* headers.
//
// The server leaves a window's headers out when the plan makes that window
// unlimited, and sends none before authentication succeeds; HasRate and
// HasQuota say whether the corresponding fields were present, so a zero
// Remaining is never mistaken for "exhausted" when it only means "unknown".
type RateInfo struct {
	// Limit is the number of requests allowed per minute.
	Limit int
	// Remaining is the number of requests the per-minute window admits now.
	Remaining int
	// Reset is when the next unit of the per-minute window frees up.
	Reset time.Time
	// QuotaLimit is the number of charged calls allowed per calendar month.
	QuotaLimit int
	// QuotaUsed is the number of charged calls made this month.
	QuotaUsed int64
	// QuotaRemaining is QuotaLimit minus QuotaUsed.
	QuotaRemaining int64
	// QuotaReset is when the month's quota starts over (UTC month start).
	QuotaReset time.Time
	// HasRate reports that the per-minute headers were present.
	HasRate bool
	// HasQuota reports that the monthly quota headers were present.
	HasQuota bool
}

// ParseRateInfo reads the rate-limit and quota headers of a response. A
// window counts as present only when its limit header parses; a malformed
// companion header leaves that one field zero rather than discarding the
// window, because a partial answer is still useful for display.
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

// headerUnix reads a Unix-seconds timestamp; the zero time when absent.
func headerUnix(h http.Header, name string) time.Time {
	n, ok := headerInt(h, name)
	if !ok {
		return time.Time{}
	}
	return time.Unix(n, 0).UTC()
}

// parseRetryAfter reads a Retry-After header in either of its RFC 9110
// forms: delay-seconds or an HTTP-date. ok is false when it is absent or
// unreadable.
func parseRetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		// Clamp so a hostile or buggy header cannot overflow the Duration.
		const maxSecs = int64(math.MaxInt64 / time.Second)
		return time.Duration(min(secs, maxSecs)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, t.Sub(now)), true
	}
	return 0, false
}
