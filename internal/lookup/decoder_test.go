package lookup

import (
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/upstream"
	"github.com/vds-dev/vds/internal/upstream/upstreamtest"
	"github.com/vds-dev/vds/internal/vehicle"
)

type fakeSnapshot struct{ calls int }

func (f *fakeSnapshot) Decode(string) (upstream.VINResult, error) {
	f.calls++
	mk, model, year := "TESTMAKE", "Snapshot Model", 2021
	return upstream.VINResult{Make: &mk, Model: &model, ModelYear: &year, ErrorCodes: []string{"0"}}, nil
}
func (f *fakeSnapshot) Source() string   { return "vPIC snapshot 2026-02-17" }
func (f *fakeSnapshot) Since() time.Time { return time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC) }

// closedURL is an address nothing listens on.
func closedURL(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

// client asks NHTSA at base. No test here waits on a timeout (a closed
// port refuses at once), so it is long: on a loaded machine under the race
// detector the fake took over a second to answer.
func client(base string) *upstream.Client {
	return upstream.New(upstream.Config{VPICURL: base, NHTSAURL: base, Timeout: 30 * time.Second}, nil, slog.New(slog.DiscardHandler))
}

func TestDecoderModes(t *testing.T) {
	t.Parallel()
	fake := upstreamtest.New(t)
	closed := closedURL(t)
	for _, tc := range []struct {
		name, mode, upstream string
		snapshot             bool
		source, code         string
	}{
		{"auto prefers a loaded snapshot", "auto", closed, true, "vPIC snapshot 2026-02-17", ""},
		{"empty mode is auto", "", closed, true, "vPIC snapshot 2026-02-17", ""},
		{"auto without a snapshot asks vPIC", "auto", fake.URL, false, "NHTSA vPIC", ""},
		{"auto without a snapshot and vPIC down", "auto", closed, false, "", CodeUpstreamUnavailable},
		{"online ignores the snapshot", "online", fake.URL, true, "NHTSA vPIC", ""},
		{"online with vPIC down", "online", closed, true, "", CodeUpstreamUnavailable},
		{"offline never asks vPIC", "offline", fake.URL, true, "vPIC snapshot 2026-02-17", ""},
		{"offline without a snapshot", "offline", fake.URL, false, "", CodeUpstreamUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(vehicle.NewService(nil), client(tc.upstream), tc.mode, "")
			snap := &fakeSnapshot{}
			if tc.snapshot {
				s.SetOffline(snap)
			}
			r, _, err := s.DecodeVIN(t.Context(), upstreamtest.KnownVIN)
			if tc.code != "" {
				if vehicle.CodeOf(err) != tc.code {
					t.Fatalf("got %v, want %s", err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Source != tc.source {
				t.Errorf("source %q, want %q", r.Source, tc.source)
			}
			if asked := snap.calls > 0; asked != (tc.source != "NHTSA vPIC") {
				t.Errorf("snapshot asked %d times for source %q", snap.calls, r.Source)
			}
			if tc.source != "NHTSA vPIC" && !r.FetchedAt.Equal(snap.Since()) {
				t.Errorf("fetched_at %v, want the import time %v", r.FetchedAt, snap.Since())
			}
		})
	}
}
