package requestlog

import (
	"log/slog"
	"time"
)

// TxRows is txRows, for the tests.
const TxRows = txRows

// MaxFailures is maxFailures, for the tests.
const MaxFailures = maxFailures

// NewStopped is a log whose writer does not run: the test runs its steps.
func NewStopped(st Store, log *slog.Logger) *Log { return newLog(st, log) }

// Tick does what the writer does at a tick.
func (w *Log) Tick() { w.tick() }

// FlushNow does what the writer does for Flush.
func (w *Log) FlushNow() {
	w.take()
	w.write()
}

// NewTicked starts a log whose writer takes the queue at each value of
// tick instead of every Every, so that a test decides when.
func NewTicked(st Store, log *slog.Logger, tick <-chan time.Time) *Log {
	w := newLog(st, log)
	go w.run(tick)
	return w
}
