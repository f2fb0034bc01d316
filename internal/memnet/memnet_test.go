package memnet_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/vds-dev/vds/internal/memnet"
)

// TestServerInBubble: a request to a handler that sleeps an hour answers
// at once in real time and after exactly an hour of bubble time; a closed
// server refuses connections.
func TestServerInBubble(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		s := memnet.NewServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			time.Sleep(time.Hour)
			_, _ = io.WriteString(w, r.URL.Path)
		}))
		start := time.Now()
		resp, err := s.Client().Get(s.URL + "/hello")
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil || string(body) != "/hello" || time.Since(start) != time.Hour {
			t.Fatalf("body %q, %v after %v; want /hello after 1h", body, err, time.Since(start))
		}
		s.Close()
		if _, err := s.DialContext(context.Background(), "tcp", "memnet.test:80"); !errors.Is(err, net.ErrClosed) {
			t.Errorf("dial after Close: %v, want net.ErrClosed", err)
		}
	})
}
