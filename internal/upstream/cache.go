package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"
	"sync"
	"time"
)

// Cache stores normalised upstream results (the store, shared by replicas).
// The Client decides expiry: an expired entry is still wanted when NHTSA fails.
type Cache interface {
	GetCache(ctx context.Context, key string) (value []byte, storedAt time.Time, ok bool, err error)
	PutCache(ctx context.Context, key string, value []byte, storedAt time.Time) error
}

// MemCache is a Cache in memory, for tests and single-process use; it never evicts.
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

func (m *MemCache) GetCache(_ context.Context, key string) ([]byte, time.Time, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.m[key]
	if !ok {
		return nil, time.Time{}, false, nil
	}
	return slices.Clone(e.value), e.storedAt, true, nil
}

func (m *MemCache) PutCache(_ context.Context, key string, value []byte, storedAt time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.m[key] = memEntry{value: slices.Clone(value), storedAt: storedAt}
	return nil
}

// Keys returns the stored keys, sorted.
func (m *MemCache) Keys() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Sorted(maps.Keys(m.m))
}

// normKey folds case and white space, so "Ford" and "FORD " share one entry.
func normKey(prefix string, parts ...string) string {
	norm := make([]string, len(parts))
	for i, p := range parts {
		norm[i] = strings.ToLower(clean(p))
	}
	return prefix + strings.Join(norm, "|")
}

// clean collapses white space; NHTSA ignores case, so the request matches its cache key.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// load serves key from a fresh cache entry, else one shared fetch per key,
// else an expired entry. The flight carries JSON, so waiters share nothing.
func load[T any](ctx context.Context, c *Client, upstream, service, key string, fetch func(context.Context) (T, error)) (T, Meta, error) {
	var zero T
	caller := ctx
	// The caller's budget covers the cache read and the fetch, its own or joined.
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()

	staleRaw, staleAt, haveEntry := c.cacheGet(ctx, key)
	if haveEntry && c.fresh(staleAt) {
		var v T
		if err := json.Unmarshal(staleRaw, &v); err == nil {
			c.cfg.Observer.UpstreamCached(service, false)
			return v, Meta{FromCache: true, FetchedAt: staleAt}, nil
		}
		// Written by an older vds with another layout: refetch.
		c.log.Warn("undecodable cache entry ignored", "key", key)
		haveEntry = false
	}

	ch := c.group.DoChan(key, func() (res any, err error) {
		// A panic inside DoChan would end the process: make it an error.
		defer func() {
			if p := recover(); p != nil {
				res, err = nil, bad(upstream, 0, fmt.Errorf("panic while decoding: %v", p))
			}
		}()
		// Shared by every waiter: the first leaving must not cancel it, and a late
		// result still fills the cache.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(caller), c.cfg.Timeout)
		defer cancel()
		// Another flight or replica may have stored it meanwhile.
		if raw, at, ok := c.cacheGet(fctx, key); ok && c.fresh(at) && json.Unmarshal(raw, new(T)) == nil {
			return flight{raw: raw, meta: Meta{FromCache: true, FetchedAt: at}}, nil
		}
		v, err := fetch(fctx)
		c.cfg.Observer.UpstreamFetch(service, fetchOutcome(err))
		if err != nil {
			return nil, err
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, bad(upstream, 0, err)
		}
		// Microseconds, as PostgreSQL keeps the time: the answer served from
		// the cache later says the same fetched_at as this one.
		now := time.Now().UTC().Truncate(time.Microsecond)
		if c.cache != nil {
			if err := c.cache.PutCache(fctx, key, raw, now); err != nil {
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
			if f.meta.FromCache {
				c.cfg.Observer.UpstreamCached(service, false)
			}
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
			c.cfg.Observer.UpstreamCached(service, true)
			return v, Meta{Stale: true, FromCache: true, FetchedAt: staleAt}, nil
		}
	}
	if caller.Err() != nil {
		// The caller went away or ran out of time; not an upstream problem.
		c.log.Debug("upstream wait abandoned", "upstream", upstream, "key", key, "err", err)
	} else {
		c.log.Warn("upstream fetch failed", "upstream", upstream, "key", key, "err", err)
	}
	return zero, Meta{}, err
}

// fetchOutcome classifies a fetch's error for the Observer.
func fetchOutcome(err error) string {
	var ne net.Error
	switch {
	case err == nil:
		return OutcomeOK
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return OutcomeTimeout
	}
	return OutcomeError
}

type flight struct {
	raw  []byte
	meta Meta
}

// fresh counts an entry from the future (replica clock skew) as fresh.
func (c *Client) fresh(storedAt time.Time) bool {
	return time.Since(storedAt) < c.cfg.CacheTTL
}

// cacheGet treats a cache error as a miss: a broken cache degrades to fetching.
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
