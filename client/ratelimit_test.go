package client

import (
	"context"
	"net/http"
	"testing"
	"time"
)

func TestParseRateInfo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		header map[string]string
		want   RateInfo
	}{
		{
			name: "both windows",
			header: map[string]string{
				"X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "59", "X-RateLimit-Reset": "1795000000",
				"X-Quota-Limit": "1000", "X-Quota-Used": "17", "X-Quota-Remaining": "983", "X-Quota-Reset": "1796083200",
			},
			want: RateInfo{Limit: 60, Remaining: 59, Reset: time.Unix(1795000000, 0).UTC(),
				QuotaLimit: 1000, QuotaUsed: 17, QuotaRemaining: 983, QuotaReset: time.Unix(1796083200, 0).UTC(),
				HasRate: true, HasQuota: true},
		},
		{
			name:   "rate only (unlimited quota)",
			header: map[string]string{"X-RateLimit-Limit": "600", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1795000060"},
			want:   RateInfo{Limit: 600, Remaining: 0, Reset: time.Unix(1795000060, 0).UTC(), HasRate: true},
		},
		{
			name:   "quota only, large counters",
			header: map[string]string{"X-Quota-Limit": "250000", "X-Quota-Used": "9000000000", "X-Quota-Remaining": "0", "X-Quota-Reset": "1796083200"},
			want:   RateInfo{QuotaLimit: 250000, QuotaUsed: 9000000000, QuotaReset: time.Unix(1796083200, 0).UTC(), HasQuota: true},
		},
		{
			name:   "none (unauthenticated answer)",
			header: map[string]string{},
			want:   RateInfo{},
		},
		{
			name:   "malformed limit drops the window",
			header: map[string]string{"X-RateLimit-Limit": "lots", "X-RateLimit-Remaining": "3"},
			want:   RateInfo{},
		},
		{
			name:   "malformed companion keeps the window",
			header: map[string]string{"X-RateLimit-Limit": " 10 ", "X-RateLimit-Remaining": "x", "X-RateLimit-Reset": ""},
			want:   RateInfo{Limit: 10, HasRate: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for k, v := range tt.header {
				h.Set(k, v)
			}
			if got := ParseRateInfo(h); got != tt.want {
				t.Errorf("ParseRateInfo =\n%+v\nwant\n%+v", got, tt.want)
			}
		})
	}
}

// TestRateInfoOnResponses checks the headers reach pages and CaptureInfo.
func TestRateInfoOnResponses(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/cars" {
			writeBody(w, carListBody)
			return
		}
		writeBody(w, env(meJSON))
	})
	c := f.client()
	want := RateInfo{Limit: 60, Remaining: 59, Reset: time.Unix(testRateReset, 0).UTC(),
		QuotaLimit: 1000, QuotaUsed: 17, QuotaRemaining: 983, QuotaReset: time.Unix(testQuotaReset, 0).UTC(),
		HasRate: true, HasQuota: true}
	p, err := c.ListCars(context.Background(), CarQuery{Make: "Toyota"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Rate != want || p.RequestID != testRequestID {
		t.Errorf("page rate = %+v, id %q", p.Rate, p.RequestID)
	}
	var info ResponseInfo
	if _, err := c.Me(context.Background(), CaptureInfo(&info)); err != nil {
		t.Fatal(err)
	}
	if info.Rate != want || info.RequestID != testRequestID || info.Header.Get("RateLimit-Policy") == "" {
		t.Errorf("info = %+v", info)
	}
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	tests := []struct {
		value  string
		want   time.Duration
		wantOK bool
	}{
		{"", 0, false},
		{"1", time.Second, true},
		{" 30 ", 30 * time.Second, true},
		{"0", 0, true},
		{"-5", 0, false},
		{"soon", 0, false},
		{"Sat, 21 Nov 2026 10:00:45 GMT", 45 * time.Second, true},
		{"Sat, 21 Nov 2026 09:00:00 GMT", 0, true},
		{"99999999999999999", time.Duration(int64(^uint64(0)>>1) / int64(time.Second) * int64(time.Second)), true},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			h := http.Header{}
			if tt.value != "" {
				h.Set("Retry-After", tt.value)
			}
			got, ok := parseRetryAfter(h, now)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("parseRetryAfter(%q) = %v, %v; want %v, %v", tt.value, got, ok, tt.want, tt.wantOK)
			}
		})
	}
}
