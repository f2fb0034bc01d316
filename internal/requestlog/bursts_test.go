//go:build unix

package requestlog_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/vds-dev/vds/internal/account"
	"github.com/vds-dev/vds/internal/requestlog"
	"github.com/vds-dev/vds/internal/store/sqlite"
	"golang.org/x/sys/unix"
)

// timedStore times each AddRequests: one transaction, which the writer's
// goroutine runs without yielding, so its CPU time is a burst that request
// goroutines wait behind. It counts the thread's CPU time, not the wall
// clock, which on a shared machine also counts the time others ran.
type timedStore struct {
	requestlog.Store
	mu                   sync.Mutex
	calls                int
	total, longest, wall time.Duration
	counting             bool
}

func (s *timedStore) AddRequests(ctx context.Context, entries []requestlog.Entry, calls map[requestlog.TokenPeriod]int64, keep int) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start, cpu := time.Now(), threadCPU()
	err := s.Store.AddRequests(ctx, entries, calls, keep)
	d, wall := threadCPU()-cpu, time.Since(start)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counting {
		s.calls++
		s.total += d
		s.longest = max(s.longest, d)
		s.wall = max(s.wall, wall)
	}
	return err
}

func threadCPU() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		panic(err)
	}
	return time.Duration(ts.Nano())
}

// BenchmarkWriteBursts feeds one account's log 50,000 records a second for
// 3 s and half a tick (so that the writes of the third second fall inside
// it), into a SQLite file whose log already holds Keep lines, and reports
// the CPU time of the writer's longest transaction (max-burst-ms), the
// longest on the wall clock (max-wall-ms), its database CPU time per second
// of load (write-ms/s) and its transactions a second (tx/s). One
// iteration is the whole load; run it with -benchtime=1x.
func BenchmarkWriteBursts(b *testing.B) {
	const rate, load = 50000, 3*time.Second + requestlog.Every/2
	for b.Loop() {
		ctx := context.Background()
		db, err := sqlite.Open(filepath.Join(b.TempDir(), "vds.db"))
		if err != nil {
			b.Fatal(err)
		}
		if err := db.Migrate(ctx); err != nil {
			b.Fatal(err)
		}
		acc := account.Account{ID: account.NewID("acc"), Email: "busy@example.com", Plan: "free", CreatedAt: time.Now().UTC()}
		_, hash, prefix := account.NewSecret()
		tok := account.Token{ID: account.NewID("tok"), AccountID: acc.ID, Name: "load", Prefix: prefix, Hash: hash,
			Scopes: []string{account.ScopeRead}, CreatedAt: acc.CreatedAt}
		if err := db.CreateAccount(ctx, acc); err != nil {
			b.Fatal(err)
		}
		if err := db.CreateToken(ctx, tok, 50); err != nil {
			b.Fatal(err)
		}
		record := func(i int) requestlog.Record {
			return requestlog.Record{At: time.Now(), AccountID: acc.ID, TokenID: tok.ID, Channel: requestlog.REST,
				Operation: "GET /v1/cars/{uuid}", RequestID: "req-" + strconv.Itoa(i), Status: 200, Duration: 300 * time.Microsecond}
		}
		full := make([]requestlog.Entry, requestlog.Keep)
		for i := range full {
			r := record(-i)
			full[i] = requestlog.Entry{AccountID: r.AccountID, TokenID: r.TokenID, At: r.At, Channel: r.Channel,
				Operation: r.Operation, Status: r.Status, Duration: r.Duration, RequestID: r.RequestID}
		}
		if err := db.AddRequests(ctx, full, nil, requestlog.Keep); err != nil {
			b.Fatal(err)
		}

		timed := &timedStore{Store: db, counting: true}
		l := requestlog.New(timed, slog.New(slog.DiscardHandler))
		start := time.Now()
		tick := time.NewTicker(time.Millisecond)
		added := 0
		for now := range tick.C {
			elapsed := now.Sub(start)
			if elapsed >= load {
				break
			}
			for want := int(elapsed.Seconds() * rate); added < want; added++ {
				l.Add(record(added))
			}
		}
		tick.Stop()
		timed.mu.Lock()
		timed.counting = false
		calls, total, longest, wall := timed.calls, timed.total, timed.longest, timed.wall
		timed.mu.Unlock()
		l.Close()
		db.Close()
		if l.Dropped() != 0 || l.Failed() != 0 {
			b.Fatalf("%d records dropped, %d lost to failed writes", l.Dropped(), l.Failed())
		}
		b.ReportMetric(float64(longest.Microseconds())/1000, "max-burst-ms")
		b.ReportMetric(float64(wall.Microseconds())/1000, "max-wall-ms")
		b.ReportMetric(float64(total.Microseconds())/1000/load.Seconds(), "write-ms/s")
		b.ReportMetric(float64(calls)/load.Seconds(), "tx/s")
		b.ReportMetric(float64(added)/load.Seconds(), "records/s")
	}
}
