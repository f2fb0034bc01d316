package server

import (
	"context"
	"log/slog"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestGCPercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live, headroom uint64
		want           int
	}{
		{live: 16 * mib, headroom: 256 * mib, want: 1500}, // fill the headroom
		{live: 128 * mib, headroom: 256 * mib, want: 100}, // as much as is live
		{live: 192 * mib, headroom: 256 * mib, want: 50},  // a full-size catalog: by half
		{live: 1024 * mib, headroom: 256 * mib, want: 50}, // never below half the live heap
		{live: 1 * mib, headroom: 256 * mib, want: 10000}, // bounded for a tiny heap
		{live: 0, headroom: 256 * mib, want: 10000},
		{live: 100 * mib, headroom: 150 * mib, want: 50},
		{live: 50 * mib, headroom: 150 * mib, want: 200},
	} {
		if got := gcPercent(c.live, c.headroom); got != c.want {
			t.Errorf("gcPercent(%d MiB, %d MiB) = %d, want %d", c.live/mib, c.headroom/mib, got, c.want)
		}
	}
}

func TestLimitedHeadroom(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		headroom uint64
		limit    int64
		want     uint64
	}{
		{256 * mib, math.MaxInt64, 256 * mib}, // no limit: Go's default
		{256 * mib, 1024 * mib, 256 * mib},
		{256 * mib, 300 * mib, 150 * mib}, // a small container
		{256 * mib, 0, 256 * mib},
	} {
		if got := limitedHeadroom(c.headroom, c.limit); got != c.want {
			t.Errorf("limitedHeadroom(%d MiB, %d) = %d MiB, want %d", c.headroom/mib, c.limit, got/mib, c.want/mib)
		}
	}
	// A live heap of 100 MiB under a 300 MiB limit grows by half its size,
	// not to the 256 MiB headroom.
	if got := gcPercent(100*mib, limitedHeadroom(256*mib, 300*mib)); got != 50 {
		t.Errorf("under a 300 MiB limit the percentage is %d, want 50", got)
	}
}

// TestTuneGC: the percentage follows the live heap while the server runs,
// GOGC in the environment wins, and the previous setting comes back.
func TestTuneGC(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	log := slog.New(slog.DiscardHandler)
	const headroom = 4 << 30 // far above any test heap: the bound applies

	run := func() (during int) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { tuneGC(ctx, headroom, log); close(done) }()
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			if during = gogc(); during != 100 {
				break
			}
			time.Sleep(time.Millisecond)
		}
		cancel()
		<-done
		return during
	}

	t.Setenv("GOGC", "")
	done := make(chan struct{})
	go func() { tuneGC(context.Background(), headroom, log); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("with GOGC set, tuneGC still runs")
	}
	if got := gogc(); got != 100 {
		t.Errorf("with GOGC set, the percentage became %d, want the operator's 100 kept", got)
	}
	t.Setenv("GOGC", "") // restores GOGC after the test
	os.Unsetenv("GOGC")
	if got, want := run(), gcPercent(liveHeap(), headroom); got != want || got != maxGCPercent {
		t.Errorf("tuned percentage %d, want %d (the bound)", got, want)
	}
	if now := gogc(); now != 100 {
		t.Errorf("after the server stopped the percentage is %d, want the previous 100", now)
	}
}

// gogc reads the collector's percentage in force.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}
