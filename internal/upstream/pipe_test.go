package upstream

import (
	"net/http"
	"testing"

	"github.com/vds-dev/vds/internal/memnet"
)

// pipeFake is a fake served in memory, for tests in a synctest bubble: a
// loopback socket would stop the bubble's clock. Start it in the bubble.
type pipeFake struct {
	*fake
	s *memnet.Server
}

// newPipeFake moves newFake's counting handler from its loopback server
// to an in-memory one.
func newPipeFake(t *testing.T, h http.Handler) pipeFake {
	t.Helper()
	f := newFake(t, h)
	f.Close()
	s := memnet.NewServer(t, f.Config.Handler)
	f.Server = s.Server
	return pipeFake{f, s}
}

// client is newTestClient with its own transport dialling the fake.
func (p pipeFake) client(t *testing.T, cfg Config, cache Cache) *Client {
	t.Helper()
	c := newTestClient(t, cfg, cache)
	c.http.GetClient().Transport.(*http.Transport).DialContext = p.s.DialContext
	return c
}
