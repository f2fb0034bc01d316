package requestlog_test

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/vds-dev/vds/internal/requestlog"
)

// recording keeps what the writer hands the store; fail makes the next
// transaction fail, down every one from that number (from 1) on, refuse a
// transaction holding a line it matches.
type recording struct {
	requestlog.Store
	mu      sync.Mutex
	fail    bool
	down    int
	refuse  func(requestlog.Entry) bool
	txs     int
	sizes   []int // of each transaction that was not failed: lines, counters
	entries []requestlog.Entry
	calls   map[requestlog.TokenPeriod]int64
}

// log starts a log writing to r.
func (r *recording) log() *requestlog.Log { return requestlog.New(r, slog.New(slog.DiscardHandler)) }

func (r *recording) AddRequests(_ context.Context, entries []requestlog.Entry, calls map[requestlog.TokenPeriod]int64, keep int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if keep != requestlog.Keep {
		panic("keep")
	}
	r.txs++
	if r.fail || r.down > 0 && r.txs >= r.down {
		r.fail = false
		return errors.New("database gone")
	}
	if r.refuse != nil && slices.ContainsFunc(entries, r.refuse) {
		return errors.New("invalid byte sequence")
	}
	r.sizes = append(r.sizes, len(entries), len(calls))
	r.entries = append(r.entries, entries...)
	if r.calls == nil {
		r.calls = map[requestlog.TokenPeriod]int64{}
	}
	for k, n := range calls {
		r.calls[k] += n
	}
	return nil
}

// TestQueueDropsAndClose: a full queue drops lines and counts them, but
// every request counts toward its token; Close writes what is queued, of
// a busy account only its newest Keep lines, in order.
func TestQueueDropsAndClose(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		rec := &recording{}
		l := rec.log()
		at := time.Date(2026, 5, 31, 23, 59, 0, 0, time.UTC)
		add := func(acc string, i int, unlisted bool) {
			l.Add(requestlog.Record{At: at, AccountID: acc, TokenID: "tok_" + acc, Channel: requestlog.REST,
				Operation: "GET /v1/me", Status: 200, RequestID: strconv.Itoa(i), Unlisted: unlisted})
		}
		// No tick comes in the bubble: its clock stands still while the test adds.
		for i := range 5 {
			add("b", i, false)
			add("b", i, true) // counted, not queued
		}
		for i := range requestlog.Queue - 5 + 3 {
			add("a", i, false)
		}
		l.Close()
		if l.Dropped() != 3 {
			t.Fatalf("dropped %d, want 3", l.Dropped())
		}
		var a, b []string
		for _, e := range rec.entries {
			if e.AccountID == "a" {
				a = append(a, e.RequestID)
			} else {
				b = append(b, e.RequestID)
			}
		}
		lastQueued := requestlog.Queue - 5 - 1
		if len(a) != requestlog.Keep || a[0] != strconv.Itoa(lastQueued-requestlog.Keep+1) || a[len(a)-1] != strconv.Itoa(lastQueued) {
			t.Fatalf("account a: %d lines from %s to %s; want the newest %d queued, %d to %d", len(a), a[0], a[len(a)-1], requestlog.Keep, lastQueued-requestlog.Keep+1, lastQueued)
		}
		if strings.Join(b, ",") != "0,1,2,3,4" {
			t.Fatalf("account b: lines %v, want 0 to 4 in order", b)
		}
		may := func(acc string) int64 {
			return rec.calls[requestlog.TokenPeriod{TokenID: "tok_" + acc, Period: "2026-05"}]
		}
		if may("a") != requestlog.Queue-5+3 || may("b") != 10 {
			t.Fatalf("calls counted %v, want %d for a and 10 for b in 2026-05", rec.calls, requestlog.Queue-5+3)
		}
	})
}

// TestConcurrentAddsLoseNothing: requests adding from many goroutines
// while the writer takes, writes and is flushed lose no line and no count,
// and each account's lines keep the order they were added in.
func TestConcurrentAddsLoseNothing(t *testing.T) {
	t.Parallel()
	rec := &recording{}
	l := rec.log()
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	// Fewer in all than the queue holds, so that none is dropped however
	// the writer falls behind; fewer per account than it keeps.
	const adders, each = 8, 400
	stop := make(chan struct{})
	var flushes sync.WaitGroup
	flushes.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				l.Flush(context.Background())
			}
		}
	})
	var adds sync.WaitGroup
	for g := range adders {
		acc := "acc" + strconv.Itoa(g)
		adds.Go(func() {
			for i := range each {
				l.Add(requestlog.Record{At: at, AccountID: acc, TokenID: "tok_" + acc, Channel: requestlog.REST,
					Operation: "GET /v1/me", Status: 200, RequestID: strconv.Itoa(i)})
			}
		})
	}
	adds.Wait()
	close(stop)
	flushes.Wait()
	l.Close()
	if l.Dropped() != 0 || l.Failed() != 0 {
		t.Fatalf("%d dropped, %d failed; want none", l.Dropped(), l.Failed())
	}
	next := map[string]int{}
	for _, e := range rec.entries {
		if e.RequestID != strconv.Itoa(next[e.AccountID]) {
			t.Fatalf("%s: line %s after %d; want each account's lines once, in order", e.AccountID, e.RequestID, next[e.AccountID])
		}
		next[e.AccountID]++
	}
	for g := range adders {
		acc := "acc" + strconv.Itoa(g)
		calls := rec.calls[requestlog.TokenPeriod{TokenID: "tok_" + acc, Period: "2026-11"}]
		if next[acc] != each || calls != each {
			t.Fatalf("%s: %d lines and %d calls written, want %d of each", acc, next[acc], calls, each)
		}
	}
}

// BenchmarkAdd measures what a request pays to log itself, from every
// core at once, and what the writer pays to take the line: each goroutine
// flushes after every 1,024 of its lines, so none is dropped.
func BenchmarkAdd(b *testing.B) {
	l := requestlog.New(discard{}, slog.New(slog.DiscardHandler))
	defer l.Close()
	r := requestlog.Record{At: time.Now(), AccountID: "acc_bench", TokenID: "tok_bench", Channel: requestlog.REST,
		Operation: "GET /v1/cars", Status: 200, RequestID: "0123456789abcdef01234567", Query: "make=Toyota"}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for n := 1; pb.Next(); n++ {
			l.Add(r)
			if n%1024 == 0 {
				l.Flush(context.Background())
			}
		}
	})
	if l.Dropped() != 0 {
		b.Fatalf("%d dropped", l.Dropped())
	}
}

// discard is a store that writes nothing.
type discard struct{ requestlog.Store }

func (discard) AddRequests(context.Context, []requestlog.Entry, map[requestlog.TokenPeriod]int64, int) error {
	return nil
}

// TestFailedWriteKeepsTheCounts: the lines of a failed write are lost,
// its token counts are written by the next one.
func TestFailedWriteKeepsTheCounts(t *testing.T) {
	t.Parallel()
	rec := &recording{fail: true}
	l := rec.log()
	defer l.Close()
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	l.Add(requestlog.Record{At: at, AccountID: "a", TokenID: "t", RequestID: "r1"})
	l.Flush(context.Background())
	l.Add(requestlog.Record{At: at, AccountID: "a", TokenID: "t", RequestID: "r2"})
	l.Flush(context.Background())
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.entries) != 1 || rec.entries[0].RequestID != "r2" || l.Failed() != 1 {
		t.Fatalf("entries %+v, %d failed; want r2 written and r1 lost", rec.entries, l.Failed())
	}
	if got := rec.calls[requestlog.TokenPeriod{TokenID: "t", Period: "2026-11"}]; got != 2 {
		t.Fatalf("calls %v, want both counted", rec.calls)
	}
}

// TestFlush: Flush writes what is queued at once, not at the next tick.
func TestFlush(t *testing.T) {
	t.Parallel()
	rec := &recording{}
	l := rec.log()
	defer l.Close()
	l.Add(requestlog.Record{At: time.Now(), AccountID: "acc_1", TokenID: "tok_1", RequestID: "r1"})
	l.Flush(context.Background())
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.entries) != 1 || rec.entries[0].RequestID != "r1" {
		t.Fatalf("after Flush: %+v", rec.entries)
	}
}

// lines returns the request ids written for the account, in order.
func (r *recording) lines(acc string) []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var ids []string
	for _, e := range r.entries {
		if e.AccountID == acc {
			ids = append(ids, e.RequestID)
		}
	}
	return ids
}

// count returns the calls written for a token in a month.
func (r *recording) count(token, period string) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[requestlog.TokenPeriod{TokenID: token, Period: period}]
}

// ids names the request ids from to to-1.
func ids(from, to int) string {
	var out []string
	for i := from; i < to; i++ {
		out = append(out, strconv.Itoa(i))
	}
	return strings.Join(out, ",")
}

// TestTakesEachTickWritesEverySecond: the writer takes the queue at every
// tick, so a second's records fit however much a tick's may; it holds the
// newest Keep lines of each account and writes them once WriteEvery has
// passed, in transactions of at most TxRows lines; Flush writes at once and
// starts the count of ticks again.
func TestTakesEachTickWritesEverySecond(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testTakesEachTickWritesEverySecond)
}

// tick lets the writer take one tick and waits until it is done.
func tick() {
	time.Sleep(requestlog.Every)
	synctest.Wait()
}

func testTakesEachTickWritesEverySecond(t *testing.T) {
	rec := &recording{}
	l := rec.log()
	defer l.Close()
	at := time.Date(2026, 7, 1, 8, 0, 0, 0, time.UTC)
	add := func(acc string, from, to int) {
		for i := from; i < to; i++ {
			l.Add(requestlog.Record{At: at, AccountID: acc, TokenID: "tok_" + acc, RequestID: strconv.Itoa(i)})
		}
	}
	last := func() string {
		got := rec.lines("a")
		return got[len(got)-1]
	}
	perWrite := int(requestlog.WriteEvery / requestlog.Every)
	if perWrite < 4 {
		t.Fatalf("WriteEvery is %d ticks; the test wants at least 4", perWrite)
	}
	// A full queue at each tick but the last before the write: five times
	// more than the queue holds in all.
	n := 0
	for range perWrite - 1 {
		add("a", n, n+requestlog.Queue)
		n += requestlog.Queue
		tick()
	}
	add("b", 0, 3)
	if got := rec.lines("a"); len(got) != 0 || l.Dropped() != 0 {
		t.Fatalf("after %d ticks: %d lines written, %d dropped; want none of either", perWrite-1, len(got), l.Dropped())
	}
	tick()
	if got := strings.Join(rec.lines("a"), ","); got != ids(n-requestlog.Keep, n) {
		t.Fatalf("after %d ticks account a has %d lines, want the newest %d, %d to %d", perWrite, len(rec.lines("a")), requestlog.Keep, n-requestlog.Keep, n-1)
	}
	if got := strings.Join(rec.lines("b"), ","); got != "0,1,2" {
		t.Fatalf("account b: lines %s, want 0,1,2", got)
	}
	if a, b := rec.count("tok_a", "2026-07"), rec.count("tok_b", "2026-07"); a != int64(n) || b != 3 {
		t.Fatalf("calls a %d, b %d; want %d and 3", a, b, n)
	}
	lines, counters := 0, 0
	for i := 0; i < len(rec.sizes); i += 2 {
		if rec.sizes[i] > requestlog.TxRows {
			t.Errorf("a transaction of %d lines, more than %d", rec.sizes[i], requestlog.TxRows)
		}
		lines, counters = lines+rec.sizes[i], counters+rec.sizes[i+1]
	}
	wantTxs := (requestlog.Keep + 3 + requestlog.TxRows - 1) / requestlog.TxRows
	if rec.txs != wantTxs || lines != requestlog.Keep+3 || counters != 2 {
		t.Errorf("%d transactions, %d lines, %d counters; want %d, %d and 2", rec.txs, lines, counters, wantTxs, requestlog.Keep+3)
	}

	tick()
	add("a", n, n+1)
	l.Flush(context.Background())
	if last() != strconv.Itoa(n) {
		t.Fatalf("after Flush the last line of a is %s, want %d", last(), n)
	}
	add("a", n+1, n+2)
	for range perWrite - 1 {
		tick()
	}
	if last() != strconv.Itoa(n) {
		t.Fatalf("%d ticks after Flush the last line of a is %s, want %d still", perWrite-1, last(), n)
	}
	tick()
	if last() != strconv.Itoa(n+1) {
		t.Fatalf("%d ticks after Flush the last line of a is %s, want %d", perWrite, last(), n+1)
	}
}

// TestBusyWritesPause: after a write of n lines the writer waits n/WriteRate
// before the next, at least WriteEvery and at most MaxWriteEvery, so a busy
// account's log is rewritten every 4 s; a quiet one's still every second.
func TestBusyWritesPause(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testBusyWritesPause)
}

func testBusyWritesPause(t *testing.T) {
	rec := &recording{}
	l := rec.log()
	defer l.Close()
	at := time.Date(2026, 7, 1, 8, 0, 0, 0, time.UTC)
	next := 0
	add := func(n int) {
		for range n {
			l.Add(requestlog.Record{At: at, AccountID: "a", TokenID: "tok_a", RequestID: strconv.Itoa(next)})
			next++
		}
	}
	// ticksToWrite adds n lines at once and counts the ticks until the
	// last of them is written.
	ticksToWrite := func(n int) int {
		add(n)
		want := strconv.Itoa(next - 1)
		for ticks := 1; ticks <= 100; ticks++ {
			tick()
			if got := rec.lines("a"); len(got) > 0 && got[len(got)-1] == want {
				return ticks
			}
		}
		t.Fatalf("line %s not written in 100 ticks", want)
		return 0
	}
	perTick := func(d time.Duration) int { return int(d / requestlog.Every) }
	if got := ticksToWrite(3000); got != perTick(requestlog.WriteEvery) {
		t.Fatalf("first write after %d ticks, want %d", got, perTick(requestlog.WriteEvery))
	}
	// That write held Keep lines: the next waits Keep/WriteRate, capped.
	busy := min(time.Duration(requestlog.Keep)*time.Second/requestlog.WriteRate, requestlog.MaxWriteEvery)
	if got := ticksToWrite(1); got != perTick(busy) {
		t.Fatalf("after writing %d lines the next write came %d ticks later, want %d", requestlog.Keep, got, perTick(busy))
	}
	if busy <= requestlog.WriteEvery {
		t.Fatalf("a busy log's pause %v is no longer than a quiet one's %v", busy, requestlog.WriteEvery)
	}
	// One line written: the pause is WriteEvery again.
	if got := ticksToWrite(1); got != perTick(requestlog.WriteEvery) {
		t.Fatalf("after writing 1 line the next write came %d ticks later, want %d", got, perTick(requestlog.WriteEvery))
	}
	if got := rec.count("tok_a", "2026-07"); got != 3002 {
		t.Fatalf("calls %d, want 3002", got)
	}
}

// TestFailedTransactionKeepsItsCounts: when the store goes down during a
// write, the transactions before stay written, a bounded number of retries
// fail and end the write, its other lines are lost, and the counts the
// failed transactions held are written by the next write: every count once.
func TestFailedTransactionKeepsItsCounts(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testFailedTransactionKeepsItsCounts)
}

func testFailedTransactionKeepsItsCounts(t *testing.T) {
	rec := &recording{down: 2}
	l := rec.log()
	defer l.Close()
	at := time.Date(2026, 2, 10, 9, 0, 0, 0, time.UTC)
	const tokens = 300 // more counters than one transaction takes
	for i := range requestlog.Keep {
		l.Add(requestlog.Record{At: at, AccountID: "a", TokenID: "t" + strconv.Itoa(i%tokens), RequestID: strconv.Itoa(i)})
	}
	l.Flush(context.Background())
	if got := strings.Join(rec.lines("a"), ","); got != ids(0, requestlog.TxRows) || l.Failed() != requestlog.Keep-requestlog.TxRows {
		t.Fatalf("written %d lines, %d failed; want the first transaction's %d written and the other %d lost",
			len(rec.lines("a")), l.Failed(), requestlog.TxRows, requestlog.Keep-requestlog.TxRows)
	}
	rec.mu.Lock()
	if rec.txs != 1+requestlog.MaxFailures {
		t.Errorf("%d transactions tried, want 1 and %d failed", rec.txs, requestlog.MaxFailures)
	}
	rec.down = 0
	rec.mu.Unlock()
	l.Flush(context.Background())
	var sum int64
	for i := range tokens {
		want := int64(requestlog.Keep / tokens)
		if i < requestlog.Keep%tokens {
			want++
		}
		got := rec.count("t"+strconv.Itoa(i), "2026-02")
		if got != want {
			t.Errorf("token t%d: %d calls written, want %d", i, got, want)
		}
		sum += got
	}
	if sum != requestlog.Keep || len(rec.lines("a")) != requestlog.TxRows {
		t.Fatalf("%d calls and %d lines written in all, want %d and %d", sum, len(rec.lines("a")), requestlog.Keep, requestlog.TxRows)
	}
}

// TestRefusedLineLosesOnlyItself: a transaction the store refuses for one
// of its lines is retried in halves, so only the refused lines are lost,
// the other accounts' lines and every count are written.
func TestRefusedLineLosesOnlyItself(t *testing.T) {
	rec := &recording{
		refuse: func(e requestlog.Entry) bool { return e.Operation == "poison" }}
	l := requestlog.NewStopped(rec, slog.New(slog.DiscardHandler))
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	poisoned := map[int]bool{0: true, 1: true, 137: true, 499: true}
	for i := range 500 {
		for _, acc := range []string{"victim", "attacker"} {
			op := "GET /v1/me"
			if acc == "attacker" && poisoned[i] {
				op = "poison"
			}
			l.Add(requestlog.Record{At: at, AccountID: acc, TokenID: "tok_" + acc, Operation: op, RequestID: strconv.Itoa(i)})
		}
	}
	l.FlushNow()
	var kept []string
	for i := range 500 {
		if !poisoned[i] {
			kept = append(kept, strconv.Itoa(i))
		}
	}
	if got := strings.Join(rec.lines("victim"), ","); got != ids(0, 500) {
		t.Errorf("victim's lines: %d written, want all 500", len(rec.lines("victim")))
	}
	if got := strings.Join(rec.lines("attacker"), ","); got != strings.Join(kept, ",") || l.Failed() != uint64(len(poisoned)) {
		t.Errorf("attacker's lines: %d written, %d failed; want all but the %d refused", len(rec.lines("attacker")), l.Failed(), len(poisoned))
	}
	if v, a := rec.count("tok_victim", "2026-03"), rec.count("tok_attacker", "2026-03"); v != 500 || a != 500 {
		t.Errorf("calls victim %d, attacker %d; want 500 each", v, a)
	}
}

// TestAddChecksText: an operation that is not plain text of at most
// MaxText bytes is logged as Unknown; a line with another such field is
// refused and counted as dropped; its call still counts.
func TestAddChecksText(t *testing.T) {
	rec := &recording{}
	l := requestlog.NewStopped(rec, slog.New(slog.DiscardHandler))
	at := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	add := func(id, op string) {
		l.Add(requestlog.Record{At: at, AccountID: "a", TokenID: "t", Channel: requestlog.MCP, Operation: op, RequestID: id})
	}
	long := strings.Repeat("x", requestlog.MaxText)
	for i, op := range []string{"list_makes", long, long + "x", "nul\x00", "\x1b[2Jclear", "bidi\u202e", "bad\xff", "tab\t", "<b>"} {
		add(strconv.Itoa(i), op)
	}
	add("nul\x00id", "list_makes")
	add(strings.Repeat("1", requestlog.MaxText+1), "list_makes")
	l.FlushNow()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var ops []string
	for _, e := range rec.entries {
		ops = append(ops, e.Operation)
		if err := e.Check(); err != nil {
			t.Errorf("line %s was written: %v", e.RequestID, err)
		}
	}
	want := []string{"list_makes", long, "unknown", "unknown", "unknown", "unknown", "unknown", "unknown", "unknown"}
	if !slices.Equal(ops, want) || l.Dropped() != 2 {
		t.Errorf("operations written %q, %d dropped; want %q and 2", ops, l.Dropped(), want)
	}
	if got := rec.calls[requestlog.TokenPeriod{TokenID: "t", Period: "2026-04"}]; got != 11 {
		t.Errorf("calls %d, want 11", got)
	}
}

// TestCloseWritesWhatIsHeld: Close writes the lines taken at earlier ticks
// and not yet written, and what is still queued.
func TestCloseWritesWhatIsHeld(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testCloseWritesWhatIsHeld)
}

func testCloseWritesWhatIsHeld(t *testing.T) {
	rec := &recording{}
	l := rec.log()
	at := time.Date(2026, 12, 31, 23, 0, 0, 0, time.UTC)
	add := func(acc string, from, to int) {
		for i := from; i < to; i++ {
			l.Add(requestlog.Record{At: at, AccountID: acc, TokenID: "tok_" + acc, RequestID: strconv.Itoa(i)})
		}
	}
	add("a", 0, 1500)
	add("b", 0, 2)
	tick()
	tick()
	add("b", 2, 4)
	if got := len(rec.lines("a")) + len(rec.lines("b")); got != 0 {
		t.Fatalf("%d lines written before Close, want none", got)
	}
	l.Close()
	if a, b := strings.Join(rec.lines("a"), ","), strings.Join(rec.lines("b"), ","); a != ids(500, 1500) || b != "0,1,2,3" {
		t.Fatalf("after Close a has %d lines, b has %s; want a's 500 to 1499 and b's 0 to 3", len(rec.lines("a")), b)
	}
	if a, b := rec.count("tok_a", "2026-12"), rec.count("tok_b", "2026-12"); a != 1500 || b != 4 {
		t.Fatalf("calls a %d, b %d; want 1500 and 4", a, b)
	}
}

// TestFit: any text becomes a field a store takes, and plain text stays.
func TestFit(t *testing.T) {
	long := strings.Repeat("a", 200)
	for _, tc := range []struct{ in, allow, want string }{
		{"make=Toyota", "", "make=Toyota"},
		{"make=Toyota&body=Truk", requestlog.QueryAllows, "make=Toyota&body=Truk"},
		{"make=Toyota&body=Truk", "", "make=Toyota?body=Truk"},
		{`body "Truk" is <b>`, "", "body `Truk` is ?b?"},
		{"\x1b[31mé", "", "?[31m??"},
		{long, "", long[:requestlog.MaxText-3] + "..."},
	} {
		got := requestlog.Fit(tc.in, tc.allow)
		if got != tc.want {
			t.Errorf("Fit(%q, %q) = %q, want %q", tc.in, tc.allow, got, tc.want)
		}
		if err := (requestlog.Entry{Detail: got}).Check(); tc.allow == "" && err != nil {
			t.Errorf("Fit(%q) = %q, which Check refuses: %v", tc.in, got, err)
		}
	}
	if err := (requestlog.Entry{Query: "a=1&b=2"}).Check(); err != nil {
		t.Errorf("a query with & is refused: %v", err)
	}
	if err := (requestlog.Entry{Detail: "a&b"}).Check(); err == nil {
		t.Error("a detail with & is taken")
	}
}

// TestPlainEveryByte: Plain takes exactly the printable ASCII bytes but
// the six that JSON, HTML or a shell quote would change; a query adds &.
func TestPlainEveryByte(t *testing.T) {
	for c := range 256 {
		s := string([]byte{byte(c)})
		want := c >= 0x20 && c <= 0x7e && !strings.Contains(`"'\<>&`, s)
		if got := requestlog.Plain(s) == nil; got != want {
			t.Errorf("Plain(%q) takes it: %v, want %v", s, got, want)
		}
		if got := (requestlog.Entry{Query: s}).Check() == nil; got != (want || c == '&') {
			t.Errorf("a query %q is taken: %v, want %v", s, got, want || c == '&')
		}
	}
}
