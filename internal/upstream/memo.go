package upstream

import (
	"context"
	"sync"
	"time"
)

// Memo bounds: a replica re-reads the shared cache row at most every
// memoRecheck, so it serves another replica's newer fetch that much later at
// worst; memoMax entries (a few hundred bytes each) bound the memory.
const (
	memoRecheck = time.Minute
	memoMax     = 4096
)

// memo holds decoded answers in memory, so a hot key skips the cache read
// and the JSON decoding. The values are shared: callers must not modify them.
type memo struct {
	mu sync.RWMutex
	m  map[string]memoEntry
}

type memoEntry struct {
	v         any
	fetchedAt time.Time
	checked   time.Time
}

func (m *memo) get(key string, now time.Time) (memoEntry, bool) {
	m.mu.RLock()
	e, ok := m.m[key]
	m.mu.RUnlock()
	return e, ok && now.Sub(e.checked) < memoRecheck
}

// put replaces key's entry; when full it first drops an arbitrary one.
func (m *memo) put(key string, e memoEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil {
		m.m = map[string]memoEntry{}
	}
	if _, ok := m.m[key]; !ok && len(m.m) >= memoMax {
		for k := range m.m {
			delete(m.m, k)
			break
		}
	}
	m.m[key] = e
}

// loadMemo is load with the memo in front: a fresh answer read or fetched
// within memoRecheck is served from memory; a stale one is not kept, so the
// next request tries NHTSA again.
func loadMemo[T any](ctx context.Context, c *Client, upstream, service, key string, fetch func(context.Context) (T, error)) (T, Meta, error) {
	now := time.Now()
	if e, ok := c.memo.get(key, now); ok && c.fresh(e.fetchedAt) {
		c.cfg.Observer.UpstreamCached(service, false)
		return e.v.(T), Meta{FromCache: true, FetchedAt: e.fetchedAt}, nil
	}
	v, meta, err := load(ctx, c, upstream, service, key, fetch)
	if err == nil && !meta.Stale {
		c.memo.put(key, memoEntry{v: v, fetchedAt: meta.FetchedAt, checked: now})
	}
	return v, meta, err
}
