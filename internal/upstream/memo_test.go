package upstream

import (
	"context"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// countingCache counts the reads of the shared cache.
type countingCache struct {
	*MemCache
	reads atomic.Int64
}

func (c *countingCache) GetCache(ctx context.Context, key string) ([]byte, time.Time, bool, error) {
	c.reads.Add(1)
	return c.MemCache.GetCache(ctx, key)
}

// Ratings are served from memory, without reading the shared cache, and a
// row another replica writes is served once memoRecheck has passed.
func TestSafetyRatingsMemo(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		cache := &countingCache{MemCache: NewMemCache()}
		key := normKey("nhtsa:ratings:", "Jeep", "Wrangler", "2020")
		row := func(id string) {
			if err := cache.PutCache(ctx, key, []byte(`[{"vehicle_id":`+id+`}]`), time.Now()); err != nil {
				t.Fatal(err)
			}
		}
		c := newTestClient(t, testConfig("http://127.0.0.1:1"), cache)
		want := func(id int, reads int64) {
			t.Helper()
			got, meta, err := c.SafetyRatings(ctx, "Jeep", "Wrangler", 2020)
			if err != nil || len(got) != 1 || got[0].VehicleID != id || !meta.FromCache || meta.FetchedAt.IsZero() {
				t.Fatalf("ratings %+v, meta %+v, err %v; want vehicle %d from the cache", got, meta, err, id)
			}
			if n := cache.reads.Load(); n != reads {
				t.Errorf("%d cache reads, want %d", n, reads)
			}
		}
		row("1")
		want(1, 1)
		want(1, 1)
		time.Sleep(memoRecheck / 2)
		row("2") // another replica refreshed the row
		want(1, 1)
		time.Sleep(memoRecheck / 2)
		want(2, 2)
	})
}

func TestMemoBounded(t *testing.T) {
	t.Parallel()
	var m memo
	for i := range memoMax + 10 {
		m.put(string(rune(i)), memoEntry{v: i})
	}
	if n := len(m.m); n != memoMax {
		t.Errorf("%d entries, want at most %d", n, memoMax)
	}
}
