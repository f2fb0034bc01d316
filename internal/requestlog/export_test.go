package requestlog

import "log/slog"

// TxRows is txRows, for the tests.
const TxRows = txRows

// MaxFailures is maxFailures, for the tests.
const MaxFailures = maxFailures

// NewStopped is a log whose writer does not run: the test runs its steps.
func NewStopped(st Store, log *slog.Logger) *Log { return newLog(st, log) }

// FlushNow does what the writer does for Flush.
func (w *Log) FlushNow() {
	w.take()
	w.write()
}
