package limits

import (
	"sync/atomic"
	"time"
)

// Touch records a token's use, written on the next flush, mostly lock-free;
// a use within useGrain after the one recorded is not written: a busy
// token's requests on every core would each write one shared word.
func (l *Limiter) Touch(tokenID string, at time.Time) {
	v, ok := l.used.Load(tokenID)
	if !ok {
		v, _ = l.used.LoadOrStore(tokenID, new(atomic.Int64))
	}
	last := v.(*atomic.Int64)
	for n := at.UnixNano(); ; {
		prev := last.Load()
		if n-prev < int64(useGrain) || last.CompareAndSwap(prev, n) {
			return
		}
	}
}

func (l *Limiter) takeTouched() map[string]time.Time {
	out := map[string]time.Time{}
	l.used.Range(func(k, v any) bool {
		if n := v.(*atomic.Int64).Swap(0); n != 0 {
			out[k.(string)] = time.Unix(0, n).UTC()
		}
		return true
	})
	return out
}

// useGrain is how close a use may follow the one recorded and be left out,
// of a token (Touch) or an account (entry.active).
const useGrain = time.Millisecond
