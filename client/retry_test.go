package client

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/go-resty/resty/v2"
)

// failThen answers the first n requests with status (and Retry-After when
// retryAfter is not empty), then with body.
func failThen(n int32, status int, retryAfter string, body string) (http.HandlerFunc, *atomic.Int32) {
	var calls atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) <= n {
			if retryAfter != "" {
				w.Header().Set("Retry-After", retryAfter)
			}
			writeProblem(w, status, `{"type":"urn:vds:problem:x","title":"`+http.StatusText(status)+`","status":`+strconv.Itoa(status)+`,"detail":"try again","instance":"/v1/cars","code":"x","request_id":"r"}`)
			return
		}
		writeBody(w, body)
	}, &calls
}

// The retry tests run in synctest bubbles on an in-memory fake: backoff and
// Retry-After take no real time, and the waits they assert are exact.

func TestRetryOn5xxThenSuccess(t *testing.T) {
	t.Parallel()
	for _, status := range []int{500, 502, 503, 504} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				h, calls := failThen(2, status, "", carListBody)
				f := newPipeFake(t, h)
				p, err := f.client().ListCars(context.Background(), CarQuery{Make: "Toyota", Page: 2})
				if err != nil {
					t.Fatalf("ListCars: %v", err)
				}
				if calls.Load() != 3 || p.Attempts != 3 {
					t.Errorf("server saw %d attempts, info says %d; want 3", calls.Load(), p.Attempts)
				}
				if len(p.Data) != 2 || p.Data[0].Make != "Toyota" {
					t.Errorf("data = %+v", p.Data)
				}
				// resty rebuilds the URL on each attempt; a duplicated parameter
				// would be rejected by the server's strict parsing.
				for i, r := range f.requests() {
					if r.RawQuery != "make=Toyota&page=2" {
						t.Errorf("attempt %d query = %q", i+1, r.RawQuery)
					}
					if r.Header.Get("Authorization") != "Bearer "+testToken {
						t.Errorf("attempt %d lost the token", i+1)
					}
				}
			})
		})
	}
}

func TestRetriesExhausted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		opts    []Option
		wantTry int32
	}{
		{"default", nil, 1 + DefaultRetries},
		{"WithRetries(4)", []Option{WithRetries(4)}, 5},
		{"WithRetries(0)", []Option{WithRetries(0)}, 1},
		{"negative is zero", []Option{WithRetries(-3)}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				h, calls := failThen(100, http.StatusServiceUnavailable, "", "")
				f := newPipeFake(t, h)
				var info ResponseInfo
				_, err := f.client(tt.opts...).CarMakes(context.Background(), CaptureInfo(&info))
				var apiErr *APIError
				if !errors.As(err, &apiErr) || apiErr.Status != 503 {
					t.Fatalf("err = %v, want the last 503", err)
				}
				if calls.Load() != tt.wantTry || info.Attempts != int(tt.wantTry) {
					t.Errorf("attempts = %d (info %d), want %d", calls.Load(), info.Attempts, tt.wantTry)
				}
			})
		})
	}
}

func TestNoRetryOn4xx(t *testing.T) {
	t.Parallel()
	for _, status := range []int{400, 401, 403, 404, 405, 422} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				h, calls := failThen(100, status, "1", "")
				f := newPipeFake(t, h)
				start := time.Now()
				_, err := f.client(WithRetries(5)).GetCar(context.Background(), carUUID)
				var apiErr *APIError
				if !errors.As(err, &apiErr) || apiErr.Status != status {
					t.Fatalf("err = %v", err)
				}
				if calls.Load() != 1 {
					t.Errorf("%d attempts, want 1", calls.Load())
				}
				if d := time.Since(start); d != 0 {
					t.Errorf("took %v: a 4xx must not wait", d)
				}
			})
		})
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		h, calls := failThen(1, http.StatusTooManyRequests, "1", env(makesJSON))
		f := newPipeFake(t, h)
		start := time.Now()
		makes, err := f.client().CarMakes(context.Background())
		elapsed := time.Since(start)
		if err != nil {
			t.Fatalf("CarMakes: %v", err)
		}
		if calls.Load() != 2 || len(makes) != 2 {
			t.Errorf("attempts = %d, makes = %v", calls.Load(), makes)
		}
		if elapsed != time.Second {
			t.Errorf("retried after %v, want the 1s of Retry-After: 1", elapsed)
		}
	})
}

// TestRetryAfterOverCap checks that a wait longer than the cap (a monthly
// quota, a long rate window) comes back at once with RetryAfter set.
func TestRetryAfterOverCap(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		status     int
		retryAfter string
		opts       []Option
		want       time.Duration
	}{
		{"429 over default cap", 429, "60", nil, 60 * time.Second},
		{"503 over default cap", 503, "3600", nil, time.Hour},
		{"429 over custom cap", 429, "2", []Option{WithMaxRetryAfter(time.Second)}, 2 * time.Second},
		{"cap zero never waits", 429, "1", []Option{WithMaxRetryAfter(0)}, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				h, calls := failThen(100, tt.status, tt.retryAfter, "")
				f := newPipeFake(t, h)
				start := time.Now()
				_, err := f.client(tt.opts...).CarMakes(context.Background())
				var apiErr *APIError
				if !errors.As(err, &apiErr) || apiErr.RetryAfter != tt.want {
					t.Fatalf("err = %#v, want RetryAfter %v", err, tt.want)
				}
				if calls.Load() != 1 {
					t.Errorf("%d attempts, want 1", calls.Load())
				}
				if d := time.Since(start); d != 0 {
					t.Errorf("took %v, want no wait", d)
				}
			})
		})
	}
}

func TestRetryOnNetworkError(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		f := newPipeFake(t, func(w http.ResponseWriter, r *http.Request) {
			if calls.Add(1) == 1 {
				// Drop the connection without an answer.
				conn, _, err := http.NewResponseController(w).Hijack()
				if err != nil {
					t.Errorf("hijack: %v", err)
					return
				}
				_ = conn.Close()
				return
			}
			writeBody(w, env(makesJSON))
		})
		makes, err := f.client().CarMakes(context.Background())
		if err != nil || len(makes) != 2 || calls.Load() != 2 {
			t.Errorf("CarMakes = %v, %v after %d attempts; want success after 2", makes, err, calls.Load())
		}
	})
}

func TestRetryOnAttemptTimeout(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		f := newPipeFake(t, func(w http.ResponseWriter, r *http.Request) {
			if calls.Add(1) == 1 {
				select {
				case <-r.Context().Done():
				case <-time.After(2 * time.Second):
				}
				return
			}
			writeBody(w, env(makesJSON))
		})
		start := time.Now()
		makes, err := f.client(WithTimeout(100 * time.Millisecond)).CarMakes(context.Background())
		if err != nil || len(makes) != 2 || calls.Load() != 2 {
			t.Errorf("CarMakes = %v, %v after %d attempts; want success after 2", makes, err, calls.Load())
		}
		if d := time.Since(start); d < 100*time.Millisecond || d > 200*time.Millisecond {
			t.Errorf("took %v, want the 100ms timeout and a backoff of at most 5ms", d)
		}
	})
}

func TestNetworkErrorAfterRetries(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		// A closed server: every attempt is refused.
		f := newPipeFake(t, func(w http.ResponseWriter, r *http.Request) {})
		f.srv.Close()
		var info ResponseInfo
		_, err := f.client().Me(context.Background(), CaptureInfo(&info))
		if err == nil {
			t.Fatal("no error from a closed server")
		}
		var apiErr *APIError
		if errors.As(err, &apiErr) {
			t.Errorf("transport failure reported as APIError: %v", err)
		}
		if info.Attempts != 1+DefaultRetries || info.StatusCode != 0 {
			t.Errorf("info = %+v", info)
		}
	})
}

func TestContextCancelStopsRetries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		ctx    func() (context.Context, context.CancelFunc)
		target error
	}{
		{"cancel", func() (context.Context, context.CancelFunc) {
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(150*time.Millisecond, cancel)
			return ctx, cancel
		}, context.Canceled},
		{"deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 150*time.Millisecond)
		}, context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			synctest.Test(t, func(t *testing.T) {
				// Retry-After 5 is under the cap, so the client would wait 5 s
				// between each of its 10 attempts if the context did not end it.
				h, calls := failThen(100, http.StatusServiceUnavailable, "5", "")
				f := newPipeFake(t, h)
				ctx, cancel := tt.ctx()
				defer cancel()
				start := time.Now()
				_, err := f.client(WithRetries(10)).CarMakes(ctx)
				if !errors.Is(err, tt.target) {
					t.Errorf("err = %v, want %v", err, tt.target)
				}
				if d := time.Since(start); d != 150*time.Millisecond {
					t.Errorf("returned after %v, want at the end of the context, 150ms", d)
				}
				if calls.Load() != 1 {
					t.Errorf("%d attempts, want 1", calls.Load())
				}
			})
		})
	}
}

func TestAlreadyCancelledContext(t *testing.T) {
	t.Parallel()
	f := newFake(t, func(w http.ResponseWriter, r *http.Request) { writeBody(w, env(makesJSON)) })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := f.client().CarMakes(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
	if f.count() != 0 {
		t.Errorf("%d requests sent with a cancelled context", f.count())
	}
}

func TestRetryDelay(t *testing.T) {
	t.Parallel()
	c := New("http://x", "", WithRetryWait(100*time.Millisecond, 800*time.Millisecond))
	resp := func(status int, retryAfter string, attempt int) *resty.Response {
		h := http.Header{}
		if retryAfter != "" {
			h.Set("Retry-After", retryAfter)
		}
		return &resty.Response{RawResponse: &http.Response{StatusCode: status, Header: h}, Request: &resty.Request{Attempt: attempt}}
	}
	tests := []struct {
		name     string
		resp     *resty.Response
		min, max time.Duration
	}{
		{"429 seconds", resp(429, "3", 1), 3 * time.Second, 3 * time.Second},
		{"503 seconds", resp(503, "2", 1), 2 * time.Second, 2 * time.Second},
		{"429 zero waits the minimum", resp(429, "0", 1), 100 * time.Millisecond, 100 * time.Millisecond},
		{"500 ignores Retry-After", resp(500, "9", 1), 50 * time.Millisecond, 100 * time.Millisecond},
		{"attempt 1", resp(503, "", 1), 50 * time.Millisecond, 100 * time.Millisecond},
		{"attempt 2", resp(502, "", 2), 100 * time.Millisecond, 200 * time.Millisecond},
		{"attempt 3", resp(502, "", 3), 200 * time.Millisecond, 400 * time.Millisecond},
		{"attempt 10 is capped", resp(502, "", 10), 400 * time.Millisecond, 800 * time.Millisecond},
		{"network error", &resty.Response{Request: &resty.Request{Attempt: 2}}, 100 * time.Millisecond, 200 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for range 50 {
				d, err := c.retryDelay(nil, tt.resp)
				if err != nil || d < tt.min || d > tt.max {
					t.Fatalf("retryDelay = %v, %v; want within [%v, %v]", d, err, tt.min, tt.max)
				}
			}
		})
	}
}

func TestShouldRetry(t *testing.T) {
	t.Parallel()
	c := New("http://x", "")
	resp := func(status int, retryAfter string) *resty.Response {
		h := http.Header{}
		if retryAfter != "" {
			h.Set("Retry-After", retryAfter)
		}
		return &resty.Response{RawResponse: &http.Response{StatusCode: status, Header: h}}
	}
	tests := []struct {
		name string
		resp *resty.Response
		err  error
		want bool
	}{
		{"200", resp(200, ""), nil, false},
		{"400", resp(400, ""), nil, false},
		{"404", resp(404, ""), nil, false},
		{"429 short", resp(429, "1"), nil, true},
		{"429 without Retry-After", resp(429, ""), nil, true},
		{"429 too long", resp(429, "11"), nil, false},
		{"500", resp(500, ""), nil, true},
		{"501", resp(501, ""), nil, false},
		{"503 too long", resp(503, "3600"), nil, false},
		{"transport error", &resty.Response{}, errors.New("connection reset"), true},
		{"request not built", nil, errors.New("parse url"), false},
		{"body too large", &resty.Response{}, resty.ErrResponseBodyTooLarge, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.shouldRetry(tt.resp, tt.err); got != tt.want {
				t.Errorf("shouldRetry = %v, want %v", got, tt.want)
			}
		})
	}
}
