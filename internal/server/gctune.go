package server

import (
	"context"
	"log/slog"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// With GOGC=100 a cycle starts once the heap grew by as much as is live.
// vds's live heap is small and its garbage rate high, so under load the
// default collects many times a second, and the mark phases set the tail
// latency. So the heap may fill the headroom before a cycle: it grows by
// the headroom less what is live, and by at least half the live heap, so
// that a full-size catalog does not double the resident memory; under a
// Go memory limit the headroom is at most half of it.

// gcTuneEvery is how often the live heap is read (a few µs). At start the
// percentage is set from the heap's size, garbage of the catalog load
// included, so it is too low until the first read after a collection:
// read every 10 s, a server under load from its start collected several
// times a second for those 10 s.
const gcTuneEvery = time.Second

// Bounds of the percentage: for a tiny live heap (a test store), and for
// a live heap as large as the headroom or more.
const (
	maxGCPercent = 10000
	minGCPercent = 50
)

// gcPercent is the GOGC that lets a heap with live bytes reach
// max(headroom, 1.5 × live) before the next cycle.
func gcPercent(live, headroom uint64) int {
	if live == 0 {
		return maxGCPercent
	}
	if live >= headroom {
		return minGCPercent
	}
	return int(min(max(minGCPercent, (headroom-live)*100/live), maxGCPercent))
}

// limitedHeadroom caps headroom at half the Go memory limit, when one is
// set (GOMEMLIMIT, or from the container's): the collector's goal then
// stays clear of the limit, which only has to bound a burst.
func limitedHeadroom(headroom uint64, limit int64) uint64 {
	if limit > 0 && limit < math.MaxInt64 {
		return min(headroom, uint64(limit)/2)
	}
	return headroom
}

// heapSizes reads the heap the last cycle left live and the heap's size
// now, garbage included.
func heapSizes() (live, now uint64) {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// liveHeap reads the heap the last cycle left live or, before the first,
// the heap's current size (an overestimate, so conservative).
func liveHeap() uint64 {
	live, now := heapSizes()
	if live > 0 {
		return live
	}
	return now
}

// tuneGC keeps the collector's percentage at gcPercent(live heap,
// headroom) until ctx ends, then restores it. GOGC set, or headroom 0,
// changes nothing.
func tuneGC(ctx context.Context, headroom uint64, log *slog.Logger) {
	if headroom == 0 {
		return
	}
	if v, ok := os.LookupEnv("GOGC"); ok {
		log.Info("GOGC is set; server.gc_headroom_mb is not applied", "GOGC", v)
		return
	}
	// The last cycle may have run before the catalog loaded: the first
	// figure takes the heap's size now when larger, so a server under load
	// from its first second does not grow its heap past the headroom.
	// SetMemoryLimit(-1) reads the limit without changing it.
	live, now := heapSizes()
	set := gcPercent(max(live, now), limitedHeadroom(headroom, debug.SetMemoryLimit(-1)))
	before := debug.SetGCPercent(set)
	defer debug.SetGCPercent(before)
	log.Debug("collector tuned", "gc_percent", set, "headroom_mb", headroom>>20)
	onTick(ctx, gcTuneEvery, func() {
		// Only a change of a tenth or more is applied: each call
		// recomputes the collector's pacing.
		if p := gcPercent(liveHeap(), limitedHeadroom(headroom, debug.SetMemoryLimit(-1))); p*10 < set*9 || p*10 > set*11 {
			set = p
			debug.SetGCPercent(set)
			log.Debug("collector tuned", "gc_percent", set, "headroom_mb", headroom>>20)
		}
	})
}
