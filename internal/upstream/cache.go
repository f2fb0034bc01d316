package upstream

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// Cache stores normalised upstream results. The store implements it so that
// all replicas share one cache; MemCache is an in-process implementation.
//
// GetCache returns ok=false for a missing key. Expiry is decided by the
// Client from storedAt, not by the Cache, because an expired entry is still
// wanted when the upstream fails.
type Cache interface {
	GetCache(ctx context.Context, key string) (value []byte, storedAt time.Time, ok bool, err error)
	PutCache(ctx context.Context, key string, value []byte, storedAt time.Time) error
}

// MemCache is a Cache in memory, for tests and single-process use. It never
// evicts: entries are small and keyed by what users look up, but a
// long-running multi-replica deployment should use the store.
type MemCache struct {
	mu sync.Mutex
	m  map[string]memEntry
}

type memEntry struct {
	value    []byte
	storedAt time.Time
}

// NewMemCache returns an empty MemCache.
func NewMemCache() *MemCache { return &MemCache{m: map[string]memEntry{}} }

// GetCache implements Cache.
func (m *MemCache) GetCache(_ context.Context, key string) ([]byte, time.Time, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.m[key]
	if !ok {
		return nil, time.Time{}, false, nil
	}
	return slices.Clone(e.value), e.storedAt, true, nil
}

// PutCache implements Cache.
func (m *MemCache) PutCache(_ context.Context, key string, value []byte, storedAt time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	// Copy: the caller may reuse its buffer.
	m.m[key] = memEntry{value: slices.Clone(value), storedAt: storedAt}
	return nil
}

// Keys returns the stored keys, sorted.
func (m *MemCache) Keys() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Sorted(maps.Keys(m.m))
}

// normKey builds a cache key from parts: trimmed, lower-cased, inner
// whitespace collapsed, so "Ford" / "FORD " / "ford" share one entry.
func normKey(prefix string, parts ...string) string {
	norm := make([]string, len(parts))
	for i, p := range parts {
		norm[i] = strings.ToLower(clean(p))
	}
	return prefix + strings.Join(norm, "|")
}

// clean trims s and collapses inner whitespace. Make and model are sent to
// NHTSA in this form (NHTSA ignores letter case) so that the request matches
// the cache key it is stored under.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// load returns the value for key: from the cache when fresh, otherwise from
// fetch (one in-flight fetch per key), falling back to an expired entry when
// the fetch fails or does not answer within the Timeout budget.
//
// The singleflight group carries the encoded JSON, not T, so that every
// waiter decodes its own copy and callers can never share (and race on)
// slices or pointers.
func load[T any](ctx context.Context, c *Client, upstream, key string, fetch func(context.Context) (T, error)) (T, Meta, error) {
	var zero T
	caller := ctx
	// The caller's budget covers everything it waits for: the cache read and
	// the fetch, whether it started that fetch or joined one under way.
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()

	staleRaw, staleAt, haveEntry := c.cacheGet(ctx, key)
	if haveEntry && c.fresh(staleAt) {
		var v T
		if err := json.Unmarshal(staleRaw, &v); err == nil {
			return v, Meta{FromCache: true, FetchedAt: staleAt}, nil
		}
		// An entry written by an older vds with another layout: refetch.
		c.log.Warn("undecodable cache entry ignored", "key", key)
		haveEntry = false
	}

	ch := c.group.DoChan(key, func() (res any, err error) {
		// A panic inside DoChan cannot be recovered by the caller and would
		// end the process, so turn it into an error here.
		defer func() {
			if p := recover(); p != nil {
				res, err = nil, bad(upstream, 0, fmt.Errorf("panic while decoding: %v", p))
			}
		}()
		// The fetch is shared by every waiter, so the first caller going away
		// must not cancel it for the others; it has a budget of its own, and
		// a result that arrives after everybody left still fills the cache.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(caller), c.cfg.Timeout)
		defer cancel()
		// Another flight (or replica) may have stored the entry between our
		// look-up and this flight starting.
		if raw, at, ok := c.cacheGet(fctx, key); ok && c.fresh(at) && json.Unmarshal(raw, new(T)) == nil {
			return flight{raw: raw, meta: Meta{FromCache: true, FetchedAt: at}}, nil
		}
		v, err := fetch(fctx)
		if err != nil {
			return nil, err
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, bad(upstream, 0, err)
		}
		now := time.Now()
		if c.cache != nil {
			if err := c.cache.PutCache(fctx, key, raw, now); err != nil {
				// Still a good answer; the next call will simply fetch again.
				c.log.Warn("cache write failed", "key", key, "err", err)
			}
		}
		return flight{raw: raw, meta: Meta{FetchedAt: now}}, nil
	})

	var err error
	select {
	case r := <-ch:
		if r.Err == nil {
			f := r.Val.(flight)
			var v T
			if err := json.Unmarshal(f.raw, &v); err != nil {
				return zero, Meta{}, bad(upstream, 0, err)
			}
			return v, f.meta, nil
		}
		err = r.Err
	case <-ctx.Done():
		err = unavailable(upstream, 0, ctx.Err())
	}

	if haveEntry {
		var v T
		if json.Unmarshal(staleRaw, &v) == nil {
			c.log.Warn("upstream failed, serving stale cache entry",
				"upstream", upstream, "key", key, "age", time.Since(staleAt).Round(time.Second), "err", err)
			return v, Meta{Stale: true, FromCache: true, FetchedAt: staleAt}, nil
		}
	}
	if caller.Err() != nil {
		// The caller went away or ran out of its own time; not an upstream problem.
		c.log.Debug("upstream wait abandoned", "upstream", upstream, "key", key, "err", err)
	} else {
		c.log.Warn("upstream fetch failed", "upstream", upstream, "key", key, "err", err)
	}
	return zero, Meta{}, err
}

// flight is what a singleflight call hands to its waiters.
type flight struct {
	raw  []byte
	meta Meta
}

// fresh reports whether an entry stored at storedAt is within the TTL. An
// entry from the future (clock skew between replicas) counts as fresh.
func (c *Client) fresh(storedAt time.Time) bool {
	return time.Since(storedAt) < c.cfg.CacheTTL
}

// cacheGet reads the cache, treating a cache error as a miss: a broken cache
// must degrade to "always fetch", not to an error for the user.
func (c *Client) cacheGet(ctx context.Context, key string) ([]byte, time.Time, bool) {
	if c.cache == nil {
		return nil, time.Time{}, false
	}
	raw, at, ok, err := c.cache.GetCache(ctx, key)
	if err != nil {
		c.log.Warn("cache read failed", "key", key, "err", err)
		return nil, time.Time{}, false
	}
	return raw, at, ok
}
