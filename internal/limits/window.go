package limits

import "time"

const rateWindow = time.Minute

// slidingLog is one account's admissions in the last rateWindow, in a ring
// that grows up to the plan's limit.
type slidingLog struct {
	at    []int64 // Unix nanoseconds; a ring whose oldest entry is at start
	start int
	n     int
}

func (s *slidingLog) expire(now time.Time) {
	edge := now.Add(-rateWindow).UnixNano()
	for s.n > 0 && s.at[s.start] <= edge {
		s.start = (s.start + 1) % len(s.at)
		s.n--
	}
}

// admit records an admission at now unless limit admissions are in the
// window already (more than limit after the plan's limit was lowered).
func (s *slidingLog) admit(now time.Time, limit int) bool {
	s.expire(now)
	if s.n >= limit {
		return false
	}
	if s.n == len(s.at) || len(s.at) > limit {
		s.reshape(min(limit, max(8, 2*s.n)))
	}
	s.at[(s.start+s.n)%len(s.at)] = now.UnixNano()
	s.n++
	return true
}

// unadmit takes back the latest admission: the request was not admitted
// after all (the store failed).
func (s *slidingLog) unadmit() { s.n-- }

func (s *slidingLog) reshape(size int) {
	at := make([]int64, size)
	for i := range s.n {
		at[i] = s.at[(s.start+i)%len(s.at)]
	}
	s.at, s.start = at, 0
}

// freeAt is when the oldest admission leaves the window; now when it is empty.
func (s *slidingLog) freeAt(now time.Time) time.Time {
	if s.n == 0 {
		return now.UTC()
	}
	return time.Unix(0, s.at[s.start]).Add(rateWindow).UTC()
}
